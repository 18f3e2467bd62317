"""Every hand on record (issue #32): a hand history per hand the hub plays, in the PHH standard.

`hand_record` turns one hand's hub events and stored facts into a record (pure); `phh_text` writes a
record as a PHH file, the TD's or the public one (pure); `store` keeps the records in the hub's event
store file; `recorder` writes each hand's record as it ends (the hub's listener); `cli` is `tapis hands`.
"""
