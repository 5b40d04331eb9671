"""The web table: any spec or variant played in the browser, by friends and bots.

`splendor-rules serve` runs :func:`web.app.create_app` under uvicorn (the `web` extra). The
package sits on top of the compiler and playtest and uses a game only through the generated
engine's public API (``new_game``, ``legal_actions``, ``apply``, ``observation``,
``to_json``, ``record``, ``action_to_string``, ``describe_action``...):

- :mod:`web.catalogue`: the specs served, each checked by ``compiler.pipeline.check_spec``
  (the gate) before its engine is built, and their reference sheets;
- :mod:`web.store`: tables, seats and moves in SQLite (standard library), a move stored
  before it is acknowledged;
- :mod:`web.tables`: the games in play, who may act, bots, live updates, and old tables removed;
- :mod:`web.links`: the secrets of a table's links (each seat's, the spectators'), derived from the host's;
- :mod:`web.rule_words`: why a rule failed (an engine's RuleError, by its key and fields) in the players' words;
- :mod:`web.botwork`: where bots think (a worker process, so clicks never wait behind them);
- :mod:`web.quotas`: what one client address, and all of them, may ask (429 and 503 past it);
- :mod:`web.views`: what one seat may see (its observation), as JSON;
- :mod:`web.streams`: live updates (event streams), capped per address and per table, each
  seat's view rendered once per move off the event loop and shared;
- :mod:`web.hosts`: the names (Host header) a server answers to;
- :mod:`web.app`: the HTTP app (Starlette): its URLs, middleware and lifespan;
- :mod:`web.routes`: the handlers behind those URLs, pages and API, one module per group;
- :mod:`web.server`: what `serve` runs (uvicorn).
"""
