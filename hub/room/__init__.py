"""The room's live tables: one table's game at the hub (rules engine + rulings, `game`) and the card
view each table shows when no game runs it (`tables`). Pure: no IO, no clock."""
