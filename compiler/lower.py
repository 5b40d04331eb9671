"""Pass 5, lower: the rule model -> an engine plan (tables and Python code for each rule).

Takes a checked :class:`~compiler.model.Rules`; returns an :class:`EnginePlan`: the
constant tables of the generated engine (cards, nobles, the player-count table, the
action table with one integer id per action and its notation), and, for every action
and step, the Python source of three functions: the legal-action generator, the
effect, and the explanation of why an action is illegal. Every decision about the
rules is made here; :mod:`compiler.emit_engine` only lays the plan out.

Expressions are compiled to Python, never interpreted at run time:

* aggregates over fixed collections (gems, colours, levels) are unrolled, and
  constant values are inlined with their name in a comment;
* a condition is split into its conjuncts, and each conjunct is tested at the
  outermost loop where every choice it mentions is bound (loop-invariant code
  motion); sub-expressions that do not depend on the inner choices are hoisted into
  locals the same way;
* a ``gem_set`` choice with a conjunct ``all(P(c) for c in set)`` iterates only over
  subsets of the colours that satisfy ``P``, from a table indexed by bitmask;
* a ``payment`` choice is not part of the action id: the action is legal when some
  payment is possible, and the player chooses among payments in a step of its own
  only when there are several (every distinct payment stays reachable).

The action phase's legal ids come from one fused function whose shape follows what
CPython executes cheaply (measured with ``bench/callgrind_engine.sh``): the players'
supply, tokens and bonuses read once into scalar locals; tests before any choice
nested as ``if`` blocks; a last choice over colours or levels unrolled into one test
per value; a gem set with no test left added from a table of ids; face-up slots and
reserved positions counted by hand rather than with ``enumerate``; a card's cost
unpacked into locals and the payment test staged (a shortfall in some gem first, the
sum of shortfalls against the gold only then); a purchase loop that reads nothing of
the card but its cost walks ``Game.face_up_costs``, a flat list of the face-up cards'
costs that the effects keep in step with the market (an empty slot holds a cost no one
can pay, so the loop needs no test for it). Every one of these is checked against
the plain compilation of the same conditions (each action's ``_why_NAME``) at every
decision of random games by ``tests/test_lowering.py``.
"""
from __future__ import annotations

import dataclasses
import itertools
import re
from dataclasses import dataclass, field

from .expr import (Aggregate, Attribute, Binary, Bool, Call, Compare, Conditional, Effect, ForEach, Index, Int,
                   Logic, Name, Unary, When, unparse, walk)
from .flow import DRAWS, token_bounds
from .model import Decision, Param, Rules
from .pysource import Code, UnsafeName, comment, docstring, identifier, literal, printable
from .notation import fill as notation_text  # check reads the same texts (E522)
from .source import shown_path


class LoweringBug(AssertionError):
    """What the lowering cannot build although `check` refuses every spec that would need it
    (E4xx types, E507, E508, E517-E519, E521, E522): reaching it is a bug of the compiler (exit 3), not of
    the spec. tests/test_gate.py holds check and compile to this."""

    def __init__(self, message: str, span=None):
        super().__init__(message)
        self.span = span


def spec_name(prefix: str, name: str, span=None) -> str:
    """The Python name of a spec name (a choice, a loop variable...): see pysource.identifier,
    which keeps it apart from every name the compiler makes itself."""
    try:
        return identifier(prefix, name)
    except UnsafeName as err:
        raise LoweringBug(str(err), span) from None


def unpacking(names) -> str:
    """Names as the target of a tuple unpacking (or the items of a tuple display): `a, b`, and
    `a,` for one name, where `a = t` would bind the whole tuple instead of its one item. Every
    unpacking the lowering writes goes through here, since a spec may have one gem colour, one
    level or one face-up slot."""
    names = list(names)
    return ", ".join(names) + ("," if len(names) == 1 else "")


# ----------------------------------------------------------------------------- layout


@dataclass
class ParamLayout:
    param: Param
    size: int  # number of values in the action table
    values: list  # the runtime value of each index (what the effect function receives)
    labels: list[str]  # notation text of each index


@dataclass
class DecisionPlan:
    decision: Decision
    index: int  # position in DECISIONS
    is_step: bool
    base: int  # first action id
    count: int
    layouts: list[ParamLayout]
    legal_src: str = ""
    apply_src: str = ""
    why_src: str = ""
    while_inline: str = ""  # the while-condition as an expression over the standard locals
    prefilter: str = ""  # a cheap test that holds whenever a step has a legal action (see _step_prefilter)
    payopts_src: str = ""  # only for a decision whose payment is chosen in a step of its own

    def function(self, prefix: str) -> str:
        """The name of this decision's function of one kind: '_legal_', '_do_', '_why_', '_payopts_'."""
        return spec_name(prefix, self.decision.name, self.decision.span)

    @property
    def deferred(self) -> "ParamLayout | None":
        """The payment choice, asked separately when several payments are possible (always last)."""
        last = self.layouts[-1] if self.layouts else None
        return last if last is not None and last.param.domain == "payment" else None

    @property
    def id_layouts(self) -> list["ParamLayout"]:
        """The choices that make up the action id: all but a deferred payment."""
        return self.layouts[:-1] if self.deferred is not None else self.layouts


@dataclass
class EnginePlan:
    rules: Rules
    gems: tuple[str, ...]
    colours: tuple[str, ...]
    levels: tuple[int, ...]
    max_face_up: int
    max_nobles: int
    max_gold: int
    payments: list[tuple[int, ...]]
    decisions: list[DecisionPlan]
    actions: list[tuple[int, tuple]]  # id -> (decision index, args)
    action_strings: list[str]
    # how each decision's actions are written: (form, what its placeholders stand for, payment asked next)
    notation_forms: list[tuple[str, str, bool]] = field(default_factory=list)
    action_phase_src: str = ""
    rank_src: str = ""
    max_reserved: int = 0
    helpers: list[str] = field(default_factory=list)
    advance_locals: list[str] = field(default_factory=list)  # bound in Game.apply for the step tests and end triggers
    end_inline: list[str] = field(default_factory=list)  # the end triggers as lines of Game.apply
    pay_index: int = -1  # decision index of the payment step, when some action has a payment
    pay_base: int = -1
    # Some legal loop walks Game.face_up_costs (see _flat_face_up_loop): effects keep it in step.
    face_up_costs: bool = False
    # The per-call locals a purchase test adds the tokens held to (see DecisionLowering._cannot_pay),
    # named by what they hold: `w0 = b0 + t0`...; purchases whose prices differ there get names of their own.
    cover_names: dict[tuple[str, ...], str] = field(default_factory=dict)

    @property
    def num_actions(self) -> int:
        return len(self.actions)


def gem_subsets(n: int, lo: int, hi: int) -> list[tuple[int, ...]]:
    """Subsets of range(n) with lo..hi members: by size, then in gem order."""
    return [s for k in range(lo, hi + 1) for s in itertools.combinations(range(n), k)]


def payment_vectors(gems: int, max_gold: int) -> list[tuple[int, ...]]:
    """Every way to spend up to `max_gold` gold across the gem colours; the zero vector first."""
    out = []
    for total in range(max_gold + 1):
        for combo in itertools.combinations_with_replacement(range(gems), total):
            vec = [0] * gems
            for g in combo:
                vec[g] += 1
            out.append(tuple(vec))
    return sorted(set(out), key=lambda v: (sum(v), tuple(-x for x in v)))


def layout_param(param: Param, plan: "EnginePlan") -> ParamLayout:
    gems, colours = plan.gems, plan.colours
    if param.domain == "gem":
        values, labels = list(range(len(gems))), list(gems)
    elif param.domain == "colour":
        values, labels = list(range(len(colours))), list(colours)
    elif param.domain == "gem_set":
        subsets = gem_subsets(len(gems), param.min, param.max)
        values, labels = subsets, [" ".join(gems[g] for g in s) for s in subsets]
    elif param.domain == "face_up":
        values = [(li, si) for li in range(len(plan.levels)) for si in range(plan.max_face_up)]
        labels = [f"{plan.levels[li]}.{si + 1}" for li, si in values]
    elif param.domain == "deck":
        values, labels = list(plan.levels), [str(lv) for lv in plan.levels]
    elif param.domain == "reserved":
        values, labels = list(range(param.slots)), [str(i + 1) for i in range(param.slots)]
    elif param.domain == "noble":
        values, labels = list(range(plan.max_nobles)), [str(i + 1) for i in range(plan.max_nobles)]
    elif param.domain == "payment":
        values = list(range(len(plan.payments)))
        labels = ["" if sum(v) == 0 else f"paying {plan.rules.wild} for " + " ".join(
            gems[g] for g in range(len(gems)) for _ in range(v[g])) for v in plan.payments]
    else:  # pragma: no cover - the checker rejects other domains
        raise LoweringBug(f"unknown domain {param.domain}", param.span)
    if param.optional:
        values, labels = values + [None], labels + [""]
    return ParamLayout(param, len(values), values, labels)


