"""Whether this process's writes to Redis succeed (``/healthz``).

A Redis that answers PING may still refuse every write: out of memory under ``noeviction``,
a replica left read-only by a failover, a cluster that is down. From the first failure this
process meets (a request answered ``server/unavailable``, the heartbeat's write refused) until
one of its writes succeeds again (an append, the heartbeat, the health check's own write),
``/healthz`` answers 503 with what Redis said (issue 34, finding 5).
"""

from __future__ import annotations

import structlog

from server.storage.redisconn import StoreFailure

log = structlog.get_logger("duel.store")


class StoreHealth:
    def __init__(self) -> None:
        self.failing: StoreFailure | None = None

    def failed(self, failure: StoreFailure) -> None:
        if self.failing is None:
            log.warning("store_failing", why=failure.health)
        self.failing = failure

    def wrote(self) -> None:
        """A write succeeded: the store serves again."""
        if self.failing is not None:
            log.info("store_recovered", was=self.failing.health)
            self.failing = None
