"""Type inference over the typed expression AST: the Inferrer, which gives every node of a rule
its type and reports each problem once, at the innermost node (E4xx).

The types themselves, the tables of names a rule may use and the helpers the inference leans on
(scopes, assignability, what a test proves) are :mod:`.types`; this module is the walk, one
``visit_<Node>`` method per node type.
"""

from __future__ import annotations

from collections.abc import Callable

from ..diagnostics import Reporter, did_you_mean
from ..front.expr import (
    Aggregate,
    Attribute,
    Binary,
    Bool,
    Call,
    Compare,
    Conditional,
    Effect,
    ForEach,
    Index,
    Int,
    Logic,
    Name,
    Performed,
    Sequence,
    Unary,
    When,
    Word,
    unparse,
)
from ..language import ColumnType
from ..language.effects import named as effects_named
from ..language.types import (
    BOOL,
    COLOUR,
    ERROR,
    GEM,
    INT,
    NONE,
    PLAYER,
    AnyType,
    Comp,
    Keyword,
    MapOf,
    SetOf,
    Type,
    ZoneT,
    noun,
    wanted,
)
from ..language.types import EFFECTS as GIVES_EFFECTS
from . import procedures
from .nones import NoneReads
from .types import (
    AGGREGATES,
    ATTRIBUTES,
    EFFECTS,
    FUNCTIONS,
    GLOBALS,
    Scope,
    assignable,
    attribute_key,
    chosen_by_if,
    column_attributes,
    comparable,
    component_type,
    failed,
    same_component,
    takes_place_card,
    tested,
)


