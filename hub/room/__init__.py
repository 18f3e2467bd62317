"""The room's live tables: one table's game at the hub (rules engine + rulings, `game`), the card view
each table shows when no game runs it (`tables`) and the TD's cancel of a hand (`hand_cancel`). Pure:
no IO, no clock."""
