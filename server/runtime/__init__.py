"""What every part of a server process uses and nothing of the server's own: metrics, logs,
token-bucket and per-address limits, the collector's tuning, and where the engine's modules
come from (``native``, installed before anything imports the engine)."""
