"""The web table's weight and start (issue 31, item 8): static files cached by version (a year)
or revalidated (ETag, 304), private answers never stored; gzip where the client accepts it, never
on an event stream nor on a page holding a secret; compiled engines kept on disk by the hash of
their rule model and compiler, each checked before it is run."""

from __future__ import annotations

import os
import pathlib
import re

import pytest

from compiler import pipeline
from compiler.diagnostics import CompileError
from playtest import engines
from tests.helpers import ROOT
from tests.helpers.web import api_of, client, new_table
from web import catalogue, check_cache, engine_cache

SPEC = ROOT / "variants" / "target-12.yaml"


def static_urls(page: str) -> list[str]:
    return re.findall(r'(?:src|href)="(/static/[^"]+)"', page)


def test_static_files_are_named_by_version_and_cached_for_a_year(variants, db):
    with client(variants, db) as c:
        made = new_table(c)
        urls = static_urls(c.get(made["seats"][0]["link"]).text)
        assert sorted(u.split("?")[0] for u in urls) == ["/static/play.js", "/static/style.css"]
        for url in urls:
            name = url.split("?")[0].rsplit("/", 1)[1]
            assert re.fullmatch(r"v=[0-9a-f]{16}", url.split("?")[1])
            r = c.get(url)
            assert r.status_code == 200 and r.headers["cache-control"] == "public, max-age=31536000, immutable"
            assert r.content == (ROOT / "web" / "static" / name).read_bytes()
        for url in ("/static/play.js", "/static/play.js?v=0123456789abcdef"):  # no version, or another: ask again
            r = c.get(url)
            assert r.headers["cache-control"] == "no-cache" and r.headers["etag"] and r.headers["last-modified"]
            again = c.get(url, headers={"if-none-match": r.headers["etag"]})
            assert again.status_code == 304 and again.content == b""


def test_a_reference_sheet_is_asked_again_with_its_etag(variants, db):
    with client(variants, db) as c:
        first = c.get("/rules/target-12/fr")
        assert first.headers["cache-control"] == "no-cache" and first.headers["etag"]
        again = c.get("/rules/target-12/fr", headers={"if-none-match": first.headers["etag"]})
        assert again.status_code == 304 and again.content == b""
        assert again.headers["content-security-policy"] == first.headers["content-security-policy"]
        assert c.get("/rules/target-12/fr", headers={"if-none-match": '"other"'}).content == first.content


def test_private_pages_and_answers_are_never_stored(variants, db):
    with client(variants, db) as c:
        made = new_table(c)
        api0 = api_of(made["seats"][0]["link"])
        for url in (made["host"], made["seats"][0]["link"], made["watch"], api0, "/"):
            assert c.get(url).headers["cache-control"] == "no-store"
        with c.stream("GET", api0 + "/events") as r:
            assert r.headers["cache-control"] == "no-store"
            c.app.state.hub.stop()


def test_gzip_only_for_a_client_that_accepts_it_and_never_on_a_stream(variants, db):
    with client(variants, db) as c:
        made = new_table(c)
        api0 = api_of(made["seats"][0]["link"])
        script = static_urls(c.get(made["seats"][0]["link"]).text)[0]
        for url in (script, api0, "/", "/rules/target-12/en", made["host"], made["seats"][0]["link"], made["watch"]):
            r = c.get(url, headers={"accept-encoding": "gzip"})
            assert r.headers["content-encoding"] == "gzip" and "accept-encoding" in r.headers["vary"].lower()
            plain = c.get(url, headers={"accept-encoding": "identity"})
            assert "content-encoding" not in plain.headers and plain.content == r.content  # httpx decoded it
        raw = c.get(script, headers={"accept-encoding": "gzip"})
        assert int(raw.headers["content-length"]) < len(raw.content) / 2
        with c.stream("GET", api0 + "/events", headers={"accept-encoding": "gzip"}) as r:
            assert "content-encoding" not in r.headers
            c.app.state.hub.stop()


# ----------------------------------------------------------------------------- the engine cache


@pytest.fixture
def rules():
    return pipeline.check_spec(str(SPEC)).rules


def counted_compiler(calls: list):
    def compile_rules(model):
        calls.append(model.name)
        return (ROOT / "generated" / "engines" / "target_12.py").read_text(encoding="utf-8")

    return compile_rules


def test_an_engine_is_compiled_once_and_read_back_by_its_key(tmp_path, rules):
    calls: list = []
    folder = tmp_path / "cache"
    text, path = engine_cache.engine_text(rules, folder, counted_compiler(calls))
    again, same = engine_cache.engine_text(rules, folder, counted_compiler(calls))
    assert calls == ["target-12"] and again == text and same == path
    assert pathlib.Path(path).name == f"target-12-{engine_cache.key_of(rules)}.py"
    assert oct(os.stat(path).st_mode & 0o777) == "0o600" and oct(os.stat(folder).st_mode & 0o777) == "0o700"


