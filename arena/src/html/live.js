// The live page of arena run --serve and arena serve: follows the server's
// events (/events, server-sent events) and puts them into the page: the
// progress line, the report's sections (HTML made by the server with the
// report's own functions, escaped there), a board per game in progress, and
// each finished game into the viewer (viewer.js, window.endodoiViewer).
// Positions come from the arena's rules engine; this script only draws
// them. Names and details go into the page as text (textContent).
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  const DIGITS = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
  const SIDE = { s: "South", n: "North" };
  const viewer = window.endodoiViewer;

  // A position token of encode_position: side to move, ring, ":s,n" captured.
  function decode(token, holes) {
    const ring = [];
    let i = 1;
    while (ring.length < 2 * holes && i < token.length) {
      const ch = token[i++];
      if (ch === "(") {
        const j = token.indexOf(")", i);
        ring.push(Number(token.slice(i, j)));
        i = j + 1;
      } else {
        ring.push(DIGITS.indexOf(ch));
      }
    }
    let cap = [0, 0];
    if (token[i] === ":") cap = token.slice(i + 1).split(",").map(Number);
    return { toMove: token[0].toLowerCase(), over: token[0] === "S" || token[0] === "N", ring, cap };
  }

  function el(tag, className, text) {
    const e = document.createElement(tag);
    if (className) e.className = className;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  const clock = (ms) => {
    const s = Math.floor(ms / 1000);
    return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}.${String(Math.floor(ms % 1000 / 100))}`;
  };

  // One game in progress, drawn as the viewer draws a board.
  function drawBoard(b) {
    const id = `live-${b.series}-${b.game}`;
    let box = $(id);
    if (!box) {
      box = el("div", "live-board");
      box.id = id;
      box.dataset.series = String(b.series);
      box.dataset.game = String(b.game);
      $("boards").append(box);
    }
    box.dataset.ply = String(b.ply);
    box.classList.toggle("stale", !!b.stale);
    const pos = decode(b.position, b.holes);
    const names = el("div", "names", `series ${b.series}, game ${b.game}: ${b.south} (South) vs ${b.north} (North), ply ${b.ply}` +
      (pos.over ? " · game over" : ""));
    const board = el("div", "board");
    board.style.setProperty("--holes", b.holes);
    for (const side of ["n", "s"]) {
      const who = SIDE[side].toLowerCase();
      const label = el("div", `side-label ${who}`, `${SIDE[side]} · ${side === "s" ? b.south : b.north}`);
      const moving = !pos.over && pos.toMove === side;
      label.classList.toggle("to-move", moving);
      const store = el("div", `store ${who}`);
      store.append(el("span", "count", String(pos.cap[side === "s" ? 0 : 1])), el("span", "what", `${SIDE[side]} captured`));
      const row = el("div", `row ${who}`);
      row.classList.toggle("to-move", moving);
      const offset = side === "s" ? 0 : b.holes;
      for (let k = 0; k < b.holes; k++) {
        const hole = side === "n" ? b.holes - k : k + 1;
        const seeds = pos.ring[offset + hole - 1];
        const cell = el("div", "hole");
        cell.dataset.side = who;
        cell.dataset.hole = String(hole);
        cell.style.gridColumn = String(k + 2);
        cell.classList.toggle("empty", seeds === 0);
        if (b.last && b.last.side === side && b.last.hole === hole) cell.classList.add("last");
        cell.append(el("span", "seeds", String(seeds)), el("span", "num", String(hole)));
        row.append(cell);
      }
      board.append(label, store, row);
    }
    const clocks = el("div", "clocks", b.clocks ?
      `clocks: South ${clock(b.clocks[0])}, North ${clock(b.clocks[1])}` : "no game clock");
    const last = el("div", "last-move", b.last ?
      `last move: ${SIDE[b.last.side]} played hole ${b.last.hole}, ${b.last.laps} lap${b.last.laps === 1 ? "" : "s"}` :
      "no move yet");
    if (b.stale) last.textContent += " (updates were dropped: the board waits for the next game)";
    box.replaceChildren(names, board, clocks, last);
    $("no-live").hidden = true;
  }

  function dropBoard(series, game) {
    const box = $(`live-${series}-${game}`);
    if (box) box.remove();
    $("no-live").hidden = $("boards").children.length > 0;
  }

  function progress(s) {
    const p = $("progress");
    p.dataset.done = String(s.done);
    p.textContent = s.progress;
  }

  // A league's table (section#league): the top of each table comes with
  // the state; a search, "Show more" and a bot's record are asked of the
  // server (/league, /bot), so the page never holds every bot.
  const league = (function () {
    if (!$("league")) return null;
    const box = $("league-find");
    let find = "";      // the search, as typed
    let shown = 0;      // rows of the active table shown
    let asked = 0;      // the latest request's number: older answers are dropped
    let bot = null;     // the bot whose record is open
    const elo = (x) => (x === null || x === undefined ? "" : x.toFixed(1));
    const trend = (t) => (t === null || t === undefined ? "" : (t >= 0 ? "+" : "") + t.toFixed(1));
    const get = (url) => fetch(url).then((r) => (r.ok ? r.json() : null));

    function spark(elos) {
      const NS = "http://www.w3.org/2000/svg";
      const svg = document.createElementNS(NS, "svg");
      svg.setAttribute("class", "spark");
      svg.setAttribute("width", "60");
      svg.setAttribute("height", "16");
      svg.setAttribute("viewBox", "0 0 60 16");
      if (elos.length < 2) return svg;
      const lo = Math.min(...elos), span = Math.max(Math.max(...elos) - lo, 1);
      const line = document.createElementNS(NS, "polyline");
      line.setAttribute("points", elos.map((e, i) =>
        `${(1 + 58 * i / (elos.length - 1)).toFixed(1)},${(15 - 14 * (e - lo) / span).toFixed(1)}`).join(" "));
      line.setAttribute("fill", "none");
      line.setAttribute("stroke", "currentColor");
      line.setAttribute("stroke-width", "1.5");
      svg.append(line);
      return svg;
    }

    function row(r) {
      const tr = el("tr");
      tr.dataset.bot = r.bot;
      const name = el("td", "name");
      const a = el("a", "bot-link", r.bot);
      a.href = "#league-bot";
      a.addEventListener("click", (e) => { e.preventDefault(); show(r.bot); });
      name.append(a);
      const t = el("td", "trend", trend(r.trend) + " ");
      t.append(spark(r.spark));
      tr.append(el("td", "", String(r.rank)), name, el("td", "", elo(r.elo)),
        el("td", "", r.lower === null ? "" : `[${elo(r.lower)}, ${elo(r.upper)}]`),
        el("td", "", String(r.games)), el("td", "", `${r.wins}-${r.draws}-${r.losses}`), t);
      if (r.retired !== null) tr.append(el("td", "", String(r.retired)));
      return tr;
    }

    function fill(page, append) {
      const retired = page.table === "retired";
      const body = $(retired ? "league-retired" : "league-active").tBodies[0];
      const rows = page.rows.map(row);
      if (append) body.append(...rows); else body.replaceChildren(...rows);
      const n = page.offset + page.rows.length;
      const what = retired ? "retired bots" : "active bots";
      const count = page.matched === page.total
        ? `${Math.min(n, page.total)} of ${page.total} ${what} shown, best first`
        : `${page.matched} of ${page.total} ${what} match "${find.trim()}"; ${n} shown`;
      if (retired) {
        $("league-retired-part").hidden = page.total === 0;
        $("league-retired-count").textContent = count + ".";
      } else {
        shown = n;
        $("league-count").textContent = count + ".";
        $("league-more").hidden = n >= page.matched;
      }
    }

    function search(more) {
      const n = ++asked;
      const q = encodeURIComponent(find.trim());
      for (const table of more ? ["active"] : ["active", "retired"]) {
        get(`/league?table=${table}&find=${q}&offset=${more ? shown : 0}`)
          .then((page) => { if (page && n === asked) fill(page, more); })
          .catch(() => {});
      }
    }

    function record(r) {
      const panel = $("league-bot");
      const head = el("h3", "", r.row.bot);
      const where = r.retired ? `retired after round ${r.row.retired}, rank ${r.row.rank} of the retired bots`
        : `rank ${r.row.rank} of the active bots`;
      const facts = el("p", "facts", `${where} · Elo ${elo(r.row.elo) || "-"}` +
        (r.row.lower === null ? "" : ` [${elo(r.row.lower)}, ${elo(r.row.upper)}]`) +
        ` · ${r.row.games} games · W-D-L ${r.row.wins}-${r.row.draws}-${r.row.losses}` +
        (r.row.trend === null ? "" : ` · trend ${trend(r.row.trend)}`) +
        (r.row.joined === null ? "" : ` · joined in round ${r.row.joined}`));
      const note = el("p", "note", r.series.length < r.series_total
        ? `Its latest ${r.series.length} of ${r.series_total} series; games.csv has them all.`
        : `Its ${r.series_total} series, latest first; a series opens in the game viewer.`);
      const table = el("table", "bot-series");
      const hr = el("tr");
      for (const h of ["round", "series", "opponent", "W-D-L", "game"]) hr.append(el("th", h === "opponent" ? "name" : "", h));
      table.append(el("thead"), el("tbody"));
      table.tHead.append(hr);
      for (const s of r.series) {
        const tr = el("tr");
        tr.dataset.series = String(s.series);
        const link = el("a", "", s.viewed ? "view" : "replay");
        link.href = `#${s.file > 1 ? `file=${s.file}&` : ""}series=${s.series}&game=${s.first_game}`;
        link.title = s.viewed ? "open its first game in the game viewer"
          : "not in the viewer (its size limit): the viewer says how to replay it";
        const cell = el("td");
        cell.append(link);
        tr.append(el("td", "", s.round === null ? "" : String(s.round)), el("td", "", String(s.series)),
          el("td", "name", s.opponent), el("td", "", `${s.wins}-${s.draws}-${s.losses}`), cell);
        table.tBodies[0].append(tr);
      }
      const close = el("button", "", "Close");
      close.type = "button";
      close.addEventListener("click", () => { bot = null; panel.hidden = true; panel.replaceChildren(); });
      panel.replaceChildren(head, facts, note, table, close);
      panel.hidden = false;
      panel.dataset.bot = r.row.bot;
    }

    function show(name, quiet) {
      bot = name;
      get(`/bot?name=${encodeURIComponent(name)}`)
        .then((r) => {
          if (!r || bot !== name) return;
          record(r);
          if (!quiet) $("league-bot").scrollIntoView({ block: "nearest" });
        })
        .catch(() => {});
    }

    box.addEventListener("input", () => { find = box.value; search(false); });
    $("league-more").addEventListener("click", () => search(true));

    // The league part of a summary or snapshot.
    return function (l) {
      if (!l) return;
      $("league-meta").textContent = `${l.active.total} active bots` +
        (l.retired.total ? `, ${l.retired.total} retired` : "") +
        (l.rounds ? ` · ${l.rounds} rounds paired` : "") +
        ` · the trend is the change of a bot's rating over its last ${l.trend_rounds} rounds (the ratings each round was paired by)`;
      const note = $("league-note");
      note.hidden = !l.note;
      note.textContent = l.note ?? "";
      if (shown > l.active.rows.length && l.active.rows.length > 0) {
        // Paged past the top ("Show more"): the rows shown stay until the
        // search changes, rather than jump back to the first page.
      } else if (find.trim() === "") {
        fill(l.active, false);
        fill(l.retired, false);
      } else {
        search(false);
      }
      if (bot) show(bot, true);
    };
  })();

  function summary(s) {
    progress(s);
    if (league) league(s.league);
    for (const part of ["tune", "match", "format", "standings", "cross", "forfeits"]) {
      const html = s.sections[part];
      // The server made these with the report's own (escaping) functions.
      if (html !== undefined) $(`part-${part}`).innerHTML = html;
    }
  }

  function finished() {
    document.body.dataset.state = "finished";
    $("boards").replaceChildren();
    $("no-live").hidden = false;
  }

  function fetchGame(key) {
    const [file, series, game] = key;
    if (!viewer || viewer.has(file, series, game)) return;
    fetch(`/game?file=${file}&series=${series}&game=${game}`)
      .then((r) => (r.ok ? r.json() : null))
      .then((g) => { if (g) viewer.add(g); })
      .catch(() => {});
  }

  function snapshot(s) {
    summary(s);
    $("boards").replaceChildren();
    for (const b of s.live) drawBoard(b);
    $("no-live").hidden = s.live.length > 0;
    for (const key of s.viewed) fetchGame(key);
    if (s.finished) finished();
  }

  const initial = JSON.parse($("live-data").textContent);
  snapshot(initial);
  if (initial.finished && initial.follows === false) return;

  const events = new EventSource("/events");
  const on = (name, f) => events.addEventListener(name, (e) => f(JSON.parse(e.data)));
  on("snapshot", snapshot);
  on("summary", summary);
  on("board", drawBoard);
  // A finished game: its board goes, and it joins the viewer (if the
  // viewer holds it: the report's size limit).
  // A game that ended a series also brings the format's sections (the next
  // round's pairings), without waiting for the standings' refit.
  on("ended", (e) => {
    dropBoard(e.series, e.game);
    if (e.format !== undefined) $("part-format").innerHTML = e.format;
    if (viewer && e.viewer && !viewer.has(e.file, e.series, e.game)) viewer.add(e.viewer);
  });
  on("gone", (g) => dropBoard(g.series, g.game));
  on("finished", () => { finished(); events.close(); });
  events.onopen = () => { $("connection").textContent = ""; };
  events.onerror = () => {
    if (document.body.dataset.state !== "finished") {
      $("connection").textContent = "The connection to the arena was lost; it is tried again.";
    }
  };
})();
