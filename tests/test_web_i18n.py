"""The web table in four languages (issue 31 item 5) and its gems written without colour (item 2):
the catalogues (web/locales/LANG.json) have every key in en, fr, nl and sr, with each language's
plural forms and the same fields; play.js and the templates write no word of their own (a scan);
a page is in the language asked for or the browser's; and each colour's symbol comes from its
name in the language shown (web/gems.py), unique among the spec's colours."""

from __future__ import annotations

import json
import re

import pytest
from markupsafe import Markup

from compiler.sheets.plurals import CATEGORIES, LANGUAGES
from tests.helpers import ROOT
from tests.helpers.web import api_of, client, new_table
from web import catalogue, closing, gems, i18n, quotas
from web.routes.errors import status_phrase, wait_text

WEB = ROOT / "web"
FIELD = re.compile(r"\{(\w+)\}")


def families(messages: dict[str, str]) -> dict[str, set[str]]:
    """Each message by its stem: a plural family's stem with its categories, any other key with none."""
    out: dict[str, set[str]] = {}
    for key in messages:
        stem, _, last = key.rpartition(".")
        if last in ("one", "few", "many", "other") and stem:
            out.setdefault(stem, set()).add(last)
        else:
            out.setdefault(key, set())
    return out


def test_every_key_is_in_every_language_with_its_plural_forms_and_the_same_fields():
    english = i18n.catalogue("en")
    stems = families(english)
    for lang in LANGUAGES:
        messages = i18n.catalogue(lang)
        assert set(families(messages)) == set(stems), lang
        for stem, forms in families(messages).items():
            if stems[stem]:  # a plural family: every category of the language, and no other
                assert forms == set(CATEGORIES[lang]), (lang, stem)
            else:
                assert not forms, (lang, stem)
        for key, text in messages.items():
            base = english.get(key) or english[key.rpartition(".")[0] + ".other"]
            assert set(FIELD.findall(text)) == set(FIELD.findall(base)), (lang, key)
            assert "<" not in text and "&" not in text, (lang, key)  # the templates take a message as markup
    assert i18n.catalogue("sr")["status.turn"] != english["status.turn"]


def test_a_message_takes_its_languages_plural_and_fills_its_fields():
    assert i18n.message("en", "count.card", {"n": 1}) == "1 card"
    assert i18n.message("en", "count.card", {"n": 0}) == "0 cards"
    assert i18n.message("fr", "count.card", {"n": 0}) == "0 carte"
    assert [i18n.message("sr", "count.card", {"n": n}) for n in (1, 3, 5, 21, 12)] == [
        "1 карта",
        "3 карте",
        "5 карата",
        "21 карта",
        "12 карата",
    ]
    assert i18n.message("nl", "status.to_play", {"who": "speler 2"}) == "speler 2 is aan de beurt"


def test_a_templates_words_are_markup_with_each_value_escaped():
    t = i18n.translator("en")
    said = t("host.seat", number=1, who="<b>x</b>")
    assert isinstance(said, Markup) and said == "Player 1: &lt;b&gt;x&lt;/b&gt;"
    assert t("host.links.seat", number=2).startswith("Player 2's link")


@pytest.mark.parametrize(
    "asked, accept, expected",
    [
        ("", "fr-FR,fr;q=0.9,en;q=0.8", "fr"),
        ("", "de-DE,nl;q=0.8", "nl"),
        ("", "sr-Cyrl-RS", "sr"),
        ("", "de, ja", "en"),
        ("", "", "en"),
        ("nl", "fr", "nl"),
        ("xx", "sr", "sr"),
    ],
)
def test_the_language_is_the_one_asked_for_else_the_browsers_else_english(asked, accept, expected):
    assert i18n.pick(asked, accept) == expected


STRING = re.compile(r'"((?:[^"\\]|\\.)*)"')


