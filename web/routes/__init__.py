"""The web table's HTTP handlers, one module per group of routes; :func:`web.app.create_app`
assembles them (the URL table, the middleware, the lifespan).

- :mod:`web.routes.context`: the state every handler shares (:class:`~web.routes.context.Server`,
  on ``app.state.server``) and the table and seat a link opens;
- :mod:`web.routes.guards`: what a request is checked for before it acts: its body's size and
  JSON, its origin, its client's address;
- :mod:`web.routes.errors`: a refusal as JSON (under ``/api/``) or as a page;
- :mod:`web.routes.hosting`: the front page, making a table (form and JSON), the host's page and
  closing a table;
- :mod:`web.routes.play`: a seat's and the spectators' board, its JSON view, moves, live events
  and the finished game's record;
- :mod:`web.routes.sheets`: the variants' reference sheets.

Handlers are module-level functions: each takes the server's state from the request
(``server_of(request)``), never from a closure, so each can be read, and tested, on its own.
"""
