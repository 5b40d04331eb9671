"""A table whose rules fail stops alone, and a tables file is data (issue 26, items 2-4).

spec -> server behaviour, through Starlette's test client: a rule that fails during a move (a
RuleError, the E535 class) or overruns its time stops its table with a sentence every seat
reads, never a 500 or a dead bot task, and the other tables play on; a setup that fails is a
422 with the rule's words; a tables file holds the spec's name and the hash of the engine a
table was played with, never code: a file of the first format (it kept engine texts) is
migrated without running them, and a table resumes with the engine this server builds.
"""

from __future__ import annotations

import hashlib
import sqlite3
import time

import pytest
from click.testing import CliRunner
from markupsafe import escape

from app import cli
from tests.helpers import ROOT
from tests.helpers.web import TEST_HOSTS, UNHURRIED, TestClient, api_of, with_seed
from web import botwork, catalogue, i18n, server
from web import store as store_mod

FAILING_TAKE = """\
spec: 1
name: failing-take
extends: official
title: Failing take
description: "A test variant whose double take fails at play: a negative number of tokens."
actions:
  take_pair:
    effects:
      - "take(colour, me.purchased - 2)"
"""
FAILING_SETUP = """\
spec: 1
name: failing-setup
extends: official
title: Failing setup
description: "A test variant whose setup cannot be carried out: the first seat returns a token it lacks."
setup:
  head_start:
    add: true
    title: {en: Starting holdings}
    each_player: true
    effects: ["put_back(white, 1)"]
"""


@pytest.fixture(scope="module")
def variants(tmp_path_factory):
    folder = tmp_path_factory.mktemp("specs")
    (folder / "failing-take.yaml").write_text(FAILING_TAKE, encoding="utf-8")
    (folder / "failing-setup.yaml").write_text(FAILING_SETUP, encoding="utf-8")
    return catalogue.load(
        [
            str(ROOT / "variants" / "target-12.yaml"),
            str(folder / "failing-take.yaml"),
            str(folder / "failing-setup.yaml"),
        ]
    )


def client(variants, db):
    return TestClient(server.make_app(variants, db, bot_delay=0.0, bot_workers=0, quotas=UNHURRIED, hosts=TEST_HOSTS))


def table(c, spec, seats=("human", "human")):
    r = c.post("/api/tables", json=with_seed(c, {"spec": spec, "players": len(seats), "seats": list(seats)}, 5))
    assert r.status_code == 201, r.text
    return r.json()


def action_of(module, text: str) -> int:
    return module.string_to_action(text)


def test_a_rule_that_fails_in_a_move_stops_its_table_and_no_other(variants, db):
    module = variants["failing-take"].module
    with client(variants, db) as c:
        failing = table(c, "failing-take")
        other = table(c, "target-12")
        api = api_of(failing["seats"][0]["link"])
        r = c.post(api + "/actions", json={"action": action_of(module, "take2 white"), "after": 0})
        assert r.status_code == 409
        said = r.json()["error"]
        assert said.startswith("this table was stopped: a rule failed at move 1: take(colour, me.purchased - 2) (")
        assert said.endswith("): a negative number of tokens (-2)")
        view = c.get(api).json()
        assert view["problem"].startswith("a rule failed at move 1") and view["moves"] == 0
        again = c.post(api + "/actions", json={"action": action_of(module, "take white blue green"), "after": 0})
        assert again.status_code == 409 and again.json()["error"] == said  # stopped for good: no move at all
        french = c.post(api + "/actions", json={"action": 0, "after": 0, "lang": "fr"}).json()["error"]
        assert french.startswith("cette table a été arrêtée : une règle a échoué au coup 1 : take(colour, me.purchased")
        assert french.endswith(") : un nombre négatif de jetons (-2)")  # the rule as written, the rest in French
        other_api = api_of(other["seats"][0]["link"])
        target = variants["target-12"].module
        r = c.post(other_api + "/actions", json={"action": action_of(target, "take white blue green"), "after": 0})
        assert r.status_code == 200, r.text