def test_play_js_writes_every_word_through_t_and_every_key_exists():
    source = (WEB / "static" / "play.js").read_text(encoding="utf-8")
    stems = families(i18n.catalogue("en"))
    keys = re.findall(r'\bt\("([^"]+)"', source)
    assert len(set(keys)) > 60
    assert [k for k in keys if k not in stems] == []
    # a literal given as the text, the title or the accessible name of an element, or put in the page
    # as text, holds no letter: words come from t(), from the spec's labels or from the view
    visible = re.findall(
        r'(?:(?:\btext|\btitle|"aria-label")\s*:|textContent\s*=|message\()\s*"((?:[^"\\]|\\.)*)"', source
    )
    assert visible and [s for s in visible if re.search(r"[^\W\d_]", s)] == []
    # nor does any literal joined to words ("... " + x): a literal with a space between two letters is a phrase
    # (a class list is the one phrase allowed: each of its words a class the style sheet styles)
    styled = set(re.findall(r"\.([a-z][a-z-]*)", (WEB / "static" / "style.css").read_text(encoding="utf-8")))
    phrases = [s for s in STRING.findall(source) if re.search(r"[^\W\d_] [^\W\d_]", s) and s != "use strict"]
    assert phrases and [p for p in phrases if not set(p.split()) <= styled] == []
    assert not {"no", "action", "takes"} <= styled  # so an English phrase would not pass as classes


def template_words(text: str) -> list[str]:
    """The words a template writes itself: its text outside tags and Jinja, and the values of
    attributes a person reads or hears."""
    said = re.findall(r'\b(?:aria-label|title|alt|placeholder)="([^"{]*)"', text)
    bare = re.sub(r"\{#.*?#\}|\{%.*?%\}|\{\{.*?\}\}", " ", text, flags=re.S)
    bare = re.sub(r"<[^>]*>", " ", bare)
    return [w for w in bare.split() + said if re.search(r"[^\W\d_]", w) and w != "splendor-rules"]


def test_the_templates_write_every_word_through_t_and_every_key_exists():
    stems = families(i18n.catalogue("en"))
    for path in sorted((WEB / "templates").glob("*.html")):
        text = path.read_text(encoding="utf-8")
        assert template_words(text) == [], path.name
        assert [k for k in re.findall(r'\bt\(\s*["\']([^"\']+)["\']', text) if k not in stems] == [], path.name
    assert template_words('<p title="Close">Make a table {{ t("x") }}</p>') == ["Make", "a", "table", "Close"]


def test_the_symbols_come_from_the_colours_names_and_tell_them_apart():
    assert gems.symbols(["white", "blue", "green", "red", "black", "gold"]) == ["W", "Bu", "Gr", "R", "Ba", "Go"]
    assert gems.symbols(["бела", "плава", "зелена", "црвена", "црна", "злато"]) == ["Б", "П", "Зе", "Цв", "Цн", "Зл"]
    assert gems.symbols(["ruby", "ruby"]) == ["ruby1", "ruby2"]  # alike in a language: told apart by their order
    colours = ("white", "blue", "green", "red", "black", "gold")
    for lang in LANGUAGES:
        words = gems.words(colours, lang)
        symbols = [w["symbol"] for w in words.values()]
        assert len(set(symbols)) == len(symbols), lang
        assert all(w["name"].upper().startswith(w["symbol"][0]) for w in words.values()), lang
    assert gems.words(("white", "pearl"), "fr") == {
        "white": {"name": "blanc", "symbol": "B"},
        "pearl": {"name": "pearl", "symbol": "P"},
    }  # a colour of a variant's


def page_data(html: str) -> dict:
    found = re.search(r'<script type="application/json" id="page-data">(.*?)</script>', html, re.S)
    assert found, html
    return json.loads(found.group(1))


@pytest.fixture(scope="module")
def variants():
    return catalogue.load([str(ROOT / "variants" / "target-12.yaml")])


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_page_is_in_the_browsers_language(variants, tmp_path, lang):
    with client(variants, str(tmp_path / "t.sqlite3")) as c:
        accept = {"Accept-Language": f"{lang}-XX,{lang};q=0.9"}
        made = new_table(c)
        words = i18n.catalogue(lang)
        index = c.get("/", headers=accept).text
        assert f'<html lang="{lang}">' in index and words["index.make"] in index
        host = c.get(made["host"], headers=accept).text
        assert words["host.close"] in host
        seat = c.get(made["seats"][0]["link"], headers=accept).text
        assert f'<html lang="{lang}">' in seat
        data = page_data(seat)
        assert data["lang"] == lang and data["messages"] == words
        assert data["gems"] == gems.words(tuple(variants["target-12"].module.COLOURS), lang)
        assert words["status.connecting"] in seat
        chosen = c.get(made["seats"][0]["link"] + "?lang=sr", headers=accept).text
        assert page_data(chosen)["lang"] == "sr"
        assert c.get(api_of(made["seats"][0]["link"])).status_code == 200


