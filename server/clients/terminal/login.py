"""Logging the terminal client in with an account (``duel play --account NAME``), so that it can
play rated matches (``--rated``) and take back a rated seat (PROTOCOL.md section 4a).

The password is never an argument (``ps`` would show it to every user of the machine): it is read
from the environment variable ``DUEL_PASSWORD`` when set (scripts), else typed at a prompt that
does not echo it. It is sent once, in ``login`` (or ``register`` with ``--register``), on the
first connection; every later connection of the process (a retried seat request, a seat taken
back after the connection dropped) logs in with the session token that answer gave
(``login_token``), which lives only in this process's memory. Neither is printed.
"""

from __future__ import annotations

import getpass
import os
from dataclasses import dataclass, field

from protocol import errors as E
from protocol.messages import ClientMessage, Error, LoggedIn, Login, LoginToken, Register
from server.clients.client import DuelClient
from server.clients.terminal.conn import ANSWER_TIMEOUT, CliError

PASSWORD_ENV = "DUEL_PASSWORD"
"""The environment variable a script may give the account's password in."""


@dataclass
class Account:
    """An account to log every connection of this process in as."""

    name: str
    password: str = field(repr=False)
    register: bool = False
    token: str = field(default="", repr=False)  # the session token of the first login
    shown_name: str = ""  # the name as registered (``logged_in.name``)

    async def log_in(self, client: DuelClient) -> None:
        """Log ``client`` in (the password the first time, the session token after): else a
        :class:`CliError` saying why not."""
        request: ClientMessage
        if self.token:
            request = LoginToken(token=self.token)
        elif self.register:
            request = Register(name=self.name, password=self.password)
        else:
            request = Login(name=self.name, password=self.password)
        await client.send(request)
        while True:
            msg = await client.recv(timeout=ANSWER_TIMEOUT)
            if isinstance(msg, LoggedIn):
                self.token, self.shown_name = msg.token, msg.name
                self.register = False  # made once: a later connection logs in
                return
            if isinstance(msg, Error):
                raise CliError(refusal(msg, self.name))


def refusal(err: Error, name: str) -> str:
    """What a refused login means, in words."""
    if err.code == E.ACCOUNT_BAD_LOGIN:
        return f"the server refused the login of {name!r}: wrong name or password"
    if err.code == E.ACCOUNT_NAME_TAKEN:
        return f"there is already an account called {name!r} (log in without --register)"
    return f"the server refused the login of {name!r}: {err.reason} ({err.code})"


def account_of(name: str | None, register: bool) -> Account | None:
    """The account ``--account NAME`` names, its password from ``DUEL_PASSWORD`` or a prompt that
    does not echo it (None: no ``--account``, a guest)."""
    if name is None:
        if register:
            raise CliError("--register goes with --account NAME", 2)
        return None
    password = os.environ.get(PASSWORD_ENV)
    if password is None:
        try:
            password = getpass.getpass(f"password for {name}: ")
            if register:
                again = getpass.getpass("the same password again: ")
                if again != password:
                    raise CliError("the two passwords differ: nothing was registered", 2)
        except EOFError:
            raise CliError(f"no password for {name!r}: type it at the prompt, or set {PASSWORD_ENV}", 2) from None
    if not password:
        raise CliError(f"no password for {name!r}: type it at the prompt, or set {PASSWORD_ENV}", 2)
    return Account(name, password, register)
