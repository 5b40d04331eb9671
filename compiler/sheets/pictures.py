"""Sheets, pictures: inline SVG for the HTML and PDF sheets, drawn from the rule model's data.

Takes plain data that :mod:`.content` computed from the spec (a card of the spec's card
table, a row of the player-count table, the colour words of a language) and returns
:class:`markupsafe.Markup`. Every piece of text that goes into a picture -- a label, a
number, a title -- passes through ``Markup.format``/``escape``, so a spec's text can never
become markup. Each picture is ``role="img"`` with a ``<title>`` (its accessible name);
a gem swatch beside a colour's name is decorative (``aria-hidden``): the word says it.

The fills are a presentation palette keyed by colour name (the spec names colours, it
does not paint them); a colour the palette does not know gets a neutral grey and is
still named by its word. The Markdown sheet has no pictures: it stays text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from markupsafe import Markup, escape

from ..safe_text import line_text

# Fill and outline of each colour name the catalogue uses (WCAG: outlines give 3:1 on white).
PALETTE = {
    "white": ("#ffffff", "#555555"),
    "blue": ("#1f5fbf", "#123a75"),
    "green": ("#1e8a3c", "#11552a"),
    "red": ("#c62828", "#7a1616"),
    "black": ("#222222", "#000000"),
    "gold": ("#e0b020", "#7a5c00"),
}
UNKNOWN = ("#9e9e9e", "#555555")
FONT = "Sheet Sans"  # the sheet's embedded font (render.FONT_FILES): the PDF then needs no other


def paint(colour: str) -> tuple[str, str]:
    """(fill, outline) of a colour name."""
    return PALETTE.get(colour, UNKNOWN)


def swatch(colour: str, size: int = 9) -> Markup:
    """A small gem disc, decorative: placed beside the colour's name."""
    fill, line = paint(colour)
    r = size / 2
    return Markup(
        '<svg class="gem" width="{s}" height="{s}" viewBox="0 0 {s} {s}" aria-hidden="true" '
        'focusable="false"><circle cx="{r}" cy="{r}" r="{ri}" fill="{f}" stroke="{l}" '
        'stroke-width="1"/></svg>'
    ).format(s=size, r=r, ri=r - 0.6, f=fill, l=line)


@dataclass(frozen=True)
class Words:
    """The colour words of one language: each form of each colour's name, longest first."""

    pattern: re.Pattern | None
    colour_of: dict[str, str]  # a word (case-folded) -> the colour name


def words(forms: dict[str, list[str]]) -> Words:
    """`forms`: colour name -> its words in a language (every case and plural form)."""
    colour_of: dict[str, str] = {}
    for colour, texts in forms.items():
        for text in texts:
            if text.strip():
                colour_of.setdefault(text.casefold(), colour)
    if not colour_of:
        return Words(None, {})
    alternatives = "|".join(re.escape(w) for w in sorted(colour_of, key=lambda w: (-len(w), w)))
    return Words(re.compile(rf"(?<!\w)(?:{alternatives})(?!\w)", re.IGNORECASE), colour_of)


def with_swatches(text, colour_words: Words | None) -> Markup:
    """Text as HTML (escaped), with a gem swatch before each word that names a colour."""
    text = line_text(str(text))  # a spec's text: on one line, its controls shown escaped
    if colour_words is None or colour_words.pattern is None:
        return escape(text)
    out, last = [], 0
    for m in colour_words.pattern.finditer(text):
        out.append(escape(text[last : m.start()]))
        colour = colour_words.colour_of[m.group(0).casefold()]
        out.append(Markup('<span class="colour">{}{}</span>').format(swatch(colour), m.group(0)))
        last = m.end()
    out.append(escape(text[last:]))
    return Markup("").join(out)


def _svg(width: int, height: int, title: str, body: list[Markup], cls: str) -> Markup:
    ident = "picture-" + cls.split()[-1]  # one picture of each kind a sheet: a stable, unique id
    head = Markup(
        '<svg class="{c}" role="img" aria-labelledby="{i}" viewBox="0 0 {w} {h}" '
        'xmlns="http://www.w3.org/2000/svg"><title id="{i}">{t}</title>'
    ).format(c=cls, i=ident, w=width, h=height, t=title)
    return head + Markup("").join(body) + Markup("</svg>")