def test_an_error_page_is_in_the_browsers_language(variants, tmp_path):
    with client(variants, str(tmp_path / "t.sqlite3")) as c:
        page = c.get("/no/such/page", headers={"Accept-Language": "fr"})
        assert page.status_code == 404 and '<html lang="fr">' in page.text
        assert i18n.catalogue("fr")["error.back"] in page.text
        assert "<h1>Introuvable <small>(404)</small></h1>" in page.text and "Not Found" not in page.text
        assert c.get("/play/abc/0/def", headers={"Accept-Language": "sr"}).text.count('<html lang="sr">') == 1


@pytest.mark.parametrize(
    "seconds, lang, expected",
    [
        (5, "en", "a few seconds"),
        (45, "en", "about 45 seconds"),
        (3600, "en", "about 60 minutes"),
        (3600 * 5, "fr", "environ 5 heures"),
        (120, "sr", "отприлике 2 минута"),
        (60 * 60 * 21, "sr", "отприлике 21 сат"),
    ],
)
def test_how_long_to_wait_in_words(seconds, lang, expected):
    assert wait_text(seconds, lang) == expected


def test_the_servers_refusals_are_in_the_players_language(variants, tmp_path):
    """A move refused (the body's "lang", else ?lang=, else the browser's), a wrong link, a closed
    table and a limit's words: said from the catalogues in the language of whoever asks."""
    module = variants["target-12"].module
    with client(variants, str(tmp_path / "t.sqlite3")) as c:
        made = new_table(c)
        api1 = api_of(made["seats"][1]["link"])
        legal = module.new_game(2, seed=7).legal_actions()[0]
        r = c.post(api1 + "/actions", json={"action": legal, "lang": "fr"})
        assert (r.status_code, r.json()) == (409, {"error": "c'est au tour du joueur 1, pas au vôtre"})
        r = c.post(api1 + "/actions?lang=sr", json={"action": legal})
        assert r.json()["error"] == "на потезу је играч 1, не ви"
        r = c.post(api1 + "/actions", json={"action": "x"}, headers={"Accept-Language": "fr-BE,fr;q=0.9"})
        assert r.json()["error"] == "une action est un nombre entier (l'identifiant d'une action de ce jeu)"
        r = c.post(api1 + "/undo", headers={"Accept-Language": "sr"})
        assert r.json()["error"] == "домаћин није укључио поништавање за овим столом"
        assert (
            c.get(api1[:-3] + "abc", headers={"Accept-Language": "sr"}).json()["error"] == "ова веза не отвара то место"
        )
        r = c.post(made["host"] + "/close", data={"confirm": "yes"}, headers={"Accept-Language": "fr"})
        assert r.status_code == 200
        gone = c.get(made["seats"][0]["link"], headers={"Accept-Language": "fr"})
        assert gone.status_code == 410 and "l&#39;hôte a fermé cette table" in gone.text
        assert c.get(api1).json()["error"] == "the host closed this table"
    assert closing.span(30 * 86400).said("sr") == "30 дана" and closing.span(2 * 3600).said("fr") == "2 heures"
    rate = quotas.shown_rate(quotas.parse_rate("20/hour"))
    assert i18n.words("refused.rate_tables", rate=rate).said("sr") == (
        "направили сте превише столова (највише 20 на сат са једне адресе); сачекајте пре него што направите нови"
    )


@pytest.mark.parametrize("status", [400, 403, 404, 405, 409, 410, 413, 422, 429, 500, 503])
def test_every_status_the_server_answers_with_is_named_in_each_language(status):
    names = {lang: status_phrase(status, lang) for lang in LANGUAGES}
    assert names["en"] and len(set(names.values())) >= 3  # a word may be the same in two languages
