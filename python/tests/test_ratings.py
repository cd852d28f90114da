"""endodoi.ratings against the arena's own files: `arena rate` on synthetic
games.csv files (tools/gen_games.py, known true ratings) writes
standings.csv, and `from_games_csv` on the same file gives the same figures
to the printed precision; the array API gives the CSV path's numbers; bad
input is a one-line ValueError naming the problem and the fix; and
properties of the fit hold on random tournaments (hypothesis)."""

import csv
import subprocess
import sys
import warnings

import pytest

from conftest import REPO, require

np = require("numpy", module_level=True)
require("hypothesis", module_level=True)

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from endodoi import ratings  # noqa: E402


def generate(folder, bots, games, pairing="random", seed=0):
    """DIR/games.csv from tools/gen_games.py (true ratings in DIR/truth.csv)."""
    done = subprocess.run([sys.executable, str(REPO / "tools" / "gen_games.py"), "--bots", str(bots),
                           "--games", str(games), "--pairing", pairing, "--width", "3",
                           "--seed", str(seed), "--out", str(folder)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return folder / "games.csv"


def arena_rate(arena, games, out, *flags):
    """standings.csv's rows as `arena rate GAMES --out OUT FLAGS` writes them."""
    done = subprocess.run([arena, "rate", str(games), "--out", str(out)] + list(flags),
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    with open(out / "standings.csv", newline="") as f:
        return list(csv.DictReader(f))


def num(x, decimals):
    """A figure as the arena prints it (arena::output::num): no "-0.0"."""
    s = "%.*f" % (decimals, x)
    return s.lstrip("-") if set(s.lstrip("-")) <= {"0", "."} else s


def assert_same_as_standings(rows, r):
    """Every figure of standings.csv's rows equals the Ratings' own, printed alike."""
    assert len(rows) == len(r)
    for row in rows:
        i = r.index(row["bot"])
        estimate = row["interval"] in ("bootstrap", "curvature")
        mine = {
            "rank": str(r.rank[i]), "games": str(r.games[i]), "wins": str(r.wins[i]),
            "draws": str(r.draws[i]), "losses": str(r.losses[i]),
            "score": num(r.score[i], 1) if r.games[i] else "",
            "elo": num(r.elo[i], 1) if estimate else "",
            "elo_lower": num(r.lower[i], 1) if estimate else "",
            "elo_upper": num(r.upper[i], 1) if estimate else "",
            "interval": r.interval[i], "group": str(r.group[i]),
            "los_next": "" if np.isnan(r.los_next[i]) else num(r.los_next[i], 4),
        }
        assert {k: row[k] for k in mine} == mine, row["bot"]


@pytest.fixture(scope="module")
def games_file(tmp_path_factory):
    return generate(tmp_path_factory.mktemp("random"), bots=12, games=600, seed=3)


@pytest.mark.parametrize("pairing,bots,games", [
    ("random", 12, 600),   # the full bootstrap (up to 64 bots)
    ("chain", 20, 300),    # chain-like pairings, with the curvature where a bot swept
    ("random", 80, 2400),  # the one-step bootstrap (past 64 bots)
])
def test_the_defaults_give_arena_rates_standings(arena, tmp_path, pairing, bots, games):
    path = generate(tmp_path / "games", bots, games, pairing, seed=bots)
    rows = arena_rate(arena, path, tmp_path / "out")
    assert_same_as_standings(rows, ratings.from_games_csv(path))


@pytest.mark.parametrize("flags,options", [
    (["--prior-draws", "0", "--bootstrap", "300", "--seed", "7"],
     dict(prior_draws=0.0, bootstrap=300, seed=7)),
    (["--anchor", "b00004", "--anchor-elo", "1500", "--prior-draws", "2.5"],
     dict(anchor="b00004", anchor_elo=1500, prior_draws=2.5)),
    (["--bootstrap", "0"], dict(bootstrap=0)),
])
def test_the_options_give_arena_rates_standings(arena, games_file, tmp_path, flags, options):
    rows = arena_rate(arena, games_file, tmp_path, *flags)
    assert_same_as_standings(rows, ratings.from_games_csv(games_file, **options))


def test_a_torn_last_line_is_skipped_as_arena_rate_skips_it(arena, games_file, tmp_path):
    torn = tmp_path / "games.csv"
    torn.write_text(games_file.read_text() + "301,1,1,b00001,b0")
    rows = arena_rate(arena, torn, tmp_path / "out", "--bootstrap", "100")
    with pytest.warns(UserWarning, match=r"games\.csv:602: an incomplete last line"):
        r = ratings.from_games_csv(torn, bootstrap=100)
    assert_same_as_standings(rows, r)


def test_details_with_quotes_and_line_breaks_are_read_as_arena_rate_reads_them(arena, tmp_path):
    rows = ["series,game,pair,south,north,result,termination,detail",
            '1,1,1,a,b,south,crash,"b said ""x\ny"""', "1,2,1,b,a,draw,no-moves,odd\u2028line\x85break",
            "2,1,1,a,c,north,no-moves,", "2,2,1,c,a,south,no-moves,", "3,1,1,b,c,draw,no-moves,"]
    path = tmp_path / "games.csv"
    path.write_text("\n".join(rows) + "\n", encoding="utf-8", newline="")
    standings = arena_rate(arena, path, tmp_path / "out", "--bootstrap", "50")
    r = ratings.from_games_csv(path, bootstrap=50)
    assert r.games.sum() == 10
    assert_same_as_standings(standings, r)


def read_columns(path):
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    return [r["south"] for r in rows], [r["north"] for r in rows], [r["result"] for r in rows]


def same(a, b):
    for field in ("names", "elo", "lower", "upper", "sd", "interval", "games", "wins", "draws",
                  "losses", "score", "rank", "group", "los_next", "order"):
        assert np.array_equal(getattr(a, field), getattr(b, field), equal_nan=field not in (
            "names", "interval")), field


def test_the_array_api_equals_the_csv_path(games_file):
    south, north, result = read_columns(games_file)
    from_csv = ratings.from_games_csv(games_file, bootstrap=200)
    # Names in the file's alphabetical order, as arena rate orders the bots.
    same(ratings.rate(south, north, result, bootstrap=200), from_csv)
    names = list(from_csv.names)
    index = {n: i for i, n in enumerate(names)}
    points = {"south": 1, "draw": 0.5, "north": 0}
    same(ratings.rate(np.array([index[s] for s in south]), np.array([index[n] for n in north]),
                      np.array([points[r] for r in result]), names=names, bootstrap=200), from_csv)
    i, j = from_csv.order[0], from_csv.order[1]
    assert from_csv.los(names[i], names[j]) == from_csv.los(i, j) == from_csv.los_next[i]
    assert from_csv.covariance(i, i) == pytest.approx(from_csv.sd[i] ** 2)


def test_bots_of_names_without_games_are_listed_last():
    r = ratings.rate(["a", "b"], ["b", "a"], [1, 0.5], names=["c", "a", "b"], bootstrap=50)
    assert list(r.interval) == ["no-games", "bootstrap", "bootstrap"]
    assert r.rank[0] == 3 and np.isnan(r.elo[0]) and r.games[0] == 0
    assert list(r.names[r.order]) == ["a", "b", "c"]


@pytest.mark.parametrize("call,message", [
    (lambda: ratings.rate([0, 5], [1, 0], [1, 0], names=["a", "b"]),
     r"^south\[1\] is bot 5, but there are 2 bots \(indices 0 to 1\): give an index below 2"),
    (lambda: ratings.rate([0, -1], [1, 0], [1, 0]), r"^north\[1\]|^south\[1\] is bot -1: give bot indices from 0"),
    (lambda: ratings.rate(["a", "x"], ["b", "a"], [1, 0], names=["a", "b"]),
     r"^south\[1\] is 'x', which is not in names: add it to names"),
    (lambda: ratings.rate([0, 1], [1, 0], [1, 0.7]),
     r"^result\[1\] is 0\.7: give South's score 1, 0\.5 or 0, or 'south', 'draw' or 'north'"),
    (lambda: ratings.rate([0, 1], [1, 0], ["south", "won"]), r"^result\[1\] is 'won': give"),
    (lambda: ratings.rate([0, 1], [1], [1, 0]),
     r"^south has 2 entries, north 1 and result 2: give one entry per game in each"),
    (lambda: ratings.rate([], [], []), r"^no games: give at least one game"),
    (lambda: ratings.rate([0, 1], [1, 1], [1, 0]), r"^game 1: bot 1 plays itself .*: give two different bots"),
    (lambda: ratings.rate([0], [1], [1], prior_draws=-1), r"^prior_draws is -1: give 0 or more"),
    (lambda: ratings.rate([0], [1], [1], bootstrap=-3), r"^bootstrap is -3: give a whole number"),
    (lambda: ratings.rate([0], [1], [1], names=["a", "b", "c"], anchor="c"),
     r"^the anchor, bot 2, played no game here: anchor a bot that played"),
    (lambda: ratings.rate([0], [1], [1], anchor=1, anchor_elo=2e4), r"^anchor_elo is 20000.0: give a rating"),
    (lambda: ratings.rate([0, 1.5], [1, 0], [1, 0]), r"^south\[1\] is 1\.5: give a bot index \(an int\) or a name"),
])
def test_bad_input_is_one_line_naming_the_problem_and_the_fix(call, message):
    with pytest.raises(ValueError, match=message) as e:
        call()
    assert "\n" not in str(e.value)


@pytest.mark.parametrize("text,message", [
    ("series,game,south,north,result\n1,1,a,b,south\n1,2,b,a,won\n", r"games\.csv:3: bad result 'won'"),
    ("series,game,south,north,result\n1,1,a,a,south\n", r"games\.csv:2: 'a' plays itself"),
    ("series,game,south,north\n1,1,a,b\n", r"games\.csv:1: no result column"),
    ("series,game,south,north,result\n", r"no games in .*games\.csv: a games\.csv needs"),
])
def test_a_bad_games_csv_names_its_file_and_line(tmp_path, text, message):
    path = tmp_path / "games.csv"
    path.write_text(text)
    with pytest.raises(ValueError, match=message) as e:
        ratings.from_games_csv(path)
    assert "\n" not in str(e.value)


@st.composite
def tournaments(draw):
    """A few bots and some games among them: (south, north, South's score)."""
    bots = draw(st.integers(2, 6))
    games = draw(st.lists(st.tuples(st.integers(0, bots - 1), st.integers(1, bots - 1),
                                    st.sampled_from([0, 0.5, 1])), min_size=1, max_size=40))
    # A second index of 1..bots-1 added to the first: never the same bot.
    south = [s for s, _, _ in games]
    north = [(s + d) % bots for s, d, _ in games]
    return bots, south, north, [r for _, _, r in games]


@settings(max_examples=60, deadline=None)
@given(tournaments(), st.sampled_from([0.0, 1.0, 3.0]))
def test_swapping_sides_and_inverting_results_changes_nothing(t, prior):
    bots, south, north, result = t
    names = [str(i) for i in range(bots)]
    a = ratings.rate(south, north, result, names=names, prior_draws=prior, bootstrap=30)
    b = ratings.rate(north, south, [1 - r for r in result], names=names, prior_draws=prior, bootstrap=30)
    same(a, b)
    order = np.random.default_rng(len(south)).permutation(len(south))
    same(a, ratings.rate(np.array(south)[order], np.array(north)[order], np.array(result)[order],
                         names=names, prior_draws=prior, bootstrap=30))


@settings(max_examples=60, deadline=None)
@given(tournaments(), st.floats(-3000, 3000), st.data())
def test_an_anchor_shifts_its_group_by_one_constant(t, shift, data):
    bots, south, north, result = t
    names = [str(i) for i in range(bots)]
    free = ratings.rate(south, north, result, names=names, bootstrap=30)
    anchor = data.draw(st.sampled_from(sorted(set(south))))
    low = ratings.rate(south, north, result, names=names, bootstrap=30, anchor=anchor, anchor_elo=0.0)
    high = ratings.rate(south, north, result, names=names, bootstrap=30, anchor=anchor, anchor_elo=shift)
    assert high.elo[anchor] == shift and high.sd[anchor] == 0
    group = free.group == free.group[anchor]
    for field in ("elo", "lower", "upper"):
        np.testing.assert_allclose(getattr(high, field)[group], getattr(low, field)[group] + shift,
                                   atol=1e-6)
    np.testing.assert_allclose(low.elo[group], free.elo[group] - free.elo[anchor], atol=1e-6)
    # Bots of other groups keep their ratings.
    np.testing.assert_array_equal(high.elo[~group], free.elo[~group])


def test_the_rating_follows_the_true_ratings(tmp_path):
    """A sanity check of the whole path: gen_games.py's true ratings are
    recovered (the intervals' coverage is the crate's tests' business)."""
    path = generate(tmp_path, bots=30, games=6000, seed=11)
    r = ratings.from_games_csv(path, bootstrap=300)
    with open(tmp_path / "truth.csv", newline="") as f:
        truth = {row["bot"]: float(row["elo"]) for row in csv.DictReader(f)}
    true = np.array([truth[n] for n in r.names])
    assert np.corrcoef(true, r.elo)[0, 1] > 0.95


def test_no_warning_on_a_whole_file(games_file):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ratings.from_games_csv(games_file, bootstrap=10)


def test_the_module_doctest_runs():
    import doctest
    result = doctest.testmod(ratings)
    assert result.attempted > 0 and result.failed == 0, result


def test_the_docs_example_runs(tmp_path):
    """docs/python.md's "Ratings without a config" example, as written (run
    from a folder of its own: `-c` puts the current folder first on the path,
    where python/endodoi would shadow the installed package)."""
    text = (REPO / "docs" / "python.md").read_text()
    section = text.split("## Ratings without a config", 1)[1]
    code = section.split("```python\n", 1)[1].split("```", 1)[0]
    done = subprocess.run([sys.executable, "-c", code], cwd=str(tmp_path), capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].split() == ["rank", "bot", "games", "score", "elo", "95%", "interval", "los_next"]
    # Generated 100 Elo apart: the strongest checkpoint comes first.
    assert lines[1].split()[:2] == ["1", "ckpt7"], done.stdout
