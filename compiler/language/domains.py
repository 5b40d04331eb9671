"""The choice domains of the spec language (`choose: {x: {domain: ...}}`), each declared once:
the type its value has in expressions, the keys it takes, whether it may be optional, and its
phrase key (how `diff` names it, compiler/sheets/lang/*.yaml). The checker (compiler/check/)
and `diff` read :data:`DOMAINS`; rulespec/README.md's table lists them (tests/test_language.py).
"""

from __future__ import annotations

from dataclasses import dataclass

from .types import COLOUR, ERROR, FACE_UP_CARD, GEM, INT, NOBLE, PAYMENT, RESERVED_CARD, AnyType, SetOf


@dataclass(frozen=True, slots=True)
class DomainDecl:
    name: str
    type: AnyType  # ERROR for `component`: a component of its zone's kind (compiler/check/zones.py param_type)
    keys: tuple[str, ...] = ()  # the keys of a choice of this domain beside `domain` and `optional`
    optional: bool = False  # may the choice be `none` (`optional: true`)

    @property
    def phrase(self) -> str:
        return f"diff.enum.domain.{self.name}"


DOMAINS: dict[str, DomainDecl] = {
    d.name: d
    for d in (
        DomainDecl("gem", GEM, optional=True),
        DomainDecl("colour", COLOUR, optional=True),
        DomainDecl("gem_set", SetOf(GEM), ("min", "max")),
        DomainDecl("face_up", FACE_UP_CARD, optional=True),
        DomainDecl("deck", INT, optional=True),
        DomainDecl("reserved", RESERVED_CARD, ("slots",), optional=True),
        DomainDecl("noble", NOBLE, optional=True),
        DomainDecl("payment", PAYMENT, ("price", "worth", "wilds")),
        DomainDecl("component", ERROR, ("from",), optional=True),
    )
}
