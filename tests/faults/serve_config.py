"""A server process like ``duel serve``, with any ServerConfig field set from JSON (limits the
command line does not expose: violations before close, per-address budgets, queue sizes).

    python -m tests.faults.serve_config REDIS_URL '{"max_violations": 1000000}'

It prints the same "listening on ws://HOST:PORT" line as ``duel serve`` and stops on SIGTERM.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sys
from pathlib import Path

from server.process.app import DuelServer
from server.process.config import ServerConfig
from server.runtime.logs import configure


async def serve(redis_url: str, settings: dict[str, object]) -> None:
    config = ServerConfig(**{"port": 0, "data_dir": Path("var"), **settings})  # type: ignore[arg-type]
    server = await DuelServer(config, redis_url, secret=os.environ["DUEL_SECRET"].encode()).start()
    print(f"duel server listening on ws://{config.host}:{server.port}", flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    loop.add_signal_handler(signal.SIGTERM, stop.set)
    loop.add_signal_handler(signal.SIGINT, stop.set)
    await stop.wait()
    await server.stop()


def main() -> None:
    configure("warning")
    asyncio.run(serve(sys.argv[1], json.loads(sys.argv[2])))


if __name__ == "__main__":
    main()