def test_a_table_stopped_before_a_restart_stays_stopped_and_is_said_in_french_after_it(variants, db):
    """Why a table stopped is stored as the RuleError's key and fields (web.store), so after a
    restart every reader is told why in their own language, and no move is taken."""
    module = variants["failing-take"].module
    with client(variants, db) as c:
        made = table(c, "failing-take")
        api = api_of(made["seats"][0]["link"])
        r = c.post(api + "/actions", json={"action": action_of(module, "take2 white"), "after": 0})
        assert r.status_code == 409
    with client(variants, db) as c:  # the server restarted
        view = c.get(api).json()
        said = i18n.Words._of(view["problem_words"])
        assert said is not None and view["problem"] == str(said)
        french = said.said("fr")
        assert french.startswith("une règle a échoué au coup 1 : take(colour, me.purchased - 2) (")
        assert french.endswith(") : un nombre négatif de jetons (-2)")
        r = c.post(
            api + "/actions", json={"action": action_of(module, "take white blue green"), "after": 0, "lang": "fr"}
        )
        assert r.status_code == 409 and r.json()["error"] == f"cette table a été arrêtée : {french}"
    listed = CliRunner().invoke(cli.main, ["serve", *(v.path for v in variants.values()), "--list-tables", "--db", db])
    assert "  0 moves  stopped: a rule failed at move 1: take(colour" in listed.output  # in English


def test_a_table_stored_stopped_with_a_sentence_of_its_own_shows_that_sentence(variants, db):
    with client(variants, db) as c:
        made = table(c, "target-12")
    raw = sqlite3.connect(db)
    raw.execute("UPDATE tables SET problem = 'a rule failed at move 3: the engine said so'")
    raw.commit()
    raw.close()
    with client(variants, db) as c:
        view = c.get(api_of(made["seats"][0]["link"])).json()
        assert (view["problem"], view["problem_words"]) == ("a rule failed at move 3: the engine said so", None)


def test_a_bot_whose_move_fails_stops_its_table_with_the_rules_words(variants, db):
    with client(variants, db) as c:
        made = table(c, "failing-take", ("greedy", "human"))
        hub = c.app.state.hub
        live = hub.tables[made["table"]]
        for _ in range(1200):  # the bot plays on its own until its rule fails (greedy takes pairs)
            if live.problem:
                break
            time.sleep(0.05)
        assert live.problem is not None
        said = str(live.problem)  # in English; every page says it in its own language
        assert "a negative number of tokens" in said or "failed" in said
        view = c.get(api_of(made["seats"][1]["link"])).json()
        assert view["problem"] == said and view["problem_words"] == live.problem.as_json()


def test_a_move_over_its_time_stops_its_table_and_the_server_answers_meanwhile(variants, db, monkeypatch):
    module = variants["target-12"].module
    with client(variants, db) as c:
        slow = table(c, "target-12")
        hub = c.app.state.hub
        hub.move_seconds = 0.2
        played = type(hub.tables[slow["table"]].game).apply

        def overrun(game, action):  # what a rule that runs on would do
            time.sleep(1.0)
            return played(game, action)

        monkeypatch.setattr(type(hub.tables[slow["table"]].game), "apply", overrun)
        api = api_of(slow["seats"][0]["link"])
        r = c.post(api + "/actions", json={"action": action_of(module, "take white blue green"), "after": 0})
        assert r.status_code == 409
        assert r.json()["error"] == (
            "this table was stopped: a rule failed at move 1: a move took longer "
            "than the server allows (a rule that does not end)"
        )
        monkeypatch.undo()
        hub.move_seconds = 10.0
        assert c.get("/").status_code == 200
        fresh = table(c, "target-12")  # a new table, and its moves, are not affected
        r = c.post(
            api_of(fresh["seats"][0]["link"]) + "/actions",
            json={"action": action_of(module, "take white blue green"), "after": 0},
        )
        assert r.status_code == 200, r.text


def test_a_setup_that_fails_is_refused_in_the_rules_words(variants, db):
    with client(variants, db) as c:
        r = c.post("/api/tables", json={"spec": "failing-setup", "players": 2, "seats": ["human", "human"]})
        assert r.status_code == 422
        said = r.json()["error"]
        assert said.startswith("this spec's setup cannot be carried out: put_back(white, 1) (")
        assert said.endswith("): the player holds only 0 white tokens")
        r = c.post("/api/tables?lang=sr", json={"spec": "failing-setup", "players": 2, "seats": ["human", "human"]})
        assert r.json()["error"].endswith("): играч има само 0 жетона боје white")
        assert c.app.state.hub.tables == {}


