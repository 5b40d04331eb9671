"""Sheets, PDF (the `pdf` extra: WeasyPrint; pypdf reads the result back).

CI installs the extra with its system libraries; these tests need it.
"""

from __future__ import annotations

import io
import pathlib
import re

import pypdf
import pytest

from compiler.pipeline import load_rules, worked_game
from compiler.sheets import content, render

ROOT = pathlib.Path(__file__).resolve().parent.parent
A4 = (595.28, 841.89)  # points

# Rendering a PDF takes a second or more: the fast tier (dev/test.sh --fast) checks the layout of
# a few sheets - the official one in English and in Serbian (Cyrillic), the Trading Posts (whose
# printed sheet is compacted) - and the whole suite every sheet in every language.
FAST_LANGS = ("en", "sr")
FAST_VARIANTS = ("trading-posts",)


def _langs() -> list:
    return [pytest.param(lang, marks=() if lang in FAST_LANGS else pytest.mark.slow) for lang in sorted(KEY_PHRASES)]


# Per language: phrases holding the key numbers of the official rules (target 15, limit 10,
# 3 reserved cards, 4 tokens for a pair, 3 points a noble, 2 to 4 players).
KEY_PHRASES = {
    "en": [
        "15 or more prestige points",
        "more than 10 tokens",
        "at most 3 reserved cards",
        "at least 4 tokens of that colour",
        "worth 3 prestige points",
        "2 to 4 players",
    ],
    "fr": [
        "15 points de prestige ou plus",
        "plus de 10 jetons",
        "3 cartes réservées au plus",
        "au moins 4 de cette couleur",
        "vaut 3 points de prestige",
        "De 2 à 4 joueurs",
    ],
    "nl": [
        "15 of meer prestigepunten",
        "meer dan 10 fiches",
        "maximaal 3 gereserveerde kaarten",
        "minstens 4 in de voorraad",
        "3 prestigepunten waard",
        "voor 2 tot 4 spelers",
    ],
    "sr": [
        "15 или више поена престижа",
        "више од 10 жетона",
        "највише 3 резервисане",
        "бар 4 жетона те боје",
        "вреди 3 поена престижа",
        "За 2 до 4 играча",
    ],
}


@pytest.fixture(scope="module")
def official():
    return load_rules(str(ROOT / "rulespec" / "official.yaml"))


def _pdf(rules, lang):
    html = render.html(content.build(rules, lang, None), rules)
    return render.pdf(html, rules)


_OFFICIAL_PDFS: dict[str, tuple[bytes, int]] = {}


def _official_pdf(rules, lang):
    """The official sheet's PDF in `lang`, rendered once for the tests that read it (a render takes
    a second or more); test_pdf_is_deterministic_and_dated_never renders its own again."""
    if lang not in _OFFICIAL_PDFS:
        _OFFICIAL_PDFS[lang] = _pdf(rules, lang)
    return _OFFICIAL_PDFS[lang]


@pytest.mark.parametrize("lang", _langs())
def test_official_sheet_fits_two_a4_pages_and_holds_the_numbers(official, lang):
    data, pages = _official_pdf(official, lang)
    reader = pypdf.PdfReader(io.BytesIO(data))
    assert len(reader.pages) == pages <= 2
    for page in reader.pages:
        width, height = float(page.mediabox.width), float(page.mediabox.height)
        assert abs(width - A4[0]) < 1 and abs(height - A4[1]) < 1
    text = re.sub(r"\s+", " ", " ".join(page.extract_text() for page in reader.pages))
    for phrase in KEY_PHRASES[lang]:
        assert phrase.lower() in text.lower(), f"{phrase!r} not in the {lang} PDF"
    fonts = {
        str(font)
        for page in reader.pages
        for font in page["/Resources"]["/Font"].values()
        for font in [font.get_object()["/BaseFont"]]
    }
    assert fonts and all("Sheet-Sans" in f for f in fonts)  # the embedded DejaVu subset, no fallback font


def test_pdf_is_deterministic_and_dated_never(official):
    first, _ = _official_pdf(official, "fr")
    second, _ = _pdf(official, "fr")
    assert first == second
    info = pypdf.PdfReader(io.BytesIO(first)).metadata
    assert info["/CreationDate"].startswith("D:2000") and info["/Producer"] == "splendor-rules"
    assert official.source.sha256 in info["/Subject"]


def _catalogue() -> list:
    """Every variant of the catalogue; in the fast tier only the one whose printed sheet is
    compacted to fit (the Trading Posts), the others in the whole suite (marked slow)."""
    import yaml

    index = yaml.safe_load((ROOT / "variants" / "index.yaml").read_text(encoding="utf-8"))
    return [
        pytest.param(f"variants/{name}.yaml", marks=() if name in FAST_VARIANTS else pytest.mark.slow)
        for name in index["variants"]
    ]


