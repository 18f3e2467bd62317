// tapis dashboard: the words for the hub's identifiers (fault kinds, rulings, streets, actions...), so no
// raw identifier reaches a page. Every id of ../shared/spec has a label in both languages (a test checks).
"use strict";
const LABELS = {
  fr: {
    fault: { boxed_card: "Feuille morte", exposed_card: "Carte retournée pendant la donne",
      card_to_empty_seat: "Carte donnée à un siège vide", wrong_deal_order: "Mauvais ordre de donne",
      seat_skipped: "Joueur oublié à la donne", extra_hole_card: "Carte en trop", missing_hole_card: "Carte manquante",
      flop_without_burn: "Flop sans brûlée", flop_two_burns: "Flop avec deux brûlées", flop_four_cards: "Flop à quatre cartes",
      premature_flop: "Flop prématuré", turn_without_burn: "Turn sans brûlée", river_without_burn: "River sans brûlée",
      premature_turn: "Turn prématurée", premature_river: "River prématurée", board_removed: "Board enlevé trop tôt",
      unknown_tag: "Carte inconnue", foreign_card: "Carte d'un autre paquet", mixed_decks: "Cartes des deux paquets",
      duplicate_card: "Carte en double", dead_card_in_hand: "Carte morte mêlée à une main",
      absent_player: "Joueur absent à la donne", out_of_turn: "Action avant son tour", time_expired: "Temps écoulé",
      time_request: "Demande de Time (au DT d'accorder)",
      insufficient_bet: "Mise insuffisante" },
    decision: { set_aside: "Carte mise de côté", misdeal: "Fausse donne", replace_with_burn: "Remplacée par la brûlée",
      continue: "Le coup continue", designate_burn: "1re carte du flop brûlée", burn_to_flop: "2e brûlée au flop",
      extra_card_burn: "Carte en trop brûlée", reshuffle_board: "Cartes communes remélangées", river_as_turn: "River donnée en turn",
      bottom_card: "Carte du bas du talon", burn_and_next: "Brûler et donner la suivante",
      burn_as_first: "Reprise comme 1re brûlée", hand_cancelled_bets_returned: "Coup annulé, mises rendues",
      hand_cancelled_pot_split: "Coup annulé, pot partagé", hand_dead: "Main morte",
      action_binding: "Action maintenue", action_released: "Action libérée", call_or_fold_only: "Suivre ou passer seulement",
      completed_to_min_raise: "Relance complétée au minimum", treated_as_call: "Vaut un simple suivi",
      td_decision: "Décision du directeur de tournoi", burn_premature: "Brûlée reposée, carte brûlée",
      card_kept: "Carte gardée par le donneur", ok: "D'accord", grant_time: "Time accordé",
      refuse_time: "Time refusé par le DT" },
    street: { preflop: "avant le flop", flop: "flop", turn: "turn", river: "river", showdown: "abattage", complete: "terminé" },
    status: { accepted: "acceptée", corrected: "corrigée", rejected: "refusée" },
    action: { fold: "passe", check: "parole", call: "suit", bet: "mise", raise: "relance", allin: "tapis",
      arrived: "arrivée", left: "retirée" },
    result: { showdown: "abattage", uncontested: "sans abattage", misdeal: "fausse donne", cancelled: "annulée" },
    deal_method: { chip_chop: "au prorata des jetons (chip chop)", icm: "ICM (chances de gain)", td: "fixé par le DT" },
    penalty: { warning: "Avertissement", missed_hands: "Mains de pénalité", missed_rounds: "Tours de pénalité",
      suspension: "Exclusion temporaire (min)", disqualification: "Disqualification" },
    player_status: { registered: "inscrit", seated: "assis", absent: "absent", moving: "à déplacer", out: "éliminé", waiting: "en attente",
      penalty: "sanctionné (joue mort)" },
    zone: { board: "cartes communes", burn: "brûlées", muck: "cartes jetées", tray: "cartes mortes", seat: "siège" },
    event: { card: "Carte", action: "Action", fault: "Incident", ruling: "Décision", hand_start: "Nouvelle donne",
      hand_end: "Fin de donne", table_status: "Table", reader_status: "Lecteur", decision_refused: "Décision refusée",
      td_decided: "Décision du DT", dealer: "Donneur", reader: "Lecteur", seat: "Siège", time: "Time demandé",
      time_refused: "Time refusé", time_request_lapsed: "Demande de Time caduque", dealer_refused: "Bouton du donneur refusé", cancel_refused: "Annulation refusée",
      hand_refused: "Donne refusée", table_idle: "Table au repos", table_closed: "Table cassée", table_seats: "Places mises à jour", floor_moves: "Déplacements", other: "Événement" },
    online: { true: "en ligne", false: "hors ligne" },
    move_reason: { balance: "équilibrage", break: "table cassée", td: "décision du DT", final: "tirage de la table finale",
      day: "tirage du jour suivant" },
    standing: { playing: "en jeu", registered: "inscrit, pas encore placé", winner: "vainqueur", out: "éliminé" },
  },
  en: {
    fault: { boxed_card: "Boxed card", exposed_card: "Card exposed during the deal",
      card_to_empty_seat: "Card dealt to an empty seat", wrong_deal_order: "Wrong deal order",
      seat_skipped: "Player skipped in the deal", extra_hole_card: "Extra hole card", missing_hole_card: "Missing hole card",
      flop_without_burn: "Flop without a burn", flop_two_burns: "Flop after two burns", flop_four_cards: "Four-card flop",
      premature_flop: "Premature flop", turn_without_burn: "Turn without a burn", river_without_burn: "River without a burn",
      premature_turn: "Premature turn", premature_river: "Premature river", board_removed: "Board removed too early",
      unknown_tag: "Unknown card", foreign_card: "Card from another deck", mixed_decks: "Cards of both decks",
      duplicate_card: "Duplicate card", dead_card_in_hand: "Dead card mixed with a hand",
      absent_player: "Player away at the deal", out_of_turn: "Action out of turn", time_expired: "Time expired",
      time_request: "Time request (the TD grants it)",
      insufficient_bet: "Insufficient bet" },
    decision: { set_aside: "Card set aside", misdeal: "Misdeal", replace_with_burn: "Replaced with the burn",
      continue: "The hand goes on", designate_burn: "First flop card burned", burn_to_flop: "Second burn to the flop",
      extra_card_burn: "Extra card burned", reshuffle_board: "Board reshuffled", river_as_turn: "River dealt as the turn",
      bottom_card: "Card from the bottom of the stub", burn_and_next: "Burn and deal the next",
      burn_as_first: "Taken back as the first burn", hand_cancelled_bets_returned: "Hand cancelled, bets returned",
      hand_cancelled_pot_split: "Hand cancelled, pot split", hand_dead: "Dead hand",
      action_binding: "Action stands", action_released: "Action released", call_or_fold_only: "Call or fold only",
      completed_to_min_raise: "Raise completed to the minimum", treated_as_call: "Counts as a call",
      td_decision: "Tournament director's decision", burn_premature: "Burn put back, card burned",
      card_kept: "Card kept by the dealer", ok: "OK", grant_time: "Time granted", refuse_time: "Time refused by the TD" },
    street: { preflop: "preflop", flop: "flop", turn: "turn", river: "river", showdown: "showdown", complete: "complete" },
    status: { accepted: "accepted", corrected: "corrected", rejected: "refused" },
    action: { fold: "fold", check: "check", call: "call", bet: "bet", raise: "raise", allin: "all-in",
      arrived: "arrived", left: "removed" },
    result: { showdown: "showdown", uncontested: "uncontested", misdeal: "misdeal", cancelled: "cancelled" },
    deal_method: { chip_chop: "chip chop (by chips)", icm: "ICM (by chances)", td: "set by the TD" },
    penalty: { warning: "Warning", missed_hands: "Penalty hands", missed_rounds: "Penalty rounds",
      suspension: "Suspension (min)", disqualification: "Disqualification" },
    player_status: { registered: "registered", seated: "seated", absent: "away", moving: "to move", out: "out", waiting: "waiting",
      penalty: "penalised (dealt dead)" },
    zone: { board: "board", burn: "burn", muck: "muck", tray: "dead cards", seat: "seat" },
    event: { card: "Card", action: "Action", fault: "Fault", ruling: "Ruling", hand_start: "New hand",
      hand_end: "Hand over", table_status: "Table", reader_status: "Reader", decision_refused: "Decision refused",
      td_decided: "TD's decision", dealer: "Dealer", reader: "Reader", seat: "Seat", time: "Time called",
      time_refused: "Time refused", time_request_lapsed: "Time request lapsed", dealer_refused: "Dealer's button refused", cancel_refused: "Cancel refused",
      hand_refused: "Hand refused", table_idle: "Table idle", table_closed: "Table broken up", table_seats: "Seats updated", floor_moves: "Moves", other: "Event" },
    online: { true: "online", false: "offline" },
    move_reason: { balance: "balancing", break: "table broken", td: "TD's move", final: "final table draw",
      day: "next day's draw" },
    standing: { playing: "still playing", registered: "registered, not seated yet", winner: "winner", out: "out" },
  },
};
// The label of an identifier; an id no table knows is shown as the group's generic word, never raw.
function label(group, id) {
  const mine = (LABELS[LANG] || LABELS.fr)[group] || {};
  if (id in mine) return mine[id];
  return (LABELS[LANG] || LABELS.fr).event.other;
}
// "7c" as the chips show it: 7♣ (rulings and logs name cards the short way).
function face(c) {
  if (!c || c === "?") return "??";
  const suit = c.slice(-1);
  return c.slice(0, -1).replace("T", "10") + ({ s: "♠", h: "♥", d: "♦", c: "♣" }[suit] || suit);
}
// French typography: a narrow no-break space before ":" (and ";", "?", "!"), none in English.
function colon() { return LANG === "fr" ? "\u202f: " : ": "; }
// The hub's own sentences (refusals, a cancelled hand) set in French typography too.
function typo(text) { return LANG === "fr" ? String(text).replace(/ ([:;?!])/g, "\u202f$1") : String(text); }
