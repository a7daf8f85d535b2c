"""Seat tokens: ``v1.<match_id>.<seat>.<signature>``.

The signature is HMAC-SHA256 over ``v1.<match_id>.<seat>`` with the server
secret, base64url without padding.  A token acts only for its seat in its
match; nobody can make one without the secret.  The secret comes from the
environment variable ``DUEL_SECRET`` or, failing that, from the file
``secret`` in the data directory (created with mode 0600 on first use), so
that every server process of one deployment shares it and tokens survive
restarts.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
import secrets
from dataclasses import dataclass
from pathlib import Path

from server.storage.keys import MATCH_ID_RE

VERSION = "v1"


class BadToken(Exception):
    """The token is malformed or its signature does not match."""


@dataclass(frozen=True, slots=True)
class SeatClaim:
    match_id: str
    seat: int


def load_secret(data_dir: str | os.PathLike[str] | None) -> bytes:
    """The signing secret: ``$DUEL_SECRET``, else ``<data_dir>/secret``."""
    env = os.environ.get("DUEL_SECRET")
    if env:
        return env.encode()
    if data_dir is None:
        raise RuntimeError("set DUEL_SECRET or give a data directory for the secret file")
    path = Path(data_dir) / "secret"
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as fh:
            fh.write(secrets.token_hex(32))
    return path.read_text().strip().encode()


class SeatTokens:
    def __init__(self, secret: bytes) -> None:
        if len(secret) < 16:
            raise ValueError("the token secret must be at least 16 bytes")
        self._secret = secret

    def _sign(self, body: str) -> str:
        mac = hmac.new(self._secret, body.encode(), hashlib.sha256).digest()
        return base64.urlsafe_b64encode(mac).rstrip(b"=").decode()

    def issue(self, match_id: str, seat: int) -> str:
        if seat not in (0, 1) or not MATCH_ID_RE.fullmatch(match_id):
            raise ValueError("bad seat or match id")
        body = f"{VERSION}.{match_id}.{seat}"
        return f"{body}.{self._sign(body)}"

    def alias_key(self, match_id: str) -> bytes:
        """The key of a match's per-viewer card aliases (engine.aliases): derived from the
        secret, so that every process serving the match names cards alike and no client
        can compute another viewer's aliases."""
        return hmac.new(self._secret, f"aliases.{match_id}".encode(), hashlib.sha256).digest()

    def replay_key(self) -> bytes:
        """The key this deployment signs replay files with (server.history.replay_file)."""
        return hmac.new(self._secret, b"replay-files", hashlib.sha256).digest()

    def match_id_for(self, request_id: str) -> str:
        """The match a lobby request creates: a function of its request id, so that a
        retried request finds the match its first attempt created (12 URL-safe characters,
        never starting with ``-``)."""
        mac = hmac.new(self._secret, f"match.{request_id}".encode(), hashlib.sha256).digest()
        text = base64.urlsafe_b64encode(mac).rstrip(b"=").decode()
        return ("m" + text[1:12]) if text.startswith("-") else text[:12]

    def verify(self, token: str) -> SeatClaim:
        parts = token.split(".")
        if len(parts) != 4 or parts[0] != VERSION:
            raise BadToken("malformed token")
        _, match_id, seat_text, signature = parts
        if not MATCH_ID_RE.fullmatch(match_id) or seat_text not in ("0", "1"):
            raise BadToken("malformed token")
        expected = self._sign(f"{VERSION}.{match_id}.{seat_text}")
        if not hmac.compare_digest(expected, signature):
            raise BadToken("bad signature")
        return SeatClaim(match_id, int(seat_text))
