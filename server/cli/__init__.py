"""The ``duel`` command line.

Subcommands live in the modules of this package (``server/cli/<name>.py``); each defines
``register(subparsers)``, which adds its parser and sets ``func`` (a
function ``args -> int`` exit status).  This module finds them all, so a
new subcommand is a new module and no edit here (``args`` and ``puzzle`` are helpers of the
subcommands, not subcommands).  ``duel`` with no
subcommand (or only options) runs ``serve``.
"""

from __future__ import annotations

import argparse
import importlib
import os
import pkgutil
import sys
from collections.abc import Sequence
from types import ModuleType

DEFAULT_COMMAND = "serve"


HELPERS = frozenset({"__main__", "args", "puzzle"})
"""Modules of this package that are not subcommands."""


def command_modules() -> list[ModuleType]:
    names = sorted(m.name for m in pkgutil.iter_modules(__path__) if m.name not in HELPERS)
    return [importlib.import_module(f"{__name__}.{name}") for name in names]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="duel", description="Real-time Yu-Gi-Oh! duel server: serve, replay and verify matches."
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module in command_modules():
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args_in = list(sys.argv[1:] if argv is None else argv)
    if not args_in or (args_in[0].startswith("-") and args_in[0] not in ("-h", "--help")):
        args_in.insert(0, DEFAULT_COMMAND)
    parser = build_parser()
    args = parser.parse_args(args_in)
    func = getattr(args, "func", None)
    if func is None:  # pragma: no cover - argparse already required a command
        parser.print_help()
        return 2
    try:
        status = int(func(args) or 0)
        sys.stdout.flush()  # here, where a closed pipe can still be handled
        return status
    except BrokenPipeError:
        # the reader went away (`duel replay ... | head`): stop quietly, as `cat` would
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 141  # 128 + SIGPIPE, the shell's status for a command stopped by a closed pipe
