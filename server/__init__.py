"""The duel server: websockets sessions, the match service, the Redis event
store, fan-out between processes, and the ``duel`` command line."""

from server.runtime import native as _native

_native.install()  # before anything imports the engine: its compiled modules, when current