class Inferrer(NoneReads):
    """Infers types, reporting each problem once at the innermost node (E4xx)."""

    def __init__(self, reporter: Reporter, gems: tuple[str, ...] = (), wild: str | None = None, kinds=None):
        self.r = reporter
        self.gems = gems  # the colours, for the note on an unknown name where a colour is wanted
        self.wild = wild
        # attributes by type: the fixed ones, and each kind's from its declared columns (`kinds`: the spec's
        # model.Kind values; None: the base kinds' standard columns)
        self.attributes: dict[object, dict[str, AnyType]] = {name: table for name, table in ATTRIBUTES.items()}
        self.prose: dict[object, list[str]] = {}  # prose columns by type: named in E403, never typed
        # optional columns by type (a `gem` column whose cell may be empty: `none`), and the reads of one
        # met so far (a test 'x.colour != none' may compare them with none)
        self.optional_columns: dict[object, set[str]] = {}
        self.optional_reads: set = set()
        # the values of each keyword column, in table order: what a keyword ('five_prestige') may be
        self.keywords: dict[Keyword, tuple[str, ...]] = {}
        self.items: dict[str, str] = {}  # one component of each kind, in English ("trading post")
        for kind in kinds or ():
            self.items[kind.name] = kind.item.en
            key = attribute_key(component_type(kind))
            self.attributes[key] = column_attributes(kind.name, kind.columns)
            self.prose[key] = [c.name for c in kind.columns if c.type == ColumnType.PROSE]
            self.optional_columns[key] = {c.name for c in kind.columns if c.optional}
            for i, column in enumerate(kind.columns):
                if column.type == ColumnType.KEYWORD:
                    self.keywords[Keyword(kind.name, column.name)] = tuple(
                        dict.fromkeys(str(c.values[i]) for c in kind.components)
                    )
        # the spec's definitions as check types them (compiler/check/definitions.py): name -> (params, result)
        self.definitions: dict[str, tuple[tuple[tuple[str, AnyType], ...] | None, AnyType]] = {}
        self.definition_reads: dict[str, dict[str, AnyType]] = {}  # the game's names each body reads, typed
        # the spec's declared state (compiler/check/variables.py fills these): variables by name, the optional
        # ones, and the typing of the effects that write them
        self.variables: dict = {}
        self.optional_state: set[str] = set()
        # the check hooks of the effects the registry gives one (compiler/language/effects.py `check`), by its
        # name, installed by the pass that checks them: "state" (compiler/check/variables.py types set, add,
        # insert, drop), "zone" (compiler/check/zones.py, once the spec has zones); the others' signatures
        # are checked here
        self.hooks: dict[str, Callable[[Inferrer, Effect, Scope], None]] = {}
        # the queued steps (with `given:`) and the types of what each is given, by name (compiler/check/queue.py)
        self.queued: dict[str, tuple[tuple[str, AnyType], ...]] = {}
        self.pile_ok = False  # reading a pile's name is allowed here (size(pile), a draw's source): E551 else
        self.zone_sources: dict[str, str] = {}  # zone -> the pile it is refilled from ("" for none)
        self.refused_zones: set[str] = set()  # zones refused by the check (reported there)

    def add_player_attributes(self, extra: dict) -> None:
        """Per-player names the spec declares (a per-player zone: me.claimed), beside the built-in ones."""
        self.attributes["player"] = {**self.attributes["player"], **extra}

    def attribute_table(self, t) -> dict[str, AnyType] | None:
        """The attributes of a value of type `t` (None when it has none)."""
        return self.attributes.get(attribute_key(t)) if isinstance(t, (Type, Comp)) else None

    def expect(self, node, scope: Scope, expected, what: str):
        actual = self.infer(node, scope)
        if not assignable(actual, expected):
            self.r.error("E410", f"{what} must be {wanted(expected)}, but this is {noun(actual)}", node.span)
        return actual

    def colour_note(self, hint) -> str:
        """Where a colour is wanted, the colours that can stand there ('' elsewhere)."""
        if hint == GEM and self.gems:
            return f"a gem colour is one of: {', '.join(self.gems)}"
        if hint == COLOUR and self.gems:
            return f"a colour is one of: {', '.join(dict.fromkeys(self.gems + ((self.wild,) if self.wild else ())))}"
        return ""

    def infer(self, node, scope: Scope, hint=None):
        """The type of `node`; `hint` is the type the place wants, for the notes of unknown names.
        Dispatches on the node's class to its `visit_<Node>` method, as Jinja's visitor does."""
        visit = getattr(self, "visit_" + type(node).__name__, None)
        if visit is None:
            raise TypeError(f"not an expression: {node!r}")  # pragma: no cover
        return visit(node, scope, hint)

    def visit_Int(self, node: Int, scope: Scope, hint) -> AnyType:
        return INT

    def visit_Bool(self, node: Bool, scope: Scope, hint) -> AnyType:
        return BOOL

    def visit_Word(self, node: Word, scope: Scope, hint) -> AnyType:
        return self.word(node, hint)

    def visit_Name(self, node: Name, scope: Scope, hint):
        """A name: `none` only in a test of an optional choice (E410), an optional choice or
        variable only once tested (E410), a pile only by its size (E551), else known (E401, E402)."""
        name = node.id
        if name == "none" and scope.lookup("none") == NONE:  # a test of a choice is the only place for it
            self.r.error(
                "E410", "'none' stands only in a test of an optional choice: 'x == none' or 'x != none'", node.span
            )
            return ERROR
        if name in scope.optional and name not in scope.not_none:
            if ("maybe", name) not in scope.told:
                scope.told.add(("maybe", name))  # once per decision: one cause
                self.r.error(
                    "E410",
                    f"'{name}' may be none here (its choice is optional): test "
                    f"'{name} != none' first, as in \"{name} != none and ...\"",
                    node.span,
                )
            return scope.lookup(name)
        if (
            name in self.optional_state
            and name not in scope.not_none
            and name in self.variables
            and not self.variables[name].per_player
            and not isinstance(self.variables[name].type, MapOf)  # a keyed one: each entry, read by its key
        ):
            self.maybe_none(node, scope, name)
            return scope.lookup(name) or ERROR
        t = self.hidden_pile(node, scope.lookup(name))
        if t is None:
            if name in AGGREGATES or name in FUNCTIONS:
                self.r.error("E402", f"'{name}' is a function; call it with brackets", node.span)
            else:
                self.r.error(
                    "E401", f"unknown name '{name}'{did_you_mean(name, scope.names)}", node.span, self.colour_note(hint)
                )
            return ERROR
        return t

    def hidden_pile(self, node: Name | Index, t: AnyType | None) -> AnyType | None:
        """E551 for a face-down pile read (`pile`, `decks[1]`) anywhere but where its size or a draw reads it."""
        if isinstance(t, ZoneT) and t.shape.face_down and not self.pile_ok:
            told = f"its order and contents are hidden, so only size({unparse(node)}) may be read"
            hint = "draw from it (draw, reveal, refill) to bring a component face up"
            self.r.error("E551", f"'{unparse(node)}' is a face-down {t.shape}: {told}", node.span, hint)
            return ERROR
        return t

    def visit_Attribute(self, node: Attribute, scope: Scope, hint) -> AnyType:
        """`obj.attr`: a column or an attribute its type has (E403), optional ones only once tested."""
        attr = node.name
        t = self.infer(node.obj, scope)
        if t == ERROR:
            return ERROR
        table = self.attribute_table(t)
        if table is None:
            self.r.error("E403", f"{noun(t)} has no attributes (no '.{attr}')", node.span)
            return ERROR
        prose = self.prose.get(attribute_key(t), [])
        if attr in prose:
            self.r.error(
                "E403",
                f"'{attr}' is a prose column of {noun(t)}: shown on sheets, not usable in expressions",
                node.span,
            )
            return ERROR
        if attr not in table:
            self.r.error(
                "E403",
                f"{noun(t)} has no attribute '{attr}'{did_you_mean(attr, table)} (it has: {', '.join(table)})",
                node.span,
            )
            return ERROR
        if (
            t == PLAYER
            and attr in self.optional_state
            and unparse(node) not in scope.not_none
            and not isinstance(table[attr], MapOf)  # a keyed one: each entry, read by its key
        ):
            self.maybe_none(node, scope, attr)
        if attr in self.optional_columns.get(attribute_key(t), ()):
            self.optional_reads.add(node)
            if unparse(node) not in scope.not_none:
                self.maybe_none(node, scope, attr, f"column '{attr}' of {noun(t)} may be empty")
        return table[attr]

    def visit_Index(self, node: Index, scope: Scope, hint) -> AnyType:
        """`table[key]`: a table indexed by its key's type (E404, E410)."""
        idx = node.index
        t = self.infer(node.obj, scope)
        k = self.infer(idx, scope, t.key if isinstance(t, MapOf) else None)
        if t == ERROR:
            return ERROR
        if not isinstance(t, MapOf):
            self.r.error("E404", f"{noun(t)} cannot be indexed with [...]", node.span)
            return ERROR
        if not assignable(k, t.key) and not same_component(k, t.key):
            wild = k == COLOUR and t.key == GEM
            extra = " (it may be the wild colour, which has no entry here)" if wild else ""
            self.r.error("E410", f"this table is indexed by {noun(t.key)}, not by {noun(k)}{extra}", idx.span)
        if self.is_optional_state(node) and unparse(node) not in scope.not_none:
            self.maybe_none(node, scope, self.keyed_name(node))
        shown = self.hidden_pile(node, t.value)  # one zone of a zone split by level: a pile's contents are hidden
        return shown if shown is not None else ERROR

    def visit_Call(self, node: Call, scope: Scope, hint):
        return self.call(node, node.func, node.args, scope)

    def visit_Aggregate(self, node: Aggregate, scope: Scope, hint) -> AnyType:
        """`func(body for var in collection)`: a known aggregate over a collection (E405, E410)."""
        func, var, coll = node.func, node.var, node.collection
        ct = self.infer(coll, scope)
        if func not in AGGREGATES:
            self.r.error(
                "E405",
                f"unknown aggregate '{func}'{did_you_mean(func, AGGREGATES)} (aggregates: {', '.join(AGGREGATES)})",
                node.span,
            )
            return ERROR
        elem: AnyType = ERROR
        if isinstance(ct, SetOf):
            elem = ct.elem
        elif ct != ERROR:
            self.r.error(
                "E410", f"'{func}(... for {var} in ...)' needs a collection, but this is {noun(ct)}", coll.span
            )
        if var in scope.names and scope.names[var] != GLOBALS.get(var, object()) and var in GLOBALS:
            self.r.error("E406", f"'{var}' is a built-in name and cannot be a loop variable", node.span)
        expected = AGGREGATES[func]
        self.expect(node.body, scope.bind(var, elem), expected, f"the body of '{func}'")
        return BOOL if func in ("all", "any") else INT

    def visit_Unary(self, node: Unary, scope: Scope, hint) -> AnyType:
        if node.op == "-":
            self.expect(node.operand, scope, INT, "the operand of '-'")
            return INT
        if node.op == "not":
            self.expect(node.operand, scope, BOOL, "the operand of 'not'")
            return BOOL
        raise TypeError(f"not an expression: {node!r}")  # pragma: no cover

    def visit_Binary(self, node: Binary, scope: Scope, hint) -> AnyType:
        op = node.op
        self.expect(node.left, scope, INT, f"the left side of '{op}'")
        self.expect(node.right, scope, INT, f"the right side of '{op}'")
        return INT

    def visit_Logic(self, node: Logic, scope: Scope, hint) -> AnyType:
        op, left = node.op, node.left
        self.expect(left, scope, BOOL, f"the left side of '{op}'")
        # the right side runs only when the left holds (and) or fails (or)
        known = tested(left, none=False) if op == "and" else failed(left)
        self.expect(node.right, scope.knowing(known), BOOL, f"the right side of '{op}'")
        return BOOL

    def visit_Compare(self, node: Compare, scope: Scope, hint) -> AnyType:
        """A comparison: membership in a collection, equality of values, or an order of numbers."""
        op, left, right = node.op, node.left, node.right
        if op in ("in", "not in"):
            rt = self.infer(right, scope)
            lt = self.infer(left, scope, rt.elem if isinstance(rt, SetOf) else None)
            if rt != ERROR and not isinstance(rt, SetOf):
                self.r.error("E410", f"'{op}' needs a collection on its right, but this is {noun(rt)}", right.span)
            elif isinstance(rt, SetOf) and not comparable(lt, rt.elem) and not same_component(lt, rt.elem):
                self.r.error("E410", f"{noun(lt)} is never in {noun(rt)}", node.span)
            return BOOL
        if op in ("==", "!=") and Name("none", None) in (left, right):  # asking is how to learn it
            scope = scope.knowing(
                {unparse(side) for side in (left, right) if isinstance(side, (Name, Attribute, Index))}
            )
        infer_side = self.side if op in ("==", "!=") else self.infer
        # `purpel == c`, `'five_prestige' == t.power`: an unknown name or a keyword on the left learns
        # from the right what is wanted there
        if (isinstance(left, Name) and scope.lookup(left.id) is None) or isinstance(left, Word):
            rt = infer_side(right, scope)
            lt = infer_side(left, scope, rt)
        else:
            lt = infer_side(left, scope)
            rt = infer_side(right, scope, lt)
        if op in ("==", "!="):
            self.equality(node, scope, lt, rt)
        else:
            for side, t in ((left, lt), (right, rt)):
                if not assignable(t, INT):
                    self.r.error("E410", f"'{op}' compares numbers, but this is {noun(t)}", side.span)
        return BOOL

    def visit_Conditional(self, node: Conditional, scope: Scope, hint) -> AnyType:
        """`if t then a else b`: branches of one type, a number, a condition or a colour (E410)."""
        t, a, b = node.test, node.then, node.otherwise
        self.expect(t, scope, BOOL, "the condition of 'if'")
        at, bt = self.infer(a, scope.knowing(tested(t, none=False))), self.infer(b, scope.knowing(failed(t)))
        chosen = [x for x in (at, bt) if not chosen_by_if(x)]
        if not comparable(at, bt):
            self.r.error(
                "E410",
                f"both branches of 'if' must have the same type, but one is {noun(at)} and the other {noun(bt)}",
                node.span,
            )
        elif chosen:  # the sheets phrase "X if ..., otherwise Y" of values, not of players or collections
            self.r.error(
                "E410",
                "'if ... then ... else' chooses a number, a condition or a colour, "
                f"not {noun(chosen[0])}: put the 'if' around the condition or "
                "the effect that uses it",
                node.span,
            )
        return at if at != ERROR else bt

    def word(self, node: Word, hint) -> AnyType:
        """A keyword takes the type of the place it stands in: a keyword column's (E412 elsewhere, or
        when no component has it in that column; nothing more where that place is already wrong)."""
        if hint == ERROR:  # what it is compared with was reported (an unknown name, say)
            return ERROR
        if not isinstance(hint, Keyword):
            self.r.error(
                "E412",
                f"the keyword '{node.value}' stands only where a keyword column's value is "
                "wanted: compared with one, as in t.power == '" + node.value + "', or as an argument "
                "of a definition whose parameter has that type",
                node.span,
            )
            return ERROR
        values = self.keywords.get(hint, ())
        if node.value not in values:
            self.r.error(
                "E412",
                f"no {self.items.get(hint.kind, hint.kind)} has the {hint.column} '{node.value}'"
                f"{did_you_mean(node.value, values)} (its values: {', '.join(values)})",
                node.span,
            )
            return ERROR
        return hint

    def zone_refill(self, args, scope: Scope) -> bool:
        """Is `refill(x)` the zone effect (x a display or row of the spec) rather than the base's refill(card)?"""
        if len(args) != 1 or not isinstance(args[0], (Name, Attribute, Index)):
            return False
        before = len(self.r.diagnostics)
        t = self.infer(args[0], scope)
        del self.r.diagnostics[before:]  # asked, not reported: the effect itself reports
        return isinstance(t, ZoneT)

    def hook(self, name: str, args, scope: Scope) -> Callable[[Inferrer, Effect, Scope], None] | None:
        """The check hook of the effect `name(args)`, when its declaration names one and its pass installed it.
        A name declared twice (refill: the base game's refill(card), the zones' refill(ZONE)) takes the
        hooked declaration only when its argument is a zone."""
        declared = effects_named(name)
        for decl in declared:
            hook = self.hooks.get(decl.check) if decl.check else None
            if hook is not None and (len(declared) == 1 or self.zone_refill(args, scope)):
                return hook
        return None

    def side(self, node, scope: Scope, hint=None):
        """The type of a side of '==' or '!=': the one place where the name `none` may stand."""
        if node == Name("none", None) and scope.lookup("none") == NONE:
            return NONE
        return self.infer(node, scope, hint)

    def call(self, node, func, args, scope):
        if func in self.definitions and self.definitions[func][1] == GIVES_EFFECTS:
            return procedures.in_expression(self, node, func, args, scope)
        if func in self.definitions:
            return self.defined(node, func, args, scope)
        if func in AGGREGATES and func not in FUNCTIONS:
            self.r.error("E407", f"'{func}' is an aggregate: write {func}(... for x in collection)", node.span)
            return ERROR
        if func not in FUNCTIONS:
            hint = " (effects such as this are written in `effects`, not in conditions)" if func in EFFECTS else ""
            known = list(FUNCTIONS) + list(AGGREGATES) + list(self.definitions)
            self.r.error("E405", f"unknown function '{func}'{did_you_mean(func, known)}{hint}", node.span)
            return ERROR
        if func in ("min", "max"):
            if len(args) < 2:
                self.r.error(
                    "E408",
                    f"'{func}' takes at least 2 numbers, or one aggregate '{func}(x for x in ...)' ({len(args)} given)",
                    node.span,
                )
            for a in args:
                self.expect(a, scope, INT, f"an argument of '{func}'")
            return INT
        if len(args) != 1:
            self.r.error("E408", f"'{func}' takes 1 argument ({len(args)} given)", node.span)
            for a in args:
                self.infer(a, scope)
            return INT
        if func == "abs":
            self.expect(args[0], scope, INT, "the argument of 'abs'")
        else:
            self.pile_ok, saved = True, self.pile_ok  # the size of a pile is public
            try:
                t = self.infer(args[0], scope)
            finally:
                self.pile_ok = saved
            if t != ERROR and not isinstance(t, SetOf):
                self.r.error("E410", f"'size' needs a collection, but this is {noun(t)}", args[0].span)
        return INT

    def defined(self, node, func, args, scope):
        """A call of a spec's definition: its arguments typed against its parameters (E408, E410)."""
        params, result = self.definitions[func]
        if params is None:  # its parameters are wrong (reported): the arguments cannot be checked
            for a in args:
                self.infer(a, scope)
            return ERROR
        if len(args) != len(params):
            listed = ", ".join(f"{p}: {t}" for p, t in params) or "none"
            self.r.error(
                "E408",
                f"'{func}' takes {len(params)} argument{'s' if len(params) != 1 else ''} ({len(args)} given)",
                node.span,
                f"its parameters: {listed}",
            )
        for a, (p, t) in zip(args, params, strict=False):
            actual = self.infer(a, scope, t)
            # A base card (noble) stands for a `card` (`noble`) parameter whatever place it was chosen in:
            # a card of the purchased cards is the card, its id (types.same_component).
            if not assignable(actual, t) and not (isinstance(t, Type) and same_component(actual, t)):
                self.r.error(
                    "E410", f"argument '{p}' of '{func}' must be {wanted(t)}, but this is {noun(actual)}", a.span
                )
        for a in args[len(params) :]:
            self.infer(a, scope)
        for name, t in self.definition_reads.get(func, {}).items():
            if scope.lookup(name) != t:  # a loop here binds a name the body means as the game's
                self.r.error(
                    "E540",
                    f"'{name}' is already the name of what '{func}' reads ({noun(t)}): the loop "
                    f"variable '{name}' here would take its place; name the loop variable otherwise",
                    node.span,
                )
        return result

    def statement(self, node, scope: Scope) -> None:
        match node:
            case Effect(name=name, keywords=keywords) if keywords and name != "queue":
                procedures.named_arguments(self, node, scope)
            case Effect(name=name, args=args) if (hook := self.hook(name, args, scope)) is not None:
                hook(self, node, scope)
            case Performed():  # a procedure's call: its arguments (its body is typed once, where it is written)
                procedures.call(self, node, scope)
            case Effect(name=name) if name in self.definitions:
                procedures.value_as_effect(self, node, scope)
            case Effect(name=name, args=args):
                if name not in EFFECTS:
                    self.r.error(
                        "E409",
                        f"unknown effect '{name}'{did_you_mean(name, [*EFFECTS, *procedures.named(self)])} "
                        f"(effects: {', '.join([*EFFECTS, *procedures.named(self)])})",
                        node.span,
                    )
                    for a in args:
                        self.infer(a, scope)
                    return
                params = EFFECTS[name]
                if len(args) != len(params):
                    self.r.error(
                        "E408",
                        f"'{name}' takes {len(params)} argument{'s' if len(params) != 1 else ''} ({len(args)} given)",
                        node.span,
                    )
                for a, p in zip(args, params, strict=False):
                    t = self.infer(a, scope, p)
                    if not assignable(t, p) and not takes_place_card(name, t):
                        self.r.error("E410", f"'{name}' needs {wanted(p)}, but this is {noun(t)}", a.span)
                for a in args[len(params) :]:
                    self.infer(a, scope)
            case ForEach(var=var, collection=coll, body=body):
                ct = self.infer(coll, scope)
                elem = ct.elem if isinstance(ct, SetOf) else ERROR
                if ct != ERROR and not isinstance(ct, SetOf):
                    self.r.error("E410", f"'for {var} in ...' needs a collection, but this is {noun(ct)}", coll.span)
                self.statement(body, scope.bind(var, elem))
            case Sequence(stmts=stmts):  # in order, each where the body stands
                for part in stmts:
                    self.statement(part, scope)
            case When(test=test, then=then, otherwise=otherwise):
                self.expect(test, scope, BOOL, "the condition of 'if'")
                self.statement(then, scope.knowing(tested(test, none=False)))
                if otherwise is not None:
                    self.statement(otherwise, scope.knowing(failed(test)))
            case _:  # pragma: no cover
                raise TypeError(f"not a statement: {node!r}")
