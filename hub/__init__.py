"""The hub: follows every table of the room, rules its faults and runs the tournament.

`edge` (MQTT service, shards, security, embedded broker), `room` (each table's live game), `floor`
(the tournament floor and its store, the TD's command line), `rules` (betting engine), `rulings`
(what each rulebook makes of a fault), `tournament` (clock, seating, payouts), `dashboard` (the TD's
web screens), `cli` (`tapis hub`, `tapis tournament`, `tapis phh`). Talks to tables only through
`tablewire`.
"""
