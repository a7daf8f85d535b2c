"""Clients of the duel protocol: the asyncio client, the bot policies and the bot that plays a
seat, the load generator of ``duel load``, and the terminal clients. They depend on
``protocol`` only, and on the engine's plain-text helpers (``engine.describe``) and card
scripts' effect labels; never on another server package (docs/architecture.md, "Server";
tests/test_import_rules_server.py)."""
