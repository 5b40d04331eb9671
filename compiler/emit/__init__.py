"""The back end's last pass: an engine plan (:mod:`compiler.lower`) -> the text of one standalone module.

:mod:`.engine` lays the plan out through ``templates/engine.py.j2`` and pastes the
:mod:`.runtime` modules (the part of every engine that no spec changes) whole, Game.apply with
the bodies of its two hooks inlined by :mod:`.inline`, a transformation of its syntax tree.
"""
