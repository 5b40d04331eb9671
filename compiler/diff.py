"""Diff: two rule models -> the rules that differ, before and after, in words.

Takes two :class:`~compiler.model.Rules` (each already resolved through its chain of
variants and checked) and compares them rule by rule -- components, the player-count
table, values, actions and their choices, end-of-turn steps, end triggers, the winner
ranking and eligibility -- never their YAML. :func:`compare` returns
:class:`Difference` records (what, which field, the value on each side and where each
side defines it); :func:`render` phrases them in one of the sheet languages, with
expressions and effects in words through :func:`compiler.sheets.phrases.describe`
when it is there. Notes come from the variants' recorded changes
(:attr:`Rules.changes`). Nothing here prints; the CLI does.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Callable, Iterable

from .diagnostics import Span
from .expr import unparse
from .model import Decision, Rules, Text
from .sheets.plurals import category

# --------------------------------------------------------------------------- differences


@dataclass(frozen=True)
class Difference:
    """One rule that differs: `kind` is "changed", "added", "removed" or "order"."""

    kind: str
    path: str  # dotted, as in model.Change ("actions.take_pair.condition")
    subject: tuple  # what the rule belongs to: (kind, name, title Text | None, owner...)
    field: str | None  # the field that changed ("condition"), None for added/removed/order
    before: object = None
    after: object = None
    before_at: Span | None = None
    after_at: Span | None = None
    note: Text | None = None
    details: tuple[tuple[str, object, str], ...] = ()  # added: (field, value, kind of value), in order


def compare(a: Rules, b: Rules) -> list[Difference]:
    """Every rule that differs between `a` (before) and `b` (after), in spec order."""
    out: list[Difference] = []
    out += _components(a, b)
    out += _keyed(a, b, "players", a.players, b.players, lambda p: p.players, _PLAYER_FIELDS,
                  lambda p: ("player", p.players, None), ordered=False)
    out += _keyed(a, b, "values", a.values, b.values, lambda v: v.name, _VALUE_FIELDS,
                  lambda v: ("value", v.name, None), ordered=False)
    out += _decisions(a, b, "actions", a.actions, b.actions, ordered=False)
    out += _decisions(a, b, "end_of_turn", a.steps, b.steps, ordered=True)
    out += _keyed(a, b, "end", a.end, b.end, lambda t: t.name, _TRIGGER_FIELDS,
                  lambda t: ("trigger", t.name, t.title), ordered=False)
    out += _winners(a, b)
    return [_with_note(d, a, b) for d in out]


# A field: (name, getter, kind of value for phrasing, path of its own span in Rules.spans or None).
Field = tuple[str, Callable, str, str | None]

_PLAYER_FIELDS: tuple[Field, ...] = (
    ("gems", lambda p: p.gems, "int", None), ("gold", lambda p: p.gold, "int", None),
    ("nobles", lambda p: p.nobles, "int", None), ("face_up", lambda p: p.face_up, "int", None))
_VALUE_FIELDS: tuple[Field, ...] = (("value", lambda v: v.value, "int", None),)
_TRIGGER_FIELDS: tuple[Field, ...] = (
    ("title", lambda t: t.title, "text", None), ("when", lambda t: t.when, "expr", None),
    ("finish", lambda t: t.finish, "finish", None))
_RANK_FIELDS: tuple[Field, ...] = (
    ("title", lambda r: r.title, "text", None), ("by", lambda r: r.by, "expr", None),
    ("prefer", lambda r: r.prefer, "prefer", None))
_PARAM_FIELDS: tuple[Field, ...] = (
    ("domain", lambda p: p.domain, "domain", None), ("min", lambda p: p.min, "int", None),
    ("max", lambda p: p.max, "int", None), ("optional", lambda p: p.optional, "bool", None),
    ("price", lambda p: p.price, "expr", None), ("slots", lambda p: p.slots, "int", None))
_ACTION_FIELDS: tuple[Field, ...] = (
    ("title", lambda d: d.title, "text", None), ("notation", lambda d: d.notation, "code", None),
    ("condition", lambda d: d.condition, "expr", "condition"), ("effects", lambda d: d.effects, "effects", "effects"),
    ("only_when_stuck", lambda d: d.only_when_stuck, "bool", None))
_STEP_FIELDS: tuple[Field, ...] = _ACTION_FIELDS[:-1] + (
    ("while", lambda d: d.while_, "expr", None), ("repeat", lambda d: d.repeat, "repeat", None),
    ("resolve", lambda d: d.resolve, "resolve", None))


def _at(rules: Rules, path: str, node: object, fallback: Span | None) -> Span | None:
    """Where `rules` defines the rule at `path`: its recorded span, the node's own, or the element's."""
    if path in rules.spans:
        return rules.spans[path]
    span = getattr(node, "span", None)
    return span if span is not None else fallback


def _relevant(field: str, element) -> bool:
    """Whether an added element's field is worth listing: a parameter's options that its domain uses."""
    domain = getattr(element, "domain", None)
    if domain is None:
        return True
    return {"min": domain == "gem_set", "max": domain == "gem_set", "price": domain == "payment",
            "slots": domain == "reserved", "optional": bool(element.optional)}.get(field, True)


def _keyed(a: Rules, b: Rules, section: str, xs: Iterable, ys: Iterable, key: Callable, fields: tuple[Field, ...],
           subject: Callable, ordered: bool, owner: tuple = ()) -> list[Difference]:
    xs, ys = list(xs), list(ys)
    amap, bmap = {key(x): x for x in xs}, {key(y): y for y in ys}
    out: list[Difference] = []
    for x in xs:
        if key(x) not in bmap:
            path = f"{section}.{key(x)}"
            out.append(Difference("removed", path, subject(x) + owner, None, before_at=_at(a, path, None, x.span)))
    names_b = [key(y) for y in ys]
    for i, y in enumerate(ys):
        name = key(y)
        path = f"{section}.{name}"
        if name not in amap:
            details = tuple((f, g(y), k) for f, g, k, _ in fields if f != "title" and _relevant(f, y))
            if ordered:  # where it stands matters (steps run, levels break ties, in order)
                details = (("position", ("after", names_b[i - 1]) if i > 0 else ("first", None), "position"),) + details
            out.append(Difference("added", path, subject(y) + owner, None, after_at=_at(b, path, None, y.span),
                                  details=details))
            continue
        x = amap[name]
        for field, get, kind, sub in fields:
            if get(x) != get(y):
                sub_path = f"{path}.{sub or field}"
                out.append(Difference(
                    "changed", f"{path}.{field}", subject(y) + owner, field, (kind, get(x)), (kind, get(y)),
                    _at(a, sub_path, get(x), x.span), _at(b, sub_path, get(y), y.span)))
    if ordered:
        common_a = [key(x) for x in xs if key(x) in bmap]
        common_b = [key(y) for y in ys if key(y) in amap]
        if common_a != common_b:
            out.append(Difference("order", f"{section}.order", ("section", section, None) + owner, None,
                                  [key(x) for x in xs], [key(y) for y in ys],
                                  _at(a, section, None, xs[0].span if xs else None),
                                  _at(b, section, None, ys[0].span if ys else None)))
    return out


def _decisions(a: Rules, b: Rules, section: str, xs: tuple[Decision, ...], ys: tuple[Decision, ...],
               ordered: bool) -> list[Difference]:
    kind = "action" if section == "actions" else "step"
    fields = _ACTION_FIELDS if kind == "action" else _STEP_FIELDS
    out = _keyed(a, b, section, xs, ys, lambda d: d.name, fields, lambda d: (kind, d.name, d.title), ordered)
    added = {d.path for d in out if d.kind == "added"}
    for i, d in enumerate(out):  # an added decision lists its choices too
        if d.kind == "added":
            decision = next(y for y in ys if f"{section}.{y.name}" == d.path)
            choices = tuple((p.name, p.domain) for p in decision.params)
            out[i] = replace(d, details=d.details[:1] + (("choose", choices, "choices"),) + d.details[1:])
    bmap = {y.name: y for y in ys}
    for x in xs:
        y = bmap.get(x.name)
        if y is None or f"{section}.{x.name}" in added:
            continue
        out += _keyed(a, b, f"{section}.{x.name}.choose", x.params, y.params, lambda p: p.name, _PARAM_FIELDS,
                      lambda p: ("param", p.name, None), ordered=False, owner=(kind, y.name, y.title))
    return _in_spec_order(out, [f"{section}.{y.name}" for y in ys] + [f"{section}.{x.name}" for x in xs])


def _in_spec_order(diffs: list[Difference], prefixes: list[str]) -> list[Difference]:
    def rank(d: Difference) -> int:
        for i, p in enumerate(prefixes):
            if d.path == p or d.path.startswith(p + "."):
                return i
        return len(prefixes)
    return sorted(diffs, key=rank)  # stable: fields keep their order within an element


def _components(a: Rules, b: Rules) -> list[Difference]:
    out = []
    subject = ("components", None, None)
    if a.gems != b.gems:
        out.append(Difference("changed", "components.gems", subject, "gems", ("list", a.gems), ("list", b.gems)))
    if a.wild != b.wild:
        out.append(Difference("changed", "components.wild", subject, "wild", ("code", a.wild), ("code", b.wild)))

    def cards(r: Rules):
        return tuple((c.level, r.gems[c.bonus], c.points, tuple(zip(r.gems, c.cost))) for c in r.cards)

    def nobles(r: Rules):
        return tuple((n.points, tuple(zip(r.gems, n.requires))) for n in r.nobles)

    if cards(a) != cards(b):
        out.append(Difference("changed", "components.cards", subject, "cards", ("cards", len(a.cards)),
                              ("cards", len(b.cards)), a.cards[0].span if a.cards else None,
                              b.cards[0].span if b.cards else None))
    if nobles(a) != nobles(b):
        out.append(Difference("changed", "components.nobles", subject, "noble_tiles", ("tiles", len(a.nobles)),
                              ("tiles", len(b.nobles)), a.nobles[0].span if a.nobles else None,
                              b.nobles[0].span if b.nobles else None))
    return out


def _winners(a: Rules, b: Rules) -> list[Difference]:
    wa, wb = a.winners, b.winners
    out = []
    subject = ("winners", None, None)
    if wa.eligible != wb.eligible:
        out.append(Difference("changed", "winners.eligible", subject, "eligible", ("expr", wa.eligible),
                              ("expr", wb.eligible), getattr(wa.eligible, "span", wa.span),
                              getattr(wb.eligible, "span", wb.span)))
    out += _keyed(a, b, "winners.ranking", wa.ranking, wb.ranking, lambda r: r.name, _RANK_FIELDS,
                  lambda r: ("rank", r.name, r.title), ordered=True)
    if wa.ties != wb.ties:
        out.append(Difference("changed", "winners.ties", subject, "ties", ("ties", wa.ties), ("ties", wb.ties),
                              wa.span, wb.span))
    return out


def _with_note(d: Difference, a: Rules, b: Rules) -> Difference:
    """The note of the variant change that explains `d` (the nearest recorded change)."""
    best = None
    for rules in (b, a):
        for ch in rules.changes:
            if ch.note is None:
                continue
            if d.path == ch.path or d.path.startswith(ch.path + ".") or ch.path.startswith(d.path + "."):
                score = (d.path == ch.path, len(ch.path))
                if best is None or score > best[0]:
                    best = (score, ch.note)
        if best is not None:
            break
    if best is None:
        return d
    return replace(d, note=best[1])


# --------------------------------------------------------------------------- words

# Fixed strings, per language. Expressions and effects are phrased by the sheets' phrases;
# a mapping of plural forms (one/few/other) is chosen by compiler.sheets.plurals.
STRINGS: dict[str, dict] = {
    "en": {
        "header": 'Comparing "{a}" ({pa}) with "{b}" ({pb}).',
        "total": {"one": "{n} difference.", "other": "{n} differences."},
        "sections": {"components": "Components", "players": "Player counts", "values": "Values",
                     "actions": "Actions", "end_of_turn": "End of turn", "end": "End of the game",
                     "winners": "Winners"},
        "subject": {
            "value": 'the value "{name}"', "player": {"one": "the row for {name} player",
                                                      "other": "the row for {name} players"},
            "action": 'the action "{title}" ({name})', "step": 'the end-of-turn step "{title}" ({name})',
            "trigger": 'the end trigger "{title}" ({name})', "rank": 'the ranking level "{title}" ({name})',
            "param": 'the choice "{name}" of {owner}', "components": "the components", "winners": "the winners",
        },
        "owner": {"action": 'the action "{title}"', "step": 'the end-of-turn step "{title}"'},
        "things": {"end_of_turn": "the end-of-turn steps", "winners.ranking": "the ranking levels"},
        "added": "Added: {subject}  ({at})",
        "removed": "Removed: {subject}  (was at {at})", "order": "The order of {things}",
        "before": "before: {v}  ({at})", "after": "after: {v}  ({at})", "note": "note: {v}",
        "detail": "{field}: {v}", "first": "first", "after_entry": 'after "{name}"',
        "fields": {
            "title": "title", "notation": "notation", "condition": "condition", "effects": "effects",
            "only_when_stuck": "only when no other action is legal", "while": "runs while",
            "repeat": "how often it runs", "resolve": "who decides", "when": "when", "finish": "finish",
            "by": "compared by", "prefer": "who is ahead", "gems": "tokens of each gem colour",
            "gold": "gold tokens", "nobles": "nobles revealed", "face_up": "face-up cards per level",
            "value": "number", "domain": "chooses", "min": "fewest colours", "max": "most colours",
            "optional": "may be none", "price": "price", "slots": "reserved cards to pick from",
            "eligible": "who may win", "ties": "ties", "wild": "wild colour", "cards": "development cards",
            "noble_tiles": "noble tiles", "choose": "choices", "position": "place", "gem_colours": "gem colours",
        },
        "yes": "yes", "no": "no", "nothing": "nothing", "none": "none",
        "cards": {"one": "{n} card", "other": "{n} cards"}, "tiles": {"one": "{n} tile", "other": "{n} tiles"},
        "enums": {
            "finish": {"complete_round": "the round is completed, so every player has as many turns",
                       "immediately": "the game ends at once"},
            "prefer": {"highest": "the highest is ahead", "lowest": "the lowest is ahead"},
            "repeat": {"once": "at most once a turn", "while": "again and again while its condition holds"},
            "resolve": {"choice": "the player chooses one", "all": "every legal choice happens, with no choice"},
            "ties": {"shared": "tied players share the victory"},
            "domain": {"gem": "a gem colour", "colour": "a token colour (gold included)",
                       "gem_set": "a set of gem colours", "face_up": "a face-up card", "deck": "a deck",
                       "reserved": "a reserved card", "noble": "a noble", "payment": "a way to pay"},
        },
    },
    "fr": {
        "header": "Comparaison de « {a} » ({pa}) avec « {b} » ({pb}).",
        "total": {"one": "{n} différence.", "other": "{n} différences."},
        "sections": {"components": "Matériel", "players": "Nombre de joueurs", "values": "Valeurs",
                     "actions": "Actions", "end_of_turn": "Fin du tour", "end": "Fin de la partie",
                     "winners": "Vainqueurs"},
        "subject": {
            "value": "la valeur « {name} »", "player": {"one": "la ligne pour {name} joueur",
                                                        "other": "la ligne pour {name} joueurs"},
            "action": "l'action « {title} » ({name})", "step": "l'étape de fin de tour « {title} » ({name})",
            "trigger": "la condition de fin « {title} » ({name})",
            "rank": "le critère de classement « {title} » ({name})",
            "param": "le choix « {name} » de {owner}", "components": "le matériel", "winners": "les vainqueurs",
        },
        "owner": {"action": "l'action « {title} »", "step": "l'étape de fin de tour « {title} »"},
        "things": {"end_of_turn": "des étapes de fin de tour", "winners.ranking": "des critères de classement"},
        "added": "Ajout : {subject}  ({at})",
        "removed": "Suppression : {subject}  (était en {at})", "order": "L'ordre {things}",
        "before": "avant : {v}  ({at})", "after": "après : {v}  ({at})", "note": "note : {v}",
        "detail": "{field} : {v}", "first": "en premier", "after_entry": "après « {name} »",
        "fields": {
            "title": "titre", "notation": "notation", "condition": "condition", "effects": "effets",
            "only_when_stuck": "seulement si aucune autre action n'est possible", "while": "tant que",
            "repeat": "fréquence", "resolve": "qui décide", "when": "quand", "finish": "fin",
            "by": "comparaison selon", "prefer": "qui est devant", "gems": "jetons de chaque couleur de gemme",
            "gold": "jetons or", "nobles": "nobles révélés", "face_up": "cartes visibles par niveau",
            "value": "nombre", "domain": "choisit", "min": "le moins de couleurs", "max": "le plus de couleurs",
            "optional": "peut être aucun", "price": "prix", "slots": "cartes réservées parmi lesquelles choisir",
            "eligible": "qui peut gagner", "ties": "égalités", "wild": "couleur joker",
            "cards": "cartes développement", "noble_tiles": "tuiles nobles", "choose": "choix", "position": "place",
            "gem_colours": "couleurs de gemmes",
        },
        "yes": "oui", "no": "non", "nothing": "rien", "none": "aucun",
        "cards": {"one": "{n} carte", "other": "{n} cartes"}, "tiles": {"one": "{n} tuile", "other": "{n} tuiles"},
        "enums": {
            "finish": {"complete_round": "le tour de table est terminé, chacun joue autant de tours",
                       "immediately": "la partie s'arrête aussitôt"},
            "prefer": {"highest": "le plus haut est devant", "lowest": "le plus bas est devant"},
            "repeat": {"once": "au plus une fois par tour", "while": "encore et encore tant que sa condition tient"},
            "resolve": {"choice": "le joueur en choisit un", "all": "chaque choix possible a lieu, sans choisir"},
            "ties": {"shared": "les joueurs à égalité se partagent la victoire"},
            "domain": {"gem": "une couleur de gemme", "colour": "une couleur de jeton (or compris)",
                       "gem_set": "un ensemble de couleurs de gemmes", "face_up": "une carte visible",
                       "deck": "une pioche", "reserved": "une carte réservée", "noble": "un noble",
                       "payment": "une façon de payer"},
        },
    },
    "nl": {
        "header": "Vergelijking van „{a}” ({pa}) met „{b}” ({pb}).",
        "total": {"one": "{n} verschil.", "other": "{n} verschillen."},
        "sections": {"components": "Spelmateriaal", "players": "Aantal spelers", "values": "Waarden",
                     "actions": "Acties", "end_of_turn": "Einde van de beurt", "end": "Einde van het spel",
                     "winners": "Winnaars"},
        "subject": {
            "value": "de waarde „{name}”", "player": {"one": "de rij voor {name} speler",
                                                      "other": "de rij voor {name} spelers"},
            "action": "de actie „{title}” ({name})", "step": "de stap aan het einde van de beurt „{title}” ({name})",
            "trigger": "de eindvoorwaarde „{title}” ({name})", "rank": "het rangschikkingscriterium „{title}” ({name})",
            "param": "de keuze „{name}” van {owner}", "components": "het spelmateriaal", "winners": "de winnaars",
        },
        "owner": {"action": "de actie „{title}”", "step": "de stap „{title}”"},
        "things": {"end_of_turn": "de stappen aan het einde van de beurt",
                   "winners.ranking": "de rangschikkingscriteria"},
        "added": "Nieuw: {subject}  ({at})",
        "removed": "Vervallen: {subject}  (stond in {at})", "order": "De volgorde van {things}",
        "before": "voor: {v}  ({at})", "after": "na: {v}  ({at})", "note": "opmerking: {v}",
        "detail": "{field}: {v}", "first": "als eerste", "after_entry": "na „{name}”",
        "fields": {
            "title": "titel", "notation": "notatie", "condition": "voorwaarde", "effects": "gevolgen",
            "only_when_stuck": "alleen als geen andere actie mag", "while": "loopt zolang",
            "repeat": "hoe vaak", "resolve": "wie beslist", "when": "wanneer", "finish": "einde",
            "by": "vergeleken op", "prefer": "wie voor staat", "gems": "fiches van elke edelsteenkleur",
            "gold": "goudfiches", "nobles": "open edelen", "face_up": "open kaarten per niveau",
            "value": "getal", "domain": "kiest", "min": "minste kleuren", "max": "meeste kleuren",
            "optional": "mag geen zijn", "price": "prijs", "slots": "gereserveerde kaarten om uit te kiezen",
            "eligible": "wie mag winnen", "ties": "gelijkspel", "wild": "jokerkleur",
            "cards": "ontwikkelingskaarten", "noble_tiles": "edelentegels", "choose": "keuzes", "position": "plaats",
            "gem_colours": "edelsteenkleuren",
        },
        "yes": "ja", "no": "nee", "nothing": "niets", "none": "geen",
        "cards": {"one": "{n} kaart", "other": "{n} kaarten"}, "tiles": {"one": "{n} tegel", "other": "{n} tegels"},
        "enums": {
            "finish": {"complete_round": "de ronde wordt afgemaakt, zodat iedereen even vaak speelt",
                       "immediately": "het spel stopt meteen"},
            "prefer": {"highest": "de hoogste staat voor", "lowest": "de laagste staat voor"},
            "repeat": {"once": "hoogstens één keer per beurt", "while": "telkens opnieuw zolang de voorwaarde geldt"},
            "resolve": {"choice": "de speler kiest er één", "all": "elke toegestane keuze gebeurt, zonder te kiezen"},
            "ties": {"shared": "spelers die gelijk staan delen de overwinning"},
            "domain": {"gem": "een edelsteenkleur", "colour": "een fichekleur (goud inbegrepen)",
                       "gem_set": "een verzameling edelsteenkleuren", "face_up": "een open kaart", "deck": "een stapel",
                       "reserved": "een gereserveerde kaart", "noble": "een edele", "payment": "een manier van betalen"},
        },
    },
    "sr": {
        "header": "Поређење „{a}” ({pa}) са „{b}” ({pb}).",
        "total": {"one": "{n} разлика.", "few": "{n} разлике.", "other": "{n} разлика."},
        "sections": {"components": "Делови игре", "players": "Број играча", "values": "Вредности",
                     "actions": "Потези", "end_of_turn": "Крај потеза", "end": "Крај игре", "winners": "Победници"},
        "subject": {
            "value": "вредност „{name}”", "player": {"one": "ред за {name} играча", "few": "ред за {name} играча",
                                                     "other": "ред за {name} играча"},
            "action": "потез „{title}” ({name})", "step": "корак на крају потеза „{title}” ({name})",
            "trigger": "услов за крај „{title}” ({name})", "rank": "критеријум рангирања „{title}” ({name})",
            "param": "избор „{name}” за {owner}", "components": "делови игре", "winners": "победници",
        },
        "owner": {"action": "потез „{title}”", "step": "корак „{title}”"},
        "things": {"end_of_turn": "кораци на крају потеза", "winners.ranking": "критеријуми рангирања"},
        "added": "Додато: {subject}  ({at})",
        "removed": "Уклоњено: {subject}  (било у {at})", "order": "Редослед: {things}",
        "before": "пре: {v}  ({at})", "after": "после: {v}  ({at})", "note": "напомена: {v}",
        "detail": "{field}: {v}", "first": "прво", "after_entry": "после „{name}”",
        "fields": {
            "title": "наслов", "notation": "запис", "condition": "услов", "effects": "дејство",
            "only_when_stuck": "само кад ниједан други потез није дозвољен", "while": "траје док",
            "repeat": "колико често", "resolve": "ко одлучује", "when": "када", "finish": "завршетак",
            "by": "пореди се по", "prefer": "ко је испред", "gems": "жетони сваке боје драгуља",
            "gold": "златни жетони", "nobles": "откривени племићи", "face_up": "отворене карте по нивоу",
            "value": "број", "domain": "бира", "min": "најмање боја", "max": "највише боја",
            "optional": "може бити ништа", "price": "цена", "slots": "резервисане карте међу којима се бира",
            "eligible": "ко може да победи", "ties": "нерешен исход", "wild": "џокер боја",
            "cards": "развојне карте", "noble_tiles": "плочице племића", "choose": "избори", "position": "место",
            "gem_colours": "боје драгуља",
        },
        "yes": "да", "no": "не", "nothing": "ништа", "none": "ништа",
        "cards": {"one": "{n} карта", "few": "{n} карте", "other": "{n} карата"},
        "tiles": {"one": "{n} плочица", "few": "{n} плочице", "other": "{n} плочица"},
        "enums": {
            "finish": {"complete_round": "круг се довршава, па сви играју исти број потеза",
                       "immediately": "игра се одмах завршава"},
            "prefer": {"highest": "највећи је испред", "lowest": "најмањи је испред"},
            "repeat": {"once": "највише једном по потезу", "while": "изнова док важи његов услов"},
            "resolve": {"choice": "играч бира један", "all": "сваки дозвољени избор се дешава, без бирања"},
            "ties": {"shared": "играчи са истим резултатом деле победу"},
            "domain": {"gem": "боја драгуља", "colour": "боја жетона (и злато)", "gem_set": "скуп боја драгуља",
                       "face_up": "отворена карта", "deck": "шпил", "reserved": "резервисана карта",
                       "noble": "племић", "payment": "начин плаћања"},
        },
    },
}
LANGUAGES = tuple(STRINGS)


def _describer():
    """The sheets' phrasing of expressions, when that module is there."""
    try:
        from .sheets.phrases import describe
    except ImportError:
        return None
    return describe


