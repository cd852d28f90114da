"""The environments pass their frameworks' own checkers: PettingZoo's
api_test and seed_test, Gymnasium's check_env, OpenSpiel's random_sim_test;
and OpenSpiel's MCTS bot beats the random bot on the game."""

import random

import pytest

import endodoi
from conftest import require

np = require("numpy", module_level=True)



# -- PettingZoo -------------------------------------------------------------

@pytest.mark.parametrize("kwargs", [
    {}, {"holes": 3, "seeds": 2}, {"holes": 6, "seeds": 4, "max_plies": 9, "reward": "seeds"},
    {"holes": 4, "seeds": 4, "max_laps": 12}])
def test_pettingzoo_api_test(kwargs):
    # Not rules over at the start (max_laps=5 on 2x4 with 4 seeds): api_test
    # wants no agent terminated after reset, and such a game is (see below).
    test = require("pettingzoo.test")
    from endodoi.envs import endodoi_v0
    test.api_test(endodoi_v0.env(**kwargs), num_cycles=300)


def test_pettingzoo_seed_test():
    test = require("pettingzoo.test")
    from endodoi.envs import endodoi_v0
    test.seed_test(endodoi_v0.env, num_cycles=300)
    test.seed_test(lambda: endodoi_v0.env(holes=5, seeds=3), num_cycles=300)


def test_pettingzoo_plays_the_engines_game():
    require("pettingzoo")
    from endodoi.envs import endodoi_v0
    env = endodoi_v0.env(holes=5, seeds=3)
    env.reset(seed=0)
    rng = random.Random(5)
    pos = endodoi.Rules(5, 3).start()
    for agent in env.agent_iter():
        obs, reward, termination, truncation, info = env.last()
        if termination or truncation:
            assert pos.is_over
            winner = pos.outcome.winner
            assert reward == (0 if winner is None else (1 if winner == agent else -1))
            env.step(None)
            continue
        assert agent == pos.to_move
        assert obs["observation"].tolist() == pos.observation()
        assert obs["action_mask"].tolist() == [int(b) for b in pos.action_mask()]
        hole = rng.choice(pos.legal_moves())
        pos = pos.after(hole)
        env.step(hole - 1)
    assert env.agents == []


def test_pettingzoo_illegal_move_loses():
    require("pettingzoo")
    from endodoi.envs import endodoi_v0
    env = endodoi_v0.env(holes=4, seeds=4)
    env.reset()
    env.step(0)  # South 1: North's hole 4 is then empty (Position::ring's example)
    assert env.observe("north")["action_mask"].tolist() == [1, 1, 1, 0]
    env.step(3)
    # PettingZoo's TerminateIllegalWrapper: -1 for the offender, 0 for the other.
    assert env.rewards == {"south": 0, "north": -1}
    assert all(env.terminations.values())


def test_pettingzoo_bad_arguments():
    require("pettingzoo")
    from endodoi.envs import endodoi_v0
    with pytest.raises(ValueError, match="holes"):
        endodoi_v0.env(holes=60)
    with pytest.raises(ValueError, match="reward"):
        endodoi_v0.env(reward="elo")


# -- Gymnasium --------------------------------------------------------------

def greedy_opponent(pos, rng):
    from endodoi import search
    return search.greedy(pos)


@pytest.mark.parametrize("kwargs", [
    {}, {"side": "north", "opponent": "greedy"}, {"holes": 3, "seeds": 2, "opponent": greedy_opponent},
    {"holes": 6, "opponent": "alphabeta", "reward": "seeds", "max_plies": 20}])
def test_gymnasium_check_env(kwargs):
    gymnasium = require("gymnasium")
    from gymnasium.utils.env_checker import check_env
    import endodoi.gym
    env = gymnasium.make(endodoi.gym.ENV_ID, **kwargs)
    check_env(env.unwrapped)


def test_gymnasium_episodes_end_with_the_games_result():
    gymnasium = require("gymnasium")
    import endodoi.gym
    env = gymnasium.make("endodoi/EnDodoi-v0", holes=6, seeds=3, opponent="random")
    rng = np.random.default_rng(1)
    rewards = []
    for episode in range(40):
        obs, info = env.reset(seed=episode)
        done = False
        while not done:
            legal = np.flatnonzero(obs["action_mask"])
            obs, reward, done, truncated, info = env.step(int(rng.choice(legal)))
            assert not truncated and not info.get("illegal")
        rewards.append(reward)
        assert reward in (-1.0, 0.0, 1.0)
        assert env.unwrapped.position.is_over
    assert {-1.0, 1.0} <= set(rewards)
    obs, _ = env.reset(seed=0)
    _, reward, done, _, info = env.step(int(np.flatnonzero(obs["action_mask"] == 0)[0])
                                        if (obs["action_mask"] == 0).any() else 99)
    assert (reward, done) == (-1.0, True) and info["illegal"]


def test_gymnasium_bad_opponent():
    gymnasium = require("gymnasium")
    import endodoi.gym
    with pytest.raises(ValueError, match="opponent"):
        gymnasium.make("endodoi/EnDodoi-v0", opponent="strong").unwrapped
    with pytest.raises(ValueError, match="side"):
        gymnasium.make("endodoi/EnDodoi-v0", side="west").unwrapped


# -- OpenSpiel --------------------------------------------------------------

def pyspiel_or_skip():
    pyspiel = require("pyspiel")
    import endodoi.spiel  # noqa: F401 (registers the game)
    return pyspiel


