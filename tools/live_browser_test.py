#!/usr/bin/env python3
"""Test the live page of `arena run --serve` in a real headless browser
(Chromium, driven by tools/cdp.py), standard library only.

    python3 tools/live_browser_test.py [--shots OUT] [--arena PATH]

It starts a real `arena run CONFIG --serve 127.0.0.1:0 --out OUT/run --quiet`
of an SPRT match slow enough to watch (greedy against random, two games at
once, the bundled bots waiting --think-ms before each move), reads the URL
from the arena's stderr, opens it in headless Chromium and checks, each
with a deadline and never after a fixed wait, that:

- the standings' games count grows as games end, without a reload;
- a live board's data-ply advances, and the seeds it draws in every hole
  equal the position the arena's rules engine gives for that ply
  (`arena replay` of the game, once games.csv has it), its last move names
  the hole played and its laps;
- the SPRT's LLR chart is redrawn with more pairs (data-pairs grows);
- after the run, body[data-state=finished], the progress counts every game
  of games.csv, and the LLR chart has the report's pairs;
- `/report` of `arena serve` of the finished folder is the run's
  report.html byte for byte; its page opens finished at once, its viewer
  lists every game and shows a picked one as the engine has it, and its
  report link opens the report, whose viewer shows a game's ply as the
  engine has it;
- no script error, console error or warning, and no request to anything
  but the arena's own server; at 420 px (a phone) nothing sticks out of
  the window sideways;
- a league (a finished one of 13 noisy greedy bots, with a roster.csv
  that retires two and adds one, served by `arena serve`): the league's
  table lists the active bots in the order of `/state`, the retired ones
  in a table of their own, greyed; typing in its search box keeps exactly
  the bots whose names hold the text (and clearing it brings the top
  back); a bot's name opens its record with one row per series of
  series.csv, and a series' link shows that game in the viewer.

Screenshots of the live page at 1400 and 420 px wide (live-1400.png,
live-420.png) and of the finished one (live-finished-1400.png) go to OUT
(default target/live-browser-test/) for a person to look at. Exit status
0: all passed (or skipped: no Chromium, without ENDODOI_REQUIRE_CHROMIUM=1);
1: a check failed; 2: it could not run.
"""

import argparse
import contextlib
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))
from cdp import Browser, CheckFailed, require_chromium  # noqa: E402
from report_browser_test import Engine, check_board  # noqa: E402

URL_LINE = re.compile(r"^arena: live view at (http://([^/\s]+)/)$")
# The longest the whole match may take, and the longest for the URL line.
RUN_TIMEOUT_S = 300.0
URL_TIMEOUT_S = 60.0

# An SPRT match slow enough to watch: about 15 ms per move.
CONFIG = """name = "live"
[board]
holes = 6
seeds = 4
[tournament]
concurrency = 2
max_games = 400
seed = 3
[sprt]
elo0 = 0
elo1 = 10
[[bot]]
name = "greedy"
command = ["arena", "bot", "greedy", "--seed", "1", "--think-ms", "{think}"]
[[bot]]
name = "random"
command = ["arena", "bot", "random", "--seed", "2", "--think-ms", "{think}"]
"""

# What the live page shows, read in one go from the DOM.
READ_LIVE = """(() => {
  const holes = (board, side) => [...board.querySelectorAll(`.hole[data-side="${side}"]`)]
      .sort((a, b) => a.dataset.hole - b.dataset.hole)
      .map((h) => Number(h.querySelector('.seeds')?.textContent));
  const progress = document.getElementById('progress');
  const rows = [...document.querySelectorAll('#standings table.standings tbody tr')];
  const svg = document.querySelector('#llr-chart svg[data-pairs]');
  return {
    state: document.body.dataset.state ?? null,
    done: progress && progress.hasAttribute('data-done') ? Number(progress.dataset.done) : null,
    progress: progress ? progress.textContent.trim() : null,
    standings: rows.map((r) => [r.querySelector('td.name')?.textContent.trim() ?? null,
                                Number((r.cells[2]?.textContent ?? '').replace(/[^0-9]/g, ''))]),
    pairs: svg ? Number(svg.dataset.pairs) : null,
    boards: [...document.querySelectorAll('#live-games .live-board')].map((b) => ({
      series: Number(b.dataset.series), game: Number(b.dataset.game), ply: Number(b.dataset.ply),
      south: holes(b, 'south'), north: holes(b, 'north'),
      names: b.querySelector('.names')?.textContent.trim() ?? null,
      clocks: b.querySelector('.clocks')?.textContent.trim() ?? null,
      last: b.querySelector('.last-move')?.textContent.trim() ?? null,
    })),
    cross: !!document.querySelector('#cross table.cross'),
    forfeits: !!document.getElementById('forfeits'),
    viewer: ['viewer', 'pick-series', 'pick-game', 'board', 'pos-text']
        .filter((id) => !document.getElementById(id)),
    reportLink: document.querySelector('a#report-link')?.getAttribute('href') ?? null,
  };
})()"""

