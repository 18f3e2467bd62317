"""The tournament as pure logic: structure and clock, seating, balancing and table breaks, penalties,
eliminations and payouts, as frozen events applied to a state (`tournament.Tournament`). No IO, no clock:
the floor (`hub.floor`) stores its events and feeds it time."""
