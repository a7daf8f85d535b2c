"""Limits: a token-bucket rate limit, per connection and per client address.

A connection may send ``rate_per_second`` frames per second (bursts of ``rate_burst``);
all the connections from one address together ``address_rate`` (bursts of twice that),
and one address may hold at most ``max_connections_per_address`` connections: opening
many connections does not multiply what one client may do. The server's own connections
(its bot players, server.lobby.bot_seats) have the address :data:`SERVER_OWNED`, which no budget
counts.
"""

from __future__ import annotations

import time

from websockets.datastructures import Headers

SERVER_OWNED = "(server)"
"""The address of a connection the server opened for one of its own seats (a bot): it counts
against no client address's connections or frames."""


class TokenBucket:
    """``rate`` frames per second on average, bursts up to ``burst``."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate = rate
        self.burst = burst
        self._tokens = burst
        self._at = time.monotonic()

    def full(self) -> bool:
        """Has the bucket refilled (forgetting it loses nothing)?"""
        return self._tokens + (time.monotonic() - self._at) * self.rate >= self.burst

    def take(self) -> bool:
        now = time.monotonic()
        self._tokens = min(self.burst, self._tokens + (now - self._at) * self.rate)
        self._at = now
        if self._tokens >= 1.0:
            self._tokens -= 1.0
            return True
        return False


class AddressLimits:
    """Shared budgets per client address (IP): a frame bucket and a connection count."""

    def __init__(self, rate: float, max_connections: int) -> None:
        self.rate = rate
        self.max_connections = max_connections
        self._buckets: dict[str, TokenBucket] = {}
        self._open: dict[str, int] = {}

    def full(self, address: str) -> bool:
        """Does ``address`` already hold the most connections allowed?"""
        return address != SERVER_OWNED and self._open.get(address, 0) >= self.max_connections

    def enter(self, address: str) -> None:
        if address != SERVER_OWNED:
            self._open[address] = self._open.get(address, 0) + 1

    def leave(self, address: str) -> None:
        if address == SERVER_OWNED:
            return
        n = self._open.get(address, 0) - 1
        if n <= 0:
            self._open.pop(address, None)
            self._buckets.pop(address, None)
        else:
            self._open[address] = n

    def take(self, address: str) -> bool:
        if address == SERVER_OWNED:
            return True
        bucket = self._buckets.get(address)
        if bucket is None:
            bucket = self._buckets[address] = TokenBucket(self.rate, 2 * self.rate)
        return bucket.take()


def forwarded_for(headers: Headers | None) -> str | None:
    """Every ``X-Forwarded-For`` line of a request as one list (a header sent twice means its
    values joined by commas, RFC 9110 5.3; ``Headers.get`` would raise on it)."""
    if headers is None:
        return None
    lines = headers.get_all("X-Forwarded-For")
    return ", ".join(lines) if lines else None


def client_address(peer: object, forwarded_for: str | None, trusted: tuple[str, ...]) -> str:
    """The client's address: the peer's, or, when the peer is a trusted proxy (an address or
    network in ``trusted``), the last hop it added to ``X-Forwarded-For``."""
    import ipaddress

    address = str(peer[0]) if isinstance(peer, tuple) and peer else "?"
    if not trusted or not forwarded_for:
        return address
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if any(ip in ipaddress.ip_network(net, strict=False) for net in trusted):
        last = forwarded_for.split(",")[-1].strip()
        return last or address
    return address
