"""The types the runtime's annotations name, beside the classes it defines.

Part of the runtime of every generated engine (see compiler/emit/runtime/__init__.py), pasted
first: every name an annotation of the runtime reads is then a global of the engine (the
template imports Any and Iterable from the standard library), so that the linter finds
no undefined name in an engine and typing.get_type_hints can read its annotations.
"""

from __future__ import annotations

from typing import Any

Path = tuple[str | int, ...]  # the keys and list indexes that lead from a state to a value
Problem = tuple[Path, str]  # a problem of a saved state: where, and the sentence that says it
State = dict[str, Any]  # a saved state, as to_dict makes it and json reads it
