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
  const asked = "?lang=" + encodeURIComponent(page.lang || "en");  // the server's refusals in the page's language
  const labels = page.labels || { zones: {}, vars: {}, kinds: {}, steps: {}, ends: {}, nobles: true, decisions: {}, sources: {} };
  const messages = page.messages || {};
  const gems = page.gems || {};
  const plurals = new Intl.PluralRules(page.lang || "en");
  const $ = (id) => document.getElementById(id);
  let view = null;
  // What the player has picked on the board (a face-up card, a reserved card, a deck, gems), and
  // the move chosen from it, which only the confirm button plays.
  let selection = { card: null, colours: [], reserved: null, deck: null };
  let chosen = null;
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

  // A sentence of the server kept as a key and values (web.i18n.Words: why a table stopped),
  // said in the page's language; a value may be such a sentence in turn.
  function said(words) {
    const vars = {};
    Object.entries(words.values || {}).forEach(([name, value]) => {
      vars[name] = value && typeof value === "object" ? said(value) : value;
    });
    return t(words.key, vars);
  }

  function clearSelection() {
    selection = { card: null, colours: [], reserved: null, deck: null };
    chosen = null;
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

  // A move in the page's language: its rule's title (the spec's, as the sheet has it) and what it
  // chooses, from the engine's description of the action (meta.actions); the engine's notation
  // where the page has no words for its rule (a table whose spec the server no longer offers).
  function moveText(id) {
    const info = meta.actions[id];
    const title = labels.decisions[info.rule] || (info.paid ? t("notation.payment") : null);
    if (!title) return info.text;
    const said = [];
    if (info.card) said.push(t("notation.face_up", { level: info.card[0], slot: info.card[1] }));
    const given = (value) => value !== null && value !== undefined;
    if (given(info.deck)) said.push(t("notation.deck", { n: info.deck }));
    if (given(info.reserved)) said.push(t("notation.reserved", { n: info.reserved }));
    if (given(info.noble)) said.push(t("notation.noble", { n: info.noble }));
    if (given(info.component)) {
      said.push(t("notation.component", { item: itemOf(info.rule), n: info.component + 1 }));
    }
    if (info.colours.length) said.push(list(info.colours.map(colourName)));
    if (info.paid) {
      const counts = Object.entries(info.paid).map(([c, n]) => t("gem.count", { n: n, colour: colourName(c) }));
      said.push(counts.length ? t("notation.pay_wild", { wild: colourName(meta.wild), for: list(counts) })
                              : t("notation.pay_plain", { wild: colourName(meta.wild) }));
    }
    return said.length ? t("notation.move", { rule: title, choice: list(said) }) : title;
  }

  // What a decision's component is called (its kind's item, or its zone's kind's).
  function itemOf(rule) {
    const source = (labels.sources || {})[rule] || "";
    const zone = meta.zones.find((z) => z.name === source);
    const kind = labels.kinds[source] || (zone && labels.kinds[zone.kind]);
    return kind ? kind.item || kind.title : source.replace(/_/g, " ");
  }

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
    const keyed = keyedLines("cards", id);
    parts.push(...keyed.lines);
    if (pressable) {
      return el("button", { class: "card", type: "button", data: { colour: c.bonus, card: String(id) },
                            "aria-label": name + keyed.said }, parts);
    }
    return el("div", { class: "card", role: "img", data: { colour: c.bonus, card: String(id) }, "aria-label": name + keyed.said }, parts);
  }

  // What a variable keyed by a piece (`by: cards` in the spec: the Strongholds' strongholds and
  // their owner) holds for piece `id` of `kind`, said on the piece's own tile: each shown variable
  // whose entry differs from its value at the start (a card without a stronghold says nothing of
  // them); a player's own variable with the player's name. Returns the lines and their words.
  function keyedLines(kind, id) {
    const lines = [];
    const words = [];
    meta.vars.filter((v) => v.by === kind && shown(v.name)).forEach((v) => {
      const held = v.per_player ? view.state.seats.map((seat, p) => [(seat.vars || {})[v.name], p])
                                : [[(view.state.vars || {})[v.name], null]];
      held.forEach(([values, p]) => {
        if (!Array.isArray(values) || values[id] === null || values[id] === undefined) return;  // hidden, or none
        if (values[id] === v.initial[id]) return;
        const title = p === null ? varTitle(v.name) : t("var.of_seat", { title: varTitle(v.name), who: seatName(p) });
        const value = varValue({ type: v.entry }, values[id], false);
        lines.push(el("span", { class: "keyed", data: { var: v.name }, "aria-hidden": "true" }, [
          el("span", { class: "label", text: title }), el("span", { class: "value", text: " " + value })]));
        words.push(title + t("rule.separator") + value);
      });
    });
    return { lines: lines, said: words.map((w) => t("list.separator") + w).join("") };
  }

  function sameSlot(a, b) { return a && b && a[0] === b[0] && a[1] === b[1]; }

  // A button that chooses a move (never plays it: the confirm button does, see confirmRow).
  function actionButton(id, legal, extra) {
    const button = el("button", { type: "button", class: "act" + (legal ? " legal" : " not-now") +
                                    (chosen === id ? " chosen" : ""),
                                  data: { action: String(id), focus: "action:" + id }, "aria-pressed": String(chosen === id),
                                  title: legal ? "" : t("action.not_now"),
                                  onclick: () => choose(id) }, [el("span", { text: moveText(id) })]);
    if (extra) button.append(extra);
    return button;
  }

  function choose(id) {
    chosen = chosen === id ? null : id;
    render(view);
  }

  // The chosen move, said in words, with the button that plays it and one that changes one's mind.
  function confirmRow() {
    if (chosen === null) return null;
    return el("div", { class: "confirm", id: "confirm-row" }, [
      el("button", { type: "button", class: "act confirm-move", id: "confirm", data: { action: String(chosen) },
                     text: t("move.confirm", { move: moveText(chosen) }), onclick: () => send(chosen) }),
      el("button", { type: "button", class: "act cancel", id: "cancel", text: t("move.cancel"),
                     onclick: () => { clearSelection(); render(view); } })]);
  }

  async function post(path, body) {
    if (sending || !view) return;
    sending = true;
    try {
      const response = await fetch(api + path + asked, {
        method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ ...body, lang: page.lang }),  // a refusal in the page's language
      });
      const data = await response.json().catch(() => ({ error: t("error.not_json") }));
      if (response.ok) {
        clearSelection();
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

  function send(id) { return post("/actions", { action: id, after: view.moves }); }

  function undo() { return post("/undo", {}); }

  function message(text, problem) {
    const m = $("message");
    m.textContent = text;
    m.classList.toggle("problem", Boolean(problem));
  }

  async function refresh() {
    const response = await fetch(api + asked);
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
    if (view && (next.version === undefined ? next.moves < view.moves : next.version < view.version)) return; // late
    if (view && next.version !== view.version) clearSelection();  // a move or an undo since: choose again
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
    renderHand();
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
        ? t("status.turn.step.pending", { step: stepTitle(view.phase), pending: pendingText() })
        : t("status.turn.step", { step: stepTitle(view.phase) });
    } else {
      text = t("status.to_play", { who: seatName(view.current) });
    }
    if (view.problem) text = t("status.stopped", { problem: view.problem_words ? said(view.problem_words) : view.problem });
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

  // A step the engine asks of the player (a noble, a city, tokens to return, a payment): its
  // title, how many times it is asked in a row, the seat's tokens, a button per legal option (with
  // what a payment takes), the pieces it names highlighted on the board; then the confirm button.
  function renderChoice() {
    const box = $("choice");
    box.replaceChildren();
    if (!myTurn() || view.phase === "action") return;
    const title = labels.decisions[view.phase] || stepTitle(view.phase);
    box.append(el("h2", { text: view.repeats > 1 ? t("choice.title_times", { title: title, n: view.repeats })
                                                 : t("choice.title", { title: title }) }));
    if (view.pending) box.append(el("p", { class: "paying-for", text: t("choice.paying_for", { move: pendingText() }) }));
    const held = tokensOf(page.seat);
    const total = Object.values(held).reduce((a, b) => a + b, 0);
    const hold = el("p", { class: "you-hold" }, [el("span", { text: t("choice.you_hold", { n: total }) + " " })]);
    meta.colours.forEach((c) => { if (held[c]) hold.append(chip(c, held[c])); });
    box.append(hold);
    const row = el("div", { class: "buttons" });
    view.legal.forEach((id) => {
      const info = meta.actions[id];
      let extra = null;
      if (info.payment && (view.payments[String(id)] || []).length) extra = paid(view.payments[String(id)][0]);
      else if (info.colours.length === 1 && info.colours[0] in held) {
        extra = el("small", { class: "held", text: " " + t("choice.held", { n: held[info.colours[0]] }) });
      }
      row.append(actionButton(id, true, extra));
    });
    box.append(row);
    if (onBoard(view.legal)) box.append(el("p", { class: "hint", text: t("choice.tap_board") }));
    const confirm = confirmRow();
    if (confirm) box.append(confirm);
  }

  // Whether some of these actions name a noble, a component or a face-up card: the board highlights them.
  function onBoard(ids) {
    return ids.some((id) => meta.actions[id].noble !== null || meta.actions[id].component !== null || stepCard(id));
  }

  // A step's move that names one face-up card and nothing else on the board (the Strongholds'
  // placement on a card): the card stands for it.
  function stepCard(id) {
    const info = meta.actions[id];
    return info.step && info.card !== null && !info.cards && info.noble === null && info.component === null;
  }

  // The one move of the step asked now that the face-up card at `slot` stands for (null: none, or
  // several, which the choice's buttons tell apart).
  function cardOffered(slot) {
    if (!myTurn() || view.phase === "action") return null;
    const found = view.legal.filter((id) => stepCard(id) && sameSlot(meta.actions[id].card, slot));
    return found.length === 1 ? found[0] : null;
  }

  // The tokens a payment takes, as chips ("nothing" when it takes none).
  function paid(spent) {
    const out = el("span", { class: "paid" });
    const colours = meta.colours.filter((c) => spent[c]);
    if (!colours.length) out.append(el("span", { text: " " + t("pay.nothing") }));
    colours.forEach((c) => out.append(chip(c, spent[c], "small")));
    return out;
  }

  function tokensOf(p) { return view.state.seats[p].tokens; }

  // The legal actions of the seat that name a piece: ("noble", place) -> action id.
  function legalOn(kind, place) {
    if (!myTurn()) return null;
    const found = view.legal.find((id) => meta.actions[id][kind] === place);
    return found === undefined ? null : found;
  }

  // A noble's tile: a button when the engine offers it now (chosen by tapping it), else a picture.
  function nobleTile(id, pressable) {
    const n = meta.nobles[id];
    const keyed = keyedLines("nobles", id);
    return el(pressable ? "button" : "div", { class: "noble", ...(pressable ? {} : { role: "img" }), data: { noble: String(id) },
                       "aria-label": t("noble.label", { n: n.points, needs: costWords(n.requires) }) + keyed.said }, [
      el("span", { class: "points", text: String(n.points), "aria-hidden": "true" }), cost(n.requires), ...keyed.lines]);
  }

  // The noble row, when the spec deals nobles at all (a module without them shows no section).
  function renderNobles() {
    const box = $("nobles");
    box.hidden = labels.nobles === false;
    if (box.hidden) { box.replaceChildren(); return; }
    box.replaceChildren(el("h2", { text: t("nobles.heading") }));
    const row = el("div", { class: "row" });
    view.state.nobles.forEach((id, i) => {
      const action = legalOn("noble", i + 1);
      const tile = nobleTile(id, action !== null);
      tile.dataset.place = String(i + 1);
      if (action !== null) qualifies(tile, action);
      row.append(tile);
    });
    if (!view.state.nobles.length) row.append(el("span", { text: t("nobles.none_left") }));
    box.append(row);
  }

  // The spec's own zones and declared state (state format 2), as the seat's observation has
  // A noble or component the engine offers now: highlighted, said, and chosen by tapping it.
  function qualifies(tile, action, said) {
    said = said || t("board.you_may_take");
    tile.classList.add("qualifies");
    if (chosen === action) tile.classList.add("chosen");
    tile.dataset.action = String(action);
    tile.dataset.focus = "offer:" + action;
    if (tile.tagName === "BUTTON") tile.type = "button";
    else {  // a tile drawn as a box: a button all the same for the keyboard and a screen reader
      tile.setAttribute("role", "button");
      tile.tabIndex = 0;
      tile.addEventListener("keydown", (e) => {
        if (e.key === "Enter" || e.key === " ") { e.preventDefault(); choose(action); }
      });
    }
    tile.setAttribute("aria-pressed", String(chosen === action));
    tile.append(el("span", { class: "mark", text: said }));
    if (tile.getAttribute("aria-label")) {
      tile.setAttribute("aria-label", tile.getAttribute("aria-label") + ", " + said);
    }
    tile.addEventListener("click", () => choose(action));
  }

  // The spec's own zones and declared state (state format 2), as the seat's observation has
  // them: a pile as a count, a display or row as its components drawn as tiles with their kind's
  // titles, a value the seat may not see (another's private one, a component drawn privately) as hidden.
  function zoneTitle(name) { return labels.zones[name] || name.replace(/_/g, " "); }

  // One group of a zone split by a group column: the zone's title, then the column's title (the
  // spec's, in the page's language, as the sheet names it) and the group's value, as the relics' decks of level 1.
  function groupTitle(zone, value) {
    const kind = labels.kinds[zone.kind];
    const column = kind && kind.columns.find((c) => c.name === zone.by);
    return t("zone.group", { zone: zoneTitle(zone.name), column: column ? column.title : zone.by.replace(/_/g, " "), value: value });
  }

  function varTitle(name) { return labels.vars[name] || name.replace(/_/g, " "); }

  function columnValue(column, value) {
    if (column.titles && column.titles[value] !== undefined) return column.titles[value];
    if ((column.type === "gem" || column.type === "colour") && typeof value === "string") return colourName(value);
    if ((column.type === "gem" || column.type === "colour") && typeof value === "number") return colourName(meta.colours[value]);
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
    const keyed = keyedLines(kind, id);
    keyed.lines.forEach((line) => tile.append(line));
    tile.setAttribute("aria-label", said.join(t("list.separator")) + keyed.said);
    return tile;
  }

  // "None" of a kind's pieces, agreeing with its item where the language does (a French feminine item).
  function noneOf(kind) {
    const named = labels.kinds[kind];
    return t(named && named.gender === "f" ? "value.none_f" : "value.none");
  }

  function zoneContent(zone, items, group) {
    if (typeof items === "number") {
      return [el("span", { class: "pile", data: { zone: zone.name }, text: t("zone.left", { n: items }) })];
    }
    if (!Array.isArray(items) || !items.length) return [el("span", { class: "none", text: noneOf(zone.kind) })];
    return items.map((id, i) => {
      if (id === null) {
        return el("span", { class: "component hidden-card", text: zone.shape === "display" ? t("card.empty") : t("value.hidden") });
      }
      const tile = component(zone.kind, id);
      const action = zone.per_player ? null : offered(zone.name, zone.kind, i, id, group || 0);
      if (action !== null) qualifies(tile, action);
      return tile;
    });
  }

  // The legal action that chooses the component at place `i` of a zone (id `id` of its kind).
  // A choice from one group of a split zone, or across zones (labels.parts), numbers its positions
  // over its places in order: place `i` of zone `zoneName` (group `group`) is found among them.
  function offered(zoneName, kind, i, id, group) {
    if (!myTurn()) return null;
    const found = view.legal.find((a) => {
      const info = meta.actions[a];
      if (info.component === null) return false;
      const parts = (labels.parts || {})[info.rule];
      if (parts) {
        let first = 0;
        for (const [name, g, places] of parts) {
          if (name === zoneName && g === group) return info.component === first + i;
          first += places;
        }
        return false;
      }
      const source = labels.sources[info.rule];
      return source === zoneName ? info.component === i : source === kind && info.component === id;
    });
    return found === undefined ? null : found;
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
      if (spec && spec.by && !BY_COLOUR.includes(spec.by)) return null;  // said on each piece (keyedLines)
      if (spec && spec.by && Array.isArray(value)) {  // keyed by a colour: each colour that differs from the start
        return el("div", { class: "line var", data: { var: name } }, [
          el("span", { class: "label", text: varTitle(name) }), ...byColour(spec, value, hidden && spec.private)]);
      }
      if (spec && spec.kind && Array.isArray(value)) {  // a set of components: each as a tile, as zones show them
        return el("div", { class: "line var", data: { var: name } }, [
          el("span", { class: "label", text: varTitle(name) }),
          el("div", { class: "row" }, value.length ? value.map((id) => spec.kind === "cards" ? cardTile(id, "", false)
                                                                                           : component(spec.kind, id))
                                                   : [el("span", { class: "none", text: noneOf(spec.kind) })])]);
      }
      return el("div", { class: "line var", data: { var: name } }, [
        el("span", { class: "label", text: varTitle(name) }),
        el("span", { class: "value", text: varValue(spec, value, hidden && spec && spec.private) })]);
    }).filter((line) => line);
  }

  const BY_COLOUR = ["gem", "colour"];

  // A variable keyed by a gem or any colour (the satchels of each gem colour): a number as a disc
  // per colour, with its symbol and its words; another value as "colour: value"; each colour whose
  // entry is its value at the start left out ("none" when every one is).
  function byColour(spec, values, hidden) {
    const colours = spec.by === "gem" ? meta.gems : meta.colours;
    if (values.every((v) => v === null) && hidden) return [el("span", { class: "value", text: t("value.hidden") })];
    const changed = colours.map((c, i) => [c, values[i]]).filter(([, v], i) => v !== null && v !== spec.initial[i]);
    if (!changed.length) return [el("span", { class: "none", text: t("value.none") })];
    if (spec.entry === "int") return changed.map(([c, v]) => chip(c, v));
    return [el("span", { class: "value", text: list(changed.map(([c, v]) => colourName(c) + t("rule.separator") +
                                                                    varValue({ type: spec.entry }, v, false))) })];
  }

  // A kind that no shared zone lays out but that players hold (the Trading Posts' posts): every
  // component of it, with who holds it.
  function heldKinds() {
    const inZones = new Set(meta.zones.filter((z) => !z.per_player).map((z) => z.kind));
    const out = [];
    meta.vars.forEach((v) => {
      if (v.kind && shown(v.name) && meta.kinds[v.kind] && !inZones.has(v.kind) && labels.kinds[v.kind] &&
          !out.some((o) => o.kind === v.kind)) {
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
      // A zone split by a group column (`by:`): one list (a pile: one count) per group, each shown apart.
      const parts = zone.groups && Array.isArray(shared[zone.name])
        ? shared[zone.name].map((items, g) => [groupTitle(zone, g + 1), items, g + 1])
        : [[zoneTitle(zone.name), shared[zone.name], 0]];
      parts.forEach(([title, items, group], i) => {
        const laidOut = Array.isArray(items);
        box.append(el("div", { class: "zone", data: { zone: zone.name, shape: zone.shape } }, [
          el("h2", { text: title }), el("div", { class: "row" }, zoneContent(zone, items, group)),
          ...(laidOut && i === parts.length - 1 ? kindRules(zone.kind, explained) : [])]));
      });
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

  // What the seat's legal actions do with a piece of the board: "buy" and "reserve" marks, from
  // the engine's legal actions only (`matches` picks the actions that name the piece).
  function marksOf(matches) {
    const out = { buy: false, reserve: false };
    if (!myTurn() || view.phase !== "action") return out;
    view.legal.forEach((id) => {
      const info = meta.actions[id];
      if (!info.step && matches(info)) out[info.pays ? "buy" : "reserve"] = true;
    });
    return out;
  }

  function mark(tile, marks) {
    const said = [marks.buy ? t("board.can_buy_said") : "", marks.reserve ? t("board.can_reserve_said") : ""]
      .filter((x) => x);
    if (said.length && tile.getAttribute("aria-label")) {
      tile.setAttribute("aria-label", tile.getAttribute("aria-label") + ", " + said.join(", "));
    }
    if (marks.buy) {
      tile.classList.add("can-buy");
      tile.append(el("span", { class: "mark buy", text: t("board.can_buy") }));
    }
    if (marks.reserve) {
      tile.classList.add("can-reserve");
      if (!marks.buy) tile.append(el("span", { class: "mark reserve", text: t("board.can_reserve") }));
    }
  }

  // The card a purchase waiting for its payment takes (a face-up slot or a reserved place).
  function payingFor() {
    return view.pending_id === null || view.pending_id === undefined ? null : meta.actions[view.pending_id];
  }

  function renderMarket() {
    const box = $("market");
    box.replaceChildren(el("h2", { class: "visually-hidden", text: t("market.heading") }));
    const paying = payingFor();
    [...meta.levels].reverse().forEach((level) => {
      const row = el("div", { class: "row level", data: { level: String(level) } });
      row.append(deckTile(level));
      (view.state.market[String(level)] || []).forEach((id, i) => {
        const slot = [level, i + 1];
        if (id === null) { row.append(el("div", { class: "card empty", text: t("card.empty") })); return; }
        const where = level + "." + (i + 1);
        const tile = cardTile(id, t("card.slot", { slot: where }), true);
        tile.dataset.slot = where;
        tile.dataset.focus = "slot:" + where;
        tile.setAttribute("aria-pressed", String(Boolean(sameSlot(selection.card, slot))));
        if (sameSlot(selection.card, slot)) tile.classList.add("selected");
        if (paying && sameSlot(paying.card, slot)) paid_for(tile);
        mark(tile, marksOf((info) => sameSlot(info.card, slot)));
        const offer = cardOffered(slot);
        if (offer !== null) qualifies(tile, offer, t("board.you_may_choose"));  // a step's choice of this card: tapped, then confirmed
        else tile.addEventListener("click", () => {
          const again = sameSlot(selection.card, slot);
          clearSelection();
          selection.card = again ? null : slot;
          render(view);
        });
        row.append(tile);
      });
      box.append(row);
    });
  }

  function paid_for(tile) {
    tile.classList.add("paying");
    tile.append(el("span", { class: "mark paying-mark", text: t("board.paying") }));
  }

  // A level's deck: its count, and (when the seat may reserve from it) a tile to pick.
  function deckTile(level) {
    const left = view.state.decks[String(level)];
    const label = t("deck.label", { level: level, n: left });
    const text = el("span", { text: t("deck.short", { level: level, n: left }), "aria-hidden": "true" });
    const marks = marksOf((info) => info.deck === level);
    if (!marks.reserve && selection.deck !== level) return el("div", { class: "deck", role: "img", "aria-label": label }, [text]);
    const tile = el("button", { type: "button", class: "deck" + (selection.deck === level ? " selected" : ""),
                                data: { deck: String(level), focus: "deck:" + level },
                                "aria-pressed": String(selection.deck === level),
                                "aria-label": t("board.deck", { level: level }) + ", " + label }, [text]);
    mark(tile, marks);
    tile.addEventListener("click", () => {
      const again = selection.deck === level;
      clearSelection();
      selection.deck = again ? null : level;
      render(view);
    });
    return tile;
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
        clearSelection();
        selection.colours = picked;
        render(view);
      });
      row.append(token);
    });
    box.append(row);
  }

  // The moves of what the player picked (a card, a reserved card, a deck, gems): a button each,
  // legal ones solid; a card said by what it is, with what buying it would take from the seat's
  // tokens (the engine's payment); then the confirm button; and the undo the host may allow.
  function renderActions() {
    const box = $("actions");
    box.replaceChildren();
    if (view.over || page.seat === null) return;
    if (view.undo && view.undo.now) {
      box.append(el("div", { class: "buttons undo-row" }, [
        el("button", { type: "button", class: "act undo", id: "undo", text: t("move.undo"), onclick: undo }),
        el("span", { class: "hint", text: " " + t("move.undo_until") })]));
    }
    const legal = new Set(view.legal);
    const mine = myTurn();
    const stepsNow = view.phase !== "action";
    const picked = pickedMoves();
    if (picked) {
      box.append(el("h2", { text: picked.heading }));
      if (picked.about) box.append(picked.about);
      const row = el("div", { class: "buttons" });
      picked.ids.forEach((id) => row.append(actionButton(id, mine && legal.has(id))));
      if (!picked.ids.length) row.append(el("span", { text: t("move.none_takes_these") }));
      box.append(row);
    } else if (mine && !stepsNow) {
      box.append(el("p", { class: "hint", text: t("move.hint") }));
    }
    if (mine && !stepsNow) {
      const others = view.legal.filter((id) => {
        const a = meta.actions[id];
        return !a.card && !a.colours.length && a.reserved === null && a.deck === null;
      });
      if (others.length) {
        const row = el("div", { class: "buttons" });
        others.forEach((id) => row.append(actionButton(id, true)));
        box.append(row);
      }
      const confirm = confirmRow();
      if (confirm) box.append(confirm);
      const all = el("details", { class: "all-actions" }, [el("summary", { text: t("actions.every", { n: view.legal.length }) })]);
      const row = el("div", { class: "buttons" });
      view.legal.forEach((id) => row.append(actionButton(id, true)));
      all.append(row);
      box.append(all);
    } else if (picked) {
      const confirm = confirmRow();
      if (confirm) box.append(confirm);
    }
  }

  // The moves that take what the player picked, a heading that says it, and (for a card) what it is
  // and what buying it would cost.
  function pickedMoves() {
    const ids = (test) => meta.actions.map((a, id) => (!a.step && test(a) ? id : null)).filter((id) => id !== null);
    if (selection.card) {
      const id = view.state.market[String(selection.card[0])][selection.card[1] - 1];
      const found = ids((a) => sameSlot(a.card, selection.card));
      return { heading: cardName(id), about: costLine(found), ids: found };
    }
    if (selection.reserved !== null) {
      const id = view.state.seats[page.seat].reserved[selection.reserved - 1];
      const found = ids((a) => a.reserved === selection.reserved);
      return { heading: t("card.reserved_heading", { card: cardName(id) }), about: costLine(found), ids: found };
    }
    if (selection.deck !== null) {
      return { heading: t("board.deck", { level: selection.deck }), about: null,
               ids: ids((a) => a.deck === selection.deck) };
    }
    if (selection.colours.length) {
      const want = [...selection.colours].sort().join(" ");
      return { heading: t("actions.gems", { colours: list(selection.colours.map(colourName)) }), about: null,
               ids: ids((a) => !a.card && a.colours.length && [...new Set(a.colours)].sort().join(" ") === want) };
    }
    return null;
  }

  // "Level 2 · blue · 1 point": a card by what it is (never by a slot refilled since).
  function cardName(id) {
    const c = id === null || id === undefined ? null : meta.cards[id];
    if (!c) return t("card.hidden");
    return t("card.name", { level: c.level, bonus: colourName(c.bonus), points: c.points, n: c.points });
  }

  // What buying the picked card would take from the seat's tokens (the engine's payment; the
  // other payments it accepts counted), or that the seat cannot buy it now.
  function costLine(ids) {
    if (!myTurn() || view.phase !== "action") return null;
    const buy = ids.find((id) => meta.actions[id].pays);
    if (buy === undefined) return null;
    const options = view.payments[String(buy)];
    if (!options) return el("p", { class: "cost-line cannot", text: t("card.cannot_buy") });
    if (!options.length) return null;  // the move does more than pay: the server gives no figure
    const line = el("p", { class: "cost-line" }, [el("span", { text: t("card.costs_you") + " " }), paid(options[0])]);
    if (options.length > 1) line.append(el("span", { text: " " + t("card.other_payments", { n: options.length - 1 }) }));
    return line;
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
        hiddenLevels(seat).forEach((level, i) => {
          const id = seat.reserved[i];
          reserved.append(id !== null ? cardTile(id, "", false) : el("span", {
            class: "card hidden-card", data: { level: level === null ? "" : String(level) },
            text: level === null ? t("card.hidden") : t("card.hidden_level", { level: level }) }));
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

  // The public level of each of a seat's reserved cards that is hidden from this page (the i-th
  // hidden one is the i-th of the observation's `blind` levels), null for a card shown.
  function hiddenLevels(seat) {
    let next = 0;
    const levels = seat.blind || [];
    return seat.reserved.map((id) => (id === null ? (next < levels.length ? levels[next++] : null) : null));
  }

  // A move of the log in the player's words, as `play` says it (the server's labels.moves, by
  // action id), else as the buttons say it; the card it took is added by what it is (the server
  // names it when public).
  function logMove(id) { return (labels.moves || [])[id] || moveText(id); }

  function logText(m) { return m.action === undefined ? m.text : logMove(m.action); }

  function pendingText() { return view.pending_id === null || view.pending_id === undefined ? view.pending : moveText(view.pending_id); }

  function renderLog() {
    const list_ = $("log");
    list_.replaceChildren();
    view.log.forEach((m) => list_.append(el("li", { data: { action: String(m.action) }, text: t("log.move", { who: seatName(m.seat),
      move: m.card === null || m.card === undefined ? logText(m) : t("log.card", { move: logText(m), card: cardName(m.card) }) }) })));
    list_.scrollTop = list_.scrollHeight;
  }

  // The seat's own hand, always in view (a strip kept at the foot of the screen): its tokens,
  // bonuses and reserved cards; a reserved card is picked here to buy it.
  function renderHand() {
    let box = $("hand");
    if (page.seat === null) { if (box) box.remove(); return; }
    if (!box) {
      box = el("section", { id: "hand", class: "hand", "aria-label": t("hand.label") });
      $("board").append(box);
    }
    const seat = view.state.seats[page.seat];
    const tokens = el("div", { class: "line hand-tokens" }, [el("span", { class: "label", text: t("hand.tokens") })]);
    meta.colours.forEach((c) => { if (seat.tokens[c]) tokens.append(chip(c, seat.tokens[c])); });
    if (tokens.childElementCount === 1) tokens.append(el("span", { class: "none", text: t("hand.none") }));
    const bonus = el("div", { class: "line hand-bonuses" }, [el("span", { class: "label", text: t("hand.bonuses") })]);
    meta.gems.forEach((g, i) => { if (view.bonus[page.seat][i]) bonus.append(chip(g, view.bonus[page.seat][i], "bonus-chip")); });
    if (bonus.childElementCount === 1) bonus.append(el("span", { class: "none", text: t("hand.none") }));
    const reserved = el("div", { class: "line hand-reserved" }, [el("span", { class: "label", text: t("hand.reserved") })]);
    const paying = payingFor();
    seat.reserved.forEach((id, i) => {
      const place = i + 1;
      const tile = cardTile(id, t("hand.reserved_place", { n: place }), true);
      tile.dataset.focus = "reserved:" + place;
      tile.dataset.reserved = String(place);
      if (selection.reserved === place) tile.classList.add("selected");
      if (paying && paying.reserved === place) paid_for(tile);
      mark(tile, marksOf((info) => info.reserved === place));
      tile.addEventListener("click", () => {
        const again = selection.reserved === place;
        clearSelection();
        selection.reserved = again ? null : place;
        render(view);
      });
      reserved.append(tile);
    });
    if (!seat.reserved.length) reserved.append(el("span", { class: "none", text: t("hand.none") }));
    box.replaceChildren(el("h2", { text: t("hand.title", { n: view.prestige[page.seat] }) }), tokens, bonus, reserved);
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
      const again = new AbortController();
      const response = await fetch(api + "/events" + asked, { signal: again.signal }).catch(() => null);
      if (response && response.ok) {
        again.abort();
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
  if (page.replay) window.splendorBoard = { show: (next) => { view = null; render(next); }, t: t, move: logMove, card: cardName };
  else connect();
})();
