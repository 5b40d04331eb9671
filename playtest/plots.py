"""Charts of a simulation: PNG files and an HTML page that shows them.

matplotlib is an optional extra (``pip install 'splendor-rules[plot]'``); without it
:func:`require` raises :class:`PlotError` with the command to run, before any game is
played. The charts: the distribution of game length in rounds per spec, each seat's
win rate with its 95 % interval, and the share of games by how they ended.
"""

from __future__ import annotations

import html
import io
import os
import pathlib

from compiler.files import write_atomic
from compiler.safe_text import line_text, visible

from .simulate.summary import Simulation


class PlotError(Exception):
    """Charts cannot be drawn; the message says what to install."""


def require():
    try:  # matplotlib is an optional extra (and slow to import): imported when charts are asked for
        import matplotlib
    except ImportError:
        raise PlotError(
            "--plot needs matplotlib, an optional extra: pip install matplotlib (or pip install 'splendor-rules[plot]')"
        ) from None
    matplotlib.use("Agg")  # files only, never a window
    import matplotlib.pyplot as plt

    return plt


def figures(sim: Simulation) -> list[tuple[str, str, bytes]]:
    """The charts as (file name, title, PNG bytes): game length (games stopped at the cap left
    out), wins by seat with 95 % intervals, how games ended, and how often each decision was
    made per game."""
    plt = require()
    data = sim.to_dict()
    specs = data["specs"]
    labels = [visible(s["spec"]) for s in specs]  # a label is a file name: one line, no control
    out = []

    fig, ax = plt.subplots(figsize=(8, 4.5))
    lengths = [s.rounds() for s in sim.specs]
    low = min((min(x) for x in lengths if x), default=0)
    high = max((max(x) for x in lengths if x), default=1)
    bins = range(low, high + 2)
    for k, (label, xs) in enumerate(zip(labels, lengths, strict=True)):
        if xs:
            colour = f"C{k}"
            ax.hist(xs, bins=bins, histtype="step", linewidth=2, color=colour, label=label, align="left")
            ax.axvline(sum(xs) / len(xs), color=colour, linestyle="--", linewidth=1)
    ax.set_xlabel("game length (rounds)")
    ax.set_ylabel("games")
    capped = sum(s["capped"]["games"] for s in specs)
    ax.set_title("Game length (dashed: means)" + (f"; {capped} capped games left out" if capped else ""))
    ax.legend()
    out.append(("rounds.png", "Game length", _png(fig, plt)))

    fig, ax = plt.subplots(figsize=(8, 4.5))
    width = 0.8 / max(1, len(specs))
    for k, s in enumerate(specs):
        bars = [seat + k * width for seat in range(sim.players)]
        rates = [x["win_rate"] or 0.0 for x in s["seats"]]
        err_low = [max(0.0, r - (x["ci95"][0] or 0.0)) for r, x in zip(rates, s["seats"], strict=True)]
        err_high = [max(0.0, (x["ci95"][1] or 0.0) - r) for r, x in zip(rates, s["seats"], strict=True)]
        ax.bar(bars, rates, width=width, yerr=[err_low, err_high], capsize=3, label=visible(s["spec"]))
    ax.set_xticks([seat + width * (len(specs) - 1) / 2 for seat in range(sim.players)])
    rotated = len(data["seatings"]) > 1
    ax.set_xticklabels([f"seat {i + 1}" + ("" if rotated else f"\n{b}") for i, b in enumerate(sim.bots)])
    ax.set_ylabel("win rate (95% interval)")
    ax.set_ylim(0, 1)
    ax.set_title("Wins by seat" + (" (bots rotated)" if rotated else ""))
    ax.legend()
    out.append(("seats.png", "Seat advantage", _png(fig, plt)))

    fig, ax = plt.subplots(figsize=(8, 4.5))
    reasons = sorted({r for s in specs for r in s["ends"]})
    bottoms = [0.0] * len(specs)
    for reason in reasons:
        shares = [s["ends"].get(reason, 0) / s["games"] if s["games"] else 0.0 for s in specs]
        ax.bar(range(len(specs)), shares, bottom=bottoms, label=reason)
        bottoms = [b + x for b, x in zip(bottoms, shares, strict=True)]
    ax.set_xticks(range(len(specs)))
    ax.set_xticklabels(labels)
    ax.set_ylabel("share of games")
    ax.set_title("How games ended")
    ax.legend()
    out.append(("endings.png", "How games ended", _png(fig, plt)))

    decisions = list(dict.fromkeys(name for s in specs for name in s["uses"]))
    if decisions:
        fig, ax = plt.subplots(figsize=(8, 1 + 0.45 * len(decisions) * max(1, len(specs)) ** 0.5))
        height = 0.8 / max(1, len(specs))
        for k, s in enumerate(specs):
            ys = [i + k * height for i in range(len(decisions))]
            ax.barh(
                ys,
                [(s["uses"].get(d) or {}).get("per_game") or 0.0 for d in decisions],
                height=height,
                label=visible(s["spec"]),
            )
        ax.set_yticks([i + height * (len(specs) - 1) / 2 for i in range(len(decisions))])
        ax.set_yticklabels(decisions)
        ax.invert_yaxis()
        ax.set_xlabel("times chosen per game")
        ax.set_title("Rule usage")
        ax.legend()
        out.append(("uses.png", "Rule usage", _png(fig, plt)))
    return out


def write(sim: Simulation, directory: str | os.PathLike) -> list[pathlib.Path]:
    """Writes the charts and index.html into `directory`; returns the files written."""
    out = pathlib.Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    data = sim.to_dict()
    specs = data["specs"]
    files = []
    for name, _, png in figures(sim):
        write_atomic(out / name, png)  # whole or not at all
        files.append(out / name)

    page = out / "index.html"
    rows = "".join(
        f"<tr><td>{html.escape(line_text(s['spec']))}</td><td>{s['games']}</td>"
        f"<td>{_fmt(s['rounds']['mean'])}</td><td>{_fmt(s['rounds']['median'])}</td>"
        f"<td>{_fmt(s['winning_prestige'])}</td></tr>"
        for s in specs
    )
    images = "".join(f'<figure><img src="{f.name}" alt="{f.stem}"></figure>' for f in files)
    text = (
        '<!doctype html>\n<html><head><meta charset="utf-8"><title>splendor-rules simulation</title>'
        "<style>body{font-family:sans-serif;margin:2em}td,th{padding:.2em .8em;text-align:right}"
        "td:first-child{text-align:left}img{max-width:100%}</style></head><body>"
        f"<h1>Simulation</h1><p>{sim.players} players, bots {html.escape(','.join(sim.bots))}, "
        f"seed {sim.seed}{', interrupted' if sim.interrupted else ''}.</p>"
        "<table><tr><th>spec</th><th>games</th><th>rounds, mean</th><th>rounds, median</th>"
        f"<th>winning prestige</th></tr>{rows}</table>{images}</body></html>\n"
    )
    write_atomic(page, text)
    return files + [page]


def _fmt(x) -> str:
    return "-" if x is None else f"{x:.1f}"


def _png(fig, plt) -> bytes:
    fig.tight_layout()
    png = io.BytesIO()
    fig.savefig(png, format="png", dpi=100, metadata={"Software": None})  # no version stamp in the file
    plt.close(fig)
    return png.getvalue()