# --------------------------------------------------------------------------- the tables file


PAYLOAD = "import pathlib\npathlib.Path({marker!r}).write_text('ran')\n"


def first_format(path: str, table_id: str, spec: str, engine_text: str, seed: int, moves: list[int]) -> None:
    """A tables file as the first format wrote it: each engine's text kept, and run on resume."""
    db = sqlite3.connect(path)
    sha = hashlib.sha256(engine_text.encode("utf-8")).hexdigest()
    db.executescript("""
        CREATE TABLE engines (sha256 TEXT PRIMARY KEY, source TEXT NOT NULL);
        CREATE TABLE tables (id TEXT PRIMARY KEY, spec TEXT NOT NULL, engine TEXT NOT NULL REFERENCES engines(sha256),
            players INTEGER NOT NULL, seed INTEGER NOT NULL, host_hash TEXT NOT NULL, created REAL NOT NULL);
        CREATE TABLE seats (table_id TEXT NOT NULL REFERENCES tables(id), seat INTEGER NOT NULL, who TEXT NOT NULL,
            secret_hash TEXT, PRIMARY KEY (table_id, seat));
        CREATE TABLE moves (table_id TEXT NOT NULL REFERENCES tables(id), n INTEGER NOT NULL, seat INTEGER NOT NULL,
            action INTEGER NOT NULL, at REAL NOT NULL, PRIMARY KEY (table_id, n));
        CREATE TABLE closed (id TEXT PRIMARY KEY, reason TEXT NOT NULL, at REAL NOT NULL);
    """)
    db.execute("INSERT INTO engines VALUES (?, ?)", (sha, engine_text))
    db.execute("INSERT INTO tables VALUES (?, ?, ?, 2, ?, ?, ?)", (table_id, spec, sha, seed, "0" * 64, time.time()))
    db.executemany("INSERT INTO seats VALUES (?, ?, 'human', ?)", [(table_id, i, "1" * 64) for i in range(2)])
    db.executemany(
        "INSERT INTO moves VALUES (?, ?, ?, ?, ?)", [(table_id, n, n % 2, a, time.time()) for n, a in enumerate(moves)]
    )
    db.commit()
    db.close()


