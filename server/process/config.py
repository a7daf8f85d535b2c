"""Server settings (command-line flags and environment map onto these)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from protocol.codec import HARD_MAX_FRAME, MAX_CLIENT_FRAME
from server.accounts.limits import AccountSettings
from server.history.replay_limits import DEFAULT_LIMITS, MIB, ReplayLimits
from server.lobby.rated_queue import RatedWindow
from server.match.sealing import OVERDUE_S, SEAL_AFTER_S, SWEEP_EVERY_S
from server.runtime.gctune import GcMode


@dataclass(frozen=True, slots=True)
class ServerConfig:
    host: str = "127.0.0.1"
    port: int = 8765
    data_dir: Path = Path("var")
    max_frame: int = MAX_CLIENT_FRAME  # larger frames: error frame/too_large
    hard_max_frame: int = HARD_MAX_FRAME  # larger frames: close 1009
    out_queue: int = 256  # frames queued to a client before it is dropped as too slow
    socket_send_buffer: int | None = None  # SO_SNDBUF per connection (None: the kernel's default)
    rate_per_second: int = 50  # client frames per second (token bucket)
    rate_burst: int = 100
    address_rate: int = 500  # frames per second from all the connections of one address
    max_connections_per_address: int = 256  # more are refused (HTTP 429) before the upgrade
    trusted_proxies: tuple[str, ...] = ()  # proxies whose X-Forwarded-For names the client
    max_violations: int = 20  # rate/protocol violations before close 1008
    hello_timeout: float = 10.0
    ping_interval: float | None = 20.0  # seconds between keepalive pings (None: no pings)
    ping_timeout: float | None = 20.0  # a pong must come within this, or the connection is dropped
    close_timeout: float = 2.0  # how long a closing handshake may take before the socket is cut
    poll_interval: float = 30.0  # settle checks of a match after a bell: 1, 2, 4 ... x this (server.match.fanout)
    redis_connections: int = 64  # the Redis connection pool (it blocks, never fails, when all are busy)
    drain_timeout: float = 10.0
    gc: GcMode = "tuned"  # the garbage collector's settings (server.runtime.gctune)
    bot_think: float = 0.6  # seconds the server's bot opponent takes per decision (on average)
    # the server's bot opponent's policy (server.clients.bot.POLICIES; `duel serve` defaults to
    # "search", whose searches run in worker processes: server.clients.search.pool)
    bot_policy: str = "greedy"
    # the server's bot leaves a match whose player has been disconnected this long (the player's
    # reconnect seats it again; None: it stays until the match ends): server.lobby.bot_seats
    bot_abandoned_after: float | None = 60.0
    # a match nobody joined expires this long after its creator's connection let go of it
    # (the creator may come back with its token meanwhile): server.lobby.expiry
    waiting_grace: float = 60.0
    waiting_ttl: float | None = 3600.0  # ... and this long after it was created (None: never)
    waiting_sweep_every: float = 5.0  # seconds between each process's looks for such matches
    # a seat of a casual match of several duels whose player has been gone this long (and did not
    # come back with its token) concedes: the match ends, a drop (server.match.matchplay.Drops; None: never)
    drop_grace: float | None = 60.0
    drop_sweep_every: float = 5.0  # seconds between each process's looks at those matches
    # per client address (per process): matches it may create per minute (``create_match`` and
    # ``quick_match``, bursts of as many), and its matches that may wait for an opponent at
    # once: server.lobby.creation_limits
    address_matches_per_minute: int = 30
    address_waiting_matches: int = 8
    # rated quick match: the rating gap a pairing accepts, widening with the wait (server.lobby.rated_queue)
    rated_window: RatedWindow = field(default_factory=RatedWindow)
    keep_matches: int | None = None  # retention: keep the newest N finished matches (None: all)
    keep_days: float | None = None  # retention: delete finished matches older than this (None: never)
    retention_every: float = 3600.0  # seconds between retention passes
    seal_after: float | None = SEAL_AFTER_S  # seconds after its end a finished match's log is sealed (None: never)
    seal_sweep_every: float = (
        SWEEP_EVERY_S  # seconds between this process's looks for overdue seals (server.match.sealing)
    )
    seal_overdue: float = OVERDUE_S  # seconds after it was due that a seal counts as overdue
    # replay files sent over the protocol (upload_replay; server.history.uploads, docs/replay-format.md):
    # what one file may hold (server.history.replay_limits; ``duel import`` reads with the same defaults)
    replay_max_bytes: int = DEFAULT_LIMITS.max_bytes  # the file (compressed)
    replay_max_data: int = DEFAULT_LIMITS.max_data  # decompressed
    replay_max_entries: int = DEFAULT_LIMITS.max_entries
    replay_max_depth: int = DEFAULT_LIMITS.max_depth  # arrays and maps inside one another
    replay_max_items: int = DEFAULT_LIMITS.max_items  # elements of one array or map
    replay_max_string: int = DEFAULT_LIMITS.max_string  # bytes of one string
    # ... and how many at once: uploads being sent or kept (per connection, per address), the
    # base64 text of all of them (server-wide), the reader processes and the jobs they may queue
    replay_uploads_per_connection: int = 2
    replay_uploads_per_address: int = 4
    replay_uploads_bytes: int = 64 * MIB
    replay_readers: int = 1
    replay_queue: int = 8
    replay_reader_memory: int = 1024 * MIB  # address space of one reader process (RLIMIT_AS)
    # accounts, their logins and the rated ladder (server.accounts.limits)
    accounts: AccountSettings = field(default_factory=AccountSettings)

    def replay_limits(self) -> ReplayLimits:
        return ReplayLimits(
            max_bytes=self.replay_max_bytes,
            max_data=self.replay_max_data,
            max_entries=self.replay_max_entries,
            max_depth=self.replay_max_depth,
            max_items=self.replay_max_items,
            max_string=self.replay_max_string,
        )
