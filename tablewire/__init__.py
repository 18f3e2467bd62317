"""What a table and the hub say to each other: the contract at the bottom of the house.

`wire` (MQTT topics and payload schemas), `faults` (the fault kinds, seating deadlines and ruling
decisions both sides name), `mqtt` (the MQTT link both sides use) and `broker_url` (`mqtt://host:port`).
Imports nothing of tapis's other packages: `table_agent` and `hub` meet here and nowhere else.
"""
