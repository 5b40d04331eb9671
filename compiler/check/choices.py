"""Pass 4, check: a decision's choices (`choose`), each read into a typed :class:`~compiler.model.Param`.

A choice names a domain (`colour: gem`, or a mapping with `domain`) and the fields only some
domains take: `min`/`max` a gem set, `price`/`worth` a payment, `slots` the reserved cards,
`from` a component (compiler/check/sources.py), `wilds` the components a payment may spend
(compiler/check/wilds.py); a field on the wrong domain is E508. Each choice is
typed in the scope of the ones before it, as a price or a worth reads them. A payment comes
last, after what it pays for (E521), its price never below 0 (E517) and its worth proved
within 1..4 (E548, compiler/check/worth.py).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from ..diagnostics import did_you_mean
from ..front.expr import Expr
from ..front.source import MapNode, ScalarNode
from ..language.domains import DOMAINS as LANGUAGE_DOMAINS
from ..model import DOMAINS, Param, Wilds
from . import bounds as bounds_mod
from . import sources as sources_mod
from .reader import RESERVED_NAMES, Checker
from .types import DOMAIN_TYPES, GEM, INT, PLAYER, Scope
from .wilds import read_wilds
from .worth import worth_problems, worth_range

# the domains whose choice may be `none` (rulespec/README.md, optional)
OPTIONAL_DOMAINS = tuple(name for name, d in LANGUAGE_DOMAINS.items() if d.optional)


def choices(c: Checker, entry: MapNode, scope_names: dict, where: str, path: str) -> tuple[list[Param], Scope, dict]:
    """The `choose` section of a decision: its choices in order, the scope its rules read them in
    (`me` and every choice), and the size range of each gem set."""
    names = dict(scope_names)
    names["me"] = PLAYER
    params: list[Param] = []
    set_sizes: dict[str, tuple[int, int]] = {}
    choose = c.node(entry, "choose", MapNode, required=False)
    optional: set[str] = set()
    for pkey, pnode in choose.entries if choose else ():
        pname = pkey.value
        if not isinstance(pname, str) or not re.fullmatch(r"[a-z_][a-z0-9_]*", pname):
            c.r.error("E105", f"a choice is named with a lower-case name, not {pname!r}", pkey.span)
            continue
        if pname in names or pname in RESERVED_NAMES:
            c.r.error("E406", f"choice '{pname}'{where} hides the name '{pname}' of the game", pkey.span)
            continue
        # the choices before it, as a price or a worth reads them (an optional one: after a test)
        earlier = Scope(names, frozenset(optional), frozenset(p.name for p in params))
        param = read_param(c, pname, pnode, earlier, where)
        if param is None:
            continue
        params.append(param)
        names[pname] = (
            sources_mod.param_type(param, c.zones, c.kinds)
            if param.domain == "component"
            else DOMAIN_TYPES[param.domain]
        )
        if param.optional:
            optional.add(pname)
        if param.domain == "gem_set":
            set_sizes[pname] = (param.min, param.max)
        c.spans[f"{path}.choose.{pname}"] = pkey.span
    return params, Scope(names, frozenset(optional), frozenset(p.name for p in params)), set_sizes


@dataclass
class _Fields:
    """The fields of a choice beyond its domain, as read so far (the defaults of a shorthand)."""

    lo: object = 1
    hi: object = 1
    optional: object = False
    price: Expr | None = None
    slots: int = 0
    slots_name: str = ""
    source: str = ""
    group: int = 0
    parts: tuple[tuple[str, int, int], ...] = ()
    worth: Expr | None = None
    wilds: Wilds | None = None


def read_param(c: Checker, pname: str, node, scope: Scope, where: str) -> Param | None:
    """One choice: its domain (E411 for an unknown one) and the fields its domain takes."""
    if isinstance(node, ScalarNode) and isinstance(node.value, str):
        domain, dnode, pnode = node.value, node, None  # shorthand: `colour: gem`
    elif isinstance(node, MapNode):
        domain, dnode = c.scalar(node, "domain", str, where=f" in choice '{pname}'{where}")
        pnode = node
    else:
        c.r.error("E103", f"choice '{pname}' must name a domain", node.span)
        return None
    if dnode is None or domain is None:
        return None
    if domain not in DOMAINS:
        c.r.error(
            "E411",
            f"unknown domain '{domain}'{did_you_mean(str(domain), DOMAINS)} (domains: {', '.join(DOMAINS)})",
            dnode.span,
        )
        return None
    f = _Fields()
    if pnode is not None:
        f.optional, _ = c.scalar(pnode, "optional", bool, required=False, default=False)
        _range(c, f, pname, pnode, domain)
        _payment(c, f, pname, pnode, domain, scope)
        _slots(c, f, pname, pnode, domain, where)
        if domain == "component":
            f.source, f.slots, f.group, f.parts = sources_mod.component_source(c, pname, pnode, c.zones, c.kinds, where)
        elif pnode.get("from") is not None:
            c.r.error("E508", f"'from' applies to the component domain, not to '{domain}'", pnode.key_span("from"))
    elif domain in ("payment", "reserved", "component"):
        needs = {"payment": "a 'price'", "reserved": "'slots'", "component": "'from' (a zone or a kind)"}[domain]
        c.r.error("E102", f"choice '{pname}' of domain {domain} needs {needs}", node.span)
    if f.optional and domain not in OPTIONAL_DOMAINS:
        c.r.error(
            "E508",
            f"'optional' applies to the domains {', '.join(OPTIONAL_DOMAINS)}, not to '{domain}'",
            pnode.key_span("optional") if pnode is not None else node.span,
            "a set that may be empty is `min: 0`, and a payment is always made; leave 'optional' out",
        )
    return Param(
        pname,
        domain,
        node.span,
        int(f.lo) if isinstance(f.lo, int) else 1,
        int(f.hi) if isinstance(f.hi, int) else 1,
        bool(f.optional),
        f.price,
        f.slots,
        f.slots_name,
        f.source,
        worth=f.worth,
        wilds=f.wilds,
        group=f.group,
        parts=f.parts,
    )


def _range(c: Checker, f: _Fields, pname: str, pnode: MapNode, domain: str) -> None:
    """`min` and `max` of a gem set (E508 on another domain, or when they make no range)."""
    if domain == "gem_set":
        f.lo, lo_node = c.scalar(pnode, "min", int, required=False, default=1)
        f.hi, hi_node = c.scalar(pnode, "max", int, required=False, default=1)
        if isinstance(f.lo, int) and isinstance(f.hi, int) and not (0 <= f.lo <= f.hi):
            c.r.error(
                "E508",
                f"choice '{pname}': min {f.lo} and max {f.hi} do not make a range",
                (lo_node or hi_node or pnode).span,
            )
        return
    for field in ("min", "max"):
        if pnode.get(field) is not None:
            c.r.error("E508", f"'{field}' applies to the gem_set domain, not to '{domain}'", pnode.key_span(field))


def _payment(c: Checker, f: _Fields, pname: str, pnode: MapNode, domain: str, scope: Scope) -> None:
    """`price` (a number for each gem `c`) and `worth` of a payment (E508 on another domain)."""
    if domain == "payment":
        price_node = pnode.get("price")
        if price_node is None:
            c.r.error("E102", f"missing key 'price' in choice '{pname}' (the price of gem `c`)", pnode.span)
        else:
            f.price = c.expression(price_node, "price")
            if f.price is not None:
                c.types.expect(f.price, scope.bind("c", GEM), INT, "a price")
        if pnode.get("worth") is not None:
            f.worth = c.expression(pnode.get("worth"), "worth")
            if f.worth is not None:
                c.types.expect(f.worth, scope, INT, "a worth")
        wilds = pnode.get("wilds")
        if wilds is not None:
            f.wilds = read_wilds(c, pname, wilds)
    for field in ("price", "worth", "wilds"):
        if domain != "payment" and pnode.get(field) is not None:
            c.r.error("E508", f"'{field}' applies to the payment domain, not to '{domain}'", pnode.key_span(field))


def _slots(c: Checker, f: _Fields, pname: str, pnode: MapNode, domain: str, where: str) -> None:
    """`slots` of a reserved choice: a number or a value's name (E401 for an unknown one)."""
    if domain != "reserved":
        if pnode.get("slots") is not None:
            c.r.error("E508", f"'slots' applies to the reserved domain, not to '{domain}'", pnode.key_span("slots"))
        return
    slots_value, slots_node = c.scalar(pnode, "slots", (str, int), where=f" in choice '{pname}'{where}")
    if isinstance(slots_value, str):
        if slots_value not in c.value_table:
            c.r.error(
                "E401", f"unknown value '{slots_value}'{did_you_mean(slots_value, c.value_table)}", slots_node.span
            )
        else:
            f.slots, f.slots_name = c.value_table[slots_value], slots_value
    elif isinstance(slots_value, int):
        f.slots = slots_value
    if slots_node is not None and f.slots < 1 and not c.r.has_errors:
        c.r.error("E508", "a player must be able to hold at least 1 reserved card", slots_node.span)


