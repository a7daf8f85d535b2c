"""Run ``duel serve`` as a real child process (for restart, kill and
multi-process tests): ``server.process.child.ServeProcess`` with the tests' secret and rate limit."""

from __future__ import annotations

from pathlib import Path

from server.process import child

SECRET = "process-test-secret-0123456789abcdef"


class ServeProcess(child.ServeProcess):
    def __init__(self, workdir: Path, *extra: str, env: dict[str, str] | None = None) -> None:
        # the server's bot plays greedy (instant) unless a test names another policy (a later flag wins)
        super().__init__(workdir, "--rate-limit", "2000", "--bot-policy", "greedy", *extra, secret=SECRET, env=env)
