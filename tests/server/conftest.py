"""The server tests' ``redis_url`` fixture lives in tests/conftest.py (shared with tests/faults)."""
