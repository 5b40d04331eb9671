"""Sheets, phrasing: conditions and comparisons.

Bound into :class:`~.core.Phraser`: ``and``/``or``/``not``, membership, aggregates over a
collection, and comparisons, which read as count sentences where a side counts things.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...front.expr import Aggregate, Attribute, Bool, Call, Compare, Conditional, Index, Logic, Name, Unary
from ...language import AGGREGATES
from .kinds import CARD, FLIP, LEVEL, NEGATE, NOBLE, NONE, NUMBER, OPS, Fields, PhraseError
from .text import VOWELS, join

if TYPE_CHECKING:  # the class these functions are bound to (the package re-exports it)
    from . import Phraser


def condition(self: Phraser, node) -> str:  # noqa: C901 - one dispatch over node kinds
    t = self.t
    match node:
        case Call(func=f) if self.definition(f) is not None:
            return self.defined(node)
        case Bool(value=v):
            return t.text("cond.always" if v else "cond.never")
        case Logic(op=op):
            items: list[str] = []
            for part in self.chain(node, op):
                text = self.condition(part)
                if isinstance(part, Logic):  # the other operator, nested
                    text = t.text(f"logic.nested_{part.op}", x=text)
                if items and not self.main_clause:
                    text = self.joined_clause(text)
                items.append(text)
            return join(t, items, op)
        case Unary(op="not", operand=o):
            return self.negation(o)
        case Name() | Attribute() | Index() if self.state_forms(node) is not None:  # a flag
            return t.text("cond.flag", **self.named("x", self.state_forms(node) or {}))
        case Compare(op="in" | "not in" as op, left=left, right=right):
            coll = self.collection_phrase(right)
            key = "cond.in" if op == "in" else "cond.not_in"
            if self.is_you(left):  # "you are one of the players"
                return t.text(f"{key}.you", coll=coll)
            return t.text(key, x=self.thing(left)[""], coll=coll)
        case Compare(op=op, left=left, right=right):
            return self.compare(op, left, right)
        case Aggregate(func="all" | "any" as f, body=body, var=var, collection=coll):
            inner = self.bind(var, coll)
            _, key = self.collection(coll)
            return t.text(
                AGGREGATES[f].phrase, body=inner.condition(body), some=t.text(f"{key}.some"), **self.each(key)
            )
        case Conditional(test=test, then=a, otherwise=b):
            return t.text("cond.if", test=self.condition(test), then=self.condition(a), otherwise=self.condition(b))
    raise PhraseError(f"cannot phrase {type(node).__name__} as a condition")


_ITEM_FIELDS = ("item", "item_of", "plural", "gender")  # what a phrase of a component agrees with (names.item_fields)


def joined_clause(self: Phraser, text: str) -> str:
    """A clause joined to a subordinate clause after the first ("... et qu'il reste ..."):
    the table's `logic.clause`, or `logic.clause.elided` before a vowel."""
    key = "logic.clause.elided" if text[:1].lower() in VOWELS else "logic.clause"
    return self.t.text(key, x=text)


def chain(self: Phraser, node, op: str) -> list:
    if isinstance(node, Logic) and node.op == op:
        return self.chain(node.left, op) + self.chain(node.right, op)
    return [node]


def negation(self: Phraser, node) -> str:
    match node:
        case Bool(value=v):
            return self.condition(Bool(not v, node.span))
        case Unary(op="not", operand=o):
            return self.condition(o)
        case Compare(op="in" | "not in" as op, left=left, right=right):
            return self.condition(Compare("not in" if op == "in" else "in", left, right, node.span))
        case Compare(op=op, left=left, right=right):
            return self.compare(NEGATE[op], left, right)
    return self.t.text("logic.not", x=self.condition(node))


