"""Redis: the event store (one stream per match), the lean pipelined connection (``resp``),
connecting to one server or a cluster, key names, the embedded Redis and cluster of tests and
``make run``, whether writes succeed (``storehealth``) and ``duel doctor``'s checks."""
