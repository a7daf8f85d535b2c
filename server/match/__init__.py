"""The match service: one writer per match, the position folded from its log (``live``,
``snapshots``), the chess clocks, what each watcher is sent (``views``), fan-out between
processes, match metadata and seats (``directory``) and the sealing of finished logs."""
