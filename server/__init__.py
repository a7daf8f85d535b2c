"""The duel server: websockets sessions, the match service, the Redis event
store, fan-out between processes, and the ``duel`` command line."""
