"""Untrusted inputs: a call that must not hang (`in_time`) and any text as a YAML double-quoted scalar
(`yaml_double_quoted`)."""

from __future__ import annotations

import threading


def in_time(function, seconds: float = 10):
    """The result of `function()`, failing the test (instead of hanging it) when it blocks."""
    box: dict = {}

    def run():
        try:
            box["result"] = function()
        except BaseException as err:  # noqa: BLE001 - handed to the test
            box["error"] = err

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), f"still running after {seconds} s"
    if "error" in box:
        raise box["error"]
    return box["result"]


def yaml_double_quoted(text: str) -> str:
    """`text` as a YAML double-quoted scalar with every character outside printable ASCII escaped."""
    escaped = text.replace("\\", "\\\\").replace('"', '\\"')
    return '"' + "".join(c if " " <= c <= "~" else f"\\u{ord(c):04x}" for c in escaped) + '"'
