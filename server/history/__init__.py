"""Finished matches and replay files: the file format and its reading limits, export, import
and retention (``archive``), pages of a finished log for viewers (``replays``), files a client
uploads (``uploads``), and replaying and verifying a log (``replay``)."""
