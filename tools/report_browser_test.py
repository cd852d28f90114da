#!/usr/bin/env python3
"""Test report.html in a real headless browser (Chromium), standard library only.

    python3 tools/report_browser_test.py [DIR] [--shots OUT] [--self-check]

Without DIR it plays the demo tournament first (cargo run --release -- run
configs/demo.toml --out target/report-browser-test/run --quiet). It then
opens DIR/report.html in headless Chromium, driven over the DevTools
protocol on a pipe (tools/cdp.py, shared with tools/live_browser_test.py),
and checks that:

- the page loads with no script error, no console error or warning, and no
  request for anything but the page itself (it must be self-contained);
- the viewer shows the game and ply the address names
  (#series=S&game=G&ply=P), and its drawn board (seeds in every hole, in
  the right place on screen; captured seeds; whose move; the last move's
  hole; the position text) equals the position that the arena's rules
  engine prints for that ply (`arena replay --games ... --series S --game G`);
- stepping works: every ply of one game by the right arrow key, back with
  the left arrow, End, Home and a real mouse click on the next button; and
  other games chosen through the address and the game list;
- at window widths of 1400 and 420 pixels (a phone): the page does not
  scroll sideways (a wide table scrolls in its own box), no part of the viewer
  sticks out of the window and the board fits without scrolling; ply 0
  says whose move it is once; the series and game lists stay inside the
  page and show their picked entry whole at both widths (at 420 px the
  entries are shortened, long bot names cut, each with its full text as
  its title), and the line under them gives the picked series and game
  whole at both;
  a note about a link to a missing series goes once a good link is followed.

It checks DIR's report and those of a short 2x10 match and of a knockout
of five bundled bots it plays itself (in OUT/run-2x10 and
OUT/run-knockout: the bracket has a box per row of knockout.csv, the
bot that went through in bold, and at 420 px it scrolls in its own box),
and saves screenshots (report-top.png, report-viewer.png,
report-viewer-1400.png, report-viewer-420.png and the same for
report-2x10- and report-knockout-, with report-knockout-bracket-*.png) to OUT (default target/report-browser-test/) for a
person to look at. It also plays a 2x4 run of perfect, random and greedy
(OUT/run-verdicts), builds 2x4 endgame tables to 10 seeds, judges the run
with arena analyse, and checks that the viewer marks every move and says,
at every ply of every game, the verdict analysis-games.csv has for it. With --self-check it then breaks copies of DIR's page
ten ways (a script error, a wrong position in the embedded data, the
North row drawn in the wrong order, the board's old fixed-width columns,
"to move" twice at ply 0, a note that stays, a narrow game list, lists
not shortened on a phone, wide tables that widen the page on a phone,
charts shrunk on a phone till their labels cannot be read) and
fails unless each broken copy fails the same checks; and breaks the judged
run's page two ways (the verdict of the ply before said, mistakes marked
as optimal moves), which must fail the verdicts' check. Exit status 0:
all passed; 1: a check failed; 2: it could not run (no Chromium, no
report).
"""

import argparse
import csv
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))
from cdp import Browser, CheckFailed  # noqa: E402  (the shared DevTools driver, tools/cdp.py)


# What the page shows, read from the DOM and from the layout on screen.
READ_BOARD = """(() => {
  const v = document.getElementById('viewer');
  const holes = (side) => [...document.querySelectorAll(`#board .hole[data-side="${side}"]`)];
  const seeds = (side) => holes(side).sort((a, b) => a.dataset.hole - b.dataset.hole)
      .map((h) => Number(h.querySelector('.seeds').textContent));
  const leftToRight = (side) => holes(side)
      .map((h) => [h.getBoundingClientRect().x, Number(h.dataset.hole)])
      .sort((a, b) => a[0] - b[0]).map((p) => p[1]);
  const top = (side) => Math.max(...holes(side).map((h) => h.getBoundingClientRect().y));
  const moving = (side) => document.getElementById('label-' + side).classList.contains('to-move');
  const count = (side) => Number(document.querySelector(`#cap-${side} .count`).textContent);
  return {
    ready: document.body.dataset.ready === '1',
    series: Number(v.dataset.series), game: Number(v.dataset.game), ply: Number(v.dataset.ply),
    south: seeds('south'), north: seeds('north'),
    southOrder: leftToRight('south'), northOrder: leftToRight('north'),
    northAbove: top('north') < top('south'),
    captured: [count('south'), count('north')],
    toMove: moving('south') ? 's' : moving('north') ? 'n' : '-',
    last: [...document.querySelectorAll('#board .hole.last')].map((h) => h.dataset.side[0] + h.dataset.hole),
    text: document.getElementById('pos-text').textContent,
    status: document.getElementById('status').textContent,
    hash: location.hash,
    gamePicked: document.getElementById('pick-game').selectedOptions[0]?.textContent ?? '',
  };
})()"""

