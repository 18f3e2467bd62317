"""The tournament floor and its store: the `Tournament` over SQLite (`service`, `store`), its commands,
the floor driving the live tables (`tables`, `table_clock`) and the TD's command line (`td`)."""
