"""A :class:`Simulation` as text: the terminal table, CSV, JSON; and the progress line.

Each output reads ``Simulation.to_dict()`` (:mod:`playtest.simulate.summary`), so the table,
the CSV and the JSON say the same numbers; a spec's label is what the user typed, and goes
through safe_text (visible in the table, csv_cell in the CSV) before it is shown.
"""

from __future__ import annotations

import json

from compiler.safe_text import csv_cell, visible

from .game import seatings
from .summary import RARE_USE, Simulation

Row = tuple[str, list[str]]  # a line of the table: its title, then a cell per spec


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def _f(x: float | None, digits: int = 1) -> str:
    return "-" if x is None else f"{x:.{digits}f}"


def _p(x: float | None) -> str:
    if x is None:
        return "-"
    return "<0.001" if x < 0.001 else f"{x:.3f}"


def _percent(x: float | None) -> str:
    """A difference of rates as a signed percentage ("+3.2%"), "-" where there is none."""
    return "-" if x is None else format(100 * x, "+.1f") + "%"


def format_table(sim: Simulation) -> str:
    """The terminal report: one column per spec, then the comparisons with the first spec."""
    data = sim.to_dict()
    specs = data["specs"]
    rotated = len(seatings(sim.bots, sim.fixed_seats)) > 1
    rows = _spec_rows(sim, specs, rotated)
    decisions = list(dict.fromkeys(name for s in specs for name in s["uses"]))
    uses, rare = _use_rows(specs, decisions)
    rows += uses
    if data["comparisons"]:
        rows += _comparison_rows(data["comparisons"], decisions)
    notes = _table_notes(sim, specs, rare, rotated)
    return "\n".join(visible(line) for line in _columns(rows, specs) + [""] + notes)


def _spec_rows(sim: Simulation, specs: list[dict], rotated: bool) -> list[Row]:
    """The rows of each spec's own numbers: games, lengths, wins by seat and by bot, ends, shares."""
    rows: list[Row] = []
    rows.append(
        ("games", [f"{s['games']}" + ("" if s["games"] == s["requested"] else f" of {s['requested']}") for s in specs])
    )
    rows.append(("rounds, mean", [_f(s["rounds"]["mean"]) for s in specs]))
    rows.append(("rounds, median", [_f(s["rounds"]["median"]) for s in specs]))
    for seat in range(sim.players):
        rows.append(
            (
                f"seat {seat + 1} wins" + (" (bots rotated)" if rotated else f" ({sim.bots[seat]})"),
                [
                    f"{_pct(s['seats'][seat]['win_rate'])} [{_pct(s['seats'][seat]['ci95'][0])}, "
                    f"{_pct(s['seats'][seat]['ci95'][1])}]"
                    for s in specs
                ],
            )
        )
    if len(set(sim.bots)) > 1:
        for name in dict.fromkeys(sim.bots):
            cells = []
            for s in specs:
                b = next((b for b in s["bots"] if b["bot"] == name), None)
                cells.append(
                    "-" if b is None else f"{_pct(b['win_rate'])} [{_pct(b['ci95'][0])}, {_pct(b['ci95'][1])}]"
                )
            rows.append((f"{name} wins (every seat)", cells))
    rows.append(("capped (not in lengths)", [f"{s['capped']['games']}" for s in specs]))
    rows.append(("margin of victory, mean", [_f(s["margin"]["mean"]) for s in specs]))
    if any(s["skill"] for s in specs):
        k = next(s["skill"] for s in specs if s["skill"])
        rows.append(
            (
                f"skill: {k['bot']} beats {k['against']}",
                [
                    f"{_pct(x['share'])} [{_pct(x['ci95'][0])}, {_pct(x['ci95'][1])}]" if x else "-"
                    for x in (s["skill"] for s in specs)
                ],
            )
        )
    rows.append(("nobles per game", [_f(s["nobles_per_game"], 2) for s in specs]))
    rows.append(("winning prestige, mean", [_f(s["winning_prestige"]) for s in specs]))
    for key, title in (
        ("ties", "ties on prestige"),
        ("shared_victories", "shared victories"),
        ("no_winner", "no winner"),
        ("passes", "games with passes"),
        ("stuck", "stuck"),
        ("capped", f"stopped at {sim.max_turns} turns"),
    ):
        rows.append((title, [_pct(s["shares"][key]) for s in specs]))
    return rows