class _Words:
    """Phrases values and subjects in one language."""

    def __init__(self, lang: str):
        self.lang = lang
        self.s = STRINGS[lang]
        self.describe = _describer()

    def plural(self, forms: dict, n: int, **kw) -> str:
        return (forms.get(category(self.lang, n)) or forms["other"]).format(n=n, **kw)

    def text(self, t: Text | None) -> str:
        return "" if t is None else (t.get(self.lang) or t.en)

    def phrase(self, node, rules: Rules, decision: Decision | None) -> str:
        if self.describe is not None:
            return self.describe(node, self.lang, rules, decision)
        return unparse(node)

    def value(self, kind: str, v, rules: Rules, subject: tuple = ()) -> str:
        s = self.s
        if v is None:
            return s["none"]
        decision = _decision_of(subject, rules)
        if kind == "expr":
            return self.phrase(v, rules, decision)
        if kind == "effects":
            return "; ".join(self.phrase(x, rules, decision) for x in v) if v else s["nothing"]
        if kind == "text":
            return self.text(v)
        if kind == "bool":
            return s["yes"] if v else s["no"]
        if kind == "list":
            return ", ".join(v)
        if kind in ("cards", "tiles"):
            return self.plural(s[kind], v)
        if kind == "choices":
            return ", ".join(f"{name} ({s['enums']['domain'][domain]})" for name, domain in v) or s["nothing"]
        if kind == "position":
            where, name = v
            return s["first"] if where == "first" else s["after_entry"].format(name=name)
        if kind in s["enums"]:
            return s["enums"][kind].get(v, v)
        return str(v)

    def subject(self, subject: tuple) -> str:
        kind, name, title = subject[:3]
        template = self.s["subject"].get(kind)
        if kind == "player":
            return self.plural(template, name, name=name)
        if kind == "section":
            return self.s["things"][name]
        if kind == "param":
            okind, oname, otitle = subject[3:6]
            return template.format(name=name, owner=self.s["owner"][okind].format(title=self.text(otitle) or oname))
        return template.format(name=name, title=self.text(title) or name)

    def field(self, d: Difference) -> str:
        return self.s["fields"]["gem_colours" if d.path == "components.gems" else d.field]


