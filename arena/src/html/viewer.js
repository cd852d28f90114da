// The game viewer of report.html. It only displays: every position was
// computed by the arena's rules engine (the Rust crate endodoi), which
// replayed each game of games.csv, and is embedded in #report-data. The
// encoding of a position is documented at encode_position in
// arena/src/html/mod.rs. Names and details are put into the page as text
// (textContent), never as HTML.
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  const data = JSON.parse($("report-data").textContent);
  const DIGITS = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
  const SIDE = { s: "South", n: "North" };
  const view = $("viewer");
  const state = { series: -1, game: -1, ply: 0, positions: [], cells: null };

  // The positions of a game: [{toMove: "s"|"n", over, ring: [..], cap: [s, n]}].
  function decode(game) {
    if (game.decoded) return game.decoded;
    const out = [];
    let cap = [0, 0];
    for (const t of game.positions.split(" ")) {
      if (!t) continue;
      const ring = [];
      let i = 1;
      while (ring.length < 2 * game.holes && i < t.length) {
        const ch = t[i++];
        if (ch === "(") {
          const j = t.indexOf(")", i);
          ring.push(Number(t.slice(i, j)));
          i = j + 1;
        } else {
          ring.push(DIGITS.indexOf(ch));
        }
      }
      if (t[i] === ":") {
        const parts = t.slice(i + 1).split(",");
        cap = [Number(parts[0]), Number(parts[1])];
      }
      out.push({ toMove: t[0].toLowerCase(), over: t[0] === "S" || t[0] === "N", ring, cap });
    }
    game.decoded = out;
    return out;
  }

  const bot = (i) => data.bots[i] ?? "?";
  const seriesName = (s) =>
    (data.files > 1 ? `file ${s.file}, ` : "") + `series ${s.series}`;

  function resultText(g) {
    const last = decode(g).at(-1);
    const score = last ? ` ${last.cap[0]}-${last.cap[1]}` : "";
    const who = g.result === "south" ? `${bot(g.south)} wins` :
      g.result === "north" ? `${bot(g.north)} wins` : "draw";
    return `${who}${score}, ${g.termination}`;
  }

  // A narrow window (a phone) lists series and games in short: long bot
  // names cut to NAME_CHARS with an ellipsis, so an entry fits the list's
  // width; every entry's full text is its title, and #game-line gives the
  // picked ones whole.
  const narrow = window.matchMedia("(max-width: 600px)");
  const NAME_CHARS = 14;
  const short = (name) =>
    narrow.matches && name.length > NAME_CHARS ? `${name.slice(0, NAME_CHARS - 1)}…` : name;

  function fillSeries() {
    const pick = $("pick-series");
    const picked = pick.value;
    pick.replaceChildren();
    data.series.forEach((s, i) => {
      const full = `${seriesName(s)}: ${bot(s.a)} vs ${bot(s.b)} ` +
        `(${s.wins}-${s.draws}-${s.losses}, ${s.played} games)`;
      const text = narrow.matches ? `${seriesName(s)}: ${short(bot(s.a))} vs ${short(bot(s.b))}` : full;
      const option = new Option(text, String(i));
      option.title = full;
      option.disabled = s.games.length === 0;
      pick.add(option);
    });
    if (picked) pick.value = picked;
  }

  function fillGames(si) {
    const pick = $("pick-game");
    const picked = pick.value;
    pick.replaceChildren();
    for (const gi of data.series[si].games) {
      const g = data.games[gi];
      const full = `game ${g.game}: ${bot(g.south)} (S) vs ${bot(g.north)} (N), ${resultText(g)}`;
      const last = decode(g).at(-1);
      const score = last ? ` ${last.cap[0]}-${last.cap[1]}` : "";
      const who = g.result === "south" ? `${short(bot(g.south))} wins` :
        g.result === "north" ? `${short(bot(g.north))} wins` : "draw";
      const option = new Option(narrow.matches ? `game ${g.game}: ${who}${score}` : full, String(gi));
      option.title = full;
      pick.add(option);
    }
    if (picked && [...pick.options].some((o) => o.value === picked)) pick.value = picked;
  }

  // The endgame tables' verdicts on the plies of game g (arena analyse's
  // analysis-games.csv: "." outside, "f" forced, "o" optimal, "m3" a mistake
  // of 3 seeds, "m3+" of at least 3, "u" unjudged); [] when not judged.
  function verdicts(g) {
    if (!g.verdictList) g.verdictList = g.verdicts ? g.verdicts.split(" ") : [];
    return g.verdictList;
  }

  // A verdict in words; "" for none (outside the tables).
  function verdictText(t) {
    if (t === "o") return "optimal, it keeps the result the endgame tables force";
    if (t === "f") return "forced, the only legal move";
    if (t === "u") return "unjudged, it leads to a position the endgame tables do not know exactly";
    const m = /^m(\d+)(\+?)$/.exec(t ?? "");
    if (!m) return "";
    const seeds = `${m[2] ? "at least " : ""}${m[1]} seed${m[1] === "1" && !m[2] ? "" : "s"}`;
    return `a mistake, it gives away ${seeds} of the margin the endgame tables force`;
  }

  function el(tag, className, text) {
    const e = document.createElement(tag);
    if (className) e.className = className;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  // The board of game g: North's row on top from its hole n down to 1,
  // South's row below from 1 to n, so opposite holes stand one above the
  // other; North's captured seeds on the left, South's on the right.
  function buildBoard(g) {
    const board = $("board");
    board.replaceChildren();
    board.style.setProperty("--holes", g.holes);
    const cells = { hole: { s: [], n: [] }, row: {}, label: {}, store: {} };
    for (const side of ["n", "s"]) {
      const label = el("div", `side-label ${SIDE[side].toLowerCase()}`,
        `${SIDE[side]} · ${bot(side === "s" ? g.south : g.north)}`);
      label.id = `label-${SIDE[side].toLowerCase()}`;
      cells.label[side] = label;
      const store = el("div", `store ${SIDE[side].toLowerCase()}`);
      store.id = `cap-${SIDE[side].toLowerCase()}`;
      const count = el("span", "count", "0");
      store.append(count, el("span", "what", `${SIDE[side]} captured`), el("span", "gain", ""));
      cells.store[side] = store;
      const row = el("div", `row ${SIDE[side].toLowerCase()}`);
      cells.row[side] = row;
      for (let k = 0; k < g.holes; k++) {
        // Column k shows North's hole n - k and South's hole k + 1.
        const hole = side === "n" ? g.holes - k : k + 1;
        const cell = el("div", "hole");
        cell.dataset.side = SIDE[side].toLowerCase();
        cell.dataset.hole = String(hole);
        cell.style.gridColumn = String(k + 2);
        cell.title = `${SIDE[side]}'s hole ${hole}`;
        cell.append(el("span", "seeds", "0"), el("span", "num", String(hole)));
        row.append(cell);
        cells.hole[side][hole] = cell;
      }
      board.append(label, store, row);
    }
    state.cells = cells;

    const moves = $("moves");
    moves.replaceChildren();
    const positions = decode(g);
    const judged = verdicts(g);
    g.moves.forEach((hole, i) => {
      const mover = positions[i] ? positions[i].toMove : "?";
      const b = el("button", i < g.opening ? "opening" : "", `${i + 1}.${mover.toUpperCase()}${hole}`);
      b.type = "button";
      b.dataset.ply = String(i + 1);
      const verdict = verdictText(judged[i]);
      if (verdict) {
        b.classList.add(`v-${judged[i][0]}`);
        b.dataset.verdict = judged[i];
      }
      b.title = `ply ${i + 1}: ${SIDE[mover] ?? "?"} plays hole ${hole}` +
        (i < g.opening ? " (opening, played by the referee)" : "") +
        (verdict ? `; endgame tables: ${verdict}` : "");
      moves.append(b);
    });
  }

  function show(si, gi, ply, push) {
    const g = data.games[gi];
    if (!g) return;
    if (state.game !== gi) {
      if (state.series !== si) {
        $("pick-series").value = String(si);
        fillGames(si);
      }
      $("pick-game").value = String(gi);
      // Both picks whole, for a window too narrow for the lists.
      $("game-line").textContent = ["pick-series", "pick-game"]
        .map((id) => $(id).selectedOptions[0]?.title ?? "").join(" · ");
      state.series = si;
      state.game = gi;
      state.positions = decode(g);
      buildBoard(g);
      $("ply-slider").max = String(state.positions.length - 1);
    }
    const last = state.positions.length - 1;
    state.ply = Math.max(0, Math.min(last, Number.isFinite(ply) ? Math.trunc(ply) : last));
    render(g);
    const s = data.series[si];
    const hash = (s.file > 1 ? `#file=${s.file}&` : "#") +
      `series=${s.series}&game=${g.game}&ply=${state.ply}`;
    if (push !== false && location.hash !== hash) history.replaceState(null, "", hash);
  }

  function render(g) {
    const ply = state.ply;
    const P = state.positions;
    const pos = P[ply];
    const cells = state.cells;
    const n = g.holes;
    for (const side of ["s", "n"]) {
      const offset = side === "s" ? 0 : n;
      for (let hole = 1; hole <= n; hole++) {
        const cell = cells.hole[side][hole];
        const seeds = pos.ring[offset + hole - 1];
        cell.firstChild.textContent = String(seeds);
        cell.classList.toggle("empty", seeds === 0);
        cell.classList.remove("last");
      }
      const moving = !pos.over && pos.toMove === side;
      cells.row[side].classList.toggle("to-move", moving);
      cells.label[side].classList.toggle("to-move", moving);
      const i = side === "s" ? 0 : 1;
      const store = cells.store[side];
      store.querySelector(".count").textContent = String(pos.cap[i]);
      const gain = ply > 0 ? pos.cap[i] - P[ply - 1].cap[i] : 0;
      store.querySelector(".gain").textContent = gain > 0 ? `+${gain}` : "";
    }
    let text;
    let verdict = "";
    const status = $("status");
    status.classList.remove("bad");
    if (ply === 0) {
      // Whose move it is follows below, once, as at every other ply.
      text = "Start.";
    } else {
      const mover = P[ply - 1].toMove;
      const hole = g.moves[ply - 1];
      cells.hole[mover][hole]?.classList.add("last");
      const name = bot(mover === "s" ? g.south : g.north);
      text = `Ply ${ply}: ${SIDE[mover]} (${name}) played hole ${hole}` +
        (ply <= g.opening ? " (opening, played by the referee)" : "") + ".";
      verdict = verdicts(g)[ply - 1] ?? "";
      const words = verdictText(verdict);
      if (words) text += ` Endgame tables: ${words}.`;
      const gains = ["s", "n"].map((side, i) => [side, pos.cap[i] - P[ply - 1].cap[i]])
        .filter(([, gain]) => gain > 0);
      if (pos.over && gains.length > 0) {
        // The last move's capture and the end's sweep of the board, together.
        text += " Seeds taken: " + gains.map(([side, gain]) => `${SIDE[side]} ${gain}`).join(", ") +
          " (captures and the seeds left on the board at the end).";
      } else {
        for (const [side, gain] of gains) text += ` ${SIDE[side]} captured ${gain}.`;
      }
    }
    if (ply === P.length - 1) {
      if (g.error) {
        text += ` The engine stopped here: ${g.error}`;
        status.classList.add("bad");
      } else if (pos.over) {
        const winner = g.result === "south" ? `${bot(g.south)} (South) wins` :
          g.result === "north" ? `${bot(g.north)} (North) wins` : "a draw";
        text += ` Game over by ${g.termination}: South ${pos.cap[0]} - North ${pos.cap[1]}, ${winner}.`;
      } else if (g.termination === "decided") {
        // Exact adjudication: the winner holds more than half of all seeds.
        const w = g.result === "south" ? "s" : "n";
        text += ` Decided: ${SIDE[w]} has captured more than half of all seeds and wins` +
          ` whatever follows, so the referee ended the game: South ${pos.cap[0]} - North ${pos.cap[1]},` +
          ` ${bot(w === "s" ? g.south : g.north)} (${SIDE[w]}) wins.`;
      } else {
        const loser = g.result === "south" ? "n" : g.result === "north" ? "s" : pos.toMove;
        text += ` ${bot(loser === "s" ? g.south : g.north)} (${SIDE[loser]}) lost by ${g.termination}` +
          (g.detail ? `: ${g.detail}` : ".");
      }
      if (g.agrees === false) {
        text += " The replay does not agree with the game's record in games.csv.";
        status.classList.add("bad");
      }
    } else if (!pos.over) {
      text += ` ${SIDE[pos.toMove]} (${bot(pos.toMove === "s" ? g.south : g.north)}) to move.`;
    }
    status.textContent = text;
    status.dataset.verdict = verdictText(verdict) ? verdict : "";
    const rows = ["s", "n"].map((side) => {
      const offset = side === "s" ? 0 : n;
      return pos.ring.slice(offset, offset + n).join(",");
    });
    $("pos-text").textContent = `${rows[0]}/${rows[1]} ${pos.toMove} ${pos.cap[0]} ${pos.cap[1]} ${ply}`;
    $("ply-slider").value = String(ply);
    $("ply-label").textContent = `ply ${ply} of ${P.length - 1}`;
    for (const b of $("moves").children) {
      b.classList.toggle("current", Number(b.dataset.ply) === ply);
    }
    view.dataset.series = String(data.series[state.series].series);
    view.dataset.file = String(data.series[state.series].file);
    view.dataset.game = String(g.game);
    view.dataset.ply = String(ply);
  }

  const go = (ply) => { if (state.game >= 0) show(state.series, state.game, ply); };

  // Shows the game the address names: #series=S&game=G&ply=P (file=F when
  // the report covers several files; ply=end for the last position).
  function fromHash() {
    const h = new URLSearchParams(location.hash.slice(1));
    if (!h.has("series")) return false;
    const file = Number(h.get("file") ?? 1);
    const number = Number(h.get("series"));
    const si = data.series.findIndex((s) => s.file === file && s.series === number);
    const note = $("viewer-note");
    // A note about an earlier address goes once this one is shown.
    note.textContent = baseNote();
    if (si < 0) {
      note.textContent = data.series_omitted > 0
        ? `Series ${h.get("series")} is not in the viewer (the report's size limit): ` +
          `replay its games with arena replay --games games.csv --series ${h.get("series")} --game G.`
        : `This report has no series ${h.get("series")}.`;
      return false;
    }
    const s = data.series[si];
    const wanted = Number(h.get("game") ?? 0);
    let gi = s.games.find((k) => data.games[k].game === wanted);
    if (gi === undefined) {
      gi = s.games[0];
      if (h.has("game")) {
        note.textContent = `Game ${h.get("game")} of ${seriesName(s)} is not in the viewer` +
          (data.omitted > 0 ? " (the report's size limit)" : "") +
          `: replay it with arena replay --games games.csv --series ${s.series} --game ${h.get("game")}.`;
      }
    }
    if (gi === undefined) return false;
    const p = h.get("ply");
    show(si, gi, p === "end" ? Infinity : Number(p ?? 0));
    return true;
  }

  // The note the viewer always shows: which games it holds, when not all.
  function baseNote() {
    if (!(data.omitted > 0)) return "";
    return `The viewer holds ${data.total - data.omitted} of ` +
      `${data.total} games (the report's size limit), game 1 of every series first; ` +
      "replay any other with arena replay --games games.csv --series S --game G.";
  }

  function start() {
    fillSeries();
    // Turning a phone (or resizing) lists the entries for the new width.
    narrow.addEventListener("change", () => {
      fillSeries();
      if (state.series >= 0) fillGames(state.series);
    });
    $("viewer-note").textContent = baseNote();
    if (data.games.some((g) => g.verdicts)) {
      $("verdict-note").textContent = "Moves judged against endgame tables (arena analyse, " +
        "analysis-games.csv) are marked: optimal green, a mistake red, forced grey, unjudged " +
        "amber; the line under the board says the verdict on the move just played.";
    }
    // After a pick, the arrow keys step plies again instead of changing the pick.
    $("pick-series").addEventListener("change", (e) => {
      $("viewer-note").textContent = baseNote();
      const si = Number(e.target.value);
      const gi = data.series[si].games[0];
      if (gi !== undefined) show(si, gi, 0);
      e.target.blur();
    });
    $("pick-game").addEventListener("change", (e) => {
      $("viewer-note").textContent = baseNote();
      show(state.series, Number(e.target.value), 0);
      e.target.blur();
    });
    $("first").addEventListener("click", () => go(0));
    $("prev").addEventListener("click", () => go(state.ply - 1));
    $("next").addEventListener("click", () => go(state.ply + 1));
    $("last").addEventListener("click", () => go(Infinity));
    $("ply-slider").addEventListener("input", (e) => go(Number(e.target.value)));
    $("moves").addEventListener("click", (e) => {
      const ply = e.target.dataset && e.target.dataset.ply;
      if (ply) go(Number(ply));
    });
    document.addEventListener("keydown", (e) => {
      if (e.altKey || e.ctrlKey || e.metaKey) return;
      if (e.target.closest && e.target.closest("select, input, textarea")) return;
      const steps = { ArrowRight: state.ply + 1, ArrowLeft: state.ply - 1, Home: 0, End: Infinity };
      if (!(e.key in steps) || state.game < 0) return;
      e.preventDefault();
      go(steps[e.key]);
    });
    window.addEventListener("hashchange", () => {
      if (fromHash()) view.scrollIntoView();
    });
    if (fromHash()) {
      // A shared address: show the game it names.
      view.scrollIntoView();
    } else {
      const first = data.series.findIndex((s) => s.games.length > 0);
      if (first >= 0) {
        show(first, data.series[first].games[0], 0, false);
      } else {
        $("status").textContent = "No games to show.";
      }
    }
    document.body.dataset.ready = "1";
  }

  // Whether the viewer holds game `game` of series `series` in file `file`.
  function has(file, series, game) {
    const s = data.series.find((x) => x.file === file && x.series === series);
    return !!s && s.games.some((k) => data.games[k].game === game);
  }

  // Adds a game fetched after the page was made (the live page): `entry` is
  // {bots, series: {file, series, a, b, wins, draws, losses, played}, game},
  // its bots given as indices into entry.bots. The lists follow; the game
  // shown stays.
  function add(entry) {
    const at = (i) => {
      const name = entry.bots[i] ?? "?";
      let k = data.bots.indexOf(name);
      if (k < 0) k = data.bots.push(name) - 1;
      return k;
    };
    const e = entry.series;
    if (has(e.file, e.series, entry.game.game)) return;
    let si = data.series.findIndex((x) => x.file === e.file && x.series === e.series);
    if (si < 0) {
      si = data.series.findIndex((x) => x.file > e.file || (x.file === e.file && x.series > e.series));
      if (si < 0) si = data.series.length;
      data.series.splice(si, 0, { file: e.file, series: e.series, games: [] });
      for (const g of data.games) if (g.series >= si) g.series += 1;
      if (state.series >= si) state.series += 1;
    }
    const s = data.series[si];
    Object.assign(s, { a: at(e.a), b: at(e.b), wins: e.wins, draws: e.draws, losses: e.losses, played: e.played });
    const g = Object.assign({}, entry.game, { series: si, south: at(entry.game.south), north: at(entry.game.north) });
    const gi = data.games.push(g) - 1;
    s.games.push(gi);
    s.games.sort((x, y) => data.games[x].game - data.games[y].game);
    data.total = Math.max(data.total ?? 0, data.games.length);
    fillSeries();
    if (state.game < 0) {
      show(si, gi, 0, false);
    } else {
      $("pick-series").value = String(state.series);
      if (state.series === si) {
        fillGames(si);
        $("pick-game").value = String(state.game);
        // The line under the lists gives the series' new tally too.
        $("game-line").textContent = ["pick-series", "pick-game"]
          .map((id) => $(id).selectedOptions[0]?.title ?? "").join(" · ");
      }
    }
  }

  window.endodoiViewer = { add, has };
  start();
})();