def _text(x, y, text, size=8, anchor="start", bold=False, fill="#111111") -> Markup:
    return Markup(
        '<text x="{x}" y="{y}" font-family="{font}" font-size="{s}" text-anchor="{a}"{b} fill="{f}">{t}</text>'
    ).format(font=FONT, x=x, y=y, s=size, a=anchor, b=Markup(' font-weight="bold"') if bold else "", f=fill, t=text)


def _gem(x, y, r, colour) -> Markup:
    fill, line = paint(colour)
    return Markup('<circle cx="{x}" cy="{y}" r="{r}" fill="{f}" stroke="{l}" stroke-width="0.8"/>').format(
        x=x, y=y, r=r, f=fill, l=line
    )


def _number_on(x, y, n, colour, size=7) -> Markup:
    """A number printed on a gem, in black or white, whichever contrasts with the fill."""
    fill, _ = paint(colour)
    dark = _luminance(fill) > 0.4
    return _text(x, y + size * 0.35, n, size, "middle", True, "#000000" if dark else "#ffffff")


def _luminance(hex_colour: str) -> float:
    r, g, b = (int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5))
    lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in (r, g, b)]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def _callout(x1: float, x2: float, y: float) -> Markup:
    """A dashed line from a part of a picture to its label."""
    return Markup(
        '<line x1="{x1}" y1="{y}" x2="{x2}" y2="{y}" stroke="#666666" stroke-width="0.6" stroke-dasharray="2 1.5"/>'
    ).format(x1=x1, x2=x2, y=y)


@dataclass(frozen=True)
class CardPicture:
    """A development card of the spec's table, and the words that name its parts."""

    title: str  # the accessible name: what the picture shows, in words
    points: int
    bonus: str  # colour name
    cost: tuple[tuple[str, int], ...]  # (colour, tokens) with tokens > 0
    label_points: str
    label_bonus: str
    label_cost: str


def card(p: CardPicture) -> Markup:
    """A card with its prestige points (top left), its bonus gem (top right) and its cost (bottom left),
    each named by a label beside it: points and cost on the left, the bonus on the right."""
    w, h, ox = 62, 86, 100
    body = [
        Markup(
            '<rect x="{x}" y="2" width="{w}" height="{h}" rx="5" fill="#faf7f0" stroke="#444444" stroke-width="1"/>'
        ).format(x=ox, w=w, h=h),
        Markup('<rect x="{x}" y="2" width="{w}" height="22" rx="5" fill="#e8e2d4"/>').format(x=ox, w=w),
    ]
    if p.points:
        body.append(_text(ox + 8, 19, p.points, 15, "start", True))
    body.append(_gem(ox + w - 10, 13, 8, p.bonus))
    cy = h - 6
    for colour, n in reversed(p.cost):
        body.append(_gem(ox + 11, cy - 2, 7.5, colour))
        body.append(_number_on(ox + 11, cy - 2, n, colour, 8))
        cy -= 17
    cost_y = (cy + 17 + h - 8) / 2

    body += [
        _callout(ox - 26, ox + 6, 13),
        _text(ox - 28, 16, p.label_points, 7, "end"),
        _callout(ox + w - 1, ox + w + 12, 13),
        _text(ox + w + 14, 16, p.label_bonus, 7),
        _callout(ox - 26, ox + 3, cost_y),
        _text(ox - 28, cost_y + 3, p.label_cost, 7, "end"),
    ]
    return _svg(ox + w + 60, h + 4, p.title, body, "picture card")


@dataclass(frozen=True)
class NoblePicture:
    """A noble tile of the spec's table, and the words that name its parts."""

    title: str  # the accessible name: what the picture shows, in words
    points: int
    requires: tuple[tuple[str, int], ...]  # (colour, bonuses) with bonuses > 0
    label_points: str
    label_requires: str


