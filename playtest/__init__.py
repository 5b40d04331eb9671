"""Playtesting: bots and simulations over generated engines.

Everything here sees a game through the Engine API of a generated module only (never
the compiler's internals), so it works for every spec and variant the compiler builds:

- :mod:`playtest.engines`  finds, builds (through the compiler's public API) and loads engines;
- :mod:`playtest.bots`     random, greedy and MCTS bots (a package: one module per bot);
- :mod:`playtest.simulate` seeded games spread over processes or a Dask cluster, summaries,
  comparisons between specs, and the table/JSON/CSV reports;
- :mod:`playtest.stats`    the statistics (standard library only);
- :mod:`playtest.plots`    charts (matplotlib, an optional extra);
- :mod:`playtest.terminal` the board and the loop of `splendor-rules play` (a package);
- :mod:`playtest.rl`       PettingZoo and Gymnasium environments (the `rl` extra).

The command is ``splendor-rules simulate`` (compiler/cli.py); nothing in this package
prints or exits.
"""
