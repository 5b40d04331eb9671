"""Playtesting: bots and simulations over generated engines.

Everything here sees a game through the Engine API of a generated module only (never
the compiler's internals), so it works for every spec and variant the compiler builds:

- :mod:`playtest.engines`  finds, builds (through the compiler's public API) and loads engines;
- :mod:`playtest.bots`     random, greedy and MCTS bots;
- :mod:`playtest.simulate` seeded games spread over processes or a Dask cluster, summaries,
  comparisons between specs, and the table/JSON/CSV reports;
- :mod:`playtest.stats`    the statistics (standard library only);
- :mod:`playtest.plots`    charts (matplotlib, an optional extra);
- :mod:`playtest.terminal` the board and the loop of `splendor-rules play`;
- :mod:`playtest.rl`       PettingZoo and Gymnasium environments (the `rl` extra).

bots, simulate, terminal and rl are packages: one module per bot or per part of the work,
listed in the package's docstring, and the package exposes the names its users import.

The command is ``splendor-rules simulate`` (app/cli/simulation.py); nothing in this package
prints or exits.
"""
