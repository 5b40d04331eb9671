"""``simulate --report DIR``: one self-contained HTML page of a simulation, next to its PNG charts.

The page holds the designer's summary as tables (per spec: games, capped games, length,
margin, seat advantage and bot strength with 95 % intervals, the skill check, uses of each
decision per game with the rarely used ones marked, and each spec's differences from the
first with their p-values) and the charts of :func:`playtest.plots.figures` embedded as
data URIs, so the one file can be mailed or attached; the same charts are written as PNG
files beside it. Every text that comes from a spec (labels, names) goes through Jinja's
autoescape: a spec named ``<script>`` is shown, never run.
"""

from __future__ import annotations

import base64
import os
import pathlib

import jinja2

from compiler.files import write_atomic
from compiler.safe_text import html_finalize

from . import plots
from .simulate.summary import RARE_USE, Simulation

PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>splendor-rules simulation report</title>
<style>
body{font-family:sans-serif;margin:2em;max-width:70em}
table{border-collapse:collapse;margin:1em 0}td,th{padding:.25em .8em;border-bottom:1px solid #ddd;text-align:right}
td:first-child,th:first-child{text-align:left}.rare{color:#a33}img{max-width:100%}.note{color:#555}
</style></head><body>
<h1>Simulation report</h1>
<p>{{ sim.players }} players; bots {{ sim.bots|join(", ") }}{% if rotated %} (rotated: each deal played once with
each bot in each seat){% endif %}; {{ sim.games }} games per spec; seed {{ sim.seed }}; length cap {{ sim.max_turns }}
turns{% if sim.interrupted %}; <strong>interrupted</strong>: {{ finished }} games finished{% endif %}.</p>
<h2>Summary</h2>
<table>
<tr><th></th>{% for s in specs %}<th>{{ s.spec }}</th>{% endfor %}</tr>
<tr><td>games</td>{% for s in specs %}<td>{{ s.games }}</td>{% endfor %}</tr>
<tr><td>capped (left out of lengths)</td>{% for s in specs %}<td>{{ s.capped.games }}</td>{% endfor %}</tr>
<tr><td>rounds, mean</td>{% for s in specs %}<td>{{ f(s.rounds.mean) }}</td>{% endfor %}</tr>
<tr><td>rounds, median</td>{% for s in specs %}<td>{{ f(s.rounds.median) }}</td>{% endfor %}</tr>
<tr><td>margin of victory, mean</td>{% for s in specs %}<td>{{ f(s.margin.mean) }}</td>{% endfor %}</tr>
{% for seat in range(sim.players) %}<tr><td>seat {{ seat + 1 }} wins</td>{% for s in specs %}
<td>{{ pct(s.seats[seat].win_rate) }} [{{ pct(s.seats[seat].ci95[0]) }}, {{ pct(s.seats[seat].ci95[1]) }}]</td>
{% endfor %}</tr>{% endfor %}
{% for name in bot_names %}<tr><td>{{ name }} wins (every seat)</td>{% for s in specs %}
{% set b = bot(s, name) %}<td>{% if b %}{{ pct(b.win_rate) }} [{{ pct(b.ci95[0]) }}, {{ pct(b.ci95[1]) }}]{% else %}-{% endif %}</td>
{% endfor %}</tr>{% endfor %}
{% if specs and specs[0].skill %}<tr><td>skill: {{ specs[0].skill.bot }} beats {{ specs[0].skill.against }}</td>
{% for s in specs %}<td>{% if s.skill %}{{ pct(s.skill.share) }} [{{ pct(s.skill.ci95[0]) }}, {{ pct(s.skill.ci95[1]) }}]{% else %}-{% endif %}</td>{% endfor %}</tr>{% endif %}
<tr><td>nobles per game</td>{% for s in specs %}<td>{{ f(s.nobles_per_game, 2) }}</td>{% endfor %}</tr>
</table>
<h2>Rule usage (times chosen per game)</h2>
<table>
<tr><th>decision</th>{% for s in specs %}<th>{{ s.spec }}</th>{% endfor %}</tr>
{% for d in decisions %}<tr><td>{{ d }}</td>{% for s in specs %}{% set u = s.uses.get(d) %}
<td{% if u and u.rare %} class="rare"{% endif %}>{% if u %}{{ f(u.per_game, 2) }}{% if u.rare %} (rare){% endif %}{% else %}-{% endif %}</td>
{% endfor %}</tr>{% endfor %}
</table>
<p class="note">rare: chosen less than {{ rare }} times a game. A step (such as a noble visit) counts only when a
player was asked to choose.</p>
{% if comparisons %}<h2>Differences from {{ specs[0].spec }}</h2>
<table>
<tr><th>measure</th>{% for c in comparisons %}<th>{{ c.spec }}</th>{% endfor %}</tr>
<tr><td>rounds (Welch)</td>{% for c in comparisons %}<td>{{ sf(c.rounds.difference) }} (p={{ p(c.rounds.welch.p_value) }})</td>{% endfor %}</tr>
<tr><td>seat 1 wins (two proportions)</td>{% for c in comparisons %}<td>{{ spct(c.first_seat_win_rate.difference) }} (p={{ p(c.first_seat_win_rate.two_proportion.p_value) }})</td>{% endfor %}</tr>
<tr><td>margin (Welch)</td>{% for c in comparisons %}<td>{{ sf(c.margin.difference) }} (p={{ p(c.margin.welch.p_value) }})</td>{% endfor %}</tr>
<tr><td>capped (two proportions)</td>{% for c in comparisons %}<td>{{ spct(c.capped.difference) }} (p={{ p(c.capped.two_proportion.p_value) }})</td>{% endfor %}</tr>
{% if comparisons[0].skill %}<tr><td>skill (two proportions)</td>{% for c in comparisons %}<td>{% if c.skill %}{{ spct(c.skill.difference) }} (p={{ p(c.skill.two_proportion.p_value) }}){% else %}-{% endif %}</td>{% endfor %}</tr>{% endif %}
{% for d in decisions %}<tr><td>{{ d }} per game (Welch)</td>{% for c in comparisons %}{% set u = c.uses_per_game.get(d) %}
<td>{% if u %}{{ sf(u.difference) }} (p={{ p(u.welch.p_value) }}){% else %}-{% endif %}</td>{% endfor %}</tr>{% endfor %}
</table>{% endif %}
<h2>Charts</h2>
{% for name, title, data in charts %}<figure><img src="data:image/png;base64,{{ data }}" alt="{{ title }}">
<figcaption>{{ title }} ({{ name }})</figcaption></figure>
{% endfor %}
</body></html>
"""


def _f(x, digits: int = 1) -> str:
    return "-" if x is None else f"{x:.{digits}f}"


def _sf(x) -> str:
    return "-" if x is None else f"{x:+.2f}"


def _pct(x) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def _spct(x) -> str:
    return "-" if x is None else f"{100 * x:+.1f}%"


def _p(x) -> str:
    if x is None:
        return "-"
    return "<0.001" if x < 0.001 else f"{x:.3f}"


def render(sim: Simulation, charts: list[tuple[str, str, bytes]]) -> str:
    """The report page's HTML (every spec text escaped)."""
    env = jinja2.Environment(
        autoescape=True, undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True, finalize=html_finalize
    )  # a label's control characters shown escaped
    data = sim.to_dict()
    specs = data["specs"]
    return env.from_string(PAGE).render(
        sim=sim,
        specs=specs,
        comparisons=data["comparisons"],
        rotated=len(data["seatings"]) > 1,
        finished=sim.finished,
        bot_names=list(dict.fromkeys(sim.bots)) if len(set(sim.bots)) > 1 else [],
        bot=lambda s, name: next((b for b in s["bots"] if b["bot"] == name), None),
        decisions=list(dict.fromkeys(n for s in specs for n in s["uses"])),
        rare=RARE_USE,
        charts=[(name, title, base64.b64encode(png).decode("ascii")) for name, title, png in charts],
        f=_f,
        sf=_sf,
        pct=_pct,
        spct=_spct,
        p=_p,
    )


def write(sim: Simulation, directory: str | os.PathLike) -> list[pathlib.Path]:
    """Writes report.html and the PNG charts into `directory`; returns the files written."""
    out = pathlib.Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    charts = plots.figures(sim)
    files = []
    for name, _, png in charts:
        write_atomic(out / name, png)
        files.append(out / name)
    page = out / "report.html"
    write_atomic(page, render(sim, charts))
    return files + [page]
