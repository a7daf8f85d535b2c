"""The server process: its settings, start-up and drain (``app``), one websocket connection
(``session``) and the per-address limits, keepalive pings, the web client's files, metrics,
logs, the collector's tuning, where the engine's modules come from (``native``), and ``duel
serve`` as a child process. The top of the server: it builds the other packages' services and
hands each the narrow ones it uses (docs/architecture.md, "Server")."""