def payment_last(c: Checker, params: list[Param], kind: str, resolve: str = "choice") -> None:
    """E521 for a payment that is not the last choice, after the card it pays for: the engine
    numbers the other choices and asks for the payment afterwards (its payment step), in an action
    as in an end-of-turn step; a step whose every legal choice happens (`resolve: all`) asks
    nobody, so it cannot ask for a payment either."""
    for i, p in enumerate(params):
        if p.domain != "payment":
            continue
        if kind == "step" and resolve == "all":
            c.r.error(
                "E521",
                f"choice '{p.name}' is a payment, and a step with `resolve: all` asks nobody: "
                "every legal choice happens, so no player chooses how to pay",
                p.span,
                "resolve the step by `choice`, or make it take a price it fixes (put_back)",
            )
        elif i != len(params) - 1:
            c.r.error(
                "E521",
                f"choice '{p.name}' is a payment: it must be the last choice of its {kind} "
                f"(the engine asks for it after '{params[-1].name}')",
                p.span,
            )
        elif i == 0:
            c.r.error(
                "E521",
                f"choice '{p.name}' is a payment: it must come after the choice of what it pays "
                f"for (a card), and this {kind} chooses nothing before it",
                p.span,
            )


def sized_worth(c: Checker, p: Param, bounds: bounds_mod.Bounds) -> Param:
    """A payment with a worth, with the largest worth a game reaches (E548 when it is not
    proved within 1..4, or reads the payment itself); any other choice as it is."""
    if p.worth is None:
        return p
    problems = worth_problems(p, bounds)
    c.r.extend(problems)
    return p if problems else replace(p, worth_max=int(worth_range(p, bounds)[1]))


def price_below_zero(c: Checker, price, bounds) -> None:
    """E517 when a price can be below 0 in a game: paying it would give the player tokens from
    the supply (which could go below 0), which no payment means."""
    lo, hi = bounds.number(price)
    if lo < 0:
        c.r.error(
            "E517",
            f"this price can be below 0 in a game under this spec (it is "
            f"{bounds_mod.range_text((lo, hi))}), and paying it would give the player tokens",
            price.span,
            "write max(0, ...) around it, as in max(0, card.cost[c] - me.bonus[c])",
        )
