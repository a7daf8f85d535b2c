"""The server process: its settings (``config``), start-up and drain (``app``), one websocket
connection (``session``), keepalive pings, the web client's files, and ``duel serve`` as a child
process. The top of the server: ``app`` builds the other packages' services in order and hands
each the narrow ones it uses (docs/architecture.md, "Server")."""
