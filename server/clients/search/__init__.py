"""The ``search`` bot: determinized Monte Carlo search over the pure engine, from what a client
sees (docs/search.md). ``policy.SearchPolicy`` is the policy; ``monte_carlo`` the search;
``rollout`` the playout player and the evaluation; ``pool`` the worker processes a server's bots
share; ``arena`` duels between policies in one process (tests, the benchmark)."""