def _use_rows(specs: list[dict], decisions: list[str]) -> tuple[list[Row], set[str]]:
    """A row per decision (its uses per game in each spec), and the decisions rarely used somewhere."""
    rows: list[Row] = []
    rare = set()
    for name in decisions:
        cells = []
        for s in specs:
            u = s["uses"].get(name)
            cells.append("-" if u is None else _f(u["per_game"], 2) + (" (rare)" if u["rare"] else ""))
            if u is not None and u["rare"]:
                rare.add(name)
        rows.append((f"{name} per game", cells))
    return rows, rare


def _comparison_rows(comparisons: list[dict], decisions: list[str]) -> list[Row]:
    """The rows "vs first: ...": each spec's differences from the first, with their p-values
    (the first spec's cell is empty: it is the reference)."""
    rows: list[Row] = []
    length, first = [""], [""]
    for c in comparisons:
        d_len, d_first = c["rounds"]["difference"], c["first_seat_win_rate"]["difference"]
        length.append(f"{'-' if d_len is None else format(d_len, '+.2f')} (p={_p(c['rounds']['welch']['p_value'])})")
        first.append(
            f"{'-' if d_first is None else format(100 * d_first, '+.1f') + '%'} "
            f"(p={_p(c['first_seat_win_rate']['two_proportion']['p_value'])})"
        )
    rows.append(("vs first: rounds", length))
    rows.append(("vs first: seat 1 wins", first))
    margin = [""] + [
        f"{_f(c['margin']['difference'], 2)} (p={_p(c['margin']['welch']['p_value'])})" for c in comparisons
    ]
    rows.append(("vs first: margin", margin))
    if all(c["skill"] for c in comparisons):
        rows.append(
            (
                "vs first: skill",
                [""]
                + [
                    f"{_percent(c['skill']['difference'])} (p={_p(c['skill']['two_proportion']['p_value'])})"
                    for c in comparisons
                ],
            )
        )
    for name in decisions:
        rows.append(
            (
                f"vs first: {name}",
                [""]
                + [
                    f"{_f(c['uses_per_game'][name]['difference'], 2)} "
                    f"(p={_p(c['uses_per_game'][name]['welch']['p_value'])})"
                    if name in c["uses_per_game"]
                    else "-"
                    for c in comparisons
                ],
            )
        )
    return rows


def _columns(rows: list[Row], specs: list[dict]) -> list[str]:
    """The rows laid out in columns under a header of the specs' labels; a row with no cell is left out."""
    header = ["", *[visible(s["spec"]) for s in specs]]  # a label is what the user typed: one line
    width0 = max(len(r[0]) for r in rows + [("", [])])
    widths = [max(len(header[i + 1]), *(len(r[1][i]) for r in rows)) for i in range(len(specs))]
    lines = ["  ".join([header[0].ljust(width0), *(h.rjust(w) for h, w in zip(header[1:], widths, strict=True))])]
    lines.append("  ".join(["-" * width0, *("-" * w for w in widths)]))
    for title, cells in rows:
        if all(c == "" for c in cells):
            continue
        lines.append("  ".join([title.ljust(width0), *(c.rjust(w) for c, w in zip(cells, widths, strict=True))]))
    return lines