def test_a_tables_file_with_code_in_it_runs_none_of_it(variants, db, tmp_path):
    marker = tmp_path / "ran.txt"
    module = variants["target-12"].module
    moves = [action_of(module, "take white blue green"), action_of(module, "take red black white")]
    first_format(db, "oldtable", "target-12", PAYLOAD.format(marker=str(marker)), 5, moves)
    listed = CliRunner().invoke(
        cli.main, ["serve", str(ROOT / "variants" / "target-12.yaml"), "--list-tables", "--db", db]
    )
    assert listed.exit_code == 0, listed.output
    assert "oldtable  target-12  [human, human]  2 moves  in play, player 1 to move" in listed.output
    with client(variants, db) as c:
        live = c.app.state.hub.tables["oldtable"]
        assert live.module is module and len(live.log) == 2  # the server's own engine, the moves replayed
    assert not marker.exists()
    s = store_mod.Store(db)
    try:
        names = {row[0] for row in s.db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        assert "engines" not in names  # the texts are gone, unread
        assert [t.engine_sha256 for t in s.tables()] == [
            hashlib.sha256(PAYLOAD.format(marker=str(marker)).encode("utf-8")).hexdigest()
        ]
    finally:
        s.close()


def test_a_table_whose_rules_changed_resumes_only_if_its_moves_replay(variants, db):
    module = variants["target-12"].module
    first_format(db, "replays", "target-12", "old engine text", 5, [action_of(module, "take white blue green")])
    with client(variants, db) as c:
        assert "replays" in c.app.state.hub.tables
    other = str(db) + ".2"
    first_format(other, "stale", "target-12", "old engine text", 5, [module.NUM_ACTIONS - 1])
    first_format(other + ".3", "gone", "no-such-spec\x1b[2J", "old engine text", 5, [])
    with client(variants, other) as c:
        hub = c.app.state.hub
        assert str(hub.unavailable["stale"]).startswith(
            "the rules of 'target-12' changed since the table was made and move 1 does not replay: "
        )
    with client(variants, other + ".3") as c:
        assert str(c.app.state.hub.unavailable["gone"]) == (
            "this server does not offer the spec 'no-such-spec\\x1b[2J' it was played with"
        )


NOT_RESUMED = {  # why a table whose spec this server no longer offers is gone, in each reader's language
    "en": "this table could not be resumed after the server restarted: this server does not offer the spec "
    "'retired' it was played with",
    "fr": "cette table n'a pas pu être reprise après le redémarrage du serveur : ce serveur ne propose pas les "
    "règles « retired » avec lesquelles elle a été jouée",
    "nl": "deze tafel kon na de herstart van de server niet worden hervat: deze server biedt de regels 'retired' "
    "waarmee ze gespeeld werd niet aan",
    "sr": "овај сто није могао да се настави после поновног покретања сервера: овај сервер не нуди правила "
    "„retired“ по којима се играло",
}


@pytest.mark.parametrize("lang", sorted(NOT_RESUMED))
def test_a_table_that_cannot_be_resumed_says_why_in_the_readers_language(variants, db, lang):
    """Why a stored table was not resumed is kept as catalogue Words (web.resuming), so each reader
    of its links is told in their own language: the page and the API, not only the server's log."""
    first_format(db, "retired", "retired", "old engine text", 5, [])
    with client(variants, db) as c:
        asked = {"Accept-Language": lang}
        answer = c.get("/api/tables/retired/seats/0/whatever", headers=asked)
        assert (answer.status_code, answer.json()) == (410, {"error": NOT_RESUMED[lang]})
        page = c.get("/play/retired/0/whatever", headers=asked)
        assert page.status_code == 410 and str(escape(NOT_RESUMED[lang])) in page.text


def test_a_table_whose_move_no_longer_replays_says_which_move_and_the_rules_words(variants, db):
    """A move that fails as the table is replayed (its rules changed since) is said with the move's
    number and the engine's own reason, each part in the reader's language."""
    module = variants["target-12"].module
    first_format(db, "stale", "target-12", "old engine text", 5, [module.NUM_ACTIONS - 1])
    with client(variants, db) as c:
        why = c.app.state.hub.unavailable["stale"]
        assert why.key == "unavailable.changed" and dict(why.values)["move"] == 1
        french = c.get("/api/tables/stale/seats/0/x", headers={"Accept-Language": "fr"}).json()["error"]
        assert french.startswith(
            "cette table n'a pas pu être reprise après le redémarrage du serveur : les règles « target-12 » ont "
            "changé depuis la création de la table et le coup 1 ne se rejoue pas : "
        )


def slow_choice(module, game, who, seed):
    """A bot lost in a spec's rules: it answers long after any time a server gives it."""
    time.sleep(3)
    return game.legal_actions()[0]


@pytest.mark.parametrize("workers", [0, 1])
def test_a_bot_over_its_time_stops_its_table_and_its_worker_is_replaced(variants, db, workers, monkeypatch):
    # Threads (workers=0) run web.botwork.choose_here, made slow here; a worker process runs the
    # real bot, given far more playouts than it can make in the time.
    monkeypatch.setattr(botwork, "choose_here", slow_choice)
    app = server.make_app(variants, db, bot_delay=0.0, bot_workers=workers, quotas=UNHURRIED, hosts=TEST_HOSTS)
    with TestClient(app) as c:
        hub = c.app.state.hub
        hub.bot_seconds = 0.25
        made = table(c, "target-12", ("mcts:5000", "human"))
        live = hub.tables[made["table"]]
        for _ in range(1200):  # up to a minute on a busy machine
            if live.problem:
                break
            time.sleep(0.05)
        assert str(live.problem) == "the bot of player 1 did not choose a move within 0.25 seconds"
        assert live.problem.said("fr") == "le robot du joueur 1 n'a pas choisi de coup en 0.25 secondes"
        assert c.get(api_of(made["seats"][1]["link"])).json()["problem"] == str(live.problem)
        if workers:
            first = hub.thinkers.pool
            hub.bot_seconds = 120.0
            other = table(c, "target-12", ("greedy", "human"))  # bots still play at the other tables
            for _ in range(1200):  # up to a minute on a busy machine
                if hub.tables[other["table"]].log:
                    break
                time.sleep(0.05)
            assert hub.tables[other["table"]].log and hub.tables[other["table"]].problem is None
            assert hub.thinkers.pool is first  # the pool that replaced the killed one serves on


def test_a_stopped_table_says_so_on_its_page_and_offers_no_move(tmp_path):
    """In a real browser: the rule fails at the first move (made through the API, as another
    seat's click would), and the seat's page reads why, with no move to click."""
    from tests.helpers.browser import require_browser, seat_page

    require_browser()
    spec = tmp_path / "failing-take.yaml"
    spec.write_text(FAILING_TAKE, encoding="utf-8")
    module = catalogue.load([str(spec)])["failing-take"].module
    with seat_page(tmp_path, spec, "failing-take") as (page, errors, _):
        page.wait_for_function("document.body.classList.contains('my-turn')", timeout=15_000)
        api = api_of(page.url)
        origin = page.url.split("/play/")[0]
        answer = page.evaluate(
            """async ([url, action]) => {
            const r = await fetch(url, {method: "POST", headers: {"Content-Type": "application/json"},
                                        body: JSON.stringify({action, after: 0})});
            return [r.status, await r.json()];
        }""",
            [origin + api + "/actions", module.string_to_action("take2 white")],
        )
        assert answer[0] == 409 and answer[1]["error"].startswith("this table was stopped: a rule failed at move 1")
        page.wait_for_function(
            "document.getElementById('status').textContent.startsWith('This table was stopped')", timeout=15_000
        )
        status = page.locator("#status").inner_text()
        assert status.startswith("This table was stopped: a rule failed at move 1: take(colour, me.purchased - 2)")
        assert status.endswith("a negative number of tokens (-2)")
        assert not page.evaluate("document.body.classList.contains('my-turn')")
        assert page.locator("#actions button[data-action]:not([disabled])").count() == 0
        assert errors == []


def test_a_move_waiting_for_a_busy_mover_is_refused_as_busy_and_its_table_plays_on(variants, db, monkeypatch):
    """Time spent waiting for a mover is not the rules' fault: the click gets 503 and its table is
    not stopped (six slow moves of one spec had stopped every other table of the server)."""
    import threading

    from web import tables as tables_mod

    monkeypatch.setattr(tables_mod, "QUEUE_SECONDS", 0.2)
    module = variants["target-12"].module
    with client(variants, db) as c:
        hub = c.app.state.hub
        made = table(c, "target-12")
        release = threading.Event()
        busy = [hub.movers.submit(release.wait, 30) for _ in range(tables_mod.MOVERS)]  # every mover held
        api = api_of(made["seats"][0]["link"])
        move = {"action": action_of(module, "take white blue green"), "after": 0}
        r = c.post(api + "/actions", json=move)
        assert (r.status_code, r.json()) == (
            503,
            {"error": "the server is busy with other tables; try again in a moment"},
        )
        assert r.headers["retry-after"] == "5"
        assert hub.tables[made["table"]].problem is None
        release.set()
        for f in busy:
            f.result(10)
        assert c.post(api + "/actions", json=move).status_code == 200


def test_a_stored_table_whose_seats_name_a_bot_beyond_the_servers_is_not_resumed(variants, db):
    s = store_mod.Store(db)
    s.close()
    with client(variants, db) as c:
        made = table(c, "target-12", ("greedy", "human"))
    raw = sqlite3.connect(db)
    raw.execute("UPDATE seats SET who = 'mcts:999999999' WHERE seat = 0")
    raw.commit()
    raw.close()
    with client(variants, db) as c:
        assert str(c.app.state.hub.unavailable[made["table"]]) == (
            "its seats are not a table this server makes: seat 1: a bot of this server thinks for at most 5000 playouts"
        )
