"""The application layer: the `splendor-rules` command line and what only it needs.

It sits above :mod:`compiler`, :mod:`playtest` and :mod:`web` and is the only package that
prints or exits; nothing below imports it. :mod:`.cli` is the command, :mod:`.scaffold` writes a
new variant file (`splendor-rules new`), :mod:`.rule_errors` reports a rule failing in a game as
the spec error it is.
"""
