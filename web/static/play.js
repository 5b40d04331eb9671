// The board of one seat. Everything shown comes from the server's JSON (the seat's view and
// the engine's constants) and is put in the page as text (textContent, dataset), never as
// markup: no innerHTML, no handler built from data. Every word of the interface comes from the
// page's catalogue (web/locales/LANG.json) through t(); a gem is written with its colour's
// symbol and named in full for a screen reader.
"use strict";

(function () {
  const page = JSON.parse(document.getElementById("page-data").textContent);
  const meta = page.meta;
  const api = page.api;
  const labels = page.labels || { zones: {}, vars: {}, kinds: {}, steps: {}, ends: {}, nobles: true };
  const messages = page.messages || {};
  const gems = page.gems || {};
  const plurals = new Intl.PluralRules(page.lang || "en");
  const $ = (id) => document.getElementById(id);
  let view = null;
  let selection = { card: null, colours: [] };
  let sending = false;
  let unreachable = false; // the message says the server could not be reached: cleared once it answers

  // The message `key` with its {fields} filled from `vars`; with vars.n, the form of the
  // language's plural category of n (key.one, key.few, key.other).
  function t(key, vars) {
    vars = vars || {};
    let text = messages[key];
    if (text === undefined && typeof vars.n === "number") {
      text = messages[key + "." + plurals.select(vars.n)];
      if (text === undefined) text = messages[key + ".other"];
    }
    if (text === undefined) return key;
    return text.replace(/\{(\w+)\}/g, (whole, name) => (name in vars ? String(vars[name]) : whole));
  }

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

  function colourName(c) { return gems[c] ? gems[c].name : c; }

  function symbol(c) { return gems[c] ? gems[c].symbol : c; }

  function list(items) { return items.join(t("list.separator")); }

  function seatName(p) {
    if (p === page.seat) return t("seat.you");
    const s = view.seats[p];
    return s.human ? t("seat.player", { number: p + 1 }) : t("seat.bot", { number: p + 1, bot: s.who });
  }

  // A gem with a count: its symbol beside the number, the colour's name for whoever hears it.
  function chip(colour, count, extra) {
    return el("span", { class: "chip " + (extra || ""), data: { colour: colour }, role: "img",
                        "aria-label": t("gem.count", { n: count, colour: colourName(colour) }),
                        title: colourName(colour) }, [
      el("span", { class: "n", text: String(count) }), el("span", { class: "sym", text: symbol(colour) })]);
  }

  // A cost or a requirement, as discs (hidden from a screen reader: the tile says it in words).
  function cost(values) {
    const out = el("span", { class: "cost", "aria-hidden": "true" });
    meta.gems.forEach((g, i) => {
      if (values[i]) out.append(el("span", { class: "chip small", data: { colour: g }, title: colourName(g) }, [
        el("span", { class: "n", text: String(values[i]) }), el("span", { class: "sym", text: symbol(g) })]));
    });
    return out;
  }

  function costWords(values) {
    const parts = [];
    meta.gems.forEach((g, i) => { if (values[i]) parts.push(t("gem.count", { n: values[i], colour: colourName(g) })); });
    return parts.length ? list(parts) : t("cost.nothing");
  }

  // A card: a button where tapping it chooses it (the market), a plain tile elsewhere.
  function cardTile(id, where, pressable) {
    const c = meta.cards[id];
    const name = t("card.label", { level: c.level, colour: colourName(c.bonus), n: c.points, cost: costWords(c.cost) }) +
                 (where ? t("card.where", { where: where }) : "");
    const parts = [
      el("span", { class: "points", text: c.points ? String(c.points) : "", "aria-hidden": "true" }),
      el("span", { class: "bonus", "aria-hidden": "true" }, [
        el("span", { class: "sym", text: symbol(c.bonus) }), el("span", { text: " " + colourName(c.bonus) })]),
      cost(c.cost),
    ];
    if (pressable) {
      return el("button", { class: "card", type: "button", data: { colour: c.bonus, card: String(id) },
                            "aria-label": name }, parts);
    }
    return el("div", { class: "card", role: "img", data: { colour: c.bonus, card: String(id) }, "aria-label": name }, parts);
  }

  function sameSlot(a, b) { return a && b && a[0] === b[0] && a[1] === b[1]; }

  function actionButton(id, legal) {
    const info = meta.actions[id];
    return el("button", { type: "button", class: "act" + (legal ? " legal" : " not-now"),
                          data: { action: String(id), focus: "action:" + id }, text: info.text,
                          title: legal ? "" : t("action.not_now"),
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
      const data = await response.json().catch(() => ({ error: t("error.not_json") }));
      if (response.ok) {
        selection = { card: null, colours: [] };
        unreachable = false;
        message("");
        render(data);
      } else {
        message(data.error || t("error.refused", { status: response.status }), true);
        if (response.status === 409) refresh();
      }
    } catch (e) {
      message(t("error.unreachable"), true);
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

  // Focus stays on what was pressed: every element one can press carries a data-focus key, and
  // the element with the same key after a re-render gets the focus back.
  function focusKey() {
    const active = document.activeElement;
    return active && active.dataset ? active.dataset.focus || null : null;
  }

  function restoreFocus(key) {
    if (!key) return;
    const again = document.querySelector('[data-focus="' + CSS.escape(key) + '"]');
    if (again && again !== document.activeElement) again.focus({ preventScroll: true });
  }

  function render(next) {
    if (view && next.moves < view.moves) return; // an older view arriving late
    const focused = focusKey();
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
    restoreFocus(focused);
  }

  function stepTitle(name) { return labels.steps && labels.steps[name] ? labels.steps[name] : name.replace(/_/g, " "); }

  function winnersText(w) {
    if (view.truncated) return t("status.over.truncated");
    if (w.length === 0) return t("status.over.none");
    if (w.length === 1) return w[0] === page.seat ? t("status.over.you") : t("status.over.single", { who: seatName(w[0]) });
    return t("status.over.shared", { who: list(w.map(seatName)) });
  }

  function renderStatus() {
    let text;
    if (view.over) {
      text = winnersText(view.winners);
    } else if (myTurn()) {
      text = view.phase === "action" ? t("status.turn") : view.pending
        ? t("status.turn.step.pending", { step: stepTitle(view.phase), pending: view.pending })
        : t("status.turn.step", { step: stepTitle(view.phase) });
    } else {
      text = t("status.to_play", { who: seatName(view.current) });
    }
    if (view.problem) text = t("status.stopped", { problem: view.problem });
    if (page.seat === null) text = t("status.watching", { status: text });
    $("status").textContent = text;
    document.body.classList.toggle("my-turn", myTurn());
  }

  function endedBy(r) {
    if (r.reason === "truncated") return t("result.truncated");
    if (r.reason === "deadlock") return t("result.deadlock");
    const title = labels.ends && labels.ends[r.reason];
    return t("result.ended_by", { reason: title || String(r.reason).replace(/_/g, " ") });
  }

  // The end of a game, the same for every seat: why it ended, the winners, every seat's score.
  function renderResult() {
    const box = $("result");
    const r = view.result;
    box.hidden = !r;
    box.replaceChildren();
    if (!r) return;
    const w = r.winners;
    box.append(el("h2", { class: "outcome", text: w.length === 0 ? t("result.none") :
      w.length === 1 ? (w[0] === page.seat ? t("result.you") : t("result.single", { who: capital(seatName(w[0])) })) :
      t("result.shared", { who: list(w.map(seatName)) }) }));
    box.append(el("p", { class: "ended-by", text: t("result.after", { ended: endedBy(r), rounds: r.rounds,
                                                                      moves: view.moves }) }));
    const standings = el("ol", { class: "standings" });
    r.standings.forEach((s) => standings.append(el("li", { data: { seat: String(s.seat) }, class: s.winner ? "winner" : "",
      text: t("result.standing", { who: capital(seatName(s.seat)), prestige: s.prestige,
                                   cards: t("count.card", { n: s.cards }), nobles: t("count.noble", { n: s.nobles }) }) +
            (s.winner ? t("result.winner") : "") })));
    box.append(standings);
  }

  function capital(text) { return text.charAt(0).toUpperCase() + text.slice(1); }

  function renderChoice() {
    const box = $("choice");
    box.replaceChildren();
    if (!myTurn() || view.phase === "action") return;
    box.append(el("h2", { text: view.pending ? t("choice.heading.pending", { step: stepTitle(view.phase), pending: view.pending })
                                             : t("choice.heading", { step: stepTitle(view.phase) }) }));
    const row = el("div", { class: "buttons" });
    view.legal.forEach((id) => row.append(actionButton(id, true)));
    box.append(row);
  }

  function nobleTile(id) {
    const n = meta.nobles[id];
    return el("div", { class: "noble", role: "img", data: { noble: String(id) },
                       "aria-label": t("noble.label", { n: n.points, needs: costWords(n.requires) }) }, [
      el("span", { class: "points", text: String(n.points), "aria-hidden": "true" }), cost(n.requires)]);
  }

  // The noble row, when the spec deals nobles at all (a module without them shows no section).
  function renderNobles() {
    const box = $("nobles");
    box.hidden = labels.nobles === false;
    if (box.hidden) { box.replaceChildren(); return; }
    box.replaceChildren(el("h2", { text: t("nobles.heading") }));
    const row = el("div", { class: "row" });
    view.state.nobles.forEach((id) => row.append(nobleTile(id)));
    if (!view.state.nobles.length) row.append(el("span", { text: t("nobles.none_left") }));
    box.append(row);
  }

  // The spec's own zones and declared state (state format 2), as the seat's observation has
  // them: a pile as a count, a display or row as its components drawn as tiles with their kind's
  // titles, a value the seat may not see (another's private one, a component drawn privately) as hidden.
  function zoneTitle(name) { return labels.zones[name] || name.replace(/_/g, " "); }

  function varTitle(name) { return labels.vars[name] || name.replace(/_/g, " "); }

  function columnValue(column, value) {
    if (column.titles && column.titles[value] !== undefined) return column.titles[value];
    if ((column.type === "gem" || column.type === "colour") && typeof value === "string") return colourName(value);
    return String(value);
  }

  // One component as a tile: its item and key, then each column the kind shows by its title
  // (a table by gem colour as discs, a keyword by its title), and the words a screen reader hears.
  function component(kind, id) {
    const row = (meta.kinds[kind] || [])[id];
    const named = labels.kinds[kind];
    const item = named && named.item ? named.item : kind;
    const tile = el("div", { class: "component", role: "group", data: { kind: kind, component: String(id) } });
    if (!row || !named) {
      tile.append(el("span", { text: t("component.name", { item: item, key: id + 1 }) }));
      tile.setAttribute("aria-label", t("component.name", { item: item, key: id + 1 }));
      return tile;
    }
    const keyAt = named.columns.findIndex((c) => c.name === named.key);
    const name = t("component.name", { item: item, key: keyAt >= 0 ? row[keyAt] : id + 1 });
    tile.append(el("span", { class: "component-name", text: capital(name) }));
    const said = [name];
    row.forEach((value, i) => {
      const column = named.columns[i];
      if (!column || i === keyAt || column.hidden || column.type === "prose" || value === null || value === undefined) return;
      if (Array.isArray(value)) {
        if (!value.some((v) => v)) return;
        tile.append(el("div", { class: "attr", data: { column: column.name } },
                       [el("span", { class: "label", text: column.title }), cost(value)]));
        said.push(column.title + " " + costWords(value));
      } else {
        if (column.type === "number" && value === 0 && !column.group) return;
        tile.append(el("div", { class: "attr", data: { column: column.name } },
                       [el("span", { class: "label", text: column.title }),
                        el("span", { class: "value", text: columnValue(column, value) })]));
        said.push(column.title + " " + columnValue(column, value));
      }
    });
    tile.setAttribute("aria-label", said.join(t("list.separator")));
    return tile;
  }

  function zoneContent(zone, items) {
    if (typeof items === "number") {
      return [el("span", { class: "pile", data: { zone: zone.name }, text: t("zone.left", { n: items }) })];
    }
    if (!Array.isArray(items) || !items.length) return [el("span", { class: "none", text: t("value.none") })];
    return items.map((id) => id === null
      ? el("span", { class: "component hidden-card", text: zone.shape === "display" ? t("card.empty") : t("value.hidden") })
      : component(zone.kind, id));
  }

  function varValue(spec, value, hidden) {
    if (value === null || value === undefined) return hidden ? t("value.hidden") : t("value.none");
    if (typeof value === "boolean") return value ? t("value.yes") : t("value.no");
    if (Array.isArray(value)) return value.length ? list(value.map(colourName)) : t("value.none");
    if (spec && spec.type === "player" && typeof value === "number") return seatName(value);
    if (typeof value === "string") return colourName(value);
    return String(value);
  }

  // A variable is board state unless it is the bookkeeping of one turn the spec does not mark
  // for display (labels.vars_shown: the variables to show).
  function shown(name) { return !labels.vars_shown || labels.vars_shown.includes(name); }

  function varLines(values, hidden) {
    return Object.entries(values || {}).filter(([name]) => shown(name)).map(([name, value]) => {
      const spec = meta.vars.find((v) => v.name === name);
      if (spec && spec.kind && Array.isArray(value)) {  // a set of components: each as a tile, as zones show them
        return el("div", { class: "line var", data: { var: name } }, [
          el("span", { class: "label", text: varTitle(name) }),
          el("div", { class: "row" }, value.length ? value.map((id) => component(spec.kind, id))
                                                   : [el("span", { class: "none", text: t("value.none") })])]);
      }
      return el("div", { class: "line var", data: { var: name } }, [
        el("span", { class: "label", text: varTitle(name) }),
        el("span", { class: "value", text: varValue(spec, value, hidden && spec && spec.private) })]);
    });
  }

  // A kind that no shared zone lays out but that players hold (the Trading Posts' posts): every
  // component of it, with who holds it.
  function heldKinds() {
    const inZones = new Set(meta.zones.filter((z) => !z.per_player).map((z) => z.kind));
    const out = [];
    meta.vars.forEach((v) => {
      if (v.kind && !inZones.has(v.kind) && labels.kinds[v.kind] && !out.some((o) => o.kind === v.kind)) {
        out.push({ kind: v.kind, vars: meta.vars.filter((w) => w.kind === v.kind && shown(w.name)) });
      }
    });
    return out;
  }

  function holders(kindVars, id) {
    const who = [];
    view.state.seats.forEach((seat, p) => {
      if (kindVars.some((v) => v.per_player && Array.isArray((seat.vars || {})[v.name]) &&
                               seat.vars[v.name].includes(id))) who.push(seatName(p));
    });
    return who;
  }

  // What the rules ask of a component of `kind`, in the sheet's words (once per kind on the board).
  function kindRules(kind, explained) {
    const named = labels.kinds[kind];
    if (!named || explained.has(kind)) return [];
    explained.add(kind);
    return (named.rules || []).map((r) => el("p", { class: "kind-rule", data: { kind: kind } },
      r.title ? [el("strong", { text: r.title }), document.createTextNode(t("rule.separator") + r.text)]
              : [document.createTextNode(r.text)]));
  }

  function renderZones() {
    const box = $("zones");
    box.replaceChildren();
    const shared = view.state.zones || {};
    const explained = new Set();
    meta.zones.forEach((zone) => {
      if (zone.per_player || !(zone.name in shared)) return;
      const laidOut = Array.isArray(shared[zone.name]);
      box.append(el("div", { class: "zone", data: { zone: zone.name, shape: zone.shape } }, [
        el("h2", { text: zoneTitle(zone.name) }), el("div", { class: "row" }, zoneContent(zone, shared[zone.name])),
        ...(laidOut ? kindRules(zone.kind, explained) : [])]));
    });
    heldKinds().forEach(({ kind, vars }) => {
      const row = el("div", { class: "row" });
      (meta.kinds[kind] || []).forEach((_, id) => {
        const tile = component(kind, id);
        const who = holders(vars, id);
        const line = who.length ? t("component.held_by", { who: list(who) }) : t("component.held_by_none");
        tile.append(el("div", { class: "held", text: line }));
        tile.setAttribute("aria-label", tile.getAttribute("aria-label") + t("list.separator") + line);
        row.append(tile);
      });
      box.append(el("div", { class: "zone", data: { kind: kind } }, [el("h2", { text: labels.kinds[kind].title }), row,
                                                                    ...kindRules(kind, explained)]));
    });
    const vars = varLines(view.state.vars, false);
    if (vars.length) box.append(el("div", { class: "vars", data: { vars: "shared" } }, [el("h2", { text: t("state.heading") }), ...vars]));
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
    box.replaceChildren(el("h2", { class: "visually-hidden", text: t("market.heading") }));
    [...meta.levels].reverse().forEach((level) => {
      const row = el("div", { class: "row level", data: { level: String(level) } });
      const left = view.state.decks[String(level)];
      row.append(el("div", { class: "deck", role: "img", "aria-label": t("deck.label", { level: level, n: left }) }, [
        el("span", { text: t("deck.short", { level: level, n: left }), "aria-hidden": "true" })]));
      (view.state.market[String(level)] || []).forEach((id, i) => {
        const slot = [level, i + 1];
        if (id === null) { row.append(el("div", { class: "card empty", text: t("card.empty") })); return; }
        const where = level + "." + (i + 1);
        const tile = cardTile(id, t("card.slot", { slot: where }), true);
        tile.dataset.slot = where;
        tile.dataset.focus = "slot:" + where;
        tile.setAttribute("aria-pressed", String(Boolean(sameSlot(selection.card, slot))));
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
    box.replaceChildren(el("h2", { text: t("supply.heading") }));
    const row = el("div", { class: "row" });
    meta.colours.forEach((c) => {
      const n = view.state.supply[c];
      const token = el("button", { type: "button", class: "token", data: { colour: c, focus: "token:" + c },
                                   "aria-label": t("token.label", { n: n, colour: colourName(c) }),
                                   "aria-pressed": String(selection.colours.includes(c)) },
                       [el("span", { class: "n", text: String(n) }), el("small", { class: "sym", text: symbol(c) })]);
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
    const candidates = [];
    let heading = "";
    if (selection.card) {
      const id = view.state.market[String(selection.card[0])][selection.card[1] - 1];
      const c = id === null || id === undefined ? null : meta.cards[id];
      heading = c ? t("actions.card", { level: c.level, colour: colourName(c.bonus), n: c.points })
                  : t("card.slot", { slot: selection.card.join(".") });
      meta.actions.forEach((a, i) => { if (!a.step && sameSlot(a.card, selection.card)) candidates.push(i); });
    } else if (selection.colours.length) {
      const want = [...selection.colours].sort().join(" ");
      heading = t("actions.gems", { colours: list(selection.colours.map(colourName)) });
      meta.actions.forEach((a, i) => {
        if (!a.step && !a.card && a.colours.length && [...new Set(a.colours)].sort().join(" ") === want) {
          candidates.push(i);
        }
      });
    }
    if (heading) {
      box.append(el("h2", { text: heading }));
      const row = el("div", { class: "buttons" });
      candidates.forEach((id) => row.append(actionButton(id, mine && legal.has(id))));
      if (!candidates.length) row.append(el("span", { text: t("actions.none_exactly") }));
      box.append(row);
    } else if (mine && !stepsNow) {
      box.append(el("p", { class: "hint", text: t("actions.hint") }));
    }
    if (mine && !stepsNow) {
      const others = view.legal.filter((id) => !meta.actions[id].card && !meta.actions[id].colours.length);
      if (others.length) {
        const row = el("div", { class: "buttons" });
        others.forEach((id) => row.append(actionButton(id, true)));
        box.append(row);
      }
      const all = el("details", { class: "all-actions" }, [el("summary", { text: t("actions.every", { n: view.legal.length }) })]);
      const row = el("div", { class: "buttons" });
      view.legal.forEach((id) => row.append(actionButton(id, true)));
      all.append(row);
      box.append(all);
    }
  }

  function renderPlayers() {
    const box = $("players");
    box.replaceChildren(el("h2", { class: "visually-hidden", text: t("players.heading") }));
    view.state.seats.forEach((seat, p) => {
      const panel = el("div", { class: "player" + (p === view.current ? " current" : "") +
                                       (p === page.seat ? " me" : ""), data: { seat: String(p) } });
      panel.append(el("h3", { text: t("player.heading", { who: seatName(p), n: view.prestige[p] }) +
                                   (view.winners.includes(p) ? t("result.winner") : "") }));
      const tokens = el("div", { class: "line" }, [el("span", { class: "label", text: t("player.tokens") })]);
      meta.colours.forEach((c) => { if (seat.tokens[c]) tokens.append(chip(c, seat.tokens[c])); });
      panel.append(tokens);
      const bonus = el("div", { class: "line" }, [el("span", { class: "label", text: t("player.bonuses") })]);
      meta.gems.forEach((g, i) => { if (view.bonus[p][i]) bonus.append(chip(g, view.bonus[p][i], "bonus-chip")); });
      panel.append(bonus);
      seatExtras(seat, p).forEach((line) => panel.append(line));
      if (seat.reserved.length) {
        const reserved = el("div", { class: "line reserved" }, [el("span", { class: "label", text: t("player.reserved") })]);
        seat.reserved.forEach((id) => {
          reserved.append(id === null ? el("span", { class: "card hidden-card", text: t("value.hidden") }) : cardTile(id, "", false));
        });
        panel.append(reserved);
      }
      if (seat.nobles.length) {
        panel.append(el("div", { class: "line" }, [el("span", { class: "label", text: t("player.nobles") }),
                                                   el("span", { text: String(seat.nobles.length) })]));
      }
      box.append(panel);
    });
  }

  function renderLog() {
    const list_ = $("log");
    list_.replaceChildren();
    view.log.forEach((m) => list_.append(el("li", { text: t("log.move", { who: seatName(m.seat), move: m.text }) })));
    list_.scrollTop = list_.scrollHeight;
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
        $("status").textContent = t("status.reconnecting");
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
      $("status").textContent = data.error || t("status.reconnecting");
      if (!response || response.status === 429 || response.status >= 500) {
        setTimeout(connect, 5000);
      } else if (response.status === 404 || response.status === 410) {
        // The table is gone for good: nothing here can be played any more.
        document.body.classList.remove("my-turn");
        document.body.classList.add("table-gone");
        $("actions").replaceChildren();
        $("choice").replaceChildren();
        message(data.error || t("error.gone"), true);
      }
    });
  }

  document.querySelectorAll(".rules-lang").forEach((a) => a.addEventListener("click", () => {
    document.querySelectorAll(".rules-lang").forEach((b) => b.classList.toggle("current", b === a));
  }));
  // A replay page (web.replays) steps through a finished game and draws each position here.
  if (page.replay) window.splendorBoard = { show: (next) => { view = null; render(next); }, t: t };
  else connect();
})();