# What sticks out of the window sideways.
READ_OVERFLOW = """(() => {
  const width = document.documentElement.clientWidth;
  const out = [...document.body.querySelectorAll('*')].filter((e) => {
    if (!e.getClientRects().length) return false;
    // Inside a box that scrolls on its own (a wide table), not the page.
    for (let p = e.parentElement; p && p !== document.body; p = p.parentElement) {
      const o = getComputedStyle(p).overflowX;
      if (o === 'auto' || o === 'scroll' || o === 'hidden') return false;
    }
    const r = e.getBoundingClientRect();
    return r.left < -0.5 || r.right > width + 0.5;
  }).map((e) => `${e.tagName.toLowerCase()}${e.id ? '#' + e.id : ''}${e.className && typeof e.className === 'string' ? '.' + e.className.split(' ').join('.') : ''}`);
  return { width, scroll: document.documentElement.scrollWidth, out };
})()"""


class Arena:
    """A running arena process whose stderr a thread reads line by line."""

    def __init__(self, cmd, cwd):
        self.proc = subprocess.Popen(cmd, cwd=cwd, stdin=subprocess.DEVNULL,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        self.lines = []
        self.got_line = threading.Condition()
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self):
        for line in self.proc.stderr:
            with self.got_line:
                self.lines.append(line.rstrip("\n"))
                self.got_line.notify_all()
        with self.got_line:
            self.lines.append(None)  # the end of stderr
            self.got_line.notify_all()

    def url(self):
        """The URL of its `arena: live view at` line, waited for."""
        deadline = time.monotonic() + URL_TIMEOUT_S
        with self.got_line:
            while True:
                for line in self.lines:
                    if line is None:
                        raise CheckFailed(f"the arena ended without a URL line: {self.said()}")
                    m = URL_LINE.match(line)
                    if m:
                        return m.group(1)
                left = deadline - time.monotonic()
                if left <= 0:
                    raise CheckFailed(f"no URL line within {URL_TIMEOUT_S:.0f} s: {self.said()}")
                self.got_line.wait(left)

    def said(self):
        return "\n  ".join(line for line in self.lines if line is not None)

    def wait(self, timeout):
        try:
            return self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            raise CheckFailed(f"the arena did not end within {timeout:.0f} s") from None

    def stop(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def fetch(url):
    with urllib.request.urlopen(url, timeout=30) as r:
        return r.status, r.read()


def laps_by_ply(arena, games_csv, series, game):
    """{ply: (hole, laps)} of one game, from `arena replay`."""
    out = subprocess.run([arena, "replay", "--games", str(games_csv), "--series", str(series),
                          "--game", str(game)], capture_output=True, text=True, check=True).stdout
    found = {}
    for m in re.finditer(r"^ply (\d+): \w+ .*?plays (\d+): (\d+) laps?", out, re.M):
        found[int(m.group(1))] = (int(m.group(2)), int(m.group(3)))
    return found


def check_boards(arena, engine, games_csv, seen):
    """Every board drawn live, against the engine's position at its ply;
    the number compared."""
    compared = 0
    for (series, game, ply), board in sorted(seen.items()):
        if (series, game) not in engine.rows:
            continue  # a game the run did not keep (stopped by the SPRT)
        want = engine.expected(series, game, ply)
        for side in ("south", "north"):
            if board[side] != want[side]:
                raise CheckFailed(
                    f"live board of series {series} game {game} at ply {ply}: {side} "
                    f"draws {board[side]}, the engine has {want[side]}")
        if ply > 0 and board["last"] is not None:
            hole, laps = laps_by_ply(arena, games_csv, series, game)[ply]
            lap_words = re.compile(rf"\b{laps} laps?\b")
            if str(hole) not in board["last"] or not lap_words.search(board["last"]):
                raise CheckFailed(
                    f"live board of series {series} game {game} at ply {ply}: the last move "
                    f"says {board['last']!r}; the engine has hole {hole}, {laps} laps")
        compared += 1
    return compared


@contextlib.contextmanager
def open_page(chromium, workdir, url):
    """A browser (profile and log in `workdir`) 1400x1000 CSS pixels wide,
    showing `url` once loaded; closed when the block ends."""
    browser = Browser(chromium, workdir)
    try:
        browser.set_width(1400, 1000)
        browser.open(url)
        yield browser
    finally:
        browser.close()


def check_fits(browser, width, where):
    browser.set_width(width, 1000)
    layout = browser.eval(READ_OVERFLOW)
    if layout["width"] != width:
        raise CheckFailed(f"{where}: the page is {layout['width']} px wide, not {width}")
    if layout["scroll"] > width + 1 or layout["out"]:
        raise CheckFailed(f"{where}, {width} px: the page is {layout['scroll']} px wide; "
                          f"sticking out: {', '.join(layout['out'][:8]) or '-'}")


def watch_live(browser, shots):
    """Reads the live page until it has seen the standings grow, a board
    advance and the LLR chart grow; returns what it saw."""
    deadline = time.monotonic() + RUN_TIMEOUT_S
    first = None
    games_seen = []   # the standings' total of games, each time it changed
    pairs_seen = []   # the LLR chart's data-pairs, each time it changed
    plies = {}        # (series, game) -> the plies its board showed
    boards = {}       # (series, game, ply) -> the board as drawn
    shot = False
    while True:
        now = browser.eval(READ_LIVE)
        if first is None:
            first = now
            missing = [k for k in ("done", "state") if now[k] is None]
            if missing or now["viewer"] or now["reportLink"] != "/report":
                raise CheckFailed(f"the page lacks parts of the contract: {missing} "
                                  f"{now['viewer']} report link {now['reportLink']!r}")
        total = sum(g for _, g in now["standings"])
        if not games_seen or games_seen[-1] != total:
            games_seen.append(total)
        if now["pairs"] is not None and (not pairs_seen or pairs_seen[-1] != now["pairs"]):
            pairs_seen.append(now["pairs"])
        for b in now["boards"]:
            plies.setdefault((b["series"], b["game"]), set()).add(b["ply"])
            boards[(b["series"], b["game"], b["ply"])] = b
        advanced = any(len(p) >= 2 for p in plies.values())
        grown = len(games_seen) >= 3 and games_seen[-1] > games_seen[0]
        pairs_grown = len(pairs_seen) >= 2 and pairs_seen[-1] > pairs_seen[0]
        # Screenshots with games in progress on the board: at 1400 px, then
        # (on a later look, once the page has laid itself out at 420 px
        # and still shows a game in progress) at 420 px.
        if now["boards"] and now["standings"] and now["state"] == "live" and shot is not True:
            browser.eval("scrollTo(0, 0)")
            if not shot:
                browser.screenshot(shots / "live-1400.png")
                check_fits(browser, 420, "the live page")
                shot = 420
            else:
                check_fits(browser, 420, "the live page")
                browser.screenshot(shots / "live-420.png")
                browser.set_width(1400, 1000)
                shot = True
        if advanced and grown and pairs_grown and shot is True:
            return {"games": games_seen, "pairs": pairs_seen, "boards": boards, "plies": plies,
                    "last": now}
        if now["state"] == "finished" or time.monotonic() > deadline:
            raise CheckFailed(
                f"the run {'ended' if now['state'] == 'finished' else 'went on'} before the page "
                f"showed everything: standings' games {games_seen} (must grow twice), boards "
                f"advancing {advanced}, LLR pairs {pairs_seen} (must grow), screenshots {shot}")
        time.sleep(0.1)


# A league of noisy greedy bots (a known order), over quickly.
LEAGUE_BOTS = 13
LEAGUE_CONFIG = """name = "league"
[board]
holes = 6
[tournament]
format = "league"
rounds = 6
concurrency = 2
seed = 5
[ratings]
bootstrap = 50
"""

# The league's tables as the page shows them.
READ_LEAGUE = """(() => {
  const names = (id) => [...document.querySelectorAll(`#${id} tbody tr`)]
      .filter((r) => !r.hidden).map((r) => r.querySelector('td.name')?.textContent.trim() ?? null);
  const first = (id) => document.querySelector(`#${id} tbody tr`);
  const colour = (r) => (r ? getComputedStyle(r).color : null);
  const bot = document.getElementById('league-bot');
  return {
    active: names('league-active'),
    retired: names('league-retired'),
    retiredShown: !document.getElementById('league-retired-part').hidden,
    colours: [colour(first('league-active')), colour(first('league-retired'))],
    meta: document.getElementById('league-meta')?.textContent ?? null,
    bot: bot && !bot.hidden ? bot.dataset.bot : null,
    botRows: bot ? [...bot.querySelectorAll('table.bot-series tbody tr')].map((r) => Number(r.dataset.series)) : [],
  };
})()"""


def check_league(arena, chromium, work, tmp, shots):
    """The league's table on the page of `arena serve` of a finished
    league with a roster; returns a line saying what was checked."""
    import csv
    import json
    field = []
    for i in range(1, LEAGUE_BOTS + 1):
        noise = (i - 1) / (LEAGUE_BOTS - 1)
        field.append(f'[[bot]]\nname = "g{i}"\ncommand = ["arena", "bot", "greedy", "--seed", "{i}", '
                     f'"--noise", "{noise:.3f}"]\n')
    (work / "league.toml").write_text(LEAGUE_CONFIG + "\n" + "\n".join(field))
    out = work / "league-out"
    shutil.rmtree(out, ignore_errors=True)
    subprocess.run([arena, "run", "league.toml", "--out", str(out), "--quiet"], cwd=work,
                   check=True, capture_output=True)
    retired = {"g4": 3, "g11": 5}
    with open(out / "roster.csv", "w") as f:
        f.write("bot,joined,retired\n")
        for i in range(1, LEAGUE_BOTS + 1):
            f.write(f"g{i},1,{retired.get(f'g{i}', '')}\n")
        f.write("newcomer,7,\n")
    with open(out / "series.csv") as f:
        series = list(csv.DictReader(f))
    serve = Arena([arena, "serve", str(out)], work)
    try:
        url = serve.url()
        _, body = fetch(url + "state")
        state = json.loads(body)["league"]
        want_active = [r["bot"] for r in state["active"]["rows"]]
        want_retired = [r["bot"] for r in state["retired"]["rows"]]
        if sorted(want_retired) != sorted(retired) or "newcomer" not in want_active:
            raise CheckFailed(f"/state's league does not follow roster.csv: {want_active} / {want_retired}")
        with open_page(chromium, tmp / "league", url) as browser:
            browser.wait_for("document.querySelectorAll('#league-active tbody tr').length > 0",
                             "the league's table drawn")
            seen = browser.eval(READ_LEAGUE)
            if seen["active"] != want_active or seen["retired"] != want_retired:
                raise CheckFailed(f"the league's tables show {seen['active']} / {seen['retired']}, "
                                  f"/state has {want_active} / {want_retired}")
            if not seen["retiredShown"] or seen["colours"][0] == seen["colours"][1]:
                raise CheckFailed(f"the retired table is not shown apart and greyed: {seen}")
            browser.eval("scrollTo(0, document.getElementById('league').offsetTop)")
            browser.screenshot(shots / "league-1400.png")
            # The search: exactly the bots whose names hold the text, any case.
            for text in ("G1", "newc", "zzz", ""):
                browser.eval("(() => { const b = document.getElementById('league-find');"
                             f" b.value = {json.dumps(text)}; b.dispatchEvent(new Event('input')); }})()")
                want = [b for b in want_active if text.lower() in b.lower()]
                want_r = [b for b in want_retired if text.lower() in b.lower()]
                check = ("(() => { const r = " + READ_LEAGUE + "; return JSON.stringify([r.active, r.retired]); })()")
                browser.wait_for(f"{check} === {json.dumps(json.dumps([want, want_r], separators=(',', ':')))}",
                                 f"the search {text!r} keeps {want} and {want_r}")
            # A bot's record: its series as series.csv has them, latest first.
            bot = want_active[0]
            mine = sorted((int(r["series"]) for r in series if bot in (r["bot_a"], r["bot_b"])),
                          reverse=True)
            browser.eval(f"document.querySelector('#league-active tr[data-bot={json.dumps(bot)}] a.bot-link').click()")
            browser.wait_for(f"(() => {{ const r = {READ_LEAGUE}; return r.bot === {json.dumps(bot)} && "
                             f"JSON.stringify(r.botRows) === {json.dumps(json.dumps(mine, separators=(',', ':')))}; }})()",
                             f"{bot}'s record with its series {mine}")
            browser.screenshot(shots / "league-bot-1400.png")
            first = mine[-1]
            browser.eval(f"document.querySelector('#league-bot tr[data-series=\"{first}\"] a').click()")
            browser.wait_for(f"location.hash === '#series={first}&game=1&ply=0'",
                             f"the viewer showing series {first}, game 1")
            check_fits(browser, 420, "a league's page")
            problems = browser.problems(allowed=(url, "data:", "about:"))
        if problems:
            raise CheckFailed("the league's page has problems:\n  " + "\n  ".join(problems))
    finally:
        serve.stop()
    return (f"league: {len(want_active)} active and {len(want_retired)} retired bots shown apart, "
            f"4 searches, {bot}'s {len(mine)} series, the viewer opened from its record")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--shots", type=Path, default=REPO / "target" / "live-browser-test",
                    help="where the screenshots (and the run's folder) go")
    ap.add_argument("--arena", type=Path, help="the arena binary (default: build target/release/arena)")
    ap.add_argument("--think-ms", type=int, default=15, help="the bots' wait before each move")
    ap.add_argument("--chromium", default=None)
    ap.add_argument("--league-only", action="store_true",
                    help="only the league's part (quicker, while working on it)")
    args = ap.parse_args()

    try:
        chromium = require_chromium("live browser test", args.chromium)
    except CheckFailed as e:
        print(f"FAILED: {e}", file=sys.stderr)
        return 1
    if not chromium:
        return 0
    arena = args.arena
    if arena is None:
        subprocess.run(["cargo", "build", "--release", "--quiet", "-p", "arena"], cwd=REPO, check=True)
        arena = Path(os.environ.get("CARGO_TARGET_DIR", REPO / "target")) / "release" / "arena"
    arena = str(Path(arena).resolve())
    shots = args.shots.resolve()
    shots.mkdir(parents=True, exist_ok=True)
    work = shots / "run"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir()
    (work / "live.toml").write_text(CONFIG.format(think=args.think_ms))
    if args.league_only:
        try:
            with tempfile.TemporaryDirectory(prefix="live-browser-") as tmp:
                league = check_league(arena, chromium, work, Path(tmp), shots)
        except CheckFailed as e:
            print(f"FAILED: live browser test (league): {e}", file=sys.stderr)
            return 1
        print(league)
        print("live-browser: 1 passed, 0 failed")
        return 0
    out = work / "out"
    run = Arena([arena, "run", "live.toml", "--serve", "127.0.0.1:0", "--out", str(out), "--quiet"],
                work)
    serve = None
    try:
        with tempfile.TemporaryDirectory(prefix="live-browser-") as tmp:
            tmp = Path(tmp)
            url = run.url()
            with open_page(chromium, tmp / "live", url) as browser:
                seen = watch_live(browser, shots)
                browser.wait_for("document.body.dataset.state === 'finished'",
                                 "body[data-state=finished] after the run", RUN_TIMEOUT_S)
                final = browser.eval(READ_LIVE)
                browser.eval("scrollTo(0, 0)")
                browser.screenshot(shots / "live-finished-1400.png")
                problems = browser.problems(allowed=(url, "data:", "about:"))
            code = run.wait(60)
            if code != 0:
                raise CheckFailed(f"arena run --serve exited {code}: {run.said()}")
            games_csv = out / "games.csv"
            engine = Engine(arena, games_csv)
            played = len(engine.rows)
            if final["done"] != played:
                raise CheckFailed(f"finished: the progress says {final['done']} games done, "
                                  f"games.csv has {played}")
            total = sum(g for _, g in final["standings"])
            if total != 2 * played:
                raise CheckFailed(f"finished: the standings count {total} games for two bots, "
                                  f"games.csv has {played}")
            report = (out / "report.html").read_text()
            m = re.search(r'data-pairs="(\d+)"', report)
            if not m or final["pairs"] != int(m.group(1)):
                raise CheckFailed(f"finished: the LLR chart has {final['pairs']} pairs, "
                                  f"report.html {m.group(1) if m else 'no data-pairs'}")
            compared = check_boards(arena, engine, games_csv, seen["boards"])
            if compared < 3:
                raise CheckFailed(f"only {compared} live boards could be compared with the engine")
            # The comparison can fail: the same boards, each taken for the
            # ply before, must not pass it.
            shifted = {(s, g, p - 1): b for (s, g, p), b in seen["boards"].items() if p > 0}
            try:
                check_boards(arena, engine, games_csv, shifted)
            except CheckFailed:
                pass
            else:
                raise CheckFailed("self-check: boards taken for the ply before passed the comparison")
            # The finished folder, served: /report is report.html.
            serve = Arena([arena, "serve", str(out)], work)
            served = serve.url()
            status, body = fetch(served + "report")
            if status != 200 or body != (out / "report.html").read_bytes():
                raise CheckFailed(f"/report of arena serve is not the run's report.html ({status})")
            with open_page(chromium, tmp / "served", served) as browser:
                browser.wait_for("document.body.dataset.state === 'finished'",
                                 "arena serve of a finished folder: body[data-state=finished]", 10)
                series, game = sorted(engine.rows)[-1]
                n = browser.wait_for(
                    "document.getElementById('pick-series').options.length",
                    "the viewer's list of series")
                listed = browser.eval(
                    "(() => { const pick = document.getElementById('pick-series');"
                    f" const o = [...pick.options].find((o) => o.textContent.startsWith('series {series}:'));"
                    " if (!o) return null; pick.value = o.value; pick.dispatchEvent(new Event('change'));"
                    " return document.getElementById('pick-game').options.length; })()")
                if listed is None:
                    raise CheckFailed(f"the viewer lists {n} series, not series {series}")
                in_series = sum(1 for s, _ in engine.rows if s == series)
                if listed != in_series:
                    raise CheckFailed(f"the viewer lists {listed} games of series {series}, "
                                      f"games.csv has {in_series}")
                browser.eval(
                    "(() => { const pick = document.getElementById('pick-game');"
                    f" const o = [...pick.options].find((o) => o.textContent.startsWith('game {game}:'));"
                    " pick.value = o.value; pick.dispatchEvent(new Event('change')); })()")
                check_board(browser, engine, series, game, 0, "arena serve's viewer, a picked game")
                last = engine.plies(series, game)
                browser.key("End", "End", 35)
                check_board(browser, engine, series, game, last, "arena serve's viewer after End")
                browser.click("a#report-link")
                browser.wait_event("Page.loadEventFired")
                here = browser.eval("location.pathname")
                if here != "/report":
                    raise CheckFailed(f"the report link opened {here}")
                mid = engine.plies(series, game) // 2
                browser.go_to_hash(f"#series={series}&game={game}&ply={mid}")
                check_board(browser, engine, series, game, mid, "/report opened from the link")
                problems += browser.problems(allowed=(served, "data:", "about:"))
            if problems:
                raise CheckFailed("the pages have problems:\n  " + "\n  ".join(problems))
            league = check_league(arena, chromium, work, tmp, shots)
    except CheckFailed as e:
        print(f"FAILED: live browser test: {e}", file=sys.stderr)
        if run.lines:
            print(f"  the arena said:\n  {run.said()}", file=sys.stderr)
        return 1
    finally:
        run.stop()
        if serve:
            serve.stop()
    print(f"live: standings' games {seen['games'][:6]}..., LLR pairs {seen['pairs'][:6]}..., "
          f"{len(seen['boards'])} live boards seen, {compared} compared with the engine; "
          f"{played} games; screenshots in {shots}")
    print(league)
    print("live-browser: 1 passed, 0 failed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