POSITION = re.compile(r"^(?:start: |  )(\d[\d,]*/[\d,]+ [sn] \d+ \d+ \d+)$", re.M)


class Engine:
    """The engine's positions of a game, from `arena replay`."""

    def __init__(self, arena, games_csv):
        self.arena = arena
        self.games_csv = games_csv
        self.cache = {}
        with open(games_csv, newline="") as f:
            self.rows = {(int(r["series"]), int(r["game"])): r for r in csv.DictReader(f)}

    def positions(self, series, game):
        if (series, game) not in self.cache:
            out = subprocess.run(
                [self.arena, "replay", "--games", str(self.games_csv),
                 "--series", str(series), "--game", str(game)],
                capture_output=True, text=True,
            )
            texts = POSITION.findall(out.stdout)
            if not texts:
                raise CheckFailed(f"arena replay printed no positions: {out.stderr}")
            over = "\nresult: " in out.stdout
            self.cache[(series, game)] = (texts, over)
        return self.cache[(series, game)]

    def expected(self, series, game, ply):
        texts, over = self.positions(series, game)
        text = texts[ply]
        rows, side, cap_s, cap_n, _ = text.split(" ")
        south, north = ([int(x) for x in r.split(",")] for r in rows.split("/"))
        last = []
        if ply > 0:
            mover = texts[ply - 1].split(" ")[1]
            hole = self.rows[(series, game)]["moves"].split()[ply - 1]
            last = [mover + hole]
        final = over and ply == len(texts) - 1
        return {
            "south": south, "north": north, "captured": [int(cap_s), int(cap_n)],
            "toMove": "-" if final else side, "last": last, "text": text,
        }

    def plies(self, series, game):
        return len(self.positions(series, game)[0]) - 1


def check_board(browser, engine, series, game, ply, where):
    shown = browser.eval(READ_BOARD)
    if not shown["ready"]:
        raise CheckFailed(f"{where}: the viewer did not start")
    if (shown["series"], shown["game"], shown["ply"]) != (series, game, ply):
        raise CheckFailed(
            f"{where}: shows series {shown['series']} game {shown['game']} ply "
            f"{shown['ply']}, expected series {series} game {game} ply {ply}"
        )
    want = engine.expected(series, game, ply)
    for key in ("south", "north", "captured", "toMove", "last", "text"):
        if shown[key] != want[key]:
            raise CheckFailed(
                f"{where}: series {series} game {game} ply {ply}: {key} shows "
                f"{shown[key]}, the engine has {want[key]}"
            )
    n = len(want["south"])
    if shown["southOrder"] != list(range(1, n + 1)) or shown["northOrder"] != list(range(n, 0, -1)):
        raise CheckFailed(
            f"{where}: holes out of place: South left to right {shown['southOrder']}, "
            f"North {shown['northOrder']}"
        )
    if not shown["northAbove"]:
        raise CheckFailed(f"{where}: North's row is not above South's")
    if f"ply={ply}" not in shown["hash"]:
        raise CheckFailed(f"{where}: the address {shown['hash']} does not name ply {ply}")
    return shown


