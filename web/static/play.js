// The board of one seat. Everything shown comes from the server's JSON (the seat's view and
// the engine's constants) and is put in the page as text (textContent, dataset), never as
// markup: no innerHTML, no handler built from data.
"use strict";

(function () {
  const page = JSON.parse(document.getElementById("page-data").textContent);
  const meta = page.meta;
  const api = page.api;
  const labels = page.labels || { zones: {}, vars: {}, kinds: {} };
  const $ = (id) => document.getElementById(id);
  let view = null;
  let selection = { card: null, colours: [] };
  let sending = false;
  let unreachable = false; // the message says the server could not be reached: cleared once it answers

  function el(tag, props, children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(props || {})) {
      if (k === "text") node.textContent = v;
      else if (k === "class") node.className = v;
      else if (k === "data") Object.assign(node.dataset, v);
      else if (k === "onclick") node.addEventListener("click", v);
      else node.setAttribute(k, v);
    }
    for (const child of children || []) if (child) node.append(child);
    return node;
  }

  function seatName(p) {
    if (p === page.seat) return "you";
    const s = view.seats[p];
    return "player " + (p + 1) + (s.human ? "" : " (" + s.who + ")");
  }

  function chip(colour, count, extra) {
    return el("span", { class: "chip " + (extra || ""), data: { colour: colour }, text: String(count),
                        title: colour });
  }

  function cost(values) {
    const out = el("span", { class: "cost" });
    meta.gems.forEach((g, i) => { if (values[i]) out.append(chip(g, values[i], "small")); });
    return out;
  }

  function cardTile(id, where) {
    const c = meta.cards[id];
    const tile = el("button", { class: "card", type: "button", data: { colour: c.bonus, card: String(id) },
                                 "aria-label": "level " + c.level + " " + c.bonus + " card, " + c.points +
                                 " points" + (where ? ", " + where : "") }, [
      el("span", { class: "points", text: c.points ? String(c.points) : "" }),
      el("span", { class: "bonus", text: c.bonus }),
      cost(c.cost),
    ]);
    return tile;
  }

  function sameSlot(a, b) { return a && b && a[0] === b[0] && a[1] === b[1]; }

  function actionButton(id, legal) {
    const info = meta.actions[id];
    return el("button", { type: "button", class: "act" + (legal ? " legal" : " not-now"),
                          data: { action: String(id) }, text: info.text,
                          title: legal ? "" : "not allowed now: click to see why",
                          onclick: () => send(id) });
  }

  async function send(id) {
    if (sending || !view) return;
    sending = true;
    try {
      const response = await fetch(api + "/actions", {
        method: "POST", headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ action: id, after: view.moves }),
      });
      const data = await response.json().catch(() => ({ error: "the server did not answer with JSON" }));
      if (response.ok) {
        selection = { card: null, colours: [] };
        unreachable = false;
        message("");
        render(data);
      } else {
        message(data.error || ("refused (" + response.status + ")"), true);
        if (response.status === 409) refresh();
      }
    } catch (e) {
      message("the server cannot be reached; your move was not played", true);
      unreachable = true;
    } finally {
      sending = false;
    }
  }

  function message(text, problem) {
    const m = $("message");
    m.textContent = text;
    m.classList.toggle("problem", Boolean(problem));
  }

  async function refresh() {
    const response = await fetch(api);
    if (response.ok) render(await response.json());
  }

  function myTurn() { return view && !view.over && !view.problem && view.current === page.seat; }

  function render(next) {
    if (view && next.moves < view.moves) return; // an older view arriving late
    view = next;
    renderStatus();
    renderResult();
    renderChoice();
    renderNobles();
    renderZones();
    renderMarket();
    renderSupply();
    renderActions();
    renderPlayers();
    renderLog();
    const dl = $("download");
    dl.hidden = !view.over;
    if (view.over) $("download-link").href = api + "/game.json";
  }

  function renderStatus() {
    let text;
    if (view.over) {
      const w = view.winners;
      text = "Game over: " + (view.truncated ? "stopped at the turn limit" :
        w.length === 0 ? "no winner" : w.map(seatName).join(" and ") + (w.length === 1 && w[0] === page.seat ?
          " win!" : w.length === 1 ? " wins" : " share the victory"));
    } else if (myTurn()) {
      text = view.phase === "action" ? "Your turn" : "Your turn: " + view.phase.replace(/_/g, " ") +
        (view.pending ? " (" + view.pending + ")" : "");
    } else {
      text = seatName(view.current) + " to play";
    }
    if (page.seat === null) text = "Watching · " + text;
    if (view.problem) text = (page.seat === null ? "Watching · " : "") + "This table was stopped: " + view.problem;
    $("status").textContent = text;
    document.body.classList.toggle("my-turn", myTurn());
  }

  // The end of a game, the same for every seat: why it ended, the winners, every seat's score.
  function renderResult() {
    const box = $("result");
    const r = view.result;
    box.hidden = !r;
    box.replaceChildren();
    if (!r) return;
    const w = r.winners;
    box.append(el("h2", { class: "outcome", text: w.length === 0 ? "No winner" :
      w.length === 1 ? (w[0] === page.seat ? "You win!" : capital(seatName(w[0])) + " wins") :
      "Shared victory: " + w.map(seatName).join(" and ") }));
    box.append(el("p", { class: "ended-by", text: capital(r.ended_by) + " (after " + r.rounds + " rounds, " +
                                                   view.moves + " moves)" }));
    const list = el("ol", { class: "standings" });
    r.standings.forEach((s) => list.append(el("li", { data: { seat: String(s.seat) }, class: s.winner ? "winner" : "",
      text: capital(seatName(s.seat)) + ": " + s.prestige + " prestige, " + count(s.cards, "card") + ", " +
            count(s.nobles, "noble") + (s.winner ? " · winner" : "") })));
    box.append(list);
  }

  function count(n, noun) { return n + " " + noun + (n === 1 ? "" : "s"); }

  function capital(text) { return text.charAt(0).toUpperCase() + text.slice(1); }

  function renderChoice() {
    const box = $("choice");
    box.replaceChildren();
    if (!myTurn() || view.phase === "action") return;
    box.append(el("h2", { text: "Choose: " + view.phase.replace(/_/g, " ") +
                               (view.pending ? " for " + view.pending : "") }));
    const row = el("div", { class: "buttons" });
    view.legal.forEach((id) => row.append(actionButton(id, true)));
    box.append(row);
  }

  function renderNobles() {
    const box = $("nobles");
    box.replaceChildren(el("h2", { text: "Nobles" }));
    const row = el("div", { class: "row" });
    view.state.nobles.forEach((id) => {
      const n = meta.nobles[id];
      row.append(el("div", { class: "noble" }, [el("span", { class: "points", text: String(n.points) }),
                                                 cost(n.requires)]));
    });
    if (!view.state.nobles.length) row.append(el("span", { text: "none left" }));
    box.append(row);
  }

  // The spec's own zones and declared state (state format 2), as the seat's observation has
  // them: a pile as a count, a display or row as its components with their kind's values, a
  // value the seat may not see (another's private one, a component drawn privately) as hidden.
  function zoneTitle(name) { return labels.zones[name] || name.replace(/_/g, " "); }

  function varTitle(name) { return labels.vars[name] || name.replace(/_/g, " "); }

  function component(kind, id) {
    const row = (meta.kinds[kind] || [])[id];
    const named = labels.kinds[kind];
    const item = named && named.item ? named.item : kind;
    const tile = el("div", { class: "component", data: { kind: kind, component: String(id) } });
    if (!row) { tile.append(el("span", { text: item + " " + id })); return tile; }
    row.forEach((value, i) => {
      const column = named ? named.columns[i] : null;
      const label = column ? column.name.replace(/_/g, " ") : "#" + (i + 1);
      if (Array.isArray(value)) {
        if (!value.some((v) => v)) return;
        tile.append(el("div", { class: "attr", data: { column: column ? column.name : String(i) } },
                       [el("span", { class: "label", text: label }), cost(value)]));
      } else if (value !== null && value !== undefined && !(column && column.type === "prose")) {
        tile.append(el("div", { class: "attr", data: { column: column ? column.name : String(i) } },
                       [el("span", { class: "label", text: label }), el("span", { class: "value", text: String(value) })]));
      }
    });
    tile.setAttribute("aria-label", item + " " + (id + 1));
    return tile;
  }

  function zoneContent(zone, items) {
    if (typeof items === "number") {
      return [el("span", { class: "pile", data: { zone: zone.name }, text: items + " left" })];
    }
    if (!Array.isArray(items) || !items.length) return [el("span", { class: "none", text: "none" })];
    return items.map((id) => id === null
      ? el("span", { class: "component hidden-card", text: zone.shape === "display" ? "empty" : "hidden" })
      : component(zone.kind, id));
  }

  function varValue(spec, value, hidden) {
    if (value === null || value === undefined) return hidden ? "hidden" : "none";
    if (typeof value === "boolean") return value ? "yes" : "no";
    if (Array.isArray(value)) return value.length ? value.join(", ") : "none";
    if (spec && spec.type === "player" && typeof value === "number") return "player " + (value + 1);
    return String(value);
  }

  function varLines(values, hidden) {
    return Object.entries(values || {}).map(([name, value]) => {
      const spec = meta.vars.find((v) => v.name === name);
      if (spec && spec.kind && Array.isArray(value)) {  // a set of components: each as a tile, as zones show them
        return el("div", { class: "line var", data: { var: name } }, [
          el("span", { class: "label", text: varTitle(name) }),
          el("div", { class: "row" }, value.length ? value.map((id) => component(spec.kind, id))
                                                   : [el("span", { class: "none", text: "none" })])]);
      }
      return el("div", { class: "line var", data: { var: name } }, [
        el("span", { class: "label", text: varTitle(name) }),
        el("span", { class: "value", text: varValue(spec, value, hidden && spec && spec.private) })]);
    });
  }

  function renderZones() {
    const box = $("zones");
    box.replaceChildren();
    const shared = view.state.zones || {};
    meta.zones.forEach((zone) => {
      if (zone.per_player || !(zone.name in shared)) return;
      box.append(el("div", { class: "zone", data: { zone: zone.name, shape: zone.shape } }, [
        el("h2", { text: zoneTitle(zone.name) }), el("div", { class: "row" }, zoneContent(zone, shared[zone.name]))]));
    });
    const vars = varLines(view.state.vars, false);
    if (vars.length) box.append(el("div", { class: "vars", data: { vars: "shared" } }, [el("h2", { text: "State" }), ...vars]));
    box.hidden = !box.childElementCount;
  }

  function seatExtras(seat, p) {
    const out = varLines(seat.vars, p !== page.seat);
    const zones = seat.zones || {};
    meta.zones.forEach((zone) => {
      if (!zone.per_player || !(zone.name in zones)) return;
      out.push(el("div", { class: "line zone", data: { zone: zone.name } }, [
        el("span", { class: "label", text: zoneTitle(zone.name) }), ...zoneContent(zone, zones[zone.name])]));
    });
    return out;
  }

  function renderMarket() {
    const box = $("market");
    box.replaceChildren();
    [...meta.levels].reverse().forEach((level) => {
      const row = el("div", { class: "row level", data: { level: String(level) } });
      row.append(el("div", { class: "deck", text: "L" + level + " · " + view.state.decks[String(level)] }));
      (view.state.market[String(level)] || []).forEach((id, i) => {
        const slot = [level, i + 1];
        if (id === null) { row.append(el("div", { class: "card empty", text: "empty" })); return; }
        const tile = cardTile(id, "slot " + level + "." + (i + 1));
        tile.dataset.slot = level + "." + (i + 1);
        if (sameSlot(selection.card, slot)) tile.classList.add("selected");
        tile.addEventListener("click", () => {
          selection = { card: sameSlot(selection.card, slot) ? null : slot, colours: [] };
          render(view);
        });
        row.append(tile);
      });
      box.append(row);
    });
  }

  function renderSupply() {
    const box = $("supply");
    box.replaceChildren(el("h2", { text: "Supply" }));
    const row = el("div", { class: "row" });
    meta.colours.forEach((c) => {
      const n = view.state.supply[c];
      const token = el("button", { type: "button", class: "token", data: { colour: c },
                                   "aria-label": n + " " + c, "aria-pressed": String(selection.colours.includes(c)) },
                       [el("span", { text: String(n) }), el("small", { text: c })]);
      token.addEventListener("click", () => {
        const picked = selection.colours.includes(c) ? selection.colours.filter((x) => x !== c)
                                                     : selection.colours.concat([c]);
        selection = { card: null, colours: picked };
        render(view);
      });
      row.append(token);
    });
    box.append(row);
  }

  function renderActions() {
    const box = $("actions");
    box.replaceChildren();
    if (view.over || page.seat === null) return;
    const legal = new Set(view.legal);
    const mine = myTurn();
    const stepsNow = view.phase !== "action";
    let candidates = [];
    let heading = "";
    if (selection.card) {
      heading = "Card " + selection.card.join(".");
      meta.actions.forEach((a, id) => { if (!a.step && sameSlot(a.card, selection.card)) candidates.push(id); });
    } else if (selection.colours.length) {
      const want = [...selection.colours].sort().join(" ");
      heading = "Gems: " + selection.colours.join(", ");
      meta.actions.forEach((a, id) => {
        if (!a.step && !a.card && a.colours.length && [...new Set(a.colours)].sort().join(" ") === want) {
          candidates.push(id);
        }
      });
    }
    if (heading) {
      box.append(el("h2", { text: heading }));
      const row = el("div", { class: "buttons" });
      candidates.forEach((id) => row.append(actionButton(id, mine && legal.has(id))));
      if (!candidates.length) row.append(el("span", { text: "no action takes exactly these" }));
      box.append(row);
    } else if (mine && !stepsNow) {
      box.append(el("p", { class: "hint", text: "Tap a card to buy or reserve it, or tap gems to take them." }));
    }
    if (mine && !stepsNow) {
      const others = view.legal.filter((id) => !meta.actions[id].card && !meta.actions[id].colours.length);
      if (others.length) {
        const row = el("div", { class: "buttons" });
        others.forEach((id) => row.append(actionButton(id, true)));
        box.append(row);
      }
      const all = el("details", { class: "all-actions" }, [el("summary", { text: "Every legal action (" +
                                                                             view.legal.length + ")" })]);
      const row = el("div", { class: "buttons" });
      view.legal.forEach((id) => row.append(actionButton(id, true)));
      all.append(row);
      box.append(all);
    }
  }

  function renderPlayers() {
    const box = $("players");
    box.replaceChildren();
    view.state.seats.forEach((seat, p) => {
      const panel = el("div", { class: "player" + (p === view.current ? " current" : "") +
                                       (p === page.seat ? " me" : ""), data: { seat: String(p) } });
      panel.append(el("h3", { text: seatName(p) + " · " + view.prestige[p] + " prestige" +
                                   (view.winners.includes(p) ? " · winner" : "") }));
      const tokens = el("div", { class: "line" }, [el("span", { class: "label", text: "tokens" })]);
      meta.colours.forEach((c) => { if (seat.tokens[c]) tokens.append(chip(c, seat.tokens[c])); });
      panel.append(tokens);
      const bonus = el("div", { class: "line" }, [el("span", { class: "label", text: "bonuses" })]);
      meta.gems.forEach((g, i) => { if (view.bonus[p][i]) bonus.append(chip(g, view.bonus[p][i], "bonus-chip")); });
      panel.append(bonus);
      seatExtras(seat, p).forEach((line) => panel.append(line));
      if (seat.reserved.length) {
        const reserved = el("div", { class: "line reserved" }, [el("span", { class: "label", text: "reserved" })]);
        seat.reserved.forEach((id) => {
          reserved.append(id === null ? el("span", { class: "card hidden-card", text: "hidden" }) : cardTile(id));
        });
        panel.append(reserved);
      }
      if (seat.nobles.length) {
        panel.append(el("div", { class: "line" }, [el("span", { class: "label", text: "nobles" }),
                                                   el("span", { text: String(seat.nobles.length) })]));
      }
      box.append(panel);
    });
  }

  function renderLog() {
    const list = $("log");
    list.replaceChildren();
    view.log.forEach((m) => list.append(el("li", { text: seatName(m.seat) + ": " + m.text })));
    list.scrollTop = list.scrollHeight;
  }

  function connect() {
    const source = new EventSource(api + "/events");
    source.addEventListener("view", (e) => {
      $("status").classList.remove("offline");
      if (unreachable) { unreachable = false; message(""); }
      const next = JSON.parse(e.data);
      // After its first event a stream sends only the log's entries from log_from on: the page keeps the others.
      if (next.log_from) {
        if (!view || view.log.length < next.log_from) { refresh(); return; }
        next.log = view.log.slice(0, next.log_from).concat(next.log);
      }
      render(next);
    });
    source.addEventListener("error", async () => {
      $("status").classList.add("offline");
      if (source.readyState !== EventSource.CLOSED) {
        $("status").textContent = "connection lost, reconnecting…";
        return;
      }
      // The server refused the stream (the table was removed, a limit): ask it again to read why
      // (a stream that opens this time is dropped, and the page connects again), try again later.
      const asked = new AbortController();
      const response = await fetch(api + "/events", { signal: asked.signal }).catch(() => null);
      if (response && response.ok) {
        asked.abort();
        connect();
        return;
      }
      const data = response ? await response.json().catch(() => ({})) : {};
      $("status").textContent = data.error || "connection lost, reconnecting…";
      if (!response || response.status === 429 || response.status >= 500) {
        setTimeout(connect, 5000);
      } else if (response.status === 404 || response.status === 410) {
        // The table is gone for good: nothing here can be played any more.
        document.body.classList.remove("my-turn");
        document.body.classList.add("table-gone");
        $("actions").replaceChildren();
        $("choice").replaceChildren();
        message(data.error || "this table is gone", true);
      }
    });
  }

  document.querySelectorAll(".rules-lang").forEach((a) => a.addEventListener("click", () => {
    document.querySelectorAll(".rules-lang").forEach((b) => b.classList.toggle("current", b === a));
  }));
  // A replay page (web.replays) steps through a finished game and draws each position here.
  if (page.replay) window.splendorBoard = { show: (next) => { view = null; render(next); } };
  else connect();
})();
