// tapis dashboard: French by default, English on the switch (saved in localStorage).
"use strict";
const TEXTS = {
  fr: { store_down: "STOCKAGE EN PANNE : plus rien n'est enregistré ni acquitté, les tables gardent leurs événements",
    room: "Salle", table: "Table", clock: "Horloge", login: "Connexion DT", logout: "Déconnexion",
        viewer: "spectateur", td: "directeur de tournoi", hand: "Donne", pot: "Pot", seat: "Siège",
        stack: "Tapis", bet: "Mise", cards: "Cartes", offline: "hors ligne", reader: "lecteur",
        faults: "Incidents et décisions", no_faults: "Aucun incident", ack: "Vu", decide: "Décider",
        acked_by: "vu par", decided: "décidé", refused: "sans suite", cancel_hand: "Annuler la donne", controls: "Commandes DT", pause: "Pause", resume: "Reprendre",
        add_time: "Ajouter (min)", move: "Déplacer", eliminate: "Éliminer", penalty: "Pénalité",
        redraw: "Tirage table finale", player: "joueur", amount: "nombre", apply: "Valider",
        level: "Niveau", break: "Pause", blinds: "Blindes", ante: "ante", time_left: "Temps restant",
        next_break: "Prochaine pause", players_left: "Joueurs restants", average: "Tapis moyen",
        prize_pool: "Prize pool", payouts: "Prix", paused: "HORLOGE ARRÊTÉE", on_break: "PAUSE",
        no_tournament: "Pas de tournoi en cours", waiting: "en attente de la table", street: "Tour",
        user: "Utilisateur", password: "Mot de passe", bad_login: "Utilisateur ou mot de passe incorrect",
        to_act: "à parler", sound: "Son", back_to_room: "Retour à la salle", live: "en direct",
        disconnected: "connexion perdue…", log: "Journal de la donne", next_level: "Niveau suivant",
        entries: "Entrées", hand_for_hand: "MAIN PAR MAIN", final_table: "TABLE FINALE", folded: "couché",
        reader_unknown: "?", reader_lost: "perdu", reader_fault: "en défaut" },
  en: { store_down: "EVENT STORE DOWN: nothing is stored or acknowledged, the tables keep their events",
    room: "Room", table: "Table", clock: "Clock", login: "TD login", logout: "Log out",
        viewer: "viewer", td: "tournament director", hand: "Hand", pot: "Pot", seat: "Seat",
        stack: "Stack", bet: "Bet", cards: "Cards", offline: "offline", reader: "reader",
        faults: "Faults and rulings", no_faults: "No faults", ack: "Seen", decide: "Decide",
        acked_by: "seen by", decided: "decided", refused: "not applied", cancel_hand: "Cancel the hand", controls: "TD controls", pause: "Pause", resume: "Resume",
        add_time: "Add (min)", move: "Move", eliminate: "Eliminate", penalty: "Penalty",
        redraw: "Final table redraw", player: "player", amount: "amount", apply: "Apply",
        level: "Level", break: "Break", blinds: "Blinds", ante: "ante", time_left: "Time left",
        next_break: "Next break", players_left: "Players left", average: "Average stack",
        prize_pool: "Prize pool", payouts: "Payouts", paused: "CLOCK PAUSED", on_break: "BREAK",
        no_tournament: "No tournament running", waiting: "waiting for the table", street: "Street",
        user: "User", password: "Password", bad_login: "Bad user or password",
        to_act: "to act", sound: "Sound", back_to_room: "Back to the room", live: "live",
        disconnected: "connection lost…", log: "Hand log", next_level: "Next level",
        entries: "Entries", hand_for_hand: "HAND FOR HAND", final_table: "FINAL TABLE", folded: "folded",
        reader_unknown: "?", reader_lost: "lost", reader_fault: "faulty" },
};
let LANG = localStorage.getItem("tapis.lang") || "fr";
function t(key) { return (TEXTS[LANG] && TEXTS[LANG][key]) || TEXTS.fr[key] || key; }
function applyTexts(root) {
  document.documentElement.lang = LANG;
  (root || document).querySelectorAll("[data-t]").forEach(el => { el.textContent = t(el.dataset.t); });
  (root || document).querySelectorAll("[data-ph]").forEach(el => { el.placeholder = t(el.dataset.ph); });
}
function setLang(lang) { LANG = lang; localStorage.setItem("tapis.lang", lang); applyTexts(); if (window.rerender) window.rerender(); }
function langSwitch() {
  const b = document.getElementById("lang");
  if (!b) return;
  b.textContent = LANG === "fr" ? "EN" : "FR";
  b.addEventListener("click", () => { setLang(LANG === "fr" ? "en" : "fr"); b.textContent = LANG === "fr" ? "EN" : "FR"; });
}
