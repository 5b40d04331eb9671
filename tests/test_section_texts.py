"""A whole section of the sheets told in players' words (`sections: {setup|goal|end: {text}}`, issue 30
item 1): spec -> diagnostics (a placeholder naming nothing, a missing language, a digit where a
placeholder exists, a stale text), spec -> sheet text in the four languages.

A section's text stands for the section's generated sentences (which stay its precise form, shown on
demand in the HTML); its tables and pictures stay. It is fingerprinted over every rule the section
states, so a variant that changes one of them and not the text gets the generated sentences back.
"""

from __future__ import annotations

import pathlib

import pytest

from compiler import diff, pipeline
from compiler.diagnostics import CompileError, SourceMap, render
from compiler.sheets import content
from compiler.sheets import render as sheet_render
from tests.helpers import ROOT

HEAD = "spec: 1\nname: v\nextends: official\ntitle: {en: V, fr: V, nl: V, sr: V}\n"
END = {
    "en": "The game ends after the round in which someone reaches {target} prestige points; most points wins.",
    "fr": "La partie s'arrête après le tour de table où quelqu'un atteint {target} points ; le plus de points gagne.",
    "nl": "Het spel eindigt na de ronde waarin iemand {target} prestigepunten haalt; de meeste punten winnen.",
    "sr": "Игра се завршава после круга у ком неко достигне {target} поена престижа; побеђује највише поена.",
}
SETUP = {
    "en": "Sort the cards by level into 3 decks and reveal {setup.face_up} of each; lay out the nobles and tokens.",
    "fr": "Triez les cartes en 3 pioches et révélez-en {setup.face_up} de chaque ; posez les nobles et les jetons.",
    "nl": "Sorteer de kaarten in 3 stapels en leg er {setup.face_up} van elk open; leg de edelen en fiches klaar.",
    "sr": "Поделите карте у 3 шпила и откријте по {setup.face_up} из сваког; поставите племиће и жетоне.",
}


def block(name: str, texts: dict[str, str], drop: str = "") -> str:
    lines = "".join(f'      {lang}: "{text}"\n' for lang, text in texts.items() if lang != drop)
    return f"  {name}:\n    text:\n{lines}"


@pytest.fixture(autouse=True)
def at_root(monkeypatch):
    monkeypatch.chdir(ROOT)  # a variant in tmp_path extends the catalogue's by name


def variant(tmp_path: pathlib.Path, body: str, name: str = "v.yaml", head: str = HEAD) -> str:
    path = tmp_path / name
    path.write_text(head + body, encoding="utf-8")
    return str(path)


def shown(path: str, tmp_path: pathlib.Path, code: str) -> list[str]:
    sources = SourceMap()
    try:
        found = list(pipeline.check_spec(path, sources).warnings)
    except CompileError as err:
        found = err.diagnostics
    return [render(d, sources).replace(str(tmp_path) + "/", "") for d in found if d.code == code]


def sheet(path: str, lang: str = "en", fmt: str = "md") -> str:
    rules = pipeline.load_rules(path)
    base = pipeline.load_rules(rules.bases[0].path) if rules.bases else None
    built = content.build(rules, lang, base)
    return sheet_render.markdown(built, rules) if fmt == "md" else sheet_render.html(built, rules)


def section(md: str, index: int) -> str:
    return md.split("\n## ")[index]


# --------------------------------------------------------------------------- spec -> sheet text


@pytest.mark.parametrize("lang", ["en", "fr", "nl", "sr"])
def test_a_sections_text_stands_for_its_sentences(tmp_path, lang):
    """The end section is the text, its placeholder filled; the generated sentences are its precise
    form; a section told in words is no house rule."""
    path = variant(tmp_path, "sections:\n" + block("end", END))
    md = sheet(path, lang)
    end = next(s for s in md.split("\n## ") if END[lang].replace("{target}", "15") in s)
    assert end.split("\n\n")[1].strip() == END[lang].replace("{target}", "15")
    assert "★" not in md.split("\n## ")[0]  # no house rules box
    html = sheet(path, lang, "html")
    assert '<details class="precise">' in html.split('<section id="end">')[1].split("</section>")[0]


def test_a_variant_changing_a_value_prints_its_number_in_the_inherited_text(tmp_path):
    base = variant(tmp_path, "sections:\n" + block("end", END))
    path = variant(
        tmp_path,
        "values:\n  target: 18\n",
        "w.yaml",
        HEAD.replace("official", pathlib.Path(base).name).replace("v\n", "w\n"),
    )
    assert END["en"].replace("{target}", "18") in sheet(path)
    assert shown(path, tmp_path, "E623") == []