# The viewer's layout at one window width: what sticks out of the window or
# of its box, and whether each list shows its picked entry whole.
READ_LAYOUT = """(() => {
  const width = document.documentElement.clientWidth;
  const inView = (e) => { const r = e.getBoundingClientRect(); return r.left >= -0.5 && r.right <= width + 0.5; };
  const viewer = document.getElementById('viewer');
  const out = [...viewer.querySelectorAll('*')].filter((e) => e.getClientRects().length && !inView(e))
      .map((e) => `${e.tagName.toLowerCase()}${e.id ? '#' + e.id : ''}.${e.className}`);
  const wrap = document.querySelector('.board-wrap');
  // A list cuts its text when it is narrower than it would be unbounded
  // (a list is as wide as its widest entry and its arrow): measured on a
  // copy beside it, out of the flow, where no flex box can squeeze it.
  const lists = ['pick-series', 'pick-game'].map((id) => {
    const s = document.getElementById(id);
    const room = s.getBoundingClientRect().width;
    const probe = s.cloneNode(true);
    probe.removeAttribute('id');
    probe.style.cssText = 'position: absolute; left: 0; top: 0; visibility: hidden; '
      + 'width: max-content; max-width: none; min-width: 0;';
    s.parentElement.append(probe);
    const need = probe.getBoundingClientRect().width;
    probe.remove();
    const box = s.getBoundingClientRect();
    return { id, text: s.selectedOptions[0]?.textContent ?? '',
             full: s.selectedOptions[0]?.title ?? '', need: Math.ceil(need),
             room: Math.ceil(room), left: box.left, right: box.right };
  });
  const line = document.getElementById('game-line');
  return {
    width, out, lists,
    boardScrolls: wrap.scrollWidth > wrap.clientWidth + 0.5,
    pageWide: document.documentElement.scrollWidth,
    // Each chart's scale: drawn width over its own; below about 3/4 its
    // labels are too small to read.
    charts: [...document.querySelectorAll('figure.chart svg')].map((c) =>
      c.getBoundingClientRect().width / (c.viewBox.baseVal?.width || c.width.baseVal.value)),
    gameLine: line ? line.textContent : null, gameLineIn: line ? inView(line) : false,
  };
})()"""


def check_layout(browser, engine, series, game, width, shots, name):
    """The viewer at a window `width` pixels wide: the board and every part
    of the viewer fit the window; the status says whose move it is once;
    the picked game is described whole; a note about a bad address goes
    once a good one is followed."""
    browser.page("Emulation.setDeviceMetricsOverride",
                 {"width": width, "height": 900, "deviceScaleFactor": 1, "mobile": False})
    where = f"at {width} px"
    browser.go_to_hash("#series=99999&game=1&ply=0")
    note = browser.eval("document.getElementById('viewer-note').textContent")
    if "no series 99999" not in note:
        raise CheckFailed(f"{where}: a link to a series the report lacks says {note!r}")
    browser.go_to_hash(f"#series={series}&game={game}&ply=0")
    shown = check_board(browser, engine, series, game, 0, f"{where}, a good link after a bad one")
    note = browser.eval("document.getElementById('viewer-note').textContent")
    if "no series" in note:
        raise CheckFailed(f"{where}: after a good link the note still says {note!r}")
    if shown["status"].count("to move") != 1:
        raise CheckFailed(f"{where}: ply 0 says 'to move' {shown['status'].count('to move')} "
                          f"times: {shown['status']!r}")
    layout = browser.eval(READ_LAYOUT)
    if layout["width"] != width:
        raise CheckFailed(f"{where}: the page is {layout['width']} px wide")
    if layout["out"]:
        raise CheckFailed(f"{where}: parts of the viewer stick out of the window: "
                          + ", ".join(layout["out"][:6]))
    if layout["boardScrolls"]:
        raise CheckFailed(f"{where}: the board does not fit; it scrolls sideways")
    small = [round(x, 2) for x in layout["charts"] if x < 0.75]
    if small:
        raise CheckFailed(f"{where}: a chart is drawn at {small} of its size: its labels cannot be read")
    if layout["pageWide"] > width + 0.5:
        raise CheckFailed(f"{where}: the page scrolls sideways: it is {layout['pageWide']} px wide "
                          "(a wide table must scroll in its own box)")
    picked = " · ".join(lst["full"] for lst in layout["lists"])
    if layout["gameLine"] != picked or not layout["gameLineIn"]:
        raise CheckFailed(f"{where}: the picked series and game are not described whole under "
                          f"the lists ({layout['gameLine']!r}, the lists have {picked!r})")
    for lst in layout["lists"]:
        if lst["left"] < -0.5 or lst["right"] > width + 0.5:
            raise CheckFailed(f"{where}: the list #{lst['id']} overflows the page: it spans "
                              f"{lst['left']:.0f} to {lst['right']:.0f} px of {width}")
        if lst["need"] > lst["room"]:
            raise CheckFailed(
                f"{where}: the list #{lst['id']} cuts its text: its entries need "
                f"{lst['need']} px, it has {lst['room']} (picked: {lst['text']!r})"
            )
        if not lst["full"].startswith(lst["text"].split(":")[0] + ":"):
            raise CheckFailed(f"{where}: the list #{lst['id']}'s entry {lst['text']!r} has "
                              f"not its full text as its title ({lst['full']!r})")
    # Mid-game, where holes hold more seeds: still nothing sticks out.
    mid = engine.plies(series, game) // 2
    browser.go_to_hash(f"#series={series}&game={game}&ply={mid}")
    check_board(browser, engine, series, game, mid, f"{where}, mid-game")
    layout = browser.eval(READ_LAYOUT)
    if layout["out"] or layout["boardScrolls"]:
        raise CheckFailed(f"{where}, ply {mid}: the viewer does not fit the window: "
                          + ", ".join(layout["out"][:6] or ["the board scrolls"]))
    if shots:
        browser.screenshot(shots / f"{name}-viewer-{width}.png", "#viewer")


