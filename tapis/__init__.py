"""`tapis`: the one command on top of the house. It dispatches each verb to its package's command line
(`table_agent.cli`, `hub.cli`, `simulators.cli`) and imports that package only when its verb is used."""
