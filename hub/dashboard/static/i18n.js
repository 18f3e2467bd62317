// tapis dashboard: French by default, English on the switch (saved in localStorage). French
// typography: a narrow no-break space (\u202f) before ":" ";" "?" "!".
"use strict";
const TEXTS = {
  fr: { store_down: "STOCKAGE EN PANNE\u202f: plus rien n'est enregistré ni acquitté, les tables gardent leurs événements",
        store_cause: "Cause technique (pour l'installateur)\u202f: ",
        room: "Salle", table: "Table", clock: "Horloge", login: "Connexion DT", logout: "Déconnexion",
        viewer: "spectateur", td: "directeur de tournoi", hand: "Donne", pot: "Pot", seat: "Siège",
        stack: "Tapis", bet: "Mise", cards: "Cartes", offline: "hors ligne", table_closed: "Table cassée",
        table_closed_why: "ses joueurs ont été répartis sur les autres tables", reader: "lecteur", button: "bouton",
        faults: "Incidents et décisions", no_faults: "Aucun incident", hand_replay: "La donne, carte par carte", hands_played: "Mains jouées", table_stats: "Statistiques", ack: "Vu", ack_all: "Tout marquer vu", decide: "Décider",
        acked_by: "vu par", decided: "décidé", refused: "sans suite", cancel_hand: "Annuler la donne",
        controls: "Commandes DT", pause: "Pause", resume: "Reprendre", dead_hands: "mains mortes",
        add_time: "Ajouter (min)", move: "Déplacer", eliminate: "Éliminer", penalty: "Pénalité",
        redraw: "Tirage table finale", player: "joueur", amount: "nombre", apply: "Valider",
        level: "Niveau", break: "Pause", blinds: "Blindes", ante: "ante", time_left: "Temps restant",
        next_break: "Prochaine pause", players_left: "Joueurs restants", average: "Tapis moyen",
        prize_pool: "Dotation", payouts: "Prix", paused: "HORLOGE ARRÊTÉE", on_break: "PAUSE",
        no_tournament: "Pas de tournoi en cours", waiting: "en attente de la table", street: "Tour",
        user: "Utilisateur", password: "Mot de passe", bad_login: "Utilisateur ou mot de passe incorrect",
        to_act: "à parler", sound: "Son", back_to_room: "Retour à la salle", live: "en direct",
        disconnected: "connexion perdue…", log: "Journal de la donne", next_level: "Niveau suivant",
        entries: "Entrées", winner: "Vainqueur", hand_for_hand: "MAIN PAR MAIN", final_table: "TABLE FINALE", folded: "couché", next_hand: "joue la donne suivante",
        reader_unknown: "?", reader_lost: "perdu", reader_fault: "en défaut", close: "Fermer", done: "fait",
        refused_by_hub: "Refusé par le hub", err_refused: "l'action n'a pas été faite", relogin: "Se reconnecter",
        err_hub_down: "Hub injoignable\u202f: l'action n'a pas été faite. Réessayez quand il répond.",
        hub_down: "Hub injoignable\u202f: l'action n'a pas été faite. Réessayez quand il répond.",
        err_session_expired: "Session DT perdue (le hub a redémarré ou la session a expiré)\u202f: l'action n'a pas été faite.",
        err_login_required: "Connexion DT nécessaire.", err_csrf: "Jeton de sécurité refusé\u202f: reconnectez-vous.",
        err_bad_login: "Utilisateur ou mot de passe incorrect",
        err_too_many_logins: "Trop de tentatives depuis cette adresse\u202f: attendez une minute.",
        err_bad_request: "Requête mal formée", err_unknown_fault: "Incident inconnu (trop ancien\u202f?)",
        err_not_decidable: "Plus rien à décider pour cet incident", err_already_decided: "Déjà décidé",
        err_not_an_option: "Ce choix n'est pas proposé par la décision",
        players: "Joueurs", search: "Rechercher un joueur", seating: "Plan de salle", moves: "Déplacements à faire",
        moves_again: "rappel\u202f: le hub a redémarré",
        no_moves: "Aucun déplacement", chips: "Jetons", status: "État", no_players: "Aucun joueur",
        alarm_blocked: "table bloquée", alarm_decision: "décision DT en attente",
        alarm_blocked_n: "tables bloquées", alarm_decision_n: "décisions DT en attente", alarm_sound: "Alarme",
        alarm_on: "activée", alarm_off: "coupée", alarms: "Alarmes",
        chips_in_play: "Jetons en jeu", level_length: "Durée du niveau", schedule: "Structure",
        late_reg_end: "Fin des inscriptions", reentries: "Ré-entrées", addons: "Add-ons", fullscreen: "Plein écran",
        exit_fullscreen: "Quitter le plein écran", late_reg_closed: "closes", min: "min", at_level: "fin du niveau",
        sound_on: "activé", sound_off: "coupé" },
  en: { store_down: "EVENT STORE DOWN: nothing is stored or acknowledged, the tables keep their events",
        store_cause: "Technical cause (for the installer): ",
        room: "Room", table: "Table", clock: "Clock", login: "TD login", logout: "Log out",
        viewer: "viewer", td: "tournament director", hand: "Hand", pot: "Pot", seat: "Seat",
        stack: "Stack", bet: "Bet", cards: "Cards", offline: "offline", table_closed: "Table broken up",
        table_closed_why: "its players were moved to the other tables", reader: "reader", button: "button",
        faults: "Faults and rulings", no_faults: "No faults", hand_replay: "The hand, card by card", hands_played: "Hands played", table_stats: "Statistics", ack: "Seen", ack_all: "Mark all seen", decide: "Decide",
        acked_by: "seen by", decided: "decided", refused: "not applied", cancel_hand: "Cancel the hand",
        controls: "TD controls", pause: "Pause", resume: "Resume", dead_hands: "dead hands",
        add_time: "Add (min)", move: "Move", eliminate: "Eliminate", penalty: "Penalty",
        redraw: "Final table redraw", player: "player", amount: "amount", apply: "Apply",
        level: "Level", break: "Break", blinds: "Blinds", ante: "ante", time_left: "Time left",
        next_break: "Next break", players_left: "Players left", average: "Average stack",
        prize_pool: "Prize pool", payouts: "Payouts", paused: "CLOCK PAUSED", on_break: "BREAK",
        no_tournament: "No tournament running", waiting: "waiting for the table", street: "Street",
        user: "User", password: "Password", bad_login: "Bad user or password",
        to_act: "to act", sound: "Sound", back_to_room: "Back to the room", live: "live",
        disconnected: "connection lost…", log: "Hand log", next_level: "Next level",
        entries: "Entries", winner: "Winner", hand_for_hand: "HAND FOR HAND", final_table: "FINAL TABLE", folded: "folded", next_hand: "plays from the next hand",
        reader_unknown: "?", reader_lost: "lost", reader_fault: "faulty", close: "Close", done: "done",
        refused_by_hub: "Refused by the hub", err_refused: "the action was not done", relogin: "Log in again",
        err_hub_down: "The hub does not answer: the action was not done. Try again when it does.",
        hub_down: "The hub does not answer: the action was not done. Try again when it does.",
        err_session_expired: "TD session lost (the hub restarted or the session expired): the action was not done.",
        err_login_required: "TD login required.", err_csrf: "Security token refused: log in again.",
        err_bad_login: "Bad user or password",
        err_too_many_logins: "Too many attempts from this address: wait a minute.",
        err_bad_request: "Malformed request", err_unknown_fault: "Unknown fault (too old?)",
        err_not_decidable: "Nothing left to decide for this fault", err_already_decided: "Already decided",
        err_not_an_option: "This choice is not one the ruling offers",
        players: "Players", search: "Search a player", seating: "Seating chart", moves: "Moves to make",
        moves_again: "reminder: the hub restarted",
        no_moves: "No moves", chips: "Chips", status: "Status", no_players: "No players",
        alarm_blocked: "table blocked", alarm_decision: "TD decision pending",
        alarm_blocked_n: "tables blocked", alarm_decision_n: "TD decisions pending", alarm_sound: "Alarm",
        alarm_on: "on", alarm_off: "muted", alarms: "Alarms",
        chips_in_play: "Chips in play", level_length: "Level length", schedule: "Schedule",
        late_reg_end: "Late registration ends", reentries: "Re-entries", addons: "Add-ons", fullscreen: "Full screen",
        exit_fullscreen: "Exit full screen", late_reg_closed: "closed", min: "min", at_level: "end of level",
        sound_on: "on", sound_off: "off" },
};
let LANG = localStorage.getItem("tapis.lang") || "fr";
if (!TEXTS[LANG]) LANG = "fr";
function t(key) { return (TEXTS[LANG] && TEXTS[LANG][key]) || TEXTS.fr[key] || key; }
// "{p} eliminated" with its values put in (text, never HTML); a value may be a function of the language.
function tf(key, values) {
  return t(key).replace(/\{(\w+)\}/g, (_, k) => {
    const v = values ? values[k] : undefined;
    return v === undefined ? "" : typeof v === "function" ? v() : v;
  });
}
function applyTexts(root) {
  document.documentElement.lang = LANG;
  (root || document).querySelectorAll("[data-t]").forEach(el => { el.textContent = t(el.dataset.t); });
  (root || document).querySelectorAll("[data-ph]").forEach(el => { el.placeholder = t(el.dataset.ph); });
  (root || document).querySelectorAll("[data-title]").forEach(el => { el.title = t(el.dataset.title); });
  (root || document).querySelectorAll("[data-l]").forEach(el => { el.textContent = label(el.dataset.l, el.value); });
  if (typeof drawWho === "function") drawWho();  // "spectateur" / "(directeur de tournoi)" follow the switch
}
function setLang(lang) {
  LANG = lang; localStorage.setItem("tapis.lang", lang); applyTexts();
  if (window.rerender) window.rerender();
  if (typeof changed === "function") changed("lang");
}
function langSwitch() {
  const b = document.getElementById("lang");
  if (!b) return;
  b.textContent = LANG === "fr" ? "EN" : "FR";
  b.addEventListener("click", () => { setLang(LANG === "fr" ? "en" : "fr"); b.textContent = LANG === "fr" ? "EN" : "FR"; });
}
