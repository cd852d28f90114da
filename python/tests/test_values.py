"""The package's objects are values: `copy.copy`, `copy.deepcopy` and
`pickle` round-trip each of them, and both environments after `reset` and
in the middle of a game (issue 19)."""

import copy
import pickle

import pytest

import endodoi
from conftest import require

RULES = endodoi.Rules(holes=5, seeds=3, max_laps=500, max_plies=300)


def samples():
    start = RULES.start()
    pos, result = start.play(2)
    over = endodoi.Position.parse("0,0/1,1 s 1 1 5", endodoi.Rules(2, 1))
    finished = endodoi.Position.parse("0,1/0,0 s 4 3 6", endodoi.Rules(2, 2)).play(2)[1]
    return [RULES, endodoi.Rules(), start, pos, over, result, finished, finished.outcome,
            start.playouts(50, seed=3)]


def same(a, b):
    assert type(a) is type(b)
    assert repr(a) == repr(b)
    if not isinstance(a, endodoi.MoveResult):
        assert a == b


@pytest.mark.parametrize("value", samples(), ids=lambda v: type(v).__name__)
def test_pickle_and_copy_round_trips(value):
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        same(value, pickle.loads(pickle.dumps(value, protocol)))
    same(value, copy.copy(value))
    same(value, copy.deepcopy(value))


def test_a_copied_position_plays_on_alike():
    pos = RULES.start().after(3)
    twin = pickle.loads(pickle.dumps(pos))
    assert twin.rules == pos.rules and twin.legal_moves() == pos.legal_moves()
    assert twin.playouts(20, seed=1) == pos.playouts(20, seed=1)
    assert hash(twin) == hash(pos)


def pettingzoo_mid_game(env, plies):
    env.reset(seed=5)
    for _ in range(plies):
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            break
        env.step(int(obs["action_mask"].nonzero()[0][0]))


def pz_state(env):
    obs, reward, term, trunc, info = env.last()
    return (env.agent_selection, obs["observation"].tolist(), obs["action_mask"].tolist(),
            reward, term, trunc, str(env.unwrapped.position))


@pytest.mark.parametrize("plies", [0, 7])
@pytest.mark.parametrize("copier", ["deepcopy", "pickle"])
def test_pettingzoo_env_copies(plies, copier):
    require("pettingzoo")
    from endodoi.envs import endodoi_v0
    env = endodoi_v0.env(holes=5, seeds=3)
    pettingzoo_mid_game(env, plies)
    twin = copy.deepcopy(env) if copier == "deepcopy" else pickle.loads(pickle.dumps(env))
    assert pz_state(twin) == pz_state(env)
    action = int(env.last()[0]["action_mask"].nonzero()[0][0])
    env.step(action)
    twin.step(action)
    assert pz_state(twin) == pz_state(env)


@pytest.mark.parametrize("plies", [0, 4])
@pytest.mark.parametrize("copier", ["deepcopy", "pickle"])
def test_gymnasium_env_copies(plies, copier):
    require("gymnasium")
    from endodoi.gym import EnDodoiEnv
    env = EnDodoiEnv(holes=5, seeds=3, opponent="random")
    obs, _ = env.reset(seed=9)
    for _ in range(plies):
        obs, _, done, _, _ = env.step(int(obs["action_mask"].nonzero()[0][0]))
        assert not done
    twin = copy.deepcopy(env) if copier == "deepcopy" else pickle.loads(pickle.dumps(env))
    assert str(twin.position) == str(env.position)
    # The copy carries the opponent's generator: both play the same game on.
    for _ in range(3):
        action = int(env._observation()["action_mask"].nonzero()[0][0])
        a = env.step(action)
        b = twin.step(action)
        assert a[0]["observation"].tolist() == b[0]["observation"].tolist()
        assert a[1:4] == b[1:4]
        if a[2]:
            break