def noble(p: NoblePicture) -> Markup:
    """A square noble tile with its prestige points (top left) and, down its left edge, the bonuses
    it requires, each a small card of that colour with the number on it; a label beside each part."""
    w, ox = 62, 100
    h = max(62, 26 + 17 * len(p.requires))
    body = [
        Markup(
            '<rect x="{x}" y="2" width="{w}" height="{h}" rx="3" fill="#f3e6c4" stroke="#7a5c00" stroke-width="1"/>'
        ).format(x=ox, w=w, h=h),
    ]
    if p.points:
        body.append(_text(ox + 8, 19, p.points, 15, "start", True))
    cy = 28
    for colour, n in p.requires:
        fill, line = paint(colour)
        body.append(
            Markup(
                '<rect x="{x}" y="{y}" width="11" height="14" rx="1.5" fill="{f}" stroke="{l}" stroke-width="0.8"/>'
            ).format(x=ox + 5, y=cy, f=fill, l=line)
        )
        body.append(_number_on(ox + 10.5, cy + 7, n, colour, 8))
        cy += 17
    requires_y = (28 + cy - 3) / 2

    body += [
        _callout(ox - 26, ox + 6, 13),
        _text(ox - 28, 16, p.label_points, 7, "end"),
        _callout(ox - 26, ox + 4, requires_y),
        _text(ox - 28, requires_y + 3, p.label_requires, 7, "end"),
    ]
    return _svg(ox + w + 4, h + 4, p.title, body, "picture noble")


@dataclass(frozen=True)
class TablePicture:
    """The middle of the table for one row of the player-count table."""

    title: str
    caption: str  # shown under the picture: which row of the player-count table it draws
    tiles: tuple[tuple[int, str], ...]  # the rows of tiles above the decks (the nobles, a spec's own): (count, label)
    face_up: int
    tokens: tuple[tuple[str, int], ...]  # (colour, tokens in the supply)
    deck_labels: tuple[str, ...]  # the words on each level's deck, highest level first, as laid out


def table(p: TablePicture) -> Markup:
    """The rows of tiles (nobles, or a spec's own such as the Cities' city tiles), then a deck and its
    face-up cards per level, the token stacks beside. A row with no tile is not drawn."""
    cw, ch, gap = 20, 28, 4
    body = []
    x0 = 4
    y = 4
    for count, label in p.tiles:
        for i in range(count):
            body.append(
                Markup(
                    '<rect x="{x}" y="{y}" width="18" height="18" rx="2" fill="#f3e6c4" stroke="#7a5c00" '
                    'stroke-width="0.8"/>'
                ).format(x=x0 + 24 + i * 22, y=y)
            )
        body.append(_text(x0 + 24 + count * 22 + 2, y + 12, label, 7))
        y += 22
    y += 2
    decks_y = y
    for label in p.deck_labels:
        body.append(
            Markup(
                '<rect x="{x}" y="{y}" width="{w}" height="{h}" rx="2" fill="#5b6b8c" '
                'stroke="#2c3650" stroke-width="0.8"/>'
            ).format(x=x0, y=y, w=cw, h=ch)
        )
        body.append(_text(x0 + cw / 2, y + ch / 2 + 3, label, 8, "middle", True, "#ffffff"))
        for j in range(p.face_up):
            body.append(
                Markup(
                    '<rect x="{x}" y="{y}" width="{w}" height="{h}" rx="2" fill="#faf7f0" '
                    'stroke="#444444" stroke-width="0.8"/>'
                ).format(x=x0 + cw + gap + j * (cw + gap), y=y, w=cw, h=ch)
            )
        y += ch + gap
    tx = x0 + cw + gap + max(p.face_up, 1) * (cw + gap) + 10
    ty = decks_y + 8
    for colour, n in p.tokens:
        body.append(_gem(tx + 9, ty, 9, colour))
        body.append(_number_on(tx + 9, ty, n, colour, 9))
        ty += 21
    width = max([tx + 24] + [x0 + 24 + count * 22 + 60 for count, _ in p.tiles])
    height = max(y, ty - 8) + 2
    svg = _svg(int(width), int(height), p.title, body, "picture layout")
    return Markup('<figure class="picture">{}<figcaption aria-hidden="true">{}</figcaption></figure>').format(
        svg, p.caption
    )


def draw(picture) -> Markup:
    """The SVG of a picture computed by :mod:`.content`."""
    if isinstance(picture, CardPicture):
        return card(picture)
    if isinstance(picture, NoblePicture):
        return noble(picture)
    if isinstance(picture, TablePicture):
        return table(picture)
    raise TypeError(f"no drawing for {type(picture).__name__}")
