"""splendor-rules: a data-driven rules compiler and variant toolkit for Splendor.

One package per stage, data flowing one way: :mod:`compiler.front` (reading, source: YAML with
positions -> schema -> overlay: a variant onto its base -> expr: Lark -> typed AST) ->
:mod:`compiler.check` (names, types, sense; builds :mod:`compiler.model`) -> :mod:`compiler.lower`
(the engine plan) -> :mod:`compiler.emit` (the engine's text); :mod:`compiler.sheets` and
:mod:`compiler.diff` read the model. :mod:`compiler.pipeline` is the thin driver (check_spec,
compile_spec); :mod:`compiler.codes` defines every diagnostic code. Nothing here prints or exits:
the command line is the application layer above (:mod:`app.cli`), which imports playtest and web.
"""

__version__ = "0.1.0"