def check_no_problems(browser):
    """Fails with the page's script errors, console errors and stray
    requests, if it has any."""
    problems = browser.problems()
    if problems:
        raise CheckFailed("the page has problems:\n  " + "\n  ".join(problems))


def run_checks(chromium, report, engine, shots, workdir, name="report"):
    """Every check on one report; returns the number of positions compared."""
    browser = Browser(chromium, workdir)
    compared = 0
    try:
        browser.page("Emulation.setDeviceMetricsOverride",
                     {"width": 1200, "height": 1000, "deviceScaleFactor": 1, "mobile": False})
        keys = sorted(engine.rows)
        series, game = keys[0]
        url = report.resolve().as_uri()
        start = min(5, engine.plies(series, game))
        browser.open(f"{url}#series={series}&game={game}&ply={start}")
        check_board(browser, engine, series, game, start, "opened at a ply")
        compared += 1
        if shots:
            browser.eval("scrollTo(0, 0)")
            browser.screenshot(shots / f"{name}-top.png")
            browser.screenshot(shots / f"{name}-viewer.png", "#viewer")
        # Every ply by the keyboard, then back, End, Home and a mouse click.
        browser.key("Home", "Home", 36)
        check_board(browser, engine, series, game, 0, "after Home")
        last = engine.plies(series, game)
        for ply in range(1, last + 1):
            browser.key("ArrowRight", "ArrowRight", 39)
            check_board(browser, engine, series, game, ply, "after the right arrow")
            compared += 1
        browser.key("ArrowRight", "ArrowRight", 39)
        check_board(browser, engine, series, game, last, "the right arrow at the end")
        for ply in (last - 1, last - 2):
            browser.key("ArrowLeft", "ArrowLeft", 37)
            check_board(browser, engine, series, game, max(ply, 0), "after the left arrow")
        browser.key("End", "End", 35)
        shown = check_board(browser, engine, series, game, last, "after End")
        row = engine.rows[(series, game)]
        if row["termination"] in ("no-moves", "ply-limit") and "Game over" not in shown["status"]:
            raise CheckFailed(f"the last ply does not say the game is over: {shown['status']}")
        browser.key("Home", "Home", 36)
        browser.click("#next")
        check_board(browser, engine, series, game, 1, "after a click on the next button")
        # Other games: through the address (the last and a middle ply of
        # one game per series), and through the game list.
        by_series = {}
        for s, g in keys:
            by_series.setdefault(s, []).append(g)
        for s, games in list(by_series.items())[:20]:
            g = games[-1]
            browser.go_to_hash(f"#series={s}&game={g}&ply=end")
            check_board(browser, engine, s, g, engine.plies(s, g), "address with ply=end")
            mid = engine.plies(s, g) // 2
            browser.go_to_hash(f"#series={s}&game={g}&ply={mid}")
            check_board(browser, engine, s, g, mid, "address with a ply")
            compared += 2
        # Through the lists: the first series, then its second game.
        s, games = next(iter(by_series.items()))
        if len(games) > 1:
            g = games[1]
            browser.eval(
                "(() => { const pick = document.getElementById('pick-series');"
                f" const o = [...pick.options].find((o) => o.textContent.startsWith('series {s}:'));"
                " pick.value = o.value; pick.dispatchEvent(new Event('change'));"
                " const game = document.getElementById('pick-game');"
                f" const p = [...game.options].find((o) => o.textContent.startsWith('game {g}:'));"
                " game.focus(); game.value = p.value; game.dispatchEvent(new Event('change')); })()"
            )
            shown = check_board(browser, engine, s, g, 0, "a game picked from the lists")
            compared += 1
            if not shown["gamePicked"].startswith(f"game {g}:"):
                raise CheckFailed(f"the game list shows {shown['gamePicked']}")
            # The arrow keys step plies again right after a pick.
            browser.key("ArrowRight", "ArrowRight", 39)
            check_board(browser, engine, s, g, 1, "the right arrow after a pick")
            compared += 1
        # The layout on a wide screen and on a phone.
        for width in (1400, 420):
            check_layout(browser, engine, series, keys[0][1], width, shots, name)
            check_bracket(browser, report, width, shots, name)
            compared += 1
        check_no_problems(browser)
    finally:
        browser.close()
    return compared


