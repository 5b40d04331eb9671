"""Scaffold: the text of a new, commented variant file (`splendor-rules new`).

Takes the new variant's name, how its ``extends`` names the base, and the base's
checked :class:`~compiler.model.Rules`; returns YAML text that changes nothing yet
(so it checks clean as written) and lists, in comments, every section a variant can
change -- with the base's own entries and numbers, the fields of each kind of entry
(read from rulespec/schema.json through :func:`compiler.front.shapes.shapes`) and the form
of a change, an addition (``add: true``), a removal (``remove: reason``) and a
``note``. Writing the file is the CLI's job.

The base is untrusted: its texts reach the file only through :func:`yaml_comment` (every
comment line, made one line) or :func:`yaml_entry` (a YAML scalar, quoted as needed), so
that no title can end a comment and add rules, or make the file invalid YAML.
"""

from __future__ import annotations

import re

import yaml

from compiler.front import schema
from compiler.front.expr import unparse
from compiler.front.shapes import Shape, object_schema, shapes
from compiler.model import Rules
from compiler.safe_text import yaml_comment

NAME = re.compile(r"^[a-z0-9][a-z0-9_-]*$")  # as rulespec/schema.json's `name`


def title_of(name: str) -> str:
    """'my-house-rules' -> 'My house rules'."""
    words = re.split(r"[-_]+", name)
    return " ".join(words)[:1].upper() + " ".join(words)[1:]


def yaml_entry(key: str, value: str) -> str:
    """`key: value` as YAML that reads back as exactly `value` (quoted and escaped as needed)."""
    return yaml.safe_dump({key: value}, allow_unicode=True, width=float("inf")).rstrip("\n")


def _fields(shape: Shape) -> str:
    """The fields of one kind of entry, with the choices of those that are an enumeration."""
    defs = schema.load_schema()["$defs"]
    enums: dict[str, list] = {}
    for definition in defs.values():
        for field, prop in object_schema(definition).get("properties", {}).items():
            if isinstance(prop, dict) and "enum" in prop:
                enums.setdefault(field, prop["enum"])
    out = []
    for field in shape.fields:
        out.append(f"{field} ({'|'.join(map(str, enums[field]))})" if field in enums and field != "domain" else field)
    return ", ".join(out)


def _free_name(name: str, taken: list[str]) -> str:
    """`name`, or `name_2`, `name_3`... when the base already has an entry of that name."""
    n = 1
    while (f"{name}_{n}" if n > 1 else name) in taken:
        n += 1
    return f"{name}_{n}" if n > 1 else name


def _entry_fields(section: str) -> str:
    root = shapes()
    shape = root.part(section)
    if shape.kind == "keyed":
        shape = shape.each()
    return _fields(shape)


def skeleton(name: str, extends: str, base: Rules, path: str, base_shown: str | None = None) -> str:
    """A variant named `name` of `base` (written `extends: <extends>`) at `path`, that changes nothing yet.

    `base_shown` is how the comments name the base for the user (its name, as they typed it, or
    its path from where they stand); by default the path the base was read from."""
    base_shown = base_shown or base.source.path
    width = max(len(d.name) for d in base.actions + base.steps)
    rich = _free_name("rich", [d.name for d in base.definitions])
    lines = [
        *_header(name, extends, base, path, base_shown),
        *_players_section(base),
        *_values_section(base),
        *_actions_section(base, width),
        *_steps_section(base, width),
        *_setup_section(base, width),
        *_define_section(base, width, rich),
        *_prestige_section(base, width, rich),
        *_state_section(base, width),
        *_end_section(base),
        *_winners_section(base),
        *_components_section(base),
        *_interpretations_section(),
    ]
    # Every comment line, with whatever spec text it holds, stays one comment line.
    return "\n".join(yaml_comment(line) if line.startswith("#") else line for line in lines) + "\n"


