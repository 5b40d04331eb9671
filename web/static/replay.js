// The replay of a finished game: steps through its positions (forward, back, to a move) and
// draws each with the board of play.js (window.splendorBoard). Each position comes from the
// server (web.replays) as the chosen seat saw it, or all open; everything is put in the page as
// text, never as markup.
"use strict";

(function () {
  const page = JSON.parse(document.getElementById("page-data").textContent);
  const replay = page.replay;
  const $ = (id) => document.getElementById(id);
  let shown = 0;
  let asked = 0;

  function say(text) {
    const m = $("message");
    m.textContent = text;
    m.classList.toggle("problem", Boolean(text));
  }

  function moveText(view, k) {
    const t = window.splendorBoard.t;
    if (k === 0) return t("replay.deal");
    const m = view.log[k - 1] || {};
    const who = m.seat === page.seat ? t("seat.you") : t("seat.player", { number: Number(m.seat) + 1 });
    const said = m.action === undefined ? m.text || "" : window.splendorBoard.move(m.action);
    // the card the move took, by what it is (its slot was refilled since), as the board's log says it
    const text = m.card === null || m.card === undefined ? said : t("log.card", { move: said, card: window.splendorBoard.card(m.card) });
    return t("replay.move_text", { k: k, moves: replay.moves, who: who, text: text });
  }

  async function go(k) {
    k = Math.max(0, Math.min(replay.moves, Number.isFinite(k) ? Math.trunc(k) : shown));
    const ticket = ++asked;
    let response;
    try {
      response = await fetch(replay.api + "?move=" + k + "&as=" + encodeURIComponent(replay.as) +
                             "&lang=" + encodeURIComponent(page.lang || "en"));
    } catch (e) {
      if (ticket === asked) say(window.splendorBoard.t("replay.unreachable"));
      return;
    }
    const data = await response.json().catch(() => ({ error: window.splendorBoard.t("error.not_json") }));
    if (ticket !== asked) return; // a later step was asked for meanwhile
    if (!response.ok) {
      say(data.error || window.splendorBoard.t("replay.refused", { status: response.status }));
      return;
    }
    say("");
    shown = k;
    window.splendorBoard.show(data);
    $("replay-move").value = String(k);
    $("replay-slider").value = String(k);
    $("replay-move-text").textContent = moveText(data, k);
    $("replay-first").disabled = $("replay-back").disabled = k === 0;
    $("replay-forward").disabled = $("replay-last").disabled = k === replay.moves;
    const lang = "&lang=" + encodeURIComponent(page.lang);
    history.replaceState(null, "", "?as=" + encodeURIComponent(replay.as) + "&move=" + k + lang);
    document.querySelectorAll(".replay-as").forEach((a) => {
      a.href = "?as=" + encodeURIComponent(a.dataset.as) + "&move=" + k + lang;
    });
  }

  document.body.classList.add("replay");
  for (const id of ["replay-move", "replay-slider"]) $(id).max = String(replay.moves);
  $("replay-of").textContent = window.splendorBoard.t("replay.of", { moves: replay.moves });
  $("replay-first").addEventListener("click", () => go(0));
  $("replay-back").addEventListener("click", () => go(shown - 1));
  $("replay-forward").addEventListener("click", () => go(shown + 1));
  $("replay-last").addEventListener("click", () => go(replay.moves));
  $("replay-move").addEventListener("change", (e) => go(Number(e.target.value)));
  $("replay-slider").addEventListener("input", (e) => go(Number(e.target.value)));
  document.addEventListener("keydown", (e) => {
    if (e.target instanceof HTMLInputElement) return; // the move's field and the slider have keys of their own
    const to = { ArrowLeft: shown - 1, ArrowRight: shown + 1, Home: 0, End: replay.moves }[e.key];
    if (to !== undefined) {
      e.preventDefault();
      go(to);
    }
  });
  const start = Number(new URLSearchParams(location.search).get("move") || "0");
  go(start);
})();
