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

  function summary(s) {
    progress(s);
    for (const part of ["match", "format", "standings", "cross", "forfeits"]) {
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