def bundled_bots(*bots):
    """The `[[bot]]` tables of bundled bots, each given as (name, the words
    after `arena bot`), in the order given."""
    return "".join(f'[[bot]]\nname = "{name}"\ncommand = {json.dumps(["arena", "bot", *words])}\n'
                   for name, *words in bots)


# The bundled greedy bot under a long name.
GREEDY = ("greedy-with-a-long-name", "greedy", "--seed", "1")

# The 2x10 match whose report is tested too (arena = the bundled bots).
WIDE_CONFIG = """name = "2x10"
[board]
holes = 10
[tournament]
first_to = 2
max_games = 4
concurrency = 1
[openings]
plies_min = 2
plies_max = 2
""" + bundled_bots(GREEDY, ("random", "random", "--seed", "2"))

# A knockout of five bundled bots, whose bracket is tested too: byes in
# round 1, a box per tie (arena = the bundled bots).
KNOCKOUT_CONFIG = """name = "knockout"
[board]
holes = 6
[tournament]
format = "knockout"
first_to = 2
max_games = 4
concurrency = 2
""" + bundled_bots(GREEDY,
                   ("random-1", "random", "--seed", "2"),
                   ("random-2", "random", "--seed", "3"),
                   ("first", "first"),
                   ("random-3", "random", "--seed", "4"))

# A 2x4 run of perfect (with the endgame tables), random and greedy, judged
# by arena analyse: its report's viewer shows the tables' verdicts.
VERDICT_CONFIG = """name = "verdicts"
[board]
holes = 4
seeds = 2
[tournament]
first_to = 3
max_games = 4
seed = 5
concurrency = 1
""" + bundled_bots(("perfect", "perfect", "--tablebase", "tb"),
                   ("random", "random", "--seed", "2"),
                   ("greedy", "greedy", "--seed", "1"))

READ_VERDICTS = """(() => ({
  ply: Number(document.getElementById('viewer').dataset.ply),
  status: document.getElementById('status').textContent,
  verdict: document.getElementById('status').dataset.verdict ?? null,
  buttons: [...document.querySelectorAll('#moves button')].map((b) => [
    b.dataset.verdict ?? '', [...b.classList].filter((c) => c.startsWith('v-')).join(' ')]),
  note: document.getElementById('verdict-note').textContent,
}))()"""

VERDICT_WORDS = {"o": "optimal", "f": "forced", "u": "unjudged", "m": "a mistake"}


