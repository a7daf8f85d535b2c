"""The terminal clients of the duel protocol: ``duel play`` (a human at a terminal) and ``duel
bot`` (a policy playing a seat).

* :mod:`server.terminal.conn`: connecting, taking a seat (with a ``request_id`` so a lost answer
  can be retried), resuming a dropped seat, and turning every failure into one plain line
  (:class:`~server.terminal.conn.CliError`);
* :mod:`server.terminal.cards`: the card catalogue the server sends (``get_cards``): names,
  stats, text, demo decks by name;
* :mod:`server.terminal.render`: pure functions from what the server sent to lines of text
  (the board, the numbered menu, card text, the waiting line, clocks, match lists);
* :mod:`server.terminal.play`: the interactive loop of ``duel play``;
* :mod:`server.terminal.botloop`: the loop of ``duel bot``.

They speak only the public protocol (PROTOCOL.md), like any other client.
"""
