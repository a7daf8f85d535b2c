"""Session tokens: ``s1.<account id>.<session id>.<expires s>.<signature>``.

Like the seat tokens (server.lobby.tokens): the signature is HMAC-SHA256 over everything before
it, with a key derived from the server's secret (so every process of a deployment accepts the
tokens of the others, across restarts), base64url without padding, compared in constant time. A
token acts only for its account: the account id is inside what is signed.

Unlike a seat token, a session token **expires** (``expires s``, signed too) and can be **revoked**:
it is valid only while its session id is listed under its account in Redis
(``keys.account_sessions_key``), which ``logout`` clears (one session, or all of them).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
import secrets
import time
from dataclasses import dataclass

from server.storage.keys import ACCOUNT_ID_RE

VERSION = "s1"
SESSION_ID_RE = re.compile(r"[A-Za-z0-9_-]{16}")


class BadSession(Exception):
    """The token is malformed, its signature does not hold, or it has expired."""


@dataclass(frozen=True, slots=True)
class SessionClaim:
    account_id: str
    session_id: str
    expires_ms: int


def new_id() -> str:
    """A random id of 16 URL-safe characters (96 bits): accounts and sessions."""
    return secrets.token_urlsafe(12)


class SessionTokens:
    def __init__(self, secret: bytes) -> None:
        if len(secret) < 16:
            raise ValueError("the token secret must be at least 16 bytes")
        self._key = hmac.new(secret, b"account-sessions", hashlib.sha256).digest()

    def _sign(self, body: str) -> str:
        mac = hmac.new(self._key, body.encode(), hashlib.sha256).digest()
        return base64.urlsafe_b64encode(mac).rstrip(b"=").decode()

    def issue(self, account_id: str, session_id: str, expires_ms: int) -> str:
        if not ACCOUNT_ID_RE.fullmatch(account_id) or not SESSION_ID_RE.fullmatch(session_id):
            raise ValueError("bad account or session id")
        body = f"{VERSION}.{account_id}.{session_id}.{expires_ms // 1000}"
        return f"{body}.{self._sign(body)}"

    def verify(self, token: str, now_ms: int | None = None) -> SessionClaim:
        """The claim of a well-signed token that has not expired (revocation is the store's)."""
        parts = token.split(".")
        if len(parts) != 5 or parts[0] != VERSION:
            raise BadSession("malformed token")
        _, account_id, session_id, expires_text, signature = parts
        if (
            not ACCOUNT_ID_RE.fullmatch(account_id)
            or not SESSION_ID_RE.fullmatch(session_id)
            or not expires_text.isdigit()
            or len(expires_text) > 12
        ):
            raise BadSession("malformed token")
        expected = self._sign(f"{VERSION}.{account_id}.{session_id}.{expires_text}")
        if not hmac.compare_digest(expected.encode(), signature.encode()):
            raise BadSession("bad signature")
        expires_ms = int(expires_text) * 1000
        now = int(time.time() * 1000) if now_ms is None else now_ms
        if expires_ms <= now:
            raise BadSession("the token has expired")
        return SessionClaim(account_id, session_id, expires_ms)