def compare(self: Phraser, op: str, left, right) -> str:
    t = self.t
    lk, rk = self.kind(left), self.kind(right)
    lk, rk = (NUMBER if k == LEVEL else k for k in (lk, rk))
    if NONE in (lk, rk) and self.state_forms(right if lk == NONE else left) is not None:  # an optional variable
        state = self.state_forms(right if lk == NONE else left) or {}
        return t.text(f"cond.state.{'none' if op == '==' else 'some'}", **self.named("x", state))
    if NONE in (lk, rk) and isinstance(right if lk == NONE else left, Attribute):  # an optional column
        return t.text(
            f"cond.column.{'none' if op == '==' else 'some'}",
            **self.named("x", self.thing(right if lk == NONE else left)),
        )
    if NONE in (lk, rk):
        other = right if lk == NONE else left
        kind = self.kind(other)
        ref = self.lookup(other.id) if isinstance(other, Name) else None
        item: Fields = {k: v for k, v in ref.fields.items() if k in _ITEM_FIELDS} if ref is not None else {}
        return t.text(f"cond.{'none' if op == '==' else 'some'}.{kind}", **self.named("x", self.thing(other)), **item)
    if lk != NUMBER or rk != NUMBER:
        if self.is_you(left) and self.is_you(right):  # you are always you
            return t.text("cond.always" if op == "==" else "cond.never")
        if self.is_you(left):  # "that player is you", never "you is that player"
            left, right = right, left
        key = "cond.same" if op == "==" else "cond.not_same"
        return t.text(key, a=self.thing(left)[""], b=self.thing(right)[""])
    if _all_passed(self, op, left, right):
        return t.text("cond.all_passed")
    lc, rc = self.const(left), self.const(right)
    if lc is None and rc is None:
        said = self.compare_quantities(op, left, right) or self.compare_quantities(FLIP[op], right, left)
        if said is not None:
            return said
    if rc is not None and lc is None:
        said = self.count(left, op, rc)
        if said is not None:
            return said
        return t.text(f"cmp.num.{OPS[op]}", a=self.number(left), n=rc)
    if lc is not None and rc is None:
        said = self.count(right, FLIP[op], lc)
        if said is not None:
            return said
        return t.text(f"cmp.num.{OPS[FLIP[op]]}", a=self.number(right), n=lc)
    return t.text(f"cmp.{OPS[op]}", a=self.number(left), b=self.number(right))


def compare_quantities(self: Phraser, op: str, left, right) -> str | None:
    """Two patterns for quantities compared with quantities.

    ``me.bonus[c] >= noble.requires[c]`` -> "you have at least as many bonuses of that
    colour as the chosen noble requires" (a counted quantity against a requirement);
    ``x == min(k, y)`` -> "x is k, or y if that is smaller".
    """
    form = self.count_form(left)
    rel = self.relative(right)
    if form is not None and rel is not None and op != "!=":
        clause, noun_key, fields = form
        noun = self.t.text(noun_key, n=None, **fields)
        quant = self.t.text(f"quant.{OPS[op]}.as", noun=noun, b=rel)
        return self.t.text(clause, n=None, count=quant, **fields)
    if op == "==" and isinstance(right, Call) and right.func in ("min", "max") and len(right.args) == 2:
        a, b = right.args
        if self.const(b) is not None and self.const(a) is None:
            a, b = b, a
        return self.t.text(f"cmp.eq_{right.func}", a=self.number(left), b=self.number(a), c=self.number(b))
    return None


def relative(self: Phraser, node) -> str | None:
    """'the chosen noble requires', 'the chosen card costs': a quantity as a relative clause."""
    match node:
        case Index(obj=Attribute(obj=o, name="requires" | "cost" as attr)) if self.kind(o) in (CARD, NOBLE):
            k = self.kind(o)
            return self.t.text(f"q.{k}.{attr}.rel", **self.named(k, self.thing(o)))
    return None


def _all_passed(self: Phraser, op: str, left: object, right: object) -> bool:
    """``passes >= player_count``: every player has passed, one after the other (as players say it,
    not "the number of passes in a row is at least the number of players")."""
    names = {"passes", "player_count"}
    if any(n in self.scope for n in names):
        return False
    match (op, left, right):
        case (">=" | "==", Name(id="passes"), Name(id="player_count")):
            return True
        case ("<=" | "==", Name(id="player_count"), Name(id="passes")):
            return True
    return False
