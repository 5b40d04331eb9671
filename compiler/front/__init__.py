"""The front end: a spec file's bytes -> a resolved tree of located nodes and typed expressions.

Passes, in order: :mod:`.reading` (bounded, regular files only) -> :mod:`.source` (YAML with
positions; :mod:`.yaml_errors` says a YAML error in words) -> :mod:`.schema` (JSON Schema;
:mod:`.partial` keeps what later passes may still check) ->
:mod:`.overlay` (a variant onto its base, by the :mod:`.shapes` of the schema) -> :mod:`.expr`
(Lark -> typed expression nodes). :mod:`.json_position` locates values in the JSON
of a saved game. Nothing here knows what a rule means; :mod:`compiler.check` does.
"""
