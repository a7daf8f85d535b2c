"""The engine's machinery: what makes the rules fast without being part of them.

Copy-on-write states (``cow``), the state's digest (``hashing``), what is worked out from a
state once and kept with it (``caches``: ``Memo``, ``Board``, ``Roster``; ``memo``: the kept
values the rules ask for by name), one int object per id and passcode (``interning``), and the
model's fields written out for the compiled build (``fields``, checked against the model's
classes by tests/engine/test_state_copies.py and tests/engine/test_state_packer.py).

Rules modules never see any of it: they read ``engine.state``'s model and call plain functions
(``pending(s)``, ``legal_actions(s, seat)``, ``atk(s, card)``). What compiled code costs, and so
why this package looks the way it does: docs/adr/0008-compiled-engine.md. The layers:
docs/architecture.md.
"""