def _embedded_fonts(reader: pypdf.PdfReader) -> list[tuple[str, bool]]:
    """(base font, has its font program in the file) of every font the pages use, descendants included."""
    out = []
    for page in reader.pages:
        for font in page["/Resources"]["/Font"].values():
            font = font.get_object()
            for f in [font] + [d.get_object() for d in font.get("/DescendantFonts", [])]:
                descriptor = f.get("/FontDescriptor")
                if descriptor is not None:
                    descriptor = descriptor.get_object()
                    out.append(
                        (str(f["/BaseFont"]), any(k in descriptor for k in ("/FontFile", "/FontFile2", "/FontFile3")))
                    )
    return out


@pytest.mark.parametrize("lang", _langs())
def test_the_official_pdf_embeds_every_font(official, lang):
    data, _ = _official_pdf(official, lang)
    fonts = _embedded_fonts(pypdf.PdfReader(io.BytesIO(data)))
    assert fonts and all(embedded for _, embedded in fonts), fonts


@pytest.mark.parametrize("path", _catalogue())
def test_every_variant_sheet_prints_on_two_a4_pages(path, monkeypatch):
    monkeypatch.chdir(ROOT)
    rules = load_rules(path)
    base = load_rules(rules.bases[0].path)
    made = render.printed_sheets(rules, sorted(KEY_PHRASES), base, worked_game(rules))  # as `sheet` prints them
    assert len({level for _, _, level, _ in made.values()}) == 1, (path, made)  # each leaves out the same
    for lang, (data, pages, _, _) in made.items():
        reader = pypdf.PdfReader(io.BytesIO(data))
        assert len(reader.pages) == pages <= 2, (path, lang, len(reader.pages))
        assert all(embedded for _, embedded in _embedded_fonts(reader)), (path, lang)


def _footer(data: bytes, title: str) -> str:
    """The page footer of the PDF's last page (title, page number), read back: the last line of
    the page text that ends with the page number."""
    text = pypdf.PdfReader(io.BytesIO(data)).pages[-1].extract_text()
    return [line for line in text.splitlines() if re.search(r"[0-9]+ / [0-9]+$", line)][-1]


@pytest.mark.parametrize(
    "spec, lang, title",
    [
        ("rulespec/official.yaml", "sr", "Сплендор"),
        pytest.param("variants/reserve-tax.yaml", "sr", "Порез на резервацију", marks=pytest.mark.slow),
        pytest.param("variants/reserve-tax.yaml", "fr", "Taxe de réservation", marks=pytest.mark.slow),
        pytest.param("variants/reserve-tax.yaml", "en", "Reserve tax", marks=pytest.mark.slow),
    ],
)
def test_pdf_footer_keeps_every_space(spec, lang, title):
    """CSS swallows the whitespace after a hex escape: the footer's title (escaped letter by
    letter outside ASCII) must keep its own spaces and the one before the dash."""
    rules = load_rules(str(ROOT / spec))
    base = load_rules(rules.bases[0].path) if rules.bases else None
    data, _ = render.pdf(render.html(content.build(rules, lang, base), rules), rules)
    assert _footer(data, title).endswith(f"{title} 2 / 2") or re.fullmatch(
        f"{title} [0-9]+ / [0-9]+", _footer(data, title)
    )


def test_the_spec_path_and_hash_are_metadata_not_print(official):
    """Players need neither the spec's path nor its sha256 (issue 30): the printed pages hold
    neither; the PDF's metadata and the HTML's small print do."""
    data, _ = _official_pdf(official, "en")
    reader = pypdf.PdfReader(io.BytesIO(data))
    printed = " ".join(page.extract_text() for page in reader.pages)
    assert "rulespec/official.yaml" not in printed and official.source.sha256 not in printed
    assert official.source.sha256 in reader.metadata["/Keywords"]
    assert "rulespec/official.yaml" in reader.metadata["/Subject"]
    html = render.html(content.build(official, "en", None), official)
    assert f'<footer class="source">Generated from rulespec/official.yaml (sha256 {official.source.sha256}).' in html


@pytest.mark.parametrize("text", ["a. b", "Сплендор", "x /", '\\" ;', "tab\tnew\nline ", "é é"])
def test_css_string_reads_back_as_the_text(text):
    """The escaped string, read as CSS reads it (an escape: a backslash, up to six hex digits and
    one whitespace swallowed), is the text itself."""
    escaped = str(render.css_string(text))
    read = re.sub(r"\\([0-9a-fA-F]{1,6})[ \t\n]?", lambda m: chr(int(m[1], 16)), escaped)
    assert read == text
    assert not re.search(r"[\"\\<>\n]", re.sub(r"\\[0-9a-f]{6}", "", escaped))
