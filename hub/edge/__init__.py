"""The hub's network edge: the MQTT service every table talks to, hub workers (shards), the room's
broker users, ACL and TLS (`security`), and the private Mosquitto started when no broker is given."""