def _header(name: str, extends: str, base: Rules, path: str, base_shown: str) -> list[str]:
    """What a variant is and how to change a section, then the variant's own keys."""
    return [
        f"# {name}: a house variant of {base.title.en} ({base_shown}).",
        "#",
        "# A variant states only what it changes; everything else comes from its base. As written,",
        "# this file changes nothing: uncomment and edit the examples below, or write your own.",
        "#",
        "# The reference of the format: rulespec/README.md (every section, domain, expression",
        "# name and effect) and rulespec/schema.json (every key, with a description).",
        f"#   check it:          splendor-rules check {path}",
        f"#   see what changes:  splendor-rules diff {base_shown} {path}",
        "#   then list it in variants/index.yaml, so that the build and the tests include it.",
        "#",
        "# How a variant changes a keyed section (players, values, actions, end_of_turn, end,",
        "# winners.ranking, and an action's or step's choose):",
        "#   change an entry   its name and only the fields that change; the rest stays as in the base",
        "#   add an entry      `add: true` and the whole entry; `before: NAME` or `after: NAME` places it",
        "#   move an entry     `before: NAME` or `after: NAME` on an existing action, step, end",
        "#                     trigger or ranking level (their order matters)",
        '#   remove an entry   `NAME: {remove: "the reason it goes"}` (a reason is required)',
        '#   explain it        `note: "what it changes and why"` on the entry (a text, or a mapping',
        "#                     {en, fr, nl, sr}); notes are shown on the sheets and by `diff`.",
        "# Any other section (components, winners, interpretations) is changed field by field; a",
        "# list or a text replaces the base's, except `effects` and `interpretations` given as",
        "# {prepend: [...], append: [...]}, which keep the base's items between the new ones.",
        "# Changing a name the base does not have is an error.",
        "",
        "spec: 1",
        yaml_entry("name", name),
        yaml_entry("extends", extends),
        yaml_entry("title", title_of(name)) + "            # or {en: ..., fr: ..., nl: ..., sr: ...}",
        yaml_entry("description", f"A house variant of {base.title.en}."),
        "",
    ]


def _players_section(base: Rules) -> list[str]:
    """The player-count table, with a row changed and one added."""
    rows = [
        f"#   {p.players}: {{gems: {p.gems}, gold: {p.gold}, nobles: {p.nobles}, face_up: {p.face_up}}}"
        for p in base.players
    ]
    first_row = base.players[0]
    biggest = base.players[-1]
    return [
        "# ------------------------------------------------------------------ players",
        f"# One row per number of players. Fields: {_entry_fields('players')}.",
        "# The base's table:",
        *rows,
        "# players:",
        f'#   {first_row.players}: {{gold: {first_row.gold}, note: "Why this row changes."}}',
        f"#   {biggest.players + 1}: {{add: true, gems: {biggest.gems}, gold: {biggest.gold}, "
        f'nobles: {biggest.nobles}, face_up: {biggest.face_up}, note: "A new player count."}}',
        "",
    ]


def _values_section(base: Rules) -> list[str]:
    """The named values, with one changed and one added."""
    values = ", ".join(f"{v.name}: {v.value}" for v in base.values) or "none"
    first_value = base.values[0] if base.values else None
    number = "my_number" if all(v.name != "my_number" for v in base.values) else "my_other_number"
    return [
        "# ------------------------------------------------------------------ values",
        f"# Named numbers that conditions use. Fields: {_entry_fields('values')} (or just the number).",
        f"# The base's values: {values}.",
        "# values:",
        *(
            [f'#   {first_value.name}: {{value: {first_value.value}, note: "Why the number changes."}}']
            if first_value
            else []
        ),
        f'#   {number}: {{value: 3, add: true, note: "A new number, for a condition of this variant."}}',
        "",
    ]


def _actions_section(base: Rules, width: int) -> list[str]:
    """The actions, with a condition changed and an action removed."""
    param = shapes().part("actions").each().part("choose").each()
    first_action = base.actions[0]
    last_action = base.actions[-1]
    return [
        "# ------------------------------------------------------------------ actions",
        "# On a turn the player takes exactly one action.",
        f"# Fields: {_entry_fields('actions')}.",
        f"# A choice (under choose): {_fields(param)}; domain is one of",
        "#   gem, colour, gem_set, face_up, deck, reserved, noble, payment.",
        "# The base's actions:",
        *[f"#   {d.name:<{width}}  {d.title.en}  (notation: {d.notation})" for d in base.actions],
        "# actions:",
        f"#   {first_action.name}:",
        f'#     condition: "{unparse(first_action.condition)}"',
        '#     note: "What the new condition changes, and why."',
        f'#   {last_action.name}: {{remove: "Why this action goes."}}',
        "",
    ]


def _steps_section(base: Rules, width: int) -> list[str]:
    """The end-of-turn steps, with one changed."""
    first_step = base.steps[0] if base.steps else None
    return [
        "# ------------------------------------------------------------------ end_of_turn",
        "# After the action, these steps run in order.",
        f"# Fields: {_entry_fields('end_of_turn')}.",
        "# The base's steps:",
        *([f"#   {d.name:<{width}}  {d.title.en}  (notation: {d.notation})" for d in base.steps] or ["#   (none)"]),
        "# end_of_turn:",
        *([f'#   {first_step.name}: {{resolve: {first_step.resolve}, note: "Why."}}'] if first_step else []),
        "",
    ]


def _setup_section(base: Rules, width: int) -> list[str]:
    """The setup blocks, with one added."""
    return [
        "# ------------------------------------------------------------------ setup",
        "# Once, after the deal: blocks of effects, in order; with `each_player: true` a block runs",
        "# once for each player in seat order, that player acting.",
        f"# Fields: {_entry_fields('setup')}.",
        "# The base's setup blocks:",
        *([f"#   {s.name:<{width}}  {s.title.en}" for s in base.setup] or ["#   (none)"]),
        "# setup:",
        f"#   {_free_name('head_start', [s.name for s in base.setup])}: {{add: true, title: Starting holdings, "
        f'each_player: true, effects: ["take({base.wild}, 1)"], note: "Why."}}',
        "",
    ]