def _decision_of(subject: tuple, rules: Rules) -> Decision | None:
    """The action or step whose choices an expression of `subject` may name."""
    if subject[:1] in (("action",), ("step",)):
        kind, name = subject[:2]
    elif subject[:1] == ("param",):
        kind, name = subject[3:5]
    else:
        return None
    decisions = rules.actions if kind == "action" else rules.steps
    return next((d for d in decisions if d.name == name), None)


def _loc(span: Span | None) -> str:
    return f"{span.file}:{span.line}" if span is not None else "?"


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def render(diffs: list[Difference], a: Rules, b: Rules, lang: str = "en") -> str:
    """The differences in words, grouped by section and by rule; empty text when there are none."""
    if not diffs:
        return ""
    w = _Words(lang)
    s = w.s
    lines = [s["header"].format(a=w.text(a.title), pa=a.source.path, b=w.text(b.title), pb=b.source.path)]
    section = None
    i = 0
    while i < len(diffs):
        d = diffs[i]
        top = d.path.split(".")[0]
        if top != section:
            section = top
            lines += ["", s["sections"][top]]
        group = [d]
        if d.kind == "changed":  # the changed fields of one rule are shown together
            while i + len(group) < len(diffs) and diffs[i + len(group)].kind == "changed" \
                    and diffs[i + len(group)].subject == d.subject:
                group.append(diffs[i + len(group)])
        i += len(group)
        subject = w.subject(d.subject)
        if d.kind == "changed":
            lines.append("- " + _cap(subject))
            for c in group:
                indent = "    "
                if c.field != "value":
                    lines.append(f"    {w.field(c)}")
                    indent = "      "
                lines.append(indent + s["before"].format(v=w.value(*c.before, a, c.subject), at=_loc(c.before_at)))
                lines.append(indent + s["after"].format(v=w.value(*c.after, b, c.subject), at=_loc(c.after_at)))
        elif d.kind == "added":
            lines.append("- " + s["added"].format(subject=subject, at=_loc(d.after_at)))
            for field, value, kind in d.details:
                lines.append("    " + s["detail"].format(field=s["fields"][field], v=w.value(kind, value, b, d.subject)))
        elif d.kind == "removed":
            lines.append("- " + s["removed"].format(subject=subject, at=_loc(d.before_at)))
        else:  # order
            lines.append("- " + _cap(s["order"].format(things=subject)))
            lines.append("    " + s["before"].format(v=", ".join(d.before), at=_loc(d.before_at)))
            lines.append("    " + s["after"].format(v=", ".join(d.after), at=_loc(d.after_at)))
        for note in dict.fromkeys(c.note for c in group if c.note is not None):
            lines.append("    " + s["note"].format(v=w.text(note)))
    lines += ["", w.plural(s["total"], len(diffs))]
    return "\n".join(lines) + "\n"
