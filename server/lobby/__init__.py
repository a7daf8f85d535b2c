"""Before a duel: the quick-match queue (``quick``), seat tokens, per-address creation limits,
waiting matches that expire, the server's own bot seats, deck checks and the card catalogue."""
