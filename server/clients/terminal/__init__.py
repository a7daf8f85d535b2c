"""The terminal clients of the duel protocol: ``duel play`` (a human at a terminal) and ``duel
bot`` (a policy playing a seat).

* :mod:`server.clients.terminal.conn`: connecting, taking a seat (with a ``request_id`` so a lost answer
  can be retried), resuming a dropped seat, and turning every failure into one plain line
  (:class:`~server.clients.terminal.conn.CliError`);
* :mod:`server.clients.terminal.cards`: the card catalogue the server sends (``get_cards``): names,
  stats, text, demo decks by name;
* :mod:`server.clients.terminal.render`: pure functions from what the server sent to lines of text
  (the board, the numbered menu, card text, the waiting line, clocks, match lists);
* :mod:`server.clients.terminal.play`: the interactive loop of ``duel play``;
* :mod:`server.clients.terminal.botloop`: the loop of ``duel bot``.

They speak only the public protocol (PROTOCOL.md), like any other client.
"""
