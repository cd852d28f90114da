"""The Python bot template on the package (python/examples/alphabeta_bot.py)
as the arena runs it: a real process through `arena check`, and a short
`arena run` against a bundled bot."""

import csv
import subprocess
import sys

from conftest import REPO

BOT = REPO / "python" / "examples" / "alphabeta_bot.py"


def test_arena_check_passes_the_template(arena):
    out = subprocess.run([arena, "check", "--", sys.executable, str(BOT)],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "FAIL" not in out.stdout and "checks passed" in out.stdout, out.stdout


def test_a_short_arena_run_against_greedy(arena, tmp_path):
    config = tmp_path / "python-bot.toml"
    config.write_text("""name = "python-bot"
[board]
holes = 6
seeds = 4
[time]
move_time_ms = 2000
[tournament]
first_to = 3
max_games = 4
concurrency = 1
seed = 1
[[bot]]
name = "alphabeta-py"
command = [%r, %r, "--depth", "4"]
[[bot]]
name = "greedy"
command = ["arena", "bot", "greedy", "--seed", "1"]
""" % (sys.executable, str(BOT)))
    out_dir = tmp_path / "run"
    run = subprocess.run([arena, "run", str(config), "--out", str(out_dir), "--quiet"],
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout + run.stderr
    with open(out_dir / "games.csv", newline="") as f:
        games = list(csv.DictReader(f))
    assert 3 <= len(games) <= 4, games
    for game in games:
        # Every game ended by the rules: no forfeit, timeout or illegal move.
        assert game["termination"] in ("no-moves", "ply-limit"), game
    assert "alphabeta-py" in run.stdout, run.stdout