def _define_section(base: Rules, width: int, rich: str) -> list[str]:
    """The definitions, with `rich` added."""
    return [
        "# ------------------------------------------------------------------ define",
        "# Named conditions and quantities, called as name(arguments) in any expression. A body",
        "# reads its parameters and the game's names, never `me` or `player` (pass them: rich(me)).",
        f"# Fields: {_entry_fields('define')}.",
        "# The base's definitions:",
        *([f"#   {d.name:<{width}}  {d.title.en}" for d in base.definitions] or ["#   (none)"]),
        "# define:",
        f'#   {rich}: {{add: true, title: "{{p}} holds 3 {base.wild} tokens", params: {{p: player}}, '
        f'is: "p.tokens[{base.wild}] >= 3", note: "Why."}}',
        "",
    ]


def _prestige_section(base: Rules, width: int, rich: str) -> list[str]:
    """The prestige sources, with one added that calls `rich`."""
    return [
        "# ------------------------------------------------------------------ prestige",
        "# Prestige besides cards and nobles, a number over `player`, counted wherever prestige is",
        "# (me.prestige, the end triggers, the ranking, the scores).",
        f"# Fields: {_entry_fields('prestige')}.",
        "# The base's prestige sources:",
        *([f"#   {x.name:<{width}}  {x.title.en}" for x in base.prestige] or ["#   (none)"]),
        "# prestige:",
        f"#   {_free_name('hoard', [x.name for x in base.prestige])}: {{add: true, title: Hoard, "
        f'by: "if {rich}(player) then 1 else 0", note: "Why."}}',
    ]


def _state_section(base: Rules, width: int) -> list[str]:
    """The variables, with one added."""
    return [
        "# ------------------------------------------------------------------ state",
        "# What the rules remember: variables for the game (read as NAME) or for each player (read",
        "# as me.NAME), written by the effects set, add, insert and drop; `reset: turn` forgets one",
        "# when each turn begins.",
        f"# Fields: {_entry_fields('state')}.",
        "# The base's variables:",
        *([f"#   {v.name:<{width}}  {v.title.en}" for v in base.variables] or ["#   (none)"]),
        "# state:",
        f"#   {_free_name('cards_bought', [v.name for v in base.variables])}: {{add: true, title: Cards bought, "
        'per_player: true, type: number, initial: 0, note: "Why."}',
        "",
    ]


def _end_section(base: Rules) -> list[str]:
    """The end triggers, with one changed."""
    first_end = base.end[0]
    return [
        "# ------------------------------------------------------------------ end",
        "# End triggers, checked at the end of every turn for the player whose turn it was.",
        f"# Fields: {_entry_fields('end')}.",
        "# The base's triggers:",
        *[f"#   {t.name}: when {unparse(t.when)}, finish {t.finish}" for t in base.end],
        "# end:",
        f'#   {first_end.name}: {{finish: {first_end.finish}, note: "Why."}}',
        "",
    ]


def _winners_section(base: Rules) -> list[str]:
    """Who wins, with a ranking level added."""
    root = shapes()
    level = "nobles" if all(r.name != "nobles" for r in base.winners.ranking) else "my_level"
    return [
        "# ------------------------------------------------------------------ winners",
        f"# Fields: {_fields(root.part('winners'))}.",
        f"# A ranking level: {_fields(root.part('winners').part('ranking').each())}.",
        f"# The base: eligible {unparse(base.winners.eligible)}; ranking "
        + ", then ".join(f"{r.name} ({unparse(r.by)}, {r.prefer})" for r in base.winners.ranking)
        + f"; ties {base.winners.ties}.",
        "# winners:",
        "#   ranking:",
        f"#     {level}: {{add: true, before: {base.winners.ranking[-1].name}, title: Most nobles, "
        'by: player.nobles, prefer: highest, note: "Why."}',
        "",
    ]


def _components_section(base: Rules) -> list[str]:
    """The components, described only."""
    root = shapes()
    return [
        "# ------------------------------------------------------------------ components",
        f"# Fields: {_fields(root.part('components'))}; a CSV path is relative to the file that names it.",
        f"# The base: gems {', '.join(base.gems)}; wild {base.wild}; "
        f"{len(base.cards)} cards; {len(base.nobles)} nobles.",
        "",
    ]


def _interpretations_section() -> list[str]:
    """The interpretations, described only."""
    return [
        "# ------------------------------------------------------------------ interpretations",
        "# A list of texts saying how the spec reads the rules where they are silent; a variant's",
        "# list replaces the base's.",
    ]