def check_verdicts(chromium, report, analysis, workdir):
    """The viewer of `report` marks every move with the verdict of
    `analysis` (its analysis-games.csv) and says it under the board at every
    ply of every game; returns the plies compared."""
    with open(analysis, newline="") as f:
        rows = list(csv.DictReader(f))
    if not any(set(r["verdicts"].split()) - {"."} for r in rows):
        raise CheckFailed(f"{analysis}: no move in the tables: the test would compare nothing")
    browser = Browser(chromium, workdir)
    compared = 0
    try:
        browser.open(report.resolve().as_uri())
        if "endgame tables" not in browser.eval(READ_VERDICTS)["note"]:
            raise CheckFailed("the viewer has no note on the verdicts")
        for r in rows:
            tokens = r["verdicts"].split()
            for ply in range(0, len(tokens) + 1):
                browser.go_to_hash(f"#series={r['series']}&game={r['game']}&ply={ply}")
                shown = browser.eval(READ_VERDICTS)
                if shown["ply"] != ply:
                    raise CheckFailed(f"series {r['series']} game {r['game']}: ply {shown['ply']} shown, not {ply}")
                buttons = [(t if t != "." else "", f"v-{t[0]}" if t != "." else "") for t in tokens]
                if [tuple(b) for b in shown["buttons"]] != buttons:
                    raise CheckFailed(f"series {r['series']} game {r['game']}: the moves are marked "
                                      f"{shown['buttons']}, analysis-games.csv says {tokens}")
                want = "" if ply == 0 or tokens[ply - 1] == "." else tokens[ply - 1]
                if shown["verdict"] != want:
                    raise CheckFailed(f"series {r['series']} game {r['game']} ply {ply}: the verdict "
                                      f"shown is {shown['verdict']!r}, analysis-games.csv says {want!r}")
                if want:
                    words = VERDICT_WORDS[want[0]]
                    if want[0] == "m":
                        seeds = want[1:].rstrip("+")
                        words = ("at least " if want.endswith("+") else "") + seeds + " seed"
                    if words not in shown["status"]:
                        raise CheckFailed(f"series {r['series']} game {r['game']} ply {ply}: "
                                          f"'{words}' not in the line: {shown['status']}")
                compared += 1
        check_no_problems(browser)
    finally:
        browser.close()
    return compared


def run_folder(shots, name):
    """SHOTS/run-NAME, emptied and made afresh."""
    folder = shots / f"run-{name}"
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    return folder


def play(arena, folder, name, config):
    """Writes `config` (TOML text) as FOLDER/NAME.toml and plays it with
    `arena run --quiet` into FOLDER/out; returns that folder."""
    (folder / f"{name}.toml").write_text(config)
    subprocess.run([arena, "run", str(folder / f"{name}.toml"), "--out", str(folder / "out"),
                    "--quiet"], check=True, stdout=subprocess.DEVNULL)
    return folder / "out"


def verdict_run(arena, shots):
    """Plays VERDICT_CONFIG with 2x4 tables to 10 seeds and judges it:
    returns its report and its analysis-games.csv."""
    run_dir = run_folder(shots, "verdicts")
    quiet = {"check": True, "stdout": subprocess.DEVNULL}
    subprocess.run([arena, "tablebase", "build", "--holes", "4", "--seeds-on-board", "10",
                    "--out", str(run_dir / "tb")], stderr=subprocess.DEVNULL, **quiet)
    out = play(arena, run_dir, "verdicts", VERDICT_CONFIG)
    subprocess.run([arena, "analyse", str(out), "--tablebase", str(run_dir / "tb")],
                   stderr=subprocess.DEVNULL, **quiet)
    return out / "report.html", out / "analysis-games.csv"


READ_BRACKET = """(() => {
  const b = document.getElementById('bracket');
  if (!b) return null;
  const box = b.querySelector('.bracket-scroll');
  const r = box.getBoundingClientRect();
  return {
    ties: [...b.querySelectorAll('.tie')].map((t) => ({
      slots: t.querySelectorAll('.slot').length,
      won: [...t.querySelectorAll('.slot.won')].map((s) => s.querySelector('.bot').textContent),
      bold: [...t.querySelectorAll('.slot.won .bot')].every(
        (s) => Number(getComputedStyle(s).fontWeight) >= 600),
    })),
    rounds: b.querySelectorAll('.round').length,
    left: r.left, right: r.right, scrolls: box.scrollWidth > box.clientWidth + 0.5,
  };
})()"""


