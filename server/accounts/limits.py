"""What accounts may cost: the settings, and the limits on attempts to register or log in.

Three limits, each checked before any password is hashed or checked (PROTOCOL.md, "Accounts"):

* per connection: ``connection_attempts`` attempts (``register``, ``login``, ``login_token``) in a
  burst, then one every ``connection_every`` seconds;
* per client address, all its connections on this process together: ``address_per_minute`` a
  minute, in bursts of as many;
* per account name, on every process (counted in Redis): ``name_failures`` failed logins of one
  name from one address within ``name_window`` seconds lock that name's password logins from that
  address until the window ends (a correct password then too: whoever guesses cannot tell a hit
  from the lock); ``name_failures_all`` failures from every address together lock it everywhere
  (a guesser spread over many addresses). So one address guessing cannot lock the owner out,
  and a login that succeeds clears its own address's count. Logins by session token
  (``login_token``) take only from the connection's bucket: a signed token is not a guess.
"""

from __future__ import annotations

from dataclasses import dataclass

from server.runtime.limits import SERVER_OWNED, TokenBucket

MAX_TRACKED = 50_000
"""Addresses whose buckets are kept; beyond it the full ones are forgotten (they lose nothing)."""


@dataclass(frozen=True, slots=True)
class AccountSettings:
    session_days: float = 30.0  # how long a session token is valid
    hash_threads: int = 2  # password hashes run at once (server.accounts.passwords)
    hash_queue: int = 16  # ... and may wait for a thread; beyond: server/busy
    connection_attempts: int = 5  # attempts one connection may make in a burst
    connection_every: float = 10.0  # ... then one per this many seconds
    address_per_minute: int = 20  # attempts from one address a minute (bursts of as many)
    name_failures: int = 5  # failed logins of one name from one address ...
    name_failures_all: int = 100  # ... or from every address ...
    name_window: float = 900.0  # ... within this many seconds lock it (there, everywhere) until the window ends
    rating_delay: float = 0.0  # seconds between a rated match's end and its update (tests of the sweep)
    rated_sweep_every: float = 5.0  # seconds between each process's looks at the open rated matches
    rated_grace: float | None = 60.0  # a rated seat gone this long concedes (None: never)


class Attempts:
    """The per-connection and per-address buckets of one process."""

    def __init__(self, settings: AccountSettings) -> None:
        self.settings = settings
        self._addresses: dict[str, TokenBucket] = {}

    def connection_bucket(self) -> TokenBucket:
        s = self.settings
        return TokenBucket(1.0 / s.connection_every, s.connection_attempts)

    def take(self, connection: TokenBucket, address: str | None) -> str | None:
        """Take one attempt; None, or why it is refused (``address`` None: the connection's only)."""
        if not connection.take():
            every = self.settings.connection_every
            return f"at most {self.settings.connection_attempts} attempts on one connection, then one every {every:g} s"
        if address is None or address == SERVER_OWNED:
            return None
        bucket = self._addresses.get(address)
        if bucket is None:
            if len(self._addresses) >= MAX_TRACKED:
                for key in [k for k, b in self._addresses.items() if b.full()]:
                    del self._addresses[key]
            per_minute = self.settings.address_per_minute
            bucket = self._addresses[address] = TokenBucket(per_minute / 60.0, per_minute)
        if not bucket.take():
            return f"at most {self.settings.address_per_minute} attempts a minute from one address"
        return None