@pytest.mark.parametrize("damage", ["truncated", "edited", "header", "another spec", "writable by others"])
def test_a_cached_engine_that_fails_a_check_is_compiled_again(tmp_path, rules, damage):
    calls: list = []
    folder = tmp_path / "cache"
    text, path = engine_cache.engine_text(rules, folder, counted_compiler(calls))
    entry = pathlib.Path(path)
    stored = entry.read_text(encoding="utf-8")
    if damage == "truncated":
        entry.write_text(stored[: len(stored) // 2], encoding="utf-8")
    elif damage == "edited":
        entry.write_text(
            stored.replace("def new_game(", "import os; os.system('true')\ndef new_game("), encoding="utf-8"
        )
    elif damage == "header":
        entry.write_text("# nothing\n" + text, encoding="utf-8")
    elif damage == "another spec":  # a whole entry, hash and all, of another spec under this key
        assert rules.source.sha256 in text
        other = text.replace(rules.source.sha256, "0" * 64)
        engine_cache.write_entry(entry, other)
    else:
        entry.chmod(0o666)
    again, _ = engine_cache.engine_text(rules, folder, counted_compiler(calls))
    assert calls == ["target-12", "target-12"] and again == text


def test_entries_of_a_spec_unused_for_a_month_go_when_a_new_one_is_written(tmp_path, rules):
    folder = tmp_path / "cache"
    folder.mkdir(mode=0o700)
    stale, recent, other = (
        folder / f"{n}-{c * 64}.py" for n, c in (("target-12", "a"), ("target-12", "b"), ("official", "c"))
    )
    for entry in (stale, recent, other):
        entry.write_text("x", encoding="utf-8")
    month = 31 * 86400
    for entry in (stale, other):
        os.utime(entry, (entry.stat().st_atime - month, entry.stat().st_mtime - month))
    _, path = engine_cache.engine_text(rules, folder, counted_compiler([]))
    assert sorted(p.name for p in folder.iterdir()) == sorted([pathlib.Path(path).name, recent.name, other.name])


def test_a_cache_folder_others_may_write_is_not_used(tmp_path, rules, caplog):
    calls: list = []
    folder = tmp_path / "shared"
    folder.mkdir(mode=0o777)
    folder.chmod(0o777)
    for _ in range(2):
        assert engine_cache.engine_text(rules, folder, counted_compiler(calls))[1] is None
    assert calls == ["target-12", "target-12"] and list(folder.iterdir()) == []
    assert "no one else may write" in caplog.text


def test_the_key_changes_with_the_rules(rules, tmp_path):
    other = pipeline.check_spec(str(ROOT / "rulespec" / "official.yaml")).rules
    assert engine_cache.key_of(rules) != engine_cache.key_of(other)
    assert engine_cache.key_of(rules) == engine_cache.key_of(pipeline.check_spec(str(SPEC)).rules)


def test_the_catalogue_serves_the_cached_engine_built_on_first_use(tmp_path):
    loaded = catalogue.load([str(SPEC)], cache=tmp_path / "cache")["target-12"]
    assert loaded._module is None  # not built until asked for
    assert loaded.source == (ROOT / "generated" / "engines" / "target_12.py").read_text(encoding="utf-8")
    assert loaded.module.SPEC_NAME == "target-12" and loaded.player_counts == tuple(loaded.module.PLAYER_COUNTS)
    assert loaded.filename.startswith(str(tmp_path / "cache"))
    again = catalogue.load([str(SPEC)], cache=tmp_path / "cache")["target-12"]
    assert again.source == loaded.source


def test_a_server_starts_without_compiling_and_compiles_an_engine_on_first_use(tmp_path, monkeypatch):
    calls: list = []
    monkeypatch.setattr(catalogue.emit_engine, "compile_to_module", counted_compiler(calls))
    loaded = catalogue.load([str(SPEC)], cache=tmp_path / "cold")["target-12"]
    assert calls == [] and loaded.player_counts == (2, 3, 4)  # listed from its checked model alone
    assert loaded.module.SPEC_NAME == "target-12" and calls == ["target-12"]
    assert loaded.source == loaded.source and calls == ["target-12"]  # once
    assert catalogue.load([str(SPEC)], cache=tmp_path / "cold")["target-12"].source and calls == ["target-12"]


def counted_checks(monkeypatch) -> list:
    calls: list = []
    real = pipeline.check_spec

    def check_spec(path, sources=None):
        calls.append(pathlib.Path(path).name)
        return real(path, sources)

    monkeypatch.setattr(catalogue.pipeline, "check_spec", check_spec)
    return calls


def spec_with_own_base(folder: pathlib.Path) -> pathlib.Path:
    """target-12 over a copy of the official rules and their card table, in `folder`."""
    for name in ("official.yaml", "splendor_cards.csv", "splendor_nobles.csv"):
        (folder / name).write_bytes((ROOT / "rulespec" / name).read_bytes())
    text = SPEC.read_text(encoding="utf-8").replace("extends: official", "extends: official.yaml")
    (folder / "target-12.yaml").write_text(text, encoding="utf-8")
    return folder / "target-12.yaml"


def test_a_start_lists_a_spec_checked_before_and_checks_it_on_first_use(tmp_path, monkeypatch):
    spec = spec_with_own_base(tmp_path)
    checks = counted_checks(monkeypatch)
    first = catalogue.load([str(spec)], cache=tmp_path / "cache")["target-12"]
    assert checks == ["target-12.yaml"] and first._rules is not None
    again = catalogue.load([str(spec)], cache=tmp_path / "cache")["target-12"]
    assert checks == ["target-12.yaml"] and again._rules is None  # listed from the cache
    assert (again.title_in("fr"), again.title_in("de"), again.player_counts) == ("Objectif 12", "Target 12", (2, 3, 4))
    assert again.rules == first.rules and checks == ["target-12.yaml"] * 2  # the gate, on first use
    assert again.module.SPEC_NAME == "target-12" and checks == ["target-12.yaml"] * 2


@pytest.mark.parametrize("changed", ["target-12.yaml", "official.yaml", "splendor_cards.csv"])
def test_a_change_to_any_file_the_check_read_checks_the_spec_again_at_start(tmp_path, monkeypatch, changed):
    spec = spec_with_own_base(tmp_path)
    checks = counted_checks(monkeypatch)
    catalogue.load([str(spec)], cache=tmp_path / "cache")
    with open(tmp_path / changed, "a", encoding="utf-8") as out:
        out.write("\n" if changed.endswith("csv") else "# edited\n")
    assert catalogue.load([str(spec)], cache=tmp_path / "cache")["target-12"]._rules is not None
    assert checks == ["target-12.yaml"] * 2
    (tmp_path / changed).unlink()  # a file gone: checked again, and its error said at start
    with pytest.raises(CompileError):
        catalogue.load([str(spec)], cache=tmp_path / "cache")


def test_a_tampered_listing_is_not_used_or_not_served(tmp_path, monkeypatch):
    spec = spec_with_own_base(tmp_path)
    folder = tmp_path / "cache"
    catalogue.load([str(spec)], cache=folder)
    entry = check_cache.entry_path(folder, str(spec))
    text = entry.read_text(encoding="utf-8")
    entry.write_text(text.replace('"Target 12"', '"Forged"'), encoding="utf-8")  # its hash no longer holds
    assert catalogue.load([str(spec)], cache=folder)["target-12"].title_in("en") == "Target 12"
    body = text.split("\n", 1)[1].replace("[\n  2,", "[\n  5,")  # rehashed: a listing the model does not have
    engine_cache.write_entry(entry, body)
    forged = catalogue.load([str(spec)], cache=folder)["target-12"]
    assert forged.player_counts == (5, 3, 4)
    with pytest.raises(engines.EngineError, match="changed since the server listed it"):
        _ = forged.module


def test_an_engines_code_is_kept_and_a_damaged_one_compiled_again(tmp_path, monkeypatch):
    text = (ROOT / "generated" / "engines" / "target_12.py").read_text(encoding="utf-8")
    compiled: list = []

    def counted_compile(*args):
        compiled.append(args[1])
        return compile(*args)

    monkeypatch.setattr(engine_cache, "compile", counted_compile, raising=False)
    first = engine_cache.code_of(text, "target-12.py", tmp_path)
    (entry,) = tmp_path.glob("code-*.marshal")
    again = engine_cache.code_of(text, "target-12.py", tmp_path)
    assert compiled == ["target-12.py"] and again.co_code == first.co_code and again.co_filename == "target-12.py"
    assert engine_cache.code_of(text + "\n", "target-12.py", tmp_path) and len(compiled) == 2  # another text
    data = bytearray(entry.read_bytes())
    data[-10] ^= 1
    entry.write_bytes(bytes(data))
    assert engine_cache.code_of(text, "target-12.py", tmp_path).co_code == first.co_code and len(compiled) == 3
    entry.write_bytes(entry.read_bytes()[:-100])  # truncated
    assert engine_cache.code_of(text, "target-12.py", tmp_path) and len(compiled) == 4