def check_bracket(browser, report, width, shots, name):
    """A knockout's bracket at a window `width` pixels wide: a box per row
    of knockout.csv, two slots each, the bot that went through (and only
    it) in bold; the bracket stays inside the window (it scrolls in its own
    box when it is wider)."""
    browser.page("Emulation.setDeviceMetricsOverride",
                 {"width": width, "height": 900, "deviceScaleFactor": 1, "mobile": False})
    shown = browser.eval(READ_BRACKET)
    ko = report.parent / "knockout.csv"
    if shown is None:
        if ko.is_file():
            raise CheckFailed("a knockout's report has no bracket")
        return
    with open(ko, newline="") as f:
        ties = list(csv.DictReader(f))
    where = f"the bracket at {width} px"
    if len(shown["ties"]) != len(ties):
        raise CheckFailed(f"{where} has {len(shown['ties'])} boxes, knockout.csv {len(ties)} ties")
    if shown["rounds"] != max(int(t["round"]) for t in ties):
        raise CheckFailed(f"{where} has {shown['rounds']} round columns")
    for box, tie in zip(shown["ties"], ties):
        want = [tie["winner"]] if tie["winner"] else []
        if box["slots"] != 2 or box["won"] != want or not box["bold"]:
            raise CheckFailed(f"{where}: tie {tie['round']}.{tie['tie']} shows {box}, "
                              f"knockout.csv has {tie['winner']!r} through")
    if shown["left"] < -0.5 or shown["right"] > width + 0.5:
        raise CheckFailed(f"{where} spans {shown['left']:.0f} to {shown['right']:.0f} px: "
                          "it must scroll in its own box")
    if width <= 420 and not shown["scrolls"]:
        raise CheckFailed(f"{where}: three rounds of boxes fit 420 px without scrolling?")
    if shots:
        browser.screenshot(shots / f"{name}-bracket-{width}.png", "#bracket")


# The ways --self-check breaks a copy of the page; each must fail a check.
TAMPERS = ("script error", "wrong position", "North row reversed", "fixed-width board",
           "to move twice", "stale note", "narrow game list", "lists not shortened on a phone",
           "wide tables on a phone", "charts shrunk on a phone")
# Broken copies of the judged run's page (check_verdicts).
VERDICT_TAMPERS = ("the verdict of the ply before", "mistakes marked optimal")


# The one-string breaks of tamper: kind -> (a string of the page, its first
# occurrence's replacement).
REPLACEMENTS = {
    "script error": ("</body>", "<script>null.broken = 1;</script></body>"),
    "North row reversed": ('side === "n" ? g.holes - k : k + 1', "k + 1"),
    # The board's columns as they were before they could shrink.
    "fixed-width board": ("minmax(2.8rem, 5.5rem) repeat(var(--holes, 8), minmax(1.5rem, 3.4rem)) "
                          "minmax(2.8rem, 5.5rem)",
                          "5.5rem repeat(var(--holes, 8), minmax(2.6rem, 3.4rem)) 5.5rem"),
    "to move twice": ('text = "Start.";', 'text = "Start: to move.";'),
    "stale note": ("note.textContent = baseNote();", ""),
    "narrow game list": (".controls select { max-width: 100%;", ".controls select { max-width: 12rem;"),
    "lists not shortened on a phone": ('window.matchMedia("(max-width: 600px)")',
                                       'window.matchMedia("(max-width: 1px)")'),
    "wide tables on a phone": ("table.standings, table.forfeits, table.forfeit-list, table.match "
                               "{ display: block;", "table.none { display: block;"),
    "the verdict of the ply before": ("verdict = verdicts(g)[ply - 1]", "verdict = verdicts(g)[ply - 2]"),
    "mistakes marked optimal": ("b.classList.add(`v-${judged[i][0]}`);",
                                "b.classList.add(judged[i][0] === 'm' ? 'v-o' : `v-${judged[i][0]}`);"),
    "charts shrunk on a phone": ("figure.chart svg { max-width: none; width: 600px; }", ""),
}