@pytest.mark.parametrize("params", [
    {}, {"holes": 3, "seeds": 2}, {"holes": 6, "seeds": 4, "max_plies": 12}, {"holes": 4, "max_laps": 5}])
def test_openspiel_random_sim_test(params):
    pyspiel = pyspiel_or_skip()
    game = pyspiel.load_game("python_en_dodoi", params)
    pyspiel.random_sim_test(game, num_sims=30, serialize=True, verbose=False)


def test_openspiel_state_is_the_engines():
    pyspiel = pyspiel_or_skip()
    game = pyspiel.load_game("python_en_dodoi", {"holes": 5, "seeds": 3})
    state = game.new_initial_state()
    pos = endodoi.Rules(5, 3).start()
    rng = random.Random(2)
    while not state.is_terminal():
        assert state.legal_actions() == [h - 1 for h in pos.legal_moves()]
        player = state.current_player()
        assert endodoi.SIDES[player] == pos.to_move
        assert list(state.observation_tensor(player)) == pos.observation()
        hole = rng.choice(pos.legal_moves())
        state.apply_action(hole - 1)
        pos = pos.after(hole)
    assert str(state) == str(pos)
    winner = pos.outcome.winner
    assert state.returns() == ([0.0, 0.0] if winner is None else
                               [1.0, -1.0] if winner == "south" else [-1.0, 1.0])


def test_openspiel_mcts_beats_random():
    pyspiel = pyspiel_or_skip()
    from open_spiel.python.algorithms import mcts
    from open_spiel.python.bots import uniform_random
    game = pyspiel.load_game("python_en_dodoi", {"holes": 6, "seeds": 3})
    games, wins = 12, 0
    for g in range(games):
        rng = np.random.RandomState(g)
        bot = mcts.MCTSBot(game, uct_c=2, max_simulations=60,
                           evaluator=mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
        mcts_player = g % 2
        bots = {mcts_player: bot, 1 - mcts_player: uniform_random.UniformRandomBot(1 - mcts_player, rng)}
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(bots[state.current_player()].step(state))
        wins += state.returns()[mcts_player] > 0
    assert wins >= 0.75 * games, "MCTS won %d of %d games against random" % (wins, games)


# -- A game over at the start (issue 19) --------------------------------------

OVER_AT_START = {"holes": 4, "seeds": 4, "max_laps": 3}  # every first move is endless


@pytest.mark.parametrize("reward", ["win", "seeds"])
def test_pettingzoo_game_over_at_start_is_a_draw(reward):
    require("pettingzoo")
    from endodoi.envs import endodoi_v0
    assert endodoi.Rules(**OVER_AT_START).start().legal_moves() == []
    env = endodoi_v0.env(reward=reward, **OVER_AT_START)
    env.reset(seed=0)
    assert env.unwrapped.terminations == {"south": True, "north": True}
    seen = []
    for agent in env.agent_iter():
        obs, reward_now, termination, truncation, info = env.last()
        assert termination and not truncation and reward_now == 0
        assert info["over_at_start"] and info["winner"] is None
        assert obs["action_mask"].tolist() == [0, 0, 0, 0]
        seen.append(agent)
        env.step(None)
    assert sorted(seen) == ["north", "south"]


@pytest.mark.parametrize("side", ["south", "north"])
def test_gymnasium_game_over_at_start_is_a_draw(side):
    require("gymnasium")
    from endodoi.gym import EnDodoiEnv
    env = EnDodoiEnv(side=side, **OVER_AT_START)
    obs, info = env.reset(seed=1)
    assert info["over_at_start"] and obs["action_mask"].tolist() == [0, 0, 0, 0]
    obs, reward, terminated, truncated, info = env.step(2)
    assert (reward, terminated, truncated) == (0.0, True, False)
    assert info["over_at_start"] and info["termination"] == "no-moves"
    assert "illegal" not in info
    _, info = EnDodoiEnv(**{"holes": 4, "seeds": 4}).reset(seed=1)
    assert "over_at_start" not in info


def test_gymnasium_takes_side_names_as_the_engine_does():
    require("gymnasium")
    from endodoi.gym import EnDodoiEnv
    assert EnDodoiEnv(side="North").side == "north"
    with pytest.raises(ValueError, match="east"):
        EnDodoiEnv(side="east")


@pytest.mark.parametrize("module, blocked, hint", [
    ("endodoi.gym", "gymnasium", 'pip install "./python[envs]"'),
    ("endodoi.envs.endodoi_v0", "pettingzoo", 'pip install "./python[envs]"'),
    ("endodoi.spiel", "pyspiel", "pip install open_spiel"),
])
def test_a_missing_framework_says_what_to_install(module, blocked, hint):
    import subprocess
    import sys
    from conftest import REPO
    script = ("import sys; sys.modules[%r] = None\n"
              "try:\n    import %s\nexcept ImportError as e:\n    print(e)\n" % (blocked, module))
    done = subprocess.run([sys.executable, "-c", script], cwd=str(REPO / "rules"),
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert hint in done.stdout and blocked in done.stdout, done.stdout


def test_openspiel_action_to_string_of_a_bad_action_or_an_ended_game():
    pyspiel = pyspiel_or_skip()
    game = pyspiel.load_game("python_en_dodoi", {"holes": 4, "seeds": 4})
    state = game.new_initial_state()
    assert state.action_to_string(0, 0) == "south 1"
    with pytest.raises(Exception, match="action -1 is not a hole: actions are 0 to 3"):
        state.action_to_string(0, -1)
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    with pytest.raises(Exception, match="the game is over"):
        state.action_to_string(0, 0)