def _either(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def placeholder_meaning(lay: ParamLayout, plan: "EnginePlan") -> str:
    """What a choice's placeholder in a notation form stands for, in words."""
    p = lay.param
    if p.domain == "gem":
        return f"a gem colour ({_either(list(plan.gems))})"
    if p.domain == "colour":
        return f"a colour ({_either(list(plan.colours))})"
    if p.domain == "gem_set":
        many = f"{p.min} to {p.max}" if p.min != p.max else str(p.min)
        return f"{many} different gem colours among {', '.join(plan.gems)}"
    if p.domain == "face_up":
        return f"a face-up card as level.slot ({lay.labels[0]} to {lay.labels[-1 - p.optional]})"
    if p.domain == "deck":
        return f"a level ({_either([str(v) for v in plan.levels])})"
    if p.domain == "reserved":
        return f"one of your reserved cards (1 to {p.slots})"
    if p.domain == "noble":
        return f"a noble of the row (1 to {plan.max_nobles})"
    return ""


def notation_form(dp: "DecisionPlan", plan: "EnginePlan") -> tuple[str, str, bool]:
    """How a decision's actions are written, with a placeholder (its name in capitals) for
    each choice; what the placeholders stand for; whether a payment is asked next:
    `('buy CARD', 'CARD is a face-up card as level.slot (1.1 to 3.4)', True)`."""
    labels, meanings = {}, []
    for lay in dp.id_layouts:
        name = lay.param.name.upper()
        labels[lay.param.name] = name
        meanings.append(f"{name} is {placeholder_meaning(lay, plan)}" + (", or nothing" if lay.param.optional else ""))
    if dp.deferred is not None:
        labels[dp.deferred.param.name] = ""  # chosen in the payment step

    def group(match: re.Match) -> str:  # an optional [group] keeps its brackets, unless it is all payment
        names = re.findall(r"\{(\w+)\}", match.group(1))
        if names and not any(labels[n] for n in names):
            return ""
        return "[" + re.sub(r"\{(\w+)\}", lambda m: labels[m.group(1)], match.group(1)).strip() + "]"

    form = re.sub(r"\[([^\]]*)\]", group, dp.decision.notation)
    form = re.sub(r"\{(\w+)\}", lambda m: labels[m.group(1)], form)
    return " ".join(form.split()), " and ".join(meanings), dp.deferred is not None


# ----------------------------------------------------------------------------- code building


class Lines:
    def __init__(self) -> None:
        self.lines: list[str] = []

    def add(self, depth: int, text: str) -> None:
        self.lines.append("    " * depth + text)

    def text(self) -> str:
        return "\n".join(self.lines)


def add_locals(out: Lines) -> None:
    """The locals every generated rule function reads: the acting seat and its tokens and bonuses."""
    out.add(1, "me = g.cp")
    out.add(1, "sup = g.supply")
    out.add(1, "tok = g.tok[me]")
    out.add(1, "bon = g.bon[me]")


LOCAL_BINDINGS = (  # (name, the line binding it): checked in this order, since later ones feed earlier ones
    ("bon", "bon = g.bon[me]"), ("tok", "tok = g.tok[me]"), ("sup", "sup = g.supply"), ("me", "me = g.cp"),
    ("me", "me = p"),
)


def prune_locals(src: str) -> str:
    """Drop the standard locals (see add_locals) that a generated function never reads.

    Every rule function starts with the same four bindings so that any compiled
    expression can use them; one that a function does not read is a wasted attribute
    load on a hot path, and noise for the reader.
    """
    functions = re.split(r"(?m)^(?=def )", src)
    return "".join(_prune_function(f) for f in functions)


def _prune_function(text: str) -> str:
    lines = text.split("\n")
    for name, binding in LOCAL_BINDINGS:
        at = [i for i, line in enumerate(lines) if line.strip() == binding]
        if not at:
            continue
        rest = "\n".join(line for i, line in enumerate(lines) if i not in at)
        if not re.search(rf"\b{name}\b", rest):
            lines = [line for i, line in enumerate(lines) if i not in at]
    return "\n".join(lines)


def _prune_cost_locals(text: str) -> str:
    """Drop a legal loop's card-cost bindings (tuple, then one local per gem) that nothing reads.

    Loops bind both forms (`cc_p_card` and `cc_p_card_G0, ...`); tests read the per-gem
    locals when the gem is known at compile time and the tuple otherwise.
    """
    lines = text.split("\n")
    for card in sorted(set(re.findall(r"^\s*cc_(\w+) = CARD_COST\[\w+\]$", text, re.M))):
        unpack = next((i for i, line in enumerate(lines) if line.strip().endswith(f" = cc_{card}")), None)
        if unpack is not None:
            names = [n.strip() for n in lines[unpack].split("=")[0].split(",") if n.strip()]
            rest = "\n".join(line for i, line in enumerate(lines) if i != unpack)
            if not any(re.search(rf"\b{n}\b", rest) for n in names):
                del lines[unpack]
        bind = next(i for i, line in enumerate(lines) if line.strip() == f"cc_{card} = CARD_COST[{card}]")
        unpack = next((i for i, line in enumerate(lines) if line.strip().endswith(f" = cc_{card}")), None)
        rest = "\n".join(line for i, line in enumerate(lines) if i not in (bind, unpack))
        if not re.search(rf"\bcc_{card}\b", rest):  # the tuple itself is not needed
            if unpack is not None:
                lines[unpack] = lines[unpack].replace(f" = cc_{card}", f" = CARD_COST[{card}]")
            del lines[bind]
    return "\n".join(lines)


def _flat_face_up_loop(text: str, plan: "EnginePlan") -> tuple[str, bool]:
    """Walk the face-up cards' costs in one flat list when a loop reads nothing else of the card.

    A purchase loop over the market (rows, then slots, skipping empty ones, then the card's
    cost looked up and unpacked) spends most of its time on that bookkeeping. When the loop
    body reads the card only through its unpacked cost, and the body's first word on a card
    is the cannot-pay test (short of some gem and not enough gold), the loop can unpack
    costs straight from `g.face_up_costs` (level by level, `max_face_up` slots each; see
    the engine's _face_up_costs): an empty slot there costs _NO_CARD_COST, which that test
    always rejects, so no `is None` test is needed either. Returns the text and whether
    the rewrite happened (the effects then keep the list in step with the market).
    """
    lines = text.split("\n")
    done = False
    i = 0
    while i < len(lines):
        m = re.fullmatch(r"(\s*)for (p_\w+)_LI, _row in enumerate\(g\.market\):", lines[i])
        if not m:
            i += 1
            continue
        ind, name = m[1], m[2]
        head = re.fullmatch(rf"{ind}    {name}_ID = (?:(.+) \+ )?{name}_LI \* (\d+)", lines[i + 1])
        step = re.fullmatch(rf"{ind}        {name}_ID \+= (\d+)", lines[i + 3])
        cost = f"{ind}        " + unpacking(f"cc_{name}_G{gi}" for gi in range(len(plan.gems))) + f" = CARD_COST[{name}]"
        if not (head and step and lines[i + 2] == f"{ind}    for {name} in _row:"
                and lines[i + 4] == f"{ind}        if {name} is None:" and lines[i + 5] == f"{ind}            continue"
                and lines[i + 6] == cost and int(head[2]) == plan.max_face_up * int(step[1])):
            i += 1
            continue
        end = i + 7
        while end < len(lines) and (lines[end].startswith(ind + " " * 8) or not lines[end].strip()):
            end += 1
        body = lines[i + 7:end]
        over = " or ".join(rf"cc_{name}_G{gi} > w(?:\d+_)?{gi}" for gi in range(len(plan.gems)))
        top = ind + " " * 8
        test = next((k for k, line in enumerate(body) if re.match(rf"{top}if \({over}\) and \(not t", line)), None)
        append = next((k for k, line in enumerate(body) if "out.append(" in line), len(body))
        reads_card = any(re.search(rf"\b(?:{name}|cc_{name}|{name}_LI|_row)\b", line) for line in body)
        if test is None or test > append or reads_card or test + 1 == len(body) \
                or not body[test + 1].strip().startswith("continue"):
            i += 1
            continue
        first = head[1] or "0"
        unrolled = _unrolled_slots(body, test, top, name, first, int(step[1]), cost.strip().split(" = ")[0], plan)
        if unrolled is not None and not any(re.search(rf"\b{name}_ID\b", line) for line in lines[end:]):
            lines[i:end] = [ind + line for line in unrolled]
        else:
            lines[i:end] = [f"{ind}{name}_ID = {first}",
                            f"{ind}for {cost.strip().split(' = ')[0]} in g.face_up_costs:",
                            f"{ind}    {name}_ID += {step[1]}"] + [line[4:] for line in body]
        done = True
        i += 1
    return "\n".join(lines), done


def _unrolled_slots(body: list[str], test: int, top: str, name: str, first: str, step: int, targets: str,
                    plan: "EnginePlan") -> list[str] | None:
    """The flat purchase loop written out slot by slot, when its body is only the cannot-pay
    test and the append of the slot's id (comments aside): each slot's cost is unpacked from
    a local and its id is a constant, which saves the loop's own work (the iterator, the id
    counter, a jump back) on the hottest lines of a playout (about 3% of its instructions).
    `top` is the body's indentation; lines come out unindented; None when the body does anything else."""
    rest = [line for k, line in enumerate(body) if k not in (test, test + 1) and line.strip()]
    comments = [line.strip() for line in rest if line.strip().startswith("#")]
    appends = [line for line in rest if not line.strip().startswith("#")]
    if appends != [f"{top}out.append({name}_ID)"] or not body[test].endswith(":"):
        return None
    condition = body[test].strip()[len("if "):-1]
    skip = body[test + 1].split("#", 1)[1].strip() if "#" in body[test + 1] else "its test fails"
    slots = [(li, si) for li in range(len(plan.levels)) for si in range(plan.max_face_up)]
    names = [f"fu_{plan.levels[li]}_{si + 1}" for li, si in slots]
    out = ["# each face-up slot in turn (Game.face_up_costs, level by level), written out; "
           f"a slot is left out when {skip}",
           *comments,
           f"{unpacking(names)} = g.face_up_costs"]
    for k, slot in enumerate(names):
        offset = (k + 1) * step
        ident = str(int(first) + offset) if first.lstrip("-").isdigit() else f"{first} + {offset}"
        out += [f"{targets} = {slot}",
                f"if not ({condition}):",
                f"    out.append({ident})"]
    return out


def _unmet(condition, rules: Rules, decision: Decision) -> str:
    """Why an action is refused when `condition` fails: the rule in English words (as the
    sheets phrase it), then the condition as written and where (for the spec's author)."""
    from .sheets.phrases import PhraseError, describe

    written = f"{unparse(condition)}, {where(condition.span)}"
    try:
        words = describe(condition, "en", rules, decision)
    except (PhraseError, KeyError, ValueError):  # no phrase for it: the condition as written says it
        return f"condition not met: {written}"
    return f"condition not met: {words} ({written})"


def _truth(test: str) -> str:
    """A test that a count is at least 1, as the count itself (supply, tokens and bonuses are
    never negative), where only its truth is read."""
    m = re.fullmatch(r"\(([stb]\d+) (?:>= 1|> 0)\)", test)
    return m[1] if m else test


def _size_by_mask(code: str, k: int, gems: int) -> list[int] | None:
    """The value of a gem set's size expression for each bitmask, when it reads nothing but
    the mask of choice k (and the bit counts): else None, and the size is computed per call."""
    sizes = []
    bits = tuple(bin(m).count("1") for m in range(1 << gems))  # once: 2**gems masks each read it
    for mask in range(1 << gems):
        scope = {"__builtins__": {}, "_BITS": bits, f"mask_{k}": mask}
        try:
            value = eval(code, scope)  # noqa: S307 - code this module generated, run on constants
        except NameError:
            return None
        if not isinstance(value, int):
            return None
        sizes.append(value)
    return sizes


def _substitute(node, target, replacement):
    """`node` with the subtree `target` (the very object) replaced."""
    if node is target:
        return replacement
    if not dataclasses.is_dataclass(node):
        return node
    changes = {}
    for f in dataclasses.fields(node):
        value = getattr(node, f.name)
        if isinstance(value, tuple):
            new = tuple(_substitute(v, target, replacement) for v in value)
        else:
            new = _substitute(value, target, replacement)
        if new is not value and new != value:
            changes[f.name] = new
    return dataclasses.replace(node, **changes) if changes else node


def _every_face_up_slot(text: str, plan: "EnginePlan") -> str:
    """A loop that adds the id of every occupied face-up slot, and tests nothing else, gets a
    shortcut for a full market (the usual case): the whole range of ids at once, when
    Game.face_up_costs holds no empty slot's cost."""
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        m = re.fullmatch(r"(\s*)for (p_\w+)_LI, _row in enumerate\(g\.market\):", lines[i])
        if not m or i + 6 >= len(lines):
            i += 1
            continue
        ind, name = m[1], m[2]
        head = re.fullmatch(rf"{ind}    {name}_ID = (\d+) \+ {name}_LI \* (\d+)", lines[i + 1])
        step = re.fullmatch(rf"{ind}        {name}_ID \+= (\d+)", lines[i + 3])
        after = lines[i + 7] if i + 7 < len(lines) else ""
        if not (head and step and lines[i + 2] == f"{ind}    for {name} in _row:"
                and lines[i + 4] == f"{ind}        if {name} is None:" and lines[i + 5] == f"{ind}            continue"
                and lines[i + 6] == f"{ind}        out.append({name}_ID)"
                and not after.startswith(ind + " ") and int(head[2]) == plan.max_face_up * int(step[1])):
            i += 1
            continue
        first, stride = int(head[1]) + int(step[1]), int(step[1])
        last = int(head[1]) + stride * len(plan.levels) * plan.max_face_up
        ids = f"range({first}, {last + 1})" if stride == 1 else f"range({first}, {last + 1}, {stride})"
        lines[i:i + 7] = [f"{ind}if _NO_CARD_COST not in g.face_up_costs:  # every face-up slot holds a card",
                          f"{ind}    out.extend({ids})",
                          f"{ind}else:"] + ["    " + line for line in lines[i:i + 7]]
        i += 10
    return "\n".join(lines)


def conjuncts(node) -> list:
    if isinstance(node, Logic) and node.op == "and":
        return conjuncts(node.left) + conjuncts(node.right)
    if isinstance(node, Bool) and node.value:
        return []
    return [node]


def free_names(node) -> set[str]:
    """Names an expression refers to that are not bound inside it."""
    match node:
        case Name(id=i):
            return {i}
        case Aggregate(body=b, var=v, collection=c):
            return free_names(c) | (free_names(b) - {v})
        case ForEach(var=v, collection=c, body=b):
            return free_names(c) | (free_names(b) - {v})
    out: set[str] = set()
    from .expr import children
    for child in children(node):
        out |= free_names(child)
    return out


STATIC_COLLECTIONS = ("gems", "colours", "levels")


def _origin(arg, env) -> str:
    """Where a card argument was chosen ("face_up", "reserved"), or "" when it is not a choice."""
    bound = env.get(arg.id) if isinstance(arg, Name) else None
    return bound[3] if bound is not None and len(bound) > 3 else ""


def _located(node, name: str) -> str:
    """An effect as written, and its spec line, for the RuleError an engine raises there."""
    return f"{unparse(node)} ({where(node.span)})" if node is not None else name


def where(span) -> str:
    """A spec location as the engine shows it (in comments and messages): file:line, the file
    as pysource.shown_path gives it (never an absolute path)."""
    return f"{shown_path(span.file)}:{span.line}"


def raise_rule_error(located: str, template: str, values: str) -> str:
    """The statement raising the RuleError of an effect: the effect's text as it is (it may
    hold a '%', as the spec's `turn % 2` or a file name may), then a message of the
    compiler's own formatted with `values` (Python code)."""
    return f"raise RuleError({literal(located)} + {literal(template)} % ({values}))"


class ExprCompiler:
    """Compiles expressions and effects of one decision to Python source text.

    `env` maps a name to ('const', value) for unrolled loop variables, or to
    ('param', kind, pyname) for choices and ('var', kind, pyname) for runtime loop
    variables. The generated code runs with these locals: `g` (the game), `me` (the
    acting seat), `sup` (supply), `tok`/`bon` (the acting player's tokens and bonuses).
    """

    def __init__(self, plan: EnginePlan, hoist=None, scalars: bool = False):
        self.plan = plan
        # scalars: read supply/tokens/bonus entries at constant indexes from locals (s0, t0, b0...)
        # bound once per call; only where nothing is written while the code runs.
        self.scalars = scalars
        self.used_scalars: set[str] = set()
        self.values = {v.name: v.value for v in plan.rules.values}
        self.hoist = hoist  # callback(node, python) -> python name, or None
        self.temps = itertools.count()
        # Token moves (see effect): what the decision's condition guarantees, and what the
        # tests of the `if`s around an effect do; loops open around it; pools already drawn on.
        self.condition_bounds: dict = {}
        self.when_bounds: list[tuple[dict, int]] = []  # (bounds, how many loops were open at the `if`)
        self.loops: dict[str, str] = {}  # loop variable -> its collection, outermost first
        self.drawn: set[str] = set()

    # -- players and collections

    def player_attr(self, seat: str, attr: str, me: bool) -> str:
        if me:
            table = {"tokens": "tok", "bonus": "bon"}
            if attr in table:
                return table[attr]
        return {
            "tokens": f"g.tok[{seat}]", "bonus": f"g.bon[{seat}]", "prestige": f"g.pts[{seat}]",
            "purchased": f"len(g.bought[{seat}])", "reserved": f"len(g.res[{seat}])",
            "nobles": f"len(g.nob[{seat}])", "held": f"sum({'tok' if me else f'g.tok[{seat}]'})",
            "turns": f"g.turns[{seat}]", "seat": f"({seat} + 1)",
        }[attr]

    def static_elements(self, coll, env) -> list | None:
        """The elements of a collection fixed at compile time (gems, colours, levels), else None."""
        if isinstance(coll, Name) and coll.id in STATIC_COLLECTIONS and coll.id not in env:
            if coll.id == "gems":
                return list(range(len(self.plan.gems)))
            if coll.id == "colours":
                return list(range(len(self.plan.colours)))
            return list(self.plan.levels)
        return None

    def collection(self, coll, env) -> str:
        match coll:
            case Name(id="players") if "players" not in env:
                return "range(g.n)"
            case Name(id="others") if "others" not in env:
                return "[s for s in range(g.n) if s != me]"
            case Name(id=name) if name in env and env[name][0] in ("param", "var"):
                return env[name][2]
        elements = self.static_elements(coll, env)
        if elements is not None:
            return repr(tuple(elements))
        raise LoweringBug(f"cannot iterate over '{unparse(coll)}'", coll.span)

    def size(self, coll, env) -> str:
        """The number of elements of a collection: known now for gems, colours and levels."""
        elements = self.static_elements(coll, env)
        if elements is not None:
            return str(len(elements))
        match coll:
            case Name(id="players") if "players" not in env:
                return "g.n"
            case Name(id="others") if "others" not in env:
                return "(g.n - 1)"
        return f"len({self.collection(coll, env)})"

    @staticmethod
    def element_kind(coll) -> str:
        """What the loop variable of an aggregate or a `for` over `coll` holds: a player (a seat)
        over players and others, else a colour or a level (an int, as a colour is)."""
        return "player" if isinstance(coll, Name) and coll.id in ("players", "others") else "colour"

    def kind_of(self, node, env) -> str:
        """A coarse type of a value-producing node: player, card, noble, payment, colour, int..."""
        match node:
            case Name(id="me"):
                return "player"
            case Name(id=name) if name in env:
                return env[name][1]  # every env entry is (how, kind, ...)
        return "int"

    # -- expressions

    def expr(self, node, env) -> str:  # noqa: C901 - one dispatch over node kinds
        if self.hoist is not None and not isinstance(node, (Int, Bool, Name)):
            name = self.hoist(node, env)
            if name is not None:
                return name
        match node:
            case Int(value=v):
                return str(v)
            case Bool(value=v):
                return "True" if v else "False"
            case Name(id=name):
                if name in env:
                    entry = env[name]
                    return repr(entry[2]) if entry[0] == "const" else entry[2]
                if name in self.values:
                    return str(self.values[name])
                if name in self.plan.gems or name == self.plan.rules.wild:
                    return str(self.plan.colours.index(name))
                return {
                    "player_count": "g.n", "round": "g.round", "turn": "g.turn", "passes": "g.passes",
                    "nobles_left": "len(g.noble_row)", "none": "None", "me": "me",
                }[name]
            case Attribute(obj=obj, name=attr):
                return self.attribute(node, obj, attr, env)
            case Index(obj=obj, index=idx):
                i = self.expr(idx, env)
                if self.scalars and i.isdigit():
                    prefix = {"supply": "s", "tokens": "t", "bonus": "b"}.get(
                        obj.id if isinstance(obj, Name) else obj.name if isinstance(obj, Attribute)
                        and obj.obj == Name("me", None) and "me" not in env else "")
                    if prefix:
                        self.used_scalars.add(prefix)
                        return f"{prefix}{i}"
                match obj:
                    case Name(id="supply"):
                        return f"sup[{i}]"
                    case Name(id="deck"):
                        return f"len(g.decks[{int(i) - 1}])" if i.isdigit() else f"len(g.decks[{i} - 1])"
                    case Name(id="face_up"):
                        return f"(g.face_up_count({i}))"
                    case Attribute(obj=Name(id=owner), name="cost") if owner in env and env[owner][0] == "param":
                        if self.scalars and i.isdigit():  # legal loops unpack the cost into locals
                            return f"cc_{env[owner][2]}_G{i}"
                        return f"cc_{env[owner][2]}[{i}]"
                    case Attribute(obj=owner, name="cost"):
                        return f"CARD_COST[{self.expr(owner, env)}][{i}]"
                    case Attribute(obj=Name(id=owner), name="requires") if owner in env and env[owner][0] == "param":
                        return f"nr_{env[owner][2]}[{i}]"
                    case Attribute(obj=owner, name="requires"):
                        return f"NOBLE_REQUIRES[{self.expr(owner, env)}][{i}]"
                    case Attribute(obj=owner, name=("gold" | "spent") as part):
                        return f"{self.expr(owner, env)}_{part.upper()}[{i}]"
                    case Attribute(obj=owner, name=("tokens" | "bonus") as part):
                        return f"{self.attribute(obj, owner, part, env)}[{i}]"
                raise LoweringBug(f"cannot compile '{unparse(node)}'", node.span)
            case Call(func=("min" | "max") as func, args=(first, second)) \
                    if self._constant(first, env) is not None or self._constant(second, env) is not None:
                # min/max against a constant without a call: (t if (t := x) > k else k)
                k, other = (self._constant(first, env), second) if self._constant(first, env) is not None \
                    else (self._constant(second, env), first)
                temp = f"_t{next(self.temps)}"
                op = ">" if func == "max" else "<"
                return f"({temp} if ({temp} := {self.expr(other, env)}) {op} {k} else {k})"
            case Call(func="size", args=(coll,)):
                return self.size(coll, env)
            case Call(func=func, args=args):
                return f"{func}({', '.join(self.expr(a, env) for a in args)})"
            case Aggregate(func=func, body=body, var=var, collection=coll):
                return self.aggregate(func, body, var, coll, env)
            case Unary(op="-", operand=o):
                return f"(-{self.expr(o, env)})"
            case Unary(op="not", operand=o):
                return f"(not {self.expr(o, env)})"
            case Binary(op=op, left=l, right=r):
                return f"({self.expr(l, env)} {op} {self.expr(r, env)})"
            case Compare(op=("in" | "not in") as op, left=l, right=r):
                # the right side is a collection (gems, players, a chosen set...), iterated as a loop would
                left, elements = self.expr(l, env), self.static_elements(r, env)
                if elements is not None and left.lstrip("-").isdigit():  # both known now
                    return str((int(left) in elements) == (op == "in"))
                return f"({left} {op} {self.collection(r, env)})"
            case Compare(op=op, left=l, right=r):
                left, right = self.expr(l, env), self.expr(r, env)
                if "None" in (left, right) and op in ("==", "!="):
                    if left == "None":
                        left, right = right, left
                    if left.isdigit() or left == "None":  # a value unrolled into a constant: known now
                        return str((left == "None") == (op == "=="))
                    op = "is" if op == "==" else "is not"
                return f"({left} {op} {right})"
            case Logic(op=op, left=l, right=r):
                return f"({self.expr(l, env)} {op} {self.expr(r, env)})"
            case Conditional(test=t, then=a, otherwise=b):
                return f"({self.expr(a, env)} if {self.expr(t, env)} else {self.expr(b, env)})"
        raise LoweringBug(f"cannot compile '{unparse(node)}'", getattr(node, "span", None))

    def _constant(self, node, env) -> int | None:
        """The value of an integer literal or of a named value of the spec; None otherwise."""
        if isinstance(node, Int):
            return node.value
        if isinstance(node, Name) and node.id not in env and isinstance(self.values.get(node.id), int) \
                and not isinstance(self.values.get(node.id), bool):
            return self.values[node.id]
        return None

    def attribute(self, node, obj, attr, env) -> str:
        match obj:
            case Name(id="setup"):
                return f"g.setup_{attr}"
            case Name(id="me") if "me" not in env:
                return self.player_attr("me", attr, me=True)
        kind = self.kind_of(obj, env)
        owner = self.expr(obj, env)
        if kind == "player":
            return self.player_attr(owner, attr, me=False)
        if kind == "card":
            return {"points": f"CARD_POINTS[{owner}]", "bonus": f"CARD_BONUS[{owner}]",
                    "level": f"CARD_LEVEL[{owner}]", "cost": f"CARD_COST[{owner}]"}[attr]
        if kind == "noble":
            return {"points": f"NOBLE_POINTS[{owner}]", "requires": f"NOBLE_REQUIRES[{owner}]"}[attr]
        if kind == "payment":
            return {"gold_total": f"{owner}_GT", "gold": f"{owner}_GOLD", "spent": f"{owner}_SPENT"}[attr]
        raise LoweringBug(f"cannot compile '{unparse(node)}'", node.span)

    def aggregate(self, func, body, var, coll, env) -> str:
        elements = self.static_elements(coll, env)
        elem_kind = self.element_kind(coll)
        if elements is not None:
            parts = [self.expr(body, {**env, var: ("const", elem_kind, e)}) for e in elements]
            if not parts:
                return {"sum": "0", "count": "0", "all": "True", "any": "False"}.get(func, "0")
            if func == "sum":
                whole = self._whole_list(parts, coll)
                return f"sum({whole})" if whole else "(" + " + ".join(parts) + ")"
            if func == "count":  # ints, not bools: int + int is the interpreter's fast path
                return "(" + " + ".join(f"(1 if {part} else 0)" for part in parts) + ")"
            if func == "all":
                return "(" + " and ".join(parts) + ")"
            if func == "any":
                return "(" + " or ".join(parts) + ")"
            return f"{func}({', '.join(parts)})" if len(parts) > 1 else parts[0]
        pyvar = spec_name("v_", var, body.span)
        inner = self.expr(body, {**env, var: ("var", elem_kind, pyvar)})
        source = self.collection(coll, env)
        if func == "count":
            return f"sum(1 for {pyvar} in {source} if {inner})"
        if func in ("min", "max"):
            return f"{func}(({inner} for {pyvar} in {source}), default=0)"
        return f"{func}({inner} for {pyvar} in {source})"

    def _whole_list(self, parts: list[str], coll) -> str | None:
        """The list that `parts` index entry by entry from first to last (a bonus list over gems,
        a token list or the supply over colours), so that their sum is sum(list); else None."""
        m = re.fullmatch(r"(.+)\[0\]", parts[0]) if parts else None
        if m is None or parts != [f"{m[1]}[{i}]" for i in range(len(parts))]:
            return None
        lists = {"gems": r"bon|g\.bon\[\w+\]", "colours": r"tok|sup|g\.tok\[\w+\]"}
        name = coll.id if isinstance(coll, Name) else ""
        return m[1] if name in lists and re.fullmatch(lists[name], m[1]) else None

    # -- effects

    def face_up_cost(self, out: Lines, depth: int, card: str, cost: str) -> None:
        """After a write to a face-up slot: the same slot of Game.face_up_costs, when the engine keeps it."""
        if self.plan.face_up_costs:
            out.add(depth, f"g.face_up_costs[{card}_LI * {self.plan.max_face_up} + {card}_SI] = {cost}")

    def stmt(self, node, env, out: Lines, depth: int) -> None:
        match node:
            case ForEach(var=var, collection=coll, body=body):
                outer = self.loops
                self.loops = {**outer, var: unparse(coll)}
                elements = self.static_elements(coll, env)
                kind = self.element_kind(coll)
                if elements is not None:
                    for e in elements:
                        self.stmt(body, {**env, var: ("const", kind, e)}, out, depth)
                else:
                    pyvar = spec_name("v_", var, node.span)
                    out.add(depth, f"for {pyvar} in {self.collection(coll, env)}:")
                    self.stmt(body, {**env, var: ("var", kind, pyvar)}, out, depth + 1)
                self.loops = outer
            case When(test=test, then=then, otherwise=otherwise):
                out.add(depth, f"if {self.expr(test, env)}:")
                self.when_bounds.append((token_bounds(test, self.values), len(self.loops)))
                self.stmt(then, env, out, depth + 1)
                self.when_bounds.pop()
                if otherwise is not None:
                    out.add(depth, "else:")
                    self.stmt(otherwise, env, out, depth + 1)
            case Effect(name=name, args=args):
                self.effect(name, args, env, out, depth, node)

    def guaranteed(self, pool: str, colour, amount) -> bool:
        """Does a test guarantee `amount` tokens of `colour` in `pool` ("supply", "tokens") here?

        The test of an `if` around the effect holds when the effect runs; the decision's
        condition held before the effects began, so it speaks only for the first effect
        that draws on the pool. Either speaks for one run of the effect: for none inside a
        `for` opened after the test, but the one `for c in S` whose test was `all(... for c in S)`
        (it draws each colour of S once).
        """
        n = amount.value if isinstance(amount, Int) else self.values.get(amount.id) \
            if isinstance(amount, Name) and amount.id not in self.loops else None
        if not isinstance(n, int):
            return False
        loops = list(self.loops.items())
        sources = [(bounds, opened) for bounds, opened in self.when_bounds]
        if pool not in self.drawn:
            sources.append((self.condition_bounds, 0))
        for bounds, opened in sources:
            inner = loops[opened:]  # the loops opened since the test
            if not inner:
                key = (pool, unparse(colour))
            elif len(inner) == 1 and colour == Name(inner[0][0], None):
                key = (pool, "each " + inner[0][1])
            else:
                continue
            if bounds.get(key, -1) >= n:
                return True
        return False

    def reserve_room(self, node, out: Lines, depth: int) -> None:
        """A reserve never takes a hand past MAX_RESERVED (the positions its choices can name),
        unless a test guarantees room: `me.reserved < k`, k at most that, before the first reserve."""
        most = self.plan.max_reserved
        if not most:  # no choice names reserved cards: no bound to keep
            return
        sources = [bounds for bounds, opened in self.when_bounds if opened == len(self.loops)]
        if "reserved" not in self.drawn and not self.loops:
            sources.append(self.condition_bounds)
        if any(0 < bounds.get(("reserved", "room"), most + 1) <= most for bounds in sources):
            return
        message = ": the player holds %d reserved cards, the most this spec's choices of a reserved card can name"
        out.add(depth, f"if len(g.res[me]) >= {most}:")
        out.add(depth + 1, raise_rule_error(_located(node, 'reserve'), message, "len(g.res[me])"))

    def effect(self, name, args, env, out: Lines, depth: int, node=None) -> None:
        a = [self.expr(x, env) for x in args]
        ref = lambda i: env[args[i].id][2] if isinstance(args[i], Name) and args[i].id in env else a[i]  # noqa: E731
        if name in ("take", "put_back"):
            source, dest = ("sup", "tok") if name == "take" else ("tok", "sup")
            amount = a[1]
            if not amount.isdigit():  # an expression: evaluated once
                out.add(depth, f"_n = {amount}")
                amount = "_n"
                # a negative amount would move tokens the other way and take that pool below 0
                out.add(depth, "if _n < 0:")
                out.add(depth + 1, raise_rule_error(_located(node, name), ": a negative number of tokens (%d)", "_n"))
            pool = "supply" if name == "take" else "tokens"
            if not self.guaranteed(pool, args[0], args[1]):
                # a spec whose tests do not ensure the tokens are there: say so, never go below 0
                held = "in the supply" if name == "take" else "held by the player"
                message = f": only %d %s token(s) {held}"
                out.add(depth, f"if {source}[{a[0]}] < {amount}:")
                out.add(depth + 1, raise_rule_error(_located(node, name), message, f"{source}[{a[0]}], COLOURS[{a[0]}]"))
            out.add(depth, f"{source}[{a[0]}] -= {amount}")
            out.add(depth, f"{dest}[{a[0]}] += {amount}")
        elif name == "reserve":
            p = ref(0)
            self.reserve_room(node, out, depth)
            out.add(depth, f"g.res[me].append({p})")
            out.add(depth, f"g.market[{p}_LI][{p}_SI] = None")
            self.face_up_cost(out, depth, p, "_NO_CARD_COST")
        elif name == "refill":
            p = ref(0)
            out.add(depth, f"_deck = g.decks[{p}_LI]")
            if self.plan.face_up_costs:
                out.add(depth, "if _deck:")
                out.add(depth + 1, f"g.market[{p}_LI][{p}_SI] = _card = _deck.pop()")
                self.face_up_cost(out, depth + 1, p, "CARD_COST[_card]")
                out.add(depth, "else:")
                out.add(depth + 1, f"g.market[{p}_LI][{p}_SI] = None")
                self.face_up_cost(out, depth + 1, p, "_NO_CARD_COST")
            else:
                out.add(depth, f"g.market[{p}_LI][{p}_SI] = _deck.pop() if _deck else None")
        elif name == "reserve_top":
            self.reserve_room(node, out, depth)
            out.add(depth, f"_deck = g.decks[{a[0]} - 1]")
            out.add(depth, "if not _deck:")
            out.add(depth + 1, raise_rule_error(_located(node, 'reserve_top'), ": the deck of level %d is empty", a[0]))
            out.add(depth, "_card = _deck.pop()")
            out.add(depth, "g.res[me].append(_card)")
            out.add(depth, "g.blind[me].append(_card)")
        elif name == "pay":
            p = ref(0)
            for gi in range(len(self.plan.gems)):
                out.add(depth, f"if {p}_S{gi}:")
                out.add(depth + 1, f"tok[{gi}] -= {p}_S{gi}")
                out.add(depth + 1, f"sup[{gi}] += {p}_S{gi}")
            wild = len(self.plan.gems)
            out.add(depth, f"if {p}_GT:")
            out.add(depth + 1, f"tok[{wild}] -= {p}_GT")
            out.add(depth + 1, f"sup[{wild}] += {p}_GT")
        elif name == "acquire":
            p = ref(0)
            kind = env[args[0].id][1] if isinstance(args[0], Name) and args[0].id in env else "card"
            origin = _origin(args[0], env)
            if origin == "face_up":
                out.add(depth, f"if g.market[{p}_LI][{p}_SI] == {p}:")
                out.add(depth + 1, f"g.market[{p}_LI][{p}_SI] = None")
                self.face_up_cost(out, depth + 1, p, "_NO_CARD_COST")
            else:
                out.add(depth, f"if {p} in g.res[me]:")
                out.add(depth + 1, f"g.res[me].remove({p})")
                out.add(depth + 1, f"if {p} in g.blind[me]:")
                out.add(depth + 2, f"g.blind[me].remove({p})")
            assert kind == "card"
            out.add(depth, f"g.bought[me].append({p})")
            out.add(depth, f"bon[CARD_BONUS[{p}]] += 1")
            out.add(depth, f"g.pts[me] += CARD_POINTS[{p}]")
        elif name == "bury":  # to the bottom of its level's deck (drawn last)
            p = ref(0)
            origin = _origin(args[0], env)
            if origin == "face_up":
                out.add(depth, f"g.decks[{p}_LI].insert(0, {p})")
                out.add(depth, f"g.market[{p}_LI][{p}_SI] = None")
                self.face_up_cost(out, depth, p, "_NO_CARD_COST")
            else:
                out.add(depth, f"g.res[me].remove({p})")
                out.add(depth, f"if {p} in g.blind[me]:")
                out.add(depth + 1, f"g.blind[me].remove({p})")
                out.add(depth, f"g.decks[CARD_LEVEL[{p}] - 1].insert(0, {p})")
        elif name == "visit":
            p = ref(0)
            out.add(depth, f"g.noble_row.remove({p})")
            out.add(depth, f"g.nob[me].append({p})")
            out.add(depth, f"g.pts[me] += NOBLE_POINTS[{p}]")
        else:  # pragma: no cover - the checker rejects unknown effects
            raise LoweringBug(f"unknown effect {name}")


# ----------------------------------------------------------------------------- decisions


def scalar_preamble(plan: EnginePlan, used: set[str], depth: int) -> list[str]:
    """Lines binding s0.. (supply), t0.. (tokens) and b0.. (bonuses) for a scalarized function."""
    sources = {"s": ("sup", len(plan.colours)), "t": ("tok", len(plan.colours)), "b": ("bon", len(plan.gems))}
    lines = []
    for prefix in sorted(used):
        source, n = sources[prefix]
        lines.append("    " * depth + unpacking(f"{prefix}{i}" for i in range(n)) + f" = {source}")
    return lines


def _cheap(node) -> bool:
    """A test worth repeating per value rather than looping: no aggregate, call or conditional in it."""
    return not any(isinstance(x, (Aggregate, Call, Conditional)) for x in walk(node))


def _param_env(layouts: list[ParamLayout]) -> dict:
    env = {}
    for lay in layouts:
        p = lay.param
        kind = {"gem": "colour", "colour": "colour", "gem_set": "set", "face_up": "card", "reserved": "card",
                "deck": "int", "noble": "noble", "payment": "payment"}[p.domain]
        env[p.name] = ("param", kind, spec_name("p_", p.name, p.span), p.domain)
    return env


def _position(node, order: list[str]) -> int:
    """The index of the innermost choice `node` mentions (-1 for none)."""
    names = free_names(node)
    deps = [order.index(n) for n in names if n in order]
    return max(deps, default=-1)


class DecisionLowering:
    """Generates the legal-action generator, the effect and the explanation of one decision."""

    def __init__(self, plan: EnginePlan, dp: DecisionPlan):
        self.plan = plan
        self.dp = dp
        self.d = dp.decision
        self.order = [lay.param.name for lay in dp.layouts]
        self.env = _param_env(dp.layouts)
        self.where = where(self.d.span)

    def strides(self) -> list[int]:
        out, stride = [], 1
        for lay in reversed(self.dp.id_layouts):
            out.append(stride)
            stride *= lay.size
        return list(reversed(out))

    def legal(self, fused: bool = False) -> str:
        """def _legal_NAME(g, out): append the id of every legal action of this decision.

        With `fused`, the same code as a block of the action phase's single legal function
        (see :func:`lower_action_phase`): no def, no locals of its own, and `break` where the
        function would return. `self.used_scalars` then says which scalar locals it reads.
        """
        d, layouts = self.d, self.dp.layouts
        n = len(layouts)
        blocks: list[Lines] = [Lines() for _ in range(n + 1)]
        hoisted: dict[tuple, str] = {}
        counter = itertools.count()
        current_level = [0]
        emitted: set[int] = set()  # levels whose block is already written out: nothing more goes there
        optional = {lay.param.name for lay in layouts if lay.param.optional}

        def hoist(node, env):
            if isinstance(node, (Attribute, Index)) and not isinstance(node, Aggregate):
                if not any(isinstance(x, (Aggregate, Call)) for x in walk(node)):
                    return None  # cheap enough inline
            if any(isinstance(x, Name) and x.id in env and env[x.id][0] in ("const", "var") for x in walk(node)):
                return None  # depends on a loop variable of an enclosing aggregate
            if any(isinstance(x, Name) and x.id in optional for x in walk(node)):
                return None  # may be `none`: evaluating it early could fail where the spec guards it
            level = _position(node, self.order) + 1
            if level >= current_level[0] or level in emitted:
                return None  # (a price is compiled as its loop is written, after the blocks before it)
            key = (level, unparse(node))
            if key not in hoisted:
                name = f"h{next(counter)}"
                saved = compiler.hoist
                compiler.hoist = None
                blocks[level].add(0, f"{name} = {compiler.expr(node, env)}")
                compiler.hoist = saved
                hoisted[key] = name
            return hoisted[key]

        compiler = ExprCompiler(self.plan, hoist, scalars=True)
        placed: list[list] = [[] for _ in range(n + 1)]
        for c in conjuncts(d.condition):
            placed[_position(c, self.order) + 1].append(c)

        # gem_set masks: all(P(v) for v in set) tested per colour, once, before the loop.
        masks: dict[int, str] = {}
        mask_tests: dict[int, list[str]] = {}  # the test of each colour, as compiled for the mask
        for k, lay in enumerate(layouts):
            if lay.param.domain != "gem_set":
                continue
            for c in list(placed[k + 1]):
                if (isinstance(c, Aggregate) and c.func == "all" and isinstance(c.collection, Name)
                        and c.collection.id == lay.param.name
                        and _position(c.body, self.order) < k):
                    parts = []
                    current_level[0] = k
                    for gi in range(len(self.plan.gems)):
                        body = compiler.expr(c.body, {**self.env, c.var: ("const", "colour", gi)})
                        mask_tests.setdefault(k, []).append(body)
                        parts.append(f"({1 << gi} if {_truth(body)} else 0)")
                    blocks[k].add(0, f"mask_{k} = " + " | ".join(parts) + f"  # {comment(unparse(c))}")
                    masks[k] = f"mask_{k}"
                    placed[k + 1].remove(c)

        # gem_set sizes: size(set) == E, E fixed before the loop, picks the subsets of that size only.
        sizes: dict[int, str] = {}
        size_code: dict[int, str] = {}
        size_text: dict[int, str] = {}
        for k, lay in enumerate(layouts):
            if lay.param.domain != "gem_set":
                continue
            for c in list(placed[k + 1]):
                if not (isinstance(c, Compare) and c.op == "=="):
                    continue
                for this, other in ((c.left, c.right), (c.right, c.left)):
                    if (isinstance(this, Call) and this.func == "size" and this.args == (Name(lay.param.name, None),)
                            and _position(other, self.order) < k):
                        current_level[0] = k
                        other, env = self._count_from_mask(other, compiler, mask_tests.get(k), k)
                        size_code[k] = compiler.expr(other, env)
                        size_text[k] = unparse(c)
                        blocks[k].add(0, f"size_{k} = {size_code[k]}  # {comment(unparse(c))}")
                        sizes[k] = f"size_{k}"
                        placed[k + 1].remove(c)
                        break
                if k in sizes:
                    break

        for level in range(n + 1):
            current_level[0] = level
            for c in placed[level]:
                blocks[level].add(0, f"if not {compiler.expr(c, self.env)}:  # {comment(unparse(c))}")
                blocks[level].add(1, "CONTINUE")

        out = Lines()
        if not fused:
            out.add(0, f"def {self.dp.function('_legal_')}(g, out):")
            out.add(1, docstring(printable(f"Legal actions of {'step' if self.dp.is_step else 'action'} '{d.name}' ({self.where}).")))
            add_locals(out)
        scalar_at = len(out.lines)
        preamble: list[str] = []  # per-call locals the loops need, after the scalars
        strides = self.strides()
        index_terms: list[str] = [str(self.dp.base)]

        def emit_block(level: int, depth: int, in_loop: bool):
            emitted.add(level)
            for line in blocks[level].lines:
                text = line.replace("CONTINUE", "continue" if in_loop else "break" if fused else "return")
                stripped = text.lstrip(" ")
                indent = (len(text) - len(stripped)) // 4
                out.add(depth + indent, stripped)

        depth = 2 if fused else 1
        self.guarded = any("CONTINUE" in line for line in blocks[0].lines)  # a test before any choice
        emit_block(0, depth, False)
        for k, lay in enumerate(layouts):
            p = lay.param
            name = spec_name("p_", p.name, p.span)
            idx = f"i_{k}"
            stride = strides[k] if k < len(strides) else 0  # 0: a deferred payment, not in the id
            if p.domain in ("gem", "colour", "deck") and k == n - 1 and not p.optional \
                    and all(_cheap(c) for c in placed[k + 1]):
                # The last choice is a colour (or a level) and its tests are plain comparisons: one
                # test per value, unrolled, so each reads its own scalar local (s0, t0...) without a loop.
                values = list(self.plan.levels) if p.domain == "deck" else \
                    list(range(len(self.plan.gems) if p.domain == "gem" else len(self.plan.colours)))
                labels = [f"level {lv}" for lv in self.plan.levels] if p.domain == "deck" else self.plan.colours
                saved, compiler.hoist = compiler.hoist, None
                if placed[k + 1]:
                    spec_text = " and ".join(unparse(c) for c in placed[k + 1])
                    out.add(depth, f"# {comment(spec_text)}, for each {comment(p.name)}")
                for v, value in enumerate(values):
                    env = {**self.env, p.name: ("const", "int" if p.domain == "deck" else "colour", value)}
                    tests = [compiler.expr(c, env) for c in placed[k + 1]]
                    terms = index_terms + [str(v * stride)]
                    fixed = sum(int(t) for t in terms if t.isdigit())
                    variable = [t for t in terms if not t.isdigit()]
                    ident = " + ".join(variable + ([str(fixed)] if fixed or not variable else []))
                    if tests:
                        out.add(depth, f"if {' and '.join(tests)}:  # {comment(labels[v])}")
                        out.add(depth + 1, f"out.append({ident})")
                    else:
                        out.add(depth, f"out.append({ident})")
                compiler.hoist = saved
                return self._finish_legal(out, scalar_at, compiler, preamble, fused)
            if p.domain in ("gem", "colour"):
                limit = len(self.plan.gems) if p.domain == "gem" else len(self.plan.colours)
                if p.optional:
                    table = f"_WITH_NONE_{limit}"
                    helper = f"{table} = {tuple(range(limit)) + (None,)!r}"
                    if helper not in self.plan.helpers:
                        self.plan.helpers.append(helper)
                    out.add(depth, f"for {idx}, {name} in enumerate({table}):")
                else:
                    out.add(depth, f"for {name} in range({limit}):")
                    idx = name
            elif p.domain == "gem_set" and k == n - 1 and not blocks[k + 1].lines and not p.optional \
                    and index_terms == [str(self.dp.base)] and stride == 1:
                # Nothing more to test: the legal ids are a row of a table, added in one call.
                table = f"SUBSET_IDS_{self.dp.index}_{k}"
                mask = masks.get(k, str((1 << len(self.plan.gems)) - 1))
                by_mask = _size_by_mask(size_code[k], k, len(self.plan.gems)) if k in sizes and k in masks else None
                if by_mask is not None:  # the size follows from the mask: one row of ids per mask
                    self._add_helper(self._subset_table(table, lay, by_size=False, base=self.dp.base, sizes=by_mask))
                    out.lines.remove(next(line for line in out.lines if line.strip().startswith(f"size_{k} = ")))
                    out.add(depth, f"out.extend({table}[{mask}])  # {comment(size_text[k])}")
                    return self._finish_legal(out, scalar_at, compiler, preamble, fused)
                self._add_helper(self._subset_table(table, lay, by_size=k in sizes, base=self.dp.base))
                if k in sizes:
                    out.add(depth, f"if 0 <= {sizes[k]} <= {len(self.plan.gems)}:")
                    out.add(depth + 1, f"out.extend({table}[{mask}][{sizes[k]}])")
                else:
                    out.add(depth, f"out.extend({table}[{mask}])")
                return self._finish_legal(out, scalar_at, compiler, preamble, fused)
            elif p.domain == "gem_set":
                table = f"SUBSETS_{self.dp.index}_{k}"
                self._add_helper(self._subset_table(table, lay, by_size=k in sizes))
                mask = masks.get(k, str((1 << len(self.plan.gems)) - 1))
                if k in sizes:
                    out.add(depth, f"for {idx}, {name} in ({table}[{mask}][{sizes[k]}] "
                                   f"if 0 <= {sizes[k]} <= {len(self.plan.gems)} else ()):")
                else:
                    out.add(depth, f"for {idx}, {name} in {table}[{mask}]:")
                if p.optional:
                    raise LoweringBug("an optional gem_set is not supported", p.span)
            elif p.domain == "face_up":
                if p.optional:
                    raise LoweringBug("an optional face_up is not supported", p.span)
                # The id of slot si of row li is (li * slots + si) * stride plus the ids of the
                # choices before: all but si are fixed for a row, so added once per row.
                # The slot's id is counted up as the row is walked (cheaper than enumerate).
                out.add(depth, f"for {name}_LI, _row in enumerate(g.market):")
                row_stride = self.plan.max_face_up * stride
                fixed = sum(int(t) for t in index_terms if t.isdigit()) - stride
                first = " + ".join([t for t in index_terms if not t.isdigit()] + [str(fixed)] * (fixed != 0))
                out.add(depth + 1, f"{name}_ID = {first + ' + ' if first else ''}{name}_LI * {row_stride}")
                out.add(depth + 1, f"for {name} in _row:")
                out.add(depth + 2, f"{name}_ID += {stride}")
                out.add(depth + 2, f"if {name} is None:")
                out.add(depth + 3, "continue")
                if self._reads_cost(p.name):
                    out.add(depth + 2, f"cc_{name} = CARD_COST[{name}]")
                    out.add(depth + 2, f"{self._cost_locals(name)} = cc_{name}")
                depth += 2
                index_terms = [f"{name}_ID"]
                emit_block(k + 1, depth, True)
                continue
            elif p.domain == "deck":
                out.add(depth, f"for {idx}, {name} in enumerate(LEVELS):")
            elif p.domain == "reserved":  # positions counted by hand: cheaper than enumerate
                out.add(depth, f"{idx} = -1")
                out.add(depth, f"for {name} in g.res[me]:")
                out.add(depth + 1, f"{idx} += 1")
                if self._reads_cost(p.name):
                    out.add(depth + 1, f"cc_{name} = CARD_COST[{name}]")
                    out.add(depth + 1, f"{self._cost_locals(name)} = cc_{name}")
            elif p.domain == "noble":
                out.add(depth, f"{idx} = -1")
                out.add(depth, f"for {name} in g.noble_row:")
                out.add(depth + 1, f"{idx} += 1")
                if self._reads_attribute(p.name, "requires"):
                    out.add(depth + 1, f"nr_{name} = NOBLE_REQUIRES[{name}]")
            elif p.domain == "payment":
                wild = len(self.plan.gems)
                compiler.used_scalars.add("t")
                out.add(depth, f"# price: {comment(unparse(p.price))}")
                # The price is compiled here, in the loop: a part of it hoisted to a block already
                # written would never be bound (price 'size(levels)': NameError in the engine).
                saved_hoist, compiler.hoist = compiler.hoist, None
                short = self._cannot_pay(p, compiler, k, bool(blocks[k + 1].lines), out, depth, preamble)
                compiler.hoist = saved_hoist
                out.add(depth, f"if {short}:")
                out.add(depth + 1, "continue  # the player cannot pay, even with all the gold they hold")
                if k != n - 1 or k == 0:
                    raise LoweringBug("a payment must be the last choice of its action, after the card", p.span)
                if blocks[k + 1].lines:  # conditions on the payment: is there one payment they accept?
                    price_tuple = "(" + ", ".join(f"_p{gi}" for gi in range(wild)) + ",)"  # a tuple for one gem colour too
                    out.add(depth, f"for _i, {name}_GOLD, {name}_SPENT, {name}_GT in _payments({price_tuple}, tok):")
                    emit_block(k + 1, depth + 1, True)
                    out.add(depth + 1, "break")
                    out.add(depth, "else:")
                    out.add(depth + 1, "continue  # no payment meets the conditions")
                out.add(depth, f"out.append({' + '.join(index_terms)})")
                return self._finish_legal(out, scalar_at, compiler, preamble, fused)
            if p.optional and p.domain not in ("gem", "colour"):
                raise LoweringBug(f"an optional choice of domain {p.domain} is not supported", p.span)
            depth += 1
            index_terms.append(f"{idx} * {stride}" if stride != 1 else idx)
            emit_block(k + 1, depth, True)
        out.add(depth, f"out.append({' + '.join(index_terms)})")
        return self._finish_legal(out, scalar_at, compiler, preamble, fused)

    def _count_from_mask(self, node, compiler: "ExprCompiler", tests: list[str] | None, k: int):
        """`node`, with a count over the gems of the very test the mask of choice k was built
        from replaced by that mask's number of bits (a table lookup instead of one test per gem),
        and the environment that reads it."""
        if tests is None:
            return node, self.env
        saved, compiler.hoist = compiler.hoist, None
        try:
            for x in walk(node):
                if not (isinstance(x, Aggregate) and x.func == "count" and x.collection == Name("gems", None)):
                    continue
                mine = [compiler.expr(x.body, {**self.env, x.var: ("const", "colour", gi)})
                        for gi in range(len(self.plan.gems))]
                if mine == tests:
                    table = "_BITS = " + repr(tuple(bin(m).count("1") for m in range(1 << len(tests)))) + \
                        "  # the number of colours in each bitmask"
                    self._add_helper(table)
                    local = f"bits_{k}"
                    return _substitute(node, x, Name(local, x.span)), \
                        {**self.env, local: ("var", "int", f"_BITS[mask_{k}]")}
        finally:
            compiler.hoist = saved
        return node, self.env

    def _finish_legal(self, out: Lines, at: int, compiler: "ExprCompiler", preamble: list[str], fused: bool) -> str:
        """Put the per-call locals in front of the loops; a fused block leaves them to its caller."""
        self.used_scalars = set(compiler.used_scalars)
        self.preamble = list(preamble)
        if not fused:
            out.lines[at:at] = scalar_preamble(self.plan, compiler.used_scalars, 1) + preamble
        text, flat = _flat_face_up_loop(_prune_cost_locals(out.text()), self.plan)
        self.plan.face_up_costs |= flat
        return text

    def _cost_locals(self, card: str) -> str:
        """The locals a legal loop unpacks a card's cost into (one per gem)."""
        return unpacking(f"cc_{card}_G{gi}" for gi in range(len(self.plan.gems)))

    def _reads_cost(self, card: str) -> bool:
        """Does the condition or a price of this decision read `card.cost[...]`?"""
        return self._reads_attribute(card, "cost")

    def _mentions(self, param: str, attr: str) -> bool:
        """Does anything of this decision (condition, prices, effects) read `param.attr`?"""
        return self._reads_attribute(param, attr, in_effects=True)

    def _reads_attribute(self, param: str, attr: str, in_effects: bool = False) -> bool:
        """Does the condition or a price (and, with `in_effects`, an effect) of this decision read `param.attr`?"""
        nodes = [self.d.condition] + [p.price for p in self.d.params if p.price is not None]
        if in_effects:
            nodes += self.d.effects
        return any(isinstance(x, Attribute) and x.name == attr and x.obj == Name(param, None)
                   for node in nodes for x in walk(node))

    def _cannot_pay(self, p: Param, compiler: "ExprCompiler", k: int, keep_prices: bool, out: Lines, depth: int,
                   preamble: list[str]) -> str:
        """A condition: the player cannot pay this price even with all the gold they hold.

        The general form computes each gem's price, then max(0, price - tokens). When the
        price is max(0, X - Y) and nothing needs the prices themselves, max(0, max(0, X - Y)
        - tokens) is max(0, X - (Y + tokens)) since tokens are never negative; Y + tokens is
        computed once per call when Y does not depend on the card.
        """
        gems = range(len(self.plan.gems))
        inner = None
        match p.price:
            case Call(func="max", args=(Int(value=0), other)) | Call(func="max", args=(other, Int(value=0))):
                inner = other
        if keep_prices or inner is None:
            for gi in gems:
                out.add(depth, f"_p{gi} = {compiler.expr(p.price, {**self.env, 'c': ('const', 'colour', gi)})}")
            return " + ".join(f"(_p{gi} - t{gi} if _p{gi} > t{gi} else 0)" for gi in gems) + f" > t{len(gems)}"
        terms, over = [], []
        covered = isinstance(inner, Binary) and inner.op == "-" and _position(inner.right, self.order) < k - 1 \
            and not any(isinstance(x, Name) and x.id in self.order for x in walk(inner.right))
        if covered:
            rights = tuple(compiler.expr(inner.right, {**self.env, "c": ("const", "colour", gi)}) for gi in gems)
            cover = self.plan.cover_names.setdefault(rights, "w" if not self.plan.cover_names
                                                     else f"w{len(self.plan.cover_names)}_")
        for gi in gems:
            env = {**self.env, "c": ("const", "colour", gi)}
            if covered:
                preamble.append(f"    {cover}{gi} = {rights[gi]} + t{gi}  # {comment(unparse(inner.right))} plus the tokens held")
                diff = f"{compiler.expr(inner.left, env)} - {cover}{gi}"
            else:
                diff = f"{compiler.expr(inner, env)} - t{gi}"
            if diff.count(" - ") == 1:  # X - w: plain locals, cheaper to repeat than to name
                over.append(diff.replace(" - ", " > ", 1))
                terms.append(f"({diff} if {over[-1]} else 0)")
            else:
                over.append(f"{diff} > 0")
                terms.append(f"(_d{gi} if (_d{gi} := {diff}) > 0 else 0)")
        wild = len(self.plan.gems)
        # Short of some gem (tested gem by gem, stopping at the first), and the gold held does
        # not cover the total shortfall: the purchase is impossible.
        return f"({' or '.join(over)}) and (not t{wild} or {' + '.join(terms)} > t{wild})"

    def _add_helper(self, text: str) -> None:
        if text not in self.plan.helpers:  # each decision is lowered twice (alone and fused)
            self.plan.helpers.append(text)

    def _subset_table(self, table: str, lay: ParamLayout, by_size: bool, base: int | None = None,
                      sizes: list[int] | None = None) -> str:
        """The subsets of the colours in each bitmask, with their index (by size if `by_size`).

        With `base`, each entry is the action id of the subset (base + index) instead. With
        `sizes` (one per bitmask), only the subsets of that bitmask's size.
        """
        n = len(self.plan.gems)
        rows = []
        entry = (lambda i, s: f"{base + i}, ") if base is not None else (lambda i, s: f"({i}, {s!r}), ")
        members = [(i, s, sum(1 << g for g in s)) for i, s in enumerate(lay.values)]  # each subset as a bitmask
        for mask in range(1 << n):
            entries = [(i, s) for i, s, bits in members if bits & ~mask == 0]
            if sizes is not None:
                entries = [(i, s) for i, s in entries if len(s) == sizes[mask]]
            if by_size:
                groups = ["(" + "".join(entry(i, s) for i, s in entries if len(s) == size) + ")"
                          for size in range(n + 1)]
                rows.append("    (" + ", ".join(groups) + "),")
            else:
                rows.append("    (" + "".join(entry(i, s) for i, s in entries) + "),")
        what = "by bitmask, then by size" if by_size else \
            "by bitmask, of the size the rules allow with it" if sizes is not None else "by bitmask"
        content = "action ids of the subsets of the colours" if base is not None else \
            "subsets of the colours, with their index"
        return f"{table} = (  # {content}, {what}\n" + "\n".join(rows) + "\n)"

    def bind_params(self, out: Lines, depth: int, args: str | None, layouts=None) -> None:
        """Decode the action's args tuple into the locals the effects use."""
        layouts = self.dp.layouts if layouts is None else layouts
        names = [spec_name("a_", lay.param.name, lay.param.span) for lay in layouts]
        if names and args is not None:
            out.add(depth, f"{unpacking(names)} = {args}")
        for lay in layouts:
            p = lay.param
            name, arg = spec_name("p_", p.name, p.span), spec_name("a_", p.name, p.span)
            if p.domain in ("gem", "colour", "gem_set", "deck"):
                out.add(depth, f"{name} = {arg}")
            elif p.domain == "face_up":
                out.add(depth, f"{name}_LI, {name}_SI = {arg}")
                out.add(depth, f"{name} = g.market[{name}_LI][{name}_SI]")
                out.add(depth, f"cc_{name} = CARD_COST[{name}]")
            elif p.domain == "reserved":
                out.add(depth, f"{name} = g.res[me][{arg}]")
                out.add(depth, f"cc_{name} = CARD_COST[{name}]")
            elif p.domain == "noble":
                out.add(depth, f"{name} = g.noble_row[{arg}]")
                out.add(depth, f"nr_{name} = NOBLE_REQUIRES[{name}]")
            elif p.domain == "payment":
                compiler = ExprCompiler(self.plan)
                prices = [compiler.expr(p.price, {**self.env, "c": ("const", "colour", gi)})
                          for gi in range(len(self.plan.gems))]
                gems = range(len(self.plan.gems))
                gold = unpacking(f"_g{gi}" for gi in gems)
                whole = f" = {name}_GOLD" if self._mentions(p.name, "gold") else ""
                out.add(depth, f"{gold}{whole} = PAYMENTS[{arg}]  # gold spent on each gem")
                for gi in gems:  # the tokens of each gem spent: its price less the gold paid for it
                    out.add(depth, f"{name}_S{gi} = {prices[gi]} - _g{gi}")
                out.add(depth, f"{name}_GT = {' + '.join(f'_g{gi}' for gi in gems)}")
                if self._mentions(p.name, "spent"):
                    out.add(depth, f"{name}_SPENT = ({', '.join(f'{name}_S{gi}' for gi in gems)},)")

    def apply(self) -> str:
        d = self.d
        out = Lines()
        out.add(0, f"def {self.dp.function('_do_')}(g, args):")
        out.add(1, docstring(printable(f"Effects of {'step' if self.dp.is_step else 'action'} '{d.name}' ({self.where}).")))
        add_locals(out)
        self.bind_params(out, 1, "args")
        compiler = ExprCompiler(self.plan)
        if d.resolve != "all":  # a step resolved whole applies actions all found legal before the first
            compiler.condition_bounds = token_bounds(d.condition, compiler.values)
        for stmt in d.effects:
            out.add(1, f"# {comment(unparse(stmt))}")
            compiler.stmt(stmt, self.env, out, 1)
            compiler.drawn |= {DRAWS[x.name] for x in walk(stmt) if isinstance(x, Effect) and x.name in DRAWS}
        if not d.effects:
            out.add(1, "pass")
        return out.text()

    def why(self) -> str:
        """def _why_NAME(g, args): the first reason the action is not legal, in words."""
        d = self.d
        out = Lines()
        out.add(0, f"def {self.dp.function('_why_')}(g, args):")
        add_locals(out)
        layouts = self.dp.id_layouts
        names = [spec_name("a_", lay.param.name, lay.param.span) for lay in layouts]
        if names:
            out.add(1, f"{unpacking(names)} = args")
        for lay in layouts:  # choices that name a place that may be empty
            p = lay.param
            arg = spec_name("a_", p.name, p.span)
            if p.domain == "face_up":
                out.add(1, f"if {arg}[1] >= len(g.market[{arg}[0]]) or g.market[{arg}[0]][{arg}[1]] is None:")
                out.add(2, f"return 'there is no face-up card at %d.%d' % (LEVELS[{arg}[0]], {arg}[1] + 1)")
            elif p.domain == "reserved":
                out.add(1, f"if {arg} >= len(g.res[me]):")
                out.add(2, f"return 'you have no reserved card %d' % ({arg} + 1)")
            elif p.domain == "noble":
                out.add(1, f"if {arg} >= len(g.noble_row):")
                out.add(2, f"return 'there is no noble %d in the row' % ({arg} + 1)")
        self.bind_params(out, 1, None, layouts)
        compiler = ExprCompiler(self.plan)
        deferred = self.dp.deferred
        for c in conjuncts(d.condition):
            if deferred is not None and deferred.param.name in free_names(c):
                continue  # a condition on the payment: checked below, over every payment
            out.add(1, f"if not {compiler.expr(c, self.env)}:")
            out.add(2, f"return {literal(_unmet(c, self.plan.rules, d))}")
        if deferred is not None:
            out.add(1, f"if not {self.dp.function('_payopts_')}(g, args):")
            out.add(2, "return 'the player cannot pay the price of this card in any way the rules allow'")
        out.add(1, "return None")
        return out.text()

    def payopts(self) -> str:
        """def _payopts_NAME(g, args): the payments (indexes) the rules accept for this purchase."""
        d, deferred = self.d, self.dp.deferred
        p = deferred.param
        name = spec_name("p_", p.name, p.span)
        out = Lines()
        out.add(0, f"def {self.dp.function('_payopts_')}(g, args):")
        out.add(1, docstring(printable(f"Payments accepted for '{d.name}' ({self.where}), as indexes of PAYMENTS.")))
        add_locals(out)
        self.bind_params(out, 1, "args", self.dp.id_layouts)
        compiler = ExprCompiler(self.plan)
        prices = [compiler.expr(p.price, {**self.env, "c": ("const", "colour", gi)})
                  for gi in range(len(self.plan.gems))]
        out.add(1, f"_price = ({', '.join(prices)},)  # {comment(unparse(p.price))}")
        tests = [c for c in conjuncts(d.condition) if p.name in free_names(c)]
        if not tests:
            out.add(1, "return [_i for _i, _g, _s, _t in _payments(_price, tok)]")
            return out.text()
        out.add(1, "found = []")
        out.add(1, f"for _i, {name}_GOLD, {name}_SPENT, {name}_GT in _payments(_price, tok):")
        for c in tests:
            out.add(2, f"if not {compiler.expr(c, self.env)}:  # {comment(unparse(c))}")
            out.add(3, "continue")
        out.add(2, "found.append(_i)")
        out.add(1, "return found")
        return out.text()


def lower_action_phase(plan: EnginePlan) -> str:
    """def _action_phase_legal(g, out): every action's legal ids, in one call with shared locals.

    The action phase asks every action for its legal ids at each turn; one function that
    runs each action's block in turn saves a call and the reading of the same locals per
    action. Each block is the code of `_legal_NAME`, its tests before the first choice
    turned into nested ifs (see :func:`_nest_guards`).
    """
    out = Lines()
    out.add(0, "def _action_phase_legal(g, out):")
    out.add(1, '"""Legal ids of every action of the action phase (the one taken when stuck excepted)."""')
    add_locals(out)
    scalar_at = len(out.lines)
    used: set[str] = set()
    preamble: list[str] = []  # per-call locals of the blocks (they read scalars only), each once
    guard = None  # the `if` line of the last block when that block is one guarded `if` (else None)
    for dp in plan.decisions:
        if dp.is_step or dp.decision.only_when_stuck:
            continue
        low = DecisionLowering(plan, dp)
        body = low.legal(fused=True)
        used |= low.used_scalars
        preamble += [line for line in low.preamble if line not in preamble]
        heading = f"    # {comment(f'{dp.decision.name} ({low.where})')}"
        lines = _nest_guards(body.splitlines()) if low.guarded else [line[4:] for line in body.splitlines()]
        single = bool(lines) and lines[0].startswith("    if ") and all(line.startswith("        ") for line in lines[1:])
        if single and lines[0] == guard:
            # The block before tested the same thing first: its `if` holds this block too
            # (legal code only appends ids, so the test still means the same; ids stay in order).
            out.lines.append("    " + heading)
            out.lines.extend(lines[1:])
            continue
        out.lines.append(heading)
        out.lines.extend(lines)
        guard = lines[0] if single else None
    out.lines[scalar_at:scalar_at] = scalar_preamble(plan, used, 1) + preamble
    return out.text()


def _nest_guards(lines: list[str]) -> list[str]:
    """A fused block's `if not X: break` tests (depth 2) become `if X:` around the rest of the block.

    The block was generated for a one-pass loop (`break` leaves it); nesting does the same
    without the loop. Compiled conditions are parenthesized or atomic, so dropping `not` is safe.
    """
    out: list[str] = []
    extra = 0  # levels of nesting opened so far
    skip = False
    for i, line in enumerate(lines):
        if skip:
            skip = False
            continue
        text = line[8:] if line.startswith("        ") else None
        guard = re.match(r"if not (.*):(  #.*)?$", text) if text is not None and not text.startswith(" ") else None
        if guard and i + 1 < len(lines) and lines[i + 1] == "            break":
            out.append("    " * (1 + extra) + f"if {guard.group(1)}:{guard.group(2) or ''}")
            extra += 1
            skip = True
            continue
        out.append("    " * extra + line[4:])
    return out


def lower_step_tests(plan: EnginePlan) -> list[str]:
    """Each step's while-condition as an expression for Game.apply, and the locals it needs.

    apply tests each step's condition inline, then the end triggers (plan.end_inline,
    lowered first); the locals they read are bound once per call, with `g` the game (the
    name the rule functions use).
    """
    tests = []
    for dp in plan.decisions:
        if dp.is_step and dp.decision.while_ is not None:
            dp.while_inline = ExprCompiler(plan).expr(dp.decision.while_, _param_env(dp.layouts))
            tests.append(dp.while_inline)
        if dp.is_step:
            dp.prefilter = _step_prefilter(plan, dp)
            tests.append(dp.prefilter)
    return _locals_for("\n".join(tests + plan.end_inline))


def _step_prefilter(plan: EnginePlan, dp: DecisionPlan) -> str:
    """A test that every legal action of a step implies, cheap enough to run before asking for them.

    A step runs at every end of turn, and most turns it has nothing to offer: a noble
    visit needs bonuses no one has early in the game. When a conjunct of the step's
    condition is ``all(A(c) >= X.requires[c] for c in gems)`` (or ``X.cost``) for a
    chosen noble (or card) X and an A that does not depend on the choices, a legal
    action implies sum(A(c) for c in gems) >= the smallest total of that table over
    every noble (card). Returns that test, or "" when there is none worth making.
    """
    chosen = {lay.param.name: lay.param.domain for lay in dp.layouts}
    for c in conjuncts(dp.decision.condition):
        if not (isinstance(c, Aggregate) and c.func == "all" and c.collection == Name("gems", None)
                and isinstance(c.body, Compare) and c.body.op in (">=", "<=")):
            continue
        have, need = (c.body.left, c.body.right) if c.body.op == ">=" else (c.body.right, c.body.left)
        match need:
            case Index(obj=Attribute(obj=Name(id=x), name=attr), index=Name(id=v)) if v == c.var and x in chosen:
                pass
            case _:
                continue
        table = {("noble", "requires"): [n.requires for n in plan.rules.nobles],
                 **{(domain, "cost"): [k.cost for k in plan.rules.cards] for domain in ("face_up", "reserved")}
                 }.get((chosen[x], attr))
        if not table or free_names(have) & (set(chosen) | {"gems"}):
            continue
        least = min(sum(row) for row in table)
        if least <= 0:
            continue
        total = Aggregate("sum", have, c.var, c.collection, c.span)
        return f"{ExprCompiler(plan).expr(total, _param_env(dp.layouts))} >= {least}"
    return ""


def _locals_for(code: str) -> list[str]:
    """The lines binding `g` (the game, in a Game method) and the standard locals `code` reads."""
    needed = {name for name, _ in LOCAL_BINDINGS if re.search(rf"\b{name}\b", code)}
    if needed & {"sup", "tok", "bon"}:
        needed.add("me")
    if not needed and not re.search(r"\bg\b", code):
        return []
    return ["g = self"] + [b for name, b in reversed(LOCAL_BINDINGS) if name in needed and b != "me = p"]


def lower_end_inline(plan: EnginePlan) -> list[str]:
    """The end triggers as statements of Game.apply, after the steps: the first that holds acts.

    A trigger that finishes immediately ends the game here; one that completes the round
    records where the game will end (the last seat), unless an earlier trigger already did.
    """
    compiler = ExprCompiler(plan)
    body: list[str] = []
    for i, t in enumerate(plan.rules.end):
        test = compiler.expr(t.when, {})
        body.append(f"{'if' if i == 0 else 'elif'} {test}:  # {comment(f'{t.name}: {unparse(t.when)} ({where(t.span)})')}")
        if t.finish == "immediately":
            body.append("    self.step, self.step_count = _N_STEPS, 0  # every step done")
            body.append(f"    self._finish({literal(t.name)})")
            body.append("    return")
        else:
            body.append("    if self.ending is None:")
            body.append(f"        self.ending = ({literal(t.name)}, {literal(t.finish)}, self.n - 1)")
    return body


def lower_ranking(plan: EnginePlan) -> str:
    """def _eligible(g, p) and def _rank_key(g, p): who may win, and the ranking chain."""
    w = plan.rules.winners
    compiler = ExprCompiler(plan)
    env = {"player": ("var", "player", "p")}
    out = Lines()
    out.add(0, "def _eligible(g, p):")
    out.add(1, "me = p")
    out.add(1, "sup = g.supply")
    out.add(1, f"return {compiler.expr(w.eligible, env)}  # {comment(unparse(w.eligible))}")
    out.add(0, "")
    out.add(0, "")
    out.add(0, "def _rank_key(g, p):")
    out.add(1, '"""Larger is better; levels in spec order."""')
    out.add(1, "me = p")
    out.add(1, "sup = g.supply")
    keys = []
    for level in w.ranking:
        sign = "" if level.prefer == "highest" else "-"
        keys.append(f"{sign}{compiler.expr(level.by, env)}")
        out.add(1, f"# {comment(f'{level.name}: {level.prefer} {unparse(level.by)} ({where(level.span)})')}")
    out.add(1, f"return ({unpacking(keys)})")
    return out.text()


def payments_helper(gems: int) -> str:
    """def _payments(price, tok): every payment of `price` by the holder of `tok`, as nested loops.

    A payment spends gold g[i] for gem i: at least what tokens cannot cover, at most the
    price, and no more gold than held. Loops are unrolled over the gem colours.
    """
    out = Lines()
    out.add(0, "def _payments(price, tok):")
    out.add(1, '"""(index, gold, spent, gold total) of every payment of `price` the holder of `tok` can make."""')
    out.add(1, f"gold = tok[{gems}]")
    out.add(1, unpacking(f"p{i}" for i in range(gems)) + " = price")
    for i in range(gems):
        out.add(1, f"n{i} = p{i} - tok[{i}] if p{i} > tok[{i}] else 0")
    out.add(1, "short = " + " + ".join(f"n{i}" for i in range(gems)))
    out.add(1, "if short > gold:")
    out.add(2, "return ()")
    out.add(1, "out = []")
    out.add(1, "r = gold - short")
    for i in range(gems):
        prev = "r" if i == 0 else f"r{i - 1}"
        out.add(1 + i, f"for e{i} in range((p{i} - n{i} if p{i} - n{i} < {prev} else {prev}) + 1):")
        out.add(2 + i, f"r{i} = {prev} - e{i}")
    depth = 1 + gems
    vec = ", ".join(f"n{i} + e{i}" for i in range(gems))
    out.add(depth, f"v = ({vec},)")
    out.add(depth, "out.append((_PAYMENT_INDEX[v], v, (" + ", ".join(f"p{i} - v[{i}]" for i in range(gems))
            + ",), gold - " + f"r{gems - 1}))")
    out.add(1, "out.sort()")
    out.add(1, "return out")
    return out.text()


def lower(rules: Rules) -> EnginePlan:
    """Lay out the action table and generate the code of every rule."""
    plan = EnginePlan(
        rules=rules, gems=rules.gems, colours=rules.colours, levels=rules.levels,
        max_face_up=max(p.face_up for p in rules.players), max_nobles=max(p.nobles for p in rules.players),
        max_gold=max(p.gold for p in rules.players), payments=[], decisions=[], actions=[], action_strings=[])
    plan.payments = payment_vectors(len(rules.gems), plan.max_gold)
    plan.helpers.append(payments_helper(len(rules.gems)))
    base = 0
    for index, (decision, is_step) in enumerate([(a, False) for a in rules.actions] + [(s, True) for s in rules.steps]):
        layouts = [layout_param(p, plan) for p in decision.params]
        count = 1
        for lay in layouts:
            count *= lay.size
        dp = DecisionPlan(decision, index, is_step, base, count, layouts)
        ids = dp.id_layouts
        count = 1
        for lay in ids:
            count *= lay.size
        dp.count = count
        for combo in itertools.product(*[range(lay.size) for lay in ids]):
            args = tuple(lay.values[i] for lay, i in zip(ids, combo, strict=True))
            labels = {lay.param.name: lay.labels[i] for lay, i in zip(ids, combo, strict=True)}
            if dp.deferred is not None:
                labels[dp.deferred.param.name] = ""  # chosen in the payment step
            plan.actions.append((index, args))
            plan.action_strings.append(notation_text(decision.notation, labels))
        base += count
        plan.decisions.append(dp)
        plan.notation_forms.append(notation_form(dp, plan))
        for p in decision.params:
            if p.domain == "reserved":
                plan.max_reserved = max(plan.max_reserved, p.slots)
    if any(dp.deferred is not None for dp in plan.decisions):
        # The payment step: when a purchase can be paid in several ways, the player then
        # chooses one (every distinct payment stays reachable, one decision each).
        clash = next((dp.decision for dp in plan.decisions if dp.decision.name == "payment"), None)
        if clash is not None:
            raise LoweringBug("'payment' names the step in which a purchase is paid; give this one another name",
                                clash.span)
        plan.pay_index, plan.pay_base = len(plan.decisions), base
        for pi, vec in enumerate(plan.payments):
            plan.actions.append((plan.pay_index, (pi,)))
            paid = " ".join(rules.gems[g] for g in range(len(rules.gems)) for _ in range(vec[g]))
            wild = rules.wild  # the payment step is written with the spec's wild colour
            plan.action_strings.append(f"pay {wild} for {paid}" if paid else f"pay without {wild}")
        example = max(range(len(plan.payments)), key=lambda i: (min(2, len([n for n in plan.payments[i] if n])), -i))
        plan.notation_forms += [(f"pay {rules.wild} for GEMS", f"GEMS is the gem colour each {rules.wild} token "
                                 f"stands for, as in '{plan.action_strings[plan.pay_base + example]}'", False),
                                (f"pay without {rules.wild}", "", False)]
    seen: dict[str, int] = {}
    for a, text in enumerate(plan.action_strings):
        if text in seen:
            names = [plan.decisions[plan.actions[i][0]].decision.name if plan.actions[i][0] != plan.pay_index
                     else "the payment step" for i in (seen[text], a)]
            span = plan.decisions[plan.actions[a][0]].decision.span if plan.actions[a][0] != plan.pay_index else None
            raise LoweringBug(f"two actions are written the same way, '{text}' ({names[0]} and {names[1]}); "
                                "make their notations differ", span)
        seen[text] = a
    # Legal code first: it decides whether the effects keep Game.face_up_costs in step.
    for dp in plan.decisions:
        if dp.is_step or dp.decision.only_when_stuck:  # the other actions are blocks of the fused function
            dp.legal_src = prune_locals(DecisionLowering(plan, dp).legal())
    plan.action_phase_src = prune_locals(lower_action_phase(plan))
    if plan.face_up_costs:
        plan.action_phase_src = _every_face_up_slot(plan.action_phase_src, plan)
        for dp in plan.decisions:
            dp.legal_src = _every_face_up_slot(dp.legal_src, plan)
    for dp in plan.decisions:
        low = DecisionLowering(plan, dp)
        dp.apply_src = prune_locals(low.apply())
        dp.why_src = prune_locals(low.why())
        dp.payopts_src = prune_locals(low.payopts()) if dp.deferred is not None else ""
    plan.end_inline = lower_end_inline(plan)
    plan.advance_locals = lower_step_tests(plan)  # after the end triggers: it binds their locals too
    plan.rank_src = prune_locals(lower_ranking(plan))
    _drop_unused_helpers(plan)
    _mark_code(plan)
    return plan


def _mark_code(plan: EnginePlan) -> None:
    """Mark the generated code as pysource.Code, the only text the engine template writes: it
    was built here from compiled expressions, names made by pysource.identifier, literals
    and comments made by pysource (never from a spec's text as it is)."""
    plan.action_phase_src, plan.rank_src = Code(plan.action_phase_src), Code(plan.rank_src)
    plan.helpers = [Code(h) for h in plan.helpers]
    plan.advance_locals = [Code(line) for line in plan.advance_locals]
    plan.end_inline = [Code(line) for line in plan.end_inline]
    for dp in plan.decisions:
        for name in ("legal_src", "apply_src", "why_src", "payopts_src", "while_inline", "prefilter"):
            setattr(dp, name, Code(getattr(dp, name)))


def _drop_unused_helpers(plan: EnginePlan) -> None:
    """Drop the helper tables that no generated code reads (a lowering may make one and then
    find a cheaper form, e.g. bit counts folded into a table of ids)."""
    code = [plan.action_phase_src, plan.rank_src, *plan.advance_locals, *plan.end_inline] + \
        [src for dp in plan.decisions for src in (dp.legal_src, dp.apply_src, dp.why_src, dp.payopts_src,
                                                  dp.while_inline, dp.prefilter)]
    kept = []
    for helper in plan.helpers:
        name = re.match(r"\s*(?:def\s+)?(\w+)", helper)[1]
        elsewhere = code + [h for h in plan.helpers if h is not helper]
        if any(re.search(rf"\b{name}\b", text) for text in elsewhere):
            kept.append(helper)
    plan.helpers = kept