def tamper(report, kind, out):
    """A copy of `report` broken one way, for --self-check."""
    html = report.read_text()
    if kind == "wrong position":
        # The sixth position of the first game: its first hole gains 7 seeds.
        m = re.search(r'"positions":"([^"]*)"', html)
        tokens = m.group(1).split(" ")
        t = tokens[5]
        digits = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
        tokens[5] = t[0] + digits[(digits.index(t[1]) + 7) % 62] + t[2:]
        html = html[: m.start(1)] + " ".join(tokens) + html[m.end(1):]
    else:
        html = html.replace(*REPLACEMENTS[kind], 1)
    if html == report.read_text():
        raise CheckFailed(f"could not break the page ({kind}): has it changed?")
    out.write_text(html)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dir", nargs="?", type=Path, help="a run folder with report.html and games.csv")
    ap.add_argument("--shots", type=Path, default=REPO / "target" / "report-browser-test",
                    help="where the screenshots go")
    ap.add_argument("--self-check", action="store_true",
                    help="also check that broken copies of the page fail")
    ap.add_argument("--chromium", default=os.environ.get("CHROMIUM", "chromium"))
    args = ap.parse_args()

    chromium = shutil.which(args.chromium)
    if not chromium:
        print(f"report browser test: no {args.chromium} (apt-get install chromium)", file=sys.stderr)
        return 2
    target = Path(os.environ.get("CARGO_TARGET_DIR", REPO / "target"))
    args.shots.mkdir(parents=True, exist_ok=True)
    run_dir = args.dir
    if run_dir is None:
        run_dir = args.shots / "run"
        shutil.rmtree(run_dir, ignore_errors=True)
        subprocess.run(
            ["cargo", "run", "--release", "--quiet", "--", "run", "configs/demo.toml",
             "--out", str(run_dir), "--quiet"],
            cwd=REPO, check=True, stdout=subprocess.DEVNULL,
        )
    else:
        subprocess.run(["cargo", "build", "--release", "--quiet", "-p", "arena"], cwd=REPO, check=True)
    report = run_dir / "report.html"
    if not report.is_file():
        print(f"report browser test: no {report}", file=sys.stderr)
        return 2
    arena = str(target / "release" / "arena")
    engine = Engine(arena, run_dir / "games.csv")
    # A 2x10 board too, the widest a phone must show: a short match of two
    # bundled bots.
    wide_out = play(arena, run_folder(args.shots, "2x10"), "2x10", WIDE_CONFIG)
    wide_report = wide_out / "report.html"
    wide_engine = Engine(arena, wide_out / "games.csv")
    # A knockout: its report has the bracket.
    ko_out = play(arena, run_folder(args.shots, "knockout"), "knockout", KNOCKOUT_CONFIG)
    ko_report = ko_out / "report.html"
    ko_engine = Engine(arena, ko_out / "games.csv")
    verdict_report, verdict_csv = verdict_run(arena, args.shots)
    with tempfile.TemporaryDirectory(prefix="report-browser-") as tmp:
        tmp = Path(tmp)
        try:
            (tmp / "verdicts").mkdir()
            compared = check_verdicts(chromium, verdict_report, verdict_csv, tmp / "verdicts")
        except CheckFailed as e:
            print(f"FAILED: {verdict_report}: {e}", file=sys.stderr)
            return 1
        print(f"report-verdicts: the tables' verdicts shown as analysis-games.csv has them at {compared} plies")
        for page, page_engine, name in ((report, engine, "report"),
                                        (wide_report, wide_engine, "report-2x10"),
                                        (ko_report, ko_engine, "report-knockout")):
            try:
                (tmp / name).mkdir()
                compared = run_checks(chromium, page, page_engine, args.shots, tmp / name, name)
            except CheckFailed as e:
                print(f"FAILED: {page}: {e}", file=sys.stderr)
                return 1
            print(f"{name}: no errors, {compared} positions and layouts shown as they should be; "
                  f"screenshots in {args.shots}")
        if args.self_check:
            for kind in TAMPERS:
                work = tmp / kind.replace(" ", "-")
                work.mkdir()
                broken = tamper(report, kind, work / "report.html")
                try:
                    run_checks(chromium, broken, engine, None, work)
                except CheckFailed as e:
                    lines = str(e).splitlines()
                    why = lines[1] if len(lines) > 1 else lines[0]
                    print(f"self-check: a page with a {kind} fails as it should: {why.strip()}")
                    continue
                print(f"FAILED: self-check: a page with a {kind} passed the checks", file=sys.stderr)
                return 1
            for kind in VERDICT_TAMPERS:
                work = tmp / kind.replace(" ", "-")
                work.mkdir()
                broken = tamper(verdict_report, kind, work / "report.html")
                try:
                    check_verdicts(chromium, broken, verdict_csv, work)
                except CheckFailed as e:
                    print(f"self-check: a page with {kind} fails as it should: {str(e).splitlines()[0]}")
                    continue
                print(f"FAILED: self-check: a page with {kind} passed the checks", file=sys.stderr)
                return 1
    checks = 4 + (len(TAMPERS) + len(VERDICT_TAMPERS) if args.self_check else 0)
    print(f"report-browser: {checks} passed, 0 failed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