def _table_notes(sim: Simulation, specs: list[dict], rare: set[str], rotated: bool) -> list[str]:
    """The notes under the table: what the numbers are, and what the run leaves to know."""
    notes = [
        f"{sim.players} players, bots {','.join(sim.bots)}, seed {sim.seed}; win rates with 95% Wilson "
        "intervals (a shared victory counts for each winner)"
    ]
    notes.append(
        "lengths, margins and per-game uses leave out the games stopped at the cap (capped); "
        "margin: winner's prestige minus the next seat's, in games one seat won; a step (such as a "
        "noble visit) counts only when a player was asked to choose"
    )
    if rare:
        notes.append(
            f"rarely used (under {RARE_USE} times a game): {', '.join(sorted(rare))}: is the rule worth its text?"
        )
    if rotated:
        notes.append(
            "bots rotated: each deal is played once with each bot in each seat, so seat wins measure the "
            "seat and bot wins the bot (--fixed-seats keeps each bot in its seat)"
        )
    if len(specs) > 1:
        notes.append(
            "vs first: difference from the first spec; p from Welch's t-test (rounds, margin, uses per "
            "game) and the two-proportion z-test (seat 1, skill)"
        )
    if sim.interrupted:
        notes.append(f"interrupted: {sim.finished} of {sim.games * len(specs)} games finished")
    return notes


CSV_COLUMNS = (
    "spec",
    "name",
    "games",
    "requested",
    "rounds_mean",
    "rounds_median",
    "rounds_sd",
    "winning_prestige",
    "ties",
    "shared_victories",
    "no_winner",
    "passes",
    "stuck",
    "capped",
)


def format_csv(sim: Simulation) -> str:
    """One row per spec; seat win rates and comparisons as extra columns."""
    import csv
    import io

    data = sim.to_dict()
    seat_cols = []
    for s in range(sim.players):
        seat_cols += [f"seat{s + 1}_win_rate", f"seat{s + 1}_ci_low", f"seat{s + 1}_ci_high"]
    cmp_cols = ["rounds_difference", "rounds_welch_p", "rounds_mann_whitney_p", "seat1_difference", "seat1_p"]
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow([*CSV_COLUMNS, *seat_cols, *cmp_cols])
    comparisons = {c["spec"]: c for c in data["comparisons"]}
    for i, s in enumerate(data["specs"]):
        row = [
            s["spec"],
            s["name"],
            s["games"],
            s["requested"],
            s["rounds"]["mean"],
            s["rounds"]["median"],
            s["rounds"]["sd"],
            s["winning_prestige"],
            *(s["shares"][k] for k in CSV_COLUMNS[8:]),
        ]
        for seat in s["seats"]:
            row += [seat["win_rate"], *seat["ci95"]]
        c = comparisons.get(s["spec"]) if i > 0 else None
        if c:
            row += [
                c["rounds"]["difference"],
                c["rounds"]["welch"]["p_value"],
                c["rounds"]["mann_whitney"]["p_value"],
                c["first_seat_win_rate"]["difference"],
                c["first_seat_win_rate"]["two_proportion"]["p_value"],
            ]
        else:
            row += [""] * len(cmp_cols)
        w.writerow([csv_cell("" if v is None else v) for v in row])  # a spec named =HYPERLINK(...) is text
    return out.getvalue()


def format_json(sim: Simulation, games: bool = False) -> str:
    return json.dumps(sim.to_dict(games=games), indent=2, sort_keys=False)


def progress_line(done: int, total: int, elapsed: float, width: int = 30) -> str:
    """``[#########.........] 120/400 games  30%  0:12 elapsed, ETA 0:28``."""
    frac = done / total if total else 1.0
    filled = int(round(width * frac))
    bar = "#" * filled + "." * (width - filled)
    eta = "ETA --:--" if done == 0 else f"ETA {_clock(elapsed * (total - done) / done)}"
    return f"[{bar}] {done}/{total} games {100 * frac:3.0f}%  {_clock(elapsed)} elapsed, {eta}"


def _clock(seconds: float) -> str:
    seconds = int(round(seconds))
    h, rest = divmod(seconds, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"