@pytest.mark.parametrize("lang", ["en", "fr", "nl", "sr"])
def test_the_setup_text_keeps_the_table(tmp_path, lang):
    path = variant(tmp_path, "sections:\n" + block("setup", SETUP))
    setup = section(sheet(path, lang), 3)
    paragraphs = setup.split("\n\n")
    assert paragraphs[1].startswith("| ")  # the player-count table stays
    assert paragraphs[2].strip() == SETUP[lang].replace("{setup.face_up}", "4")
    assert not any(p.startswith("- ") for p in paragraphs)  # its sentences are the text's precise form


# --------------------------------------------------------------------------- spec -> diagnostics


def test_a_placeholder_naming_nothing_is_located(tmp_path):
    path = variant(tmp_path, "sections:\n" + block("end", {**END, "en": END["en"].replace("{target}", "{targt}")}))
    [error] = shown(path, tmp_path, "E620")
    assert error.startswith("v.yaml:8:67: error[E620]: the placeholder '{targt}' names no number of the spec")
    assert "did you mean 'target'" in error


def test_a_missing_language_is_located(tmp_path):
    path = variant(tmp_path, "sections:\n" + block("end", END, drop="nl"))
    assert shown(path, tmp_path, "E621") == [
        "v.yaml:8:7: error[E621]: this text lacks nl: the spec's other texts have it\n"
        f' 8 |       en: "{END["en"]}"\n'
        "   |       ^\n"
        "  = note: a sheet in a language a text lacks would mix the text with generated phrases"
    ]


def test_a_digit_where_a_placeholder_exists_is_flagged(tmp_path):
    path = variant(tmp_path, "sections:\n" + block("end", {**END, "fr": END["fr"].replace("{target}", "15")}))
    [warning] = shown(path, tmp_path, "E622")
    assert warning.startswith(
        "v.yaml:9:75: warning[E622]: the number 15 is written as a digit where the rule's value 'target' gives it"
    )


def test_a_changed_rule_under_an_inherited_section_text_is_a_warning_and_the_sentences_come_back(tmp_path):
    base = variant(tmp_path, "sections:\n" + block("end", END))
    head = HEAD.replace("official", pathlib.Path(base).name).replace("v\n", "w\n")
    path = variant(tmp_path, "end:\n  target:\n    finish: immediately\n", "w.yaml", head)
    [warning] = [w for w in shown(path, tmp_path, "E623") if "sections.end" in w]  # end.target's own text too
    assert warning.startswith(
        "w.yaml:7:13: warning[E623]: the text of sections.end describes rules this spec changed: the sheets "
        "print the generated sentences instead"
    )
    assert "v.yaml:8:7; give the section a `text` of its own" in warning
    md = sheet(path)
    assert "someone reaches" not in md
    assert "- If you have 15 or more prestige points at the end of your turn, the game ends at once. ★1" in md


def test_an_unknown_section_is_refused(tmp_path):
    path = variant(tmp_path, "sections:\n" + block("turns", END))
    with pytest.raises(CompileError) as err:
        pipeline.load_rules(path)
    [problem] = err.value.diagnostics
    assert problem.span.line == 6 and "turns" in problem.message


def test_a_variants_section_text_keeps_the_bases_others(tmp_path):
    base = variant(tmp_path, "sections:\n" + block("end", END))
    head = HEAD.replace("official", pathlib.Path(base).name).replace("v\n", "w\n")
    path = variant(tmp_path, "sections:\n" + block("setup", SETUP), "w.yaml", head)
    md = sheet(path, "nl")
    assert SETUP["nl"].replace("{setup.face_up}", "4") in md and END["nl"].replace("{target}", "15") in md
    assert "★" not in md


# --------------------------------------------------------------------------- spec -> diff


@pytest.mark.parametrize(
    "lang, said",
    [
        ("en", '- The section "end" of the sheets'),
        ("fr", "- La section « end » des fiches"),
        ("nl", "- De sectie „end” van de spelhulp"),
        ("sr", "- Одељак „end“ листа правила"),
    ],
)
def test_diff_says_only_a_sections_text_differs(tmp_path, lang, said):
    official = pipeline.load_rules(str(ROOT / "rulespec" / "official.yaml"))
    told = pipeline.load_rules(variant(tmp_path, "sections:\n" + block("end", END)))
    found = diff.compare(official, told)
    assert diff.only_texts(found)
    text = diff.render(found, official, told, lang)
    assert said in text.splitlines()
    assert "v.yaml:8)" in text  # where the text is written
