"""The reinforcement-learning adapters (playtest/rl/, the 'rl' extra).

PettingZoo's api_test and seed_test on the AEC environment (official rules, 2 players;
grand-table, 5 players), Gymnasium's check_env on the single-agent wrapper (solo, 1
player; official rules against greedy), and the encoding: every size from the engine,
values inside the space, seats relative to the observer, hidden information hidden.
These run in CI (the test extra installs pettingzoo, gymnasium and numpy).
"""

from __future__ import annotations

import pathlib
import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

from playtest import engines, rl

ROOT = pathlib.Path(__file__).resolve().parent.parent
OFFICIAL = str(ROOT / "rulespec" / "official.yaml")
SOLO = str(ROOT / "variants" / "solo.yaml")
GRAND = str(ROOT / "variants" / "grand-table.yaml")

# What PettingZoo's checker says of every environment with action masks in a dict observation
# (its own classic games are exempted by name), and of a finished game's empty mask.
EXPECTED_AEC_WARNINGS = (
    "Observation space for each agent probably should be gymnasium.spaces.box or gymnasium.spaces.discrete",
    "Observation is not a NumPy array",
    "Action mask numpy array is all zeros (no legal actions).",
)


@pytest.fixture(scope="module")
def official():
    return engines.load(OFFICIAL)


@pytest.fixture(scope="module")
def grand():
    return engines.load(GRAND)


@pytest.fixture(scope="module")
def solo():
    return engines.load(SOLO)


def unexpected(caught, expected=()) -> list[str]:
    return [str(w.message) for w in caught if str(w.message) not in expected]


def play_random_aec(env, seed: int, limit: int = 5000):
    """Plays a whole game with random legal actions; yields (agent, observation, game) before each step."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for agent in env.agent_iter(limit):
        obs, reward, terminated, truncated, info = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        yield agent, obs, env.unwrapped.game
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))


# ----------------------------------------------------------------------------- PettingZoo


@pytest.mark.parametrize(
    "spec, players",
    [(OFFICIAL, 2), (GRAND, 5), (str(ROOT / "variants" / "cities.yaml"), 3)],
    ids=["official-2", "grand-table-5", "cities-3"],
)
def test_pettingzoo_api_test(spec, players):
    env = rl.aec_env(engine=spec, players=players)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(env, num_cycles=1000)
    assert unexpected(caught, EXPECTED_AEC_WARNINGS) == []
    assert env.unwrapped.possible_agents == [f"player_{i}" for i in range(players)]


def test_pettingzoo_seed_test(official):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        seed_test(lambda: rl.aec_env(engine=official), num_cycles=50)


def test_a_random_aec_game_ends_with_the_engines_returns(grand):
    env = rl.aec_env(engine=grand, players=5)
    agents = env.unwrapped.possible_agents
    again = 0
    previous = None
    totals = {a: 0.0 for a in agents}
    env.reset(seed=7)
    rng = np.random.default_rng(7)
    for agent in env.agent_iter(10_000):
        obs, reward, terminated, truncated, info = env.last()
        totals[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        game = env.unwrapped.game
        assert agent == agents[game.current_player]
        assert obs["action_mask"].dtype == np.int8 and obs["action_mask"].shape == (grand.module.NUM_ACTIONS,)
        assert np.flatnonzero(obs["action_mask"]).tolist() == game.legal_actions()
        if agent == previous and game.phase != "action":
            again += 1  # a step of the same turn (return tokens, pay, choose a noble): the same agent again
        previous = agent
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    game = env.unwrapped.game
    assert game.is_over() and env.agents == []
    assert again > 0
    assert [totals[a] for a in agents] == game.returns()


def test_an_illegal_action_ends_the_game_for_everyone(official):
    env = rl.aec_env(engine=official)
    env.reset(seed=1)
    obs, *_ = env.last()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    env.step(illegal)
    raw = env.unwrapped
    assert all(raw.terminations.values())
    assert raw.rewards == {"player_0": -1.0, "player_1": 0.0}
    assert raw.infos["player_0"]["illegal_action"].startswith("illegal action")


def test_max_turns_truncates(official):
    env = rl.aec_env(engine=official, max_turns=4)
    env.reset(seed=2)
    for _agent in env.agent_iter(1000):
        obs, reward, terminated, truncated, info = env.last()
        if terminated or truncated:
            assert truncated and not terminated and reward == 0.0
            env.step(None)
            continue
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    game = env.unwrapped.game  # the engine's length cap ends it: over, truncated, nobody wins
    assert game.turn == 4 and game.is_over() and game.is_truncated() and game.returns() == [0.0, 0.0]


# ----------------------------------------------------------------------------- Gymnasium


@pytest.mark.parametrize("spec, players", [(SOLO, 1), (OFFICIAL, 2)], ids=["solo-1", "official-2-vs-greedy"])
def test_gymnasium_check_env(spec, players):
    env = gymnasium.make(rl.ENV_ID, engine=spec, players=players)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env.unwrapped)
    assert unexpected(caught) == []
    env.close()


def test_solo_episode_through_the_gymnasium_wrapper(solo):
    env = rl.SplendorEnv(engine=solo, render_mode="ansi")
    assert env.players == 1 and env.opponents == []
    obs, info = env.reset(seed=3)
    rng = np.random.default_rng(3)
    steps = 0
    while True:
        mask = env.action_masks()
        assert mask.dtype == bool and np.flatnonzero(mask).tolist() == env.game.legal_actions()
        assert (info["action_mask"] == mask).all()
        obs, reward, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(mask))))
        steps += 1
        assert obs in env.observation_space
        if terminated or truncated:
            break
        assert reward == 0.0
    assert terminated and env.game.is_over() and reward == env.game.returns()[0]
    assert not env.action_masks().any()
    assert "game over" in env.render()
    with pytest.raises(RuntimeError, match="call reset"):
        env.step(0)


def test_bots_play_the_other_seats_and_seeds_replay_episodes(official):
    def episode(seed):
        env = rl.SplendorEnv(engine=official, players=3, seat=1, opponents=["random", "greedy"])
        obs, info = env.reset(seed=seed)
        assert env.game.history and env.game.current_player == 1  # seat 0's bot has played its turn
        observations = [obs]
        while True:
            assert env.game.current_player == 1
            action = int(np.flatnonzero(env.action_masks())[-1])
            obs, reward, terminated, truncated, info = env.step(action)
            observations.append(obs)
            if terminated or truncated:
                return env, reward, observations

    env, reward, first = episode(5)
    assert env.game.is_over() and reward == env.game.returns()[1]
    assert env.game.turns[0] >= env.game.turns[1]
    _, reward_again, second = episode(5)
    assert reward_again == reward and len(first) == len(second)
    assert all((a == b).all() for a, b in zip(first, second, strict=True))


def test_an_illegal_gymnasium_action_ends_the_episode(official):
    env = rl.SplendorEnv(engine=official, illegal_reward=-5.0)
    env.reset(seed=1)
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    obs, reward, terminated, truncated, info = env.step(illegal)
    assert reward == -5.0 and terminated and not truncated
    assert info["illegal_action"].startswith("illegal action")


def test_wrapper_arguments_are_checked(official):
    with pytest.raises(ValueError, match="plays with 2, 3, 4 players, not 7"):
        rl.SplendorEnv(engine=official, players=7)
    with pytest.raises(ValueError, match="1 opponents for 2 other seats"):
        rl.SplendorEnv(engine=official, players=3, opponents=["greedy"])
    with pytest.raises(ValueError, match="unknown bot 'gredy'"):
        rl.SplendorEnv(engine=official, opponents="gredy")
    with pytest.raises(ValueError, match="seat must be 0 to 1"):
        rl.SplendorEnv(engine=official, seat=2)


# ----------------------------------------------------------------------------- the encoding


def test_sizes_come_from_the_engine(official, grand, solo):
    for engine, players in [(official, 2), (official, 4), (grand, 5), (grand, 6), (solo, 1)]:
        m = engine.module
        enc = rl.Encoder(m, players)
        g = m.new_game(players, seed=0)
        card = 2 + len(m.LEVELS) + 2 * len(m.GEMS) + 1
        reserved = enc.reserved_slots
        expected = (
            2
            + len(set(m.DECISIONS) - {"action", "over"})
            + players
            + 2
            + len(m.COLOURS)
            + len(m.LEVELS)
            + sum(len(row) for row in g.market) * card
            + len(g.noble_row) * (len(m.GEMS) + 2)
            + m.NUM_ACTIONS
            + players * (len(m.COLOURS) + len(m.GEMS) + 5 + reserved * card)
        )
        assert enc.size == expected, (m.SPEC_NAME, players)
        assert enc.fields[-1].stop == enc.size and enc.space().shape == (enc.size,)
        assert enc.high[enc.fields[4].start : enc.fields[4].stop].tolist() == list(g.supply)  # "supply"
    assert rl.Encoder(grand.module, 6).size > rl.Encoder(grand.module, 5).size


def test_observations_stay_in_the_space_under_every_variant():
    for path in sorted((ROOT / "generated" / "engines").glob("*.py")):
        module = engines.load(str(path)).module
        players = max(module.PLAYER_COUNTS)
        env = rl.aec_env(engine=module, players=players, max_turns=40)
        space = env.observation_space("player_0")
        for n, (_agent, obs, _game) in enumerate(play_random_aec(env, seed=len(path.stem))):
            assert obs in space, (path.stem, n)
            if n % 9 == 0:  # the other seats' views too
                for other in env.unwrapped.possible_agents:
                    assert env.observe(other) in space, (path.stem, n, other)


def test_the_vector_reads_the_observers_view(official):
    m = official.module
    enc = rl.Encoder(m, 2)
    fields = {f.name: f for f in enc.fields}
    game = m.new_game(2, seed=5)
    # Seat 0 reserves a card the other seat cannot see (found through the observation, not the notation).
    for a in game.legal_actions():
        g = game.clone()
        g.apply(a)
        if None in g.observation(1)["seats"][0]["reserved"]:
            game = g
            break
    card = game.reserved[0][0]
    level = next(c.level for c in m.CARDS if c.id == card)
    mine, theirs = (enc.encode(game.observation(p)) for p in (0, 1))
    seat0_in_mine, seat0_in_theirs = fields["seat[0]"], fields["seat[1]"]  # relative seats: the observer first
    reserved_at = len(m.COLOURS) + len(m.GEMS) + 5
    own = mine[seat0_in_mine.start + reserved_at : seat0_in_mine.start + reserved_at + enc.card_size]
    hidden = theirs[seat0_in_theirs.start + reserved_at : seat0_in_theirs.start + reserved_at + enc.card_size]
    assert own[0] == 1 and own[1] == 0 and own[2 + m.LEVELS.index(level)] == 1 and own[2 + len(m.LEVELS) :].sum() > 0
    assert hidden[0] == 1 and hidden[1] == 1 and hidden[2 + m.LEVELS.index(level)] == 1
    assert hidden[2 + len(m.LEVELS) :].sum() == 0  # neither bonus, cost nor points of a hidden card
    # The seat to act is relative too; the gold taken shows in the reserving seat's tokens.
    to_act = fields["to_act"]
    assert mine[to_act.start : to_act.stop].tolist() == [0, 1] and theirs[to_act.start : to_act.stop].tolist() == [1, 0]
    gold = m.COLOURS.index(m.WILD)
    assert mine[seat0_in_mine.start + gold] == game.tokens[0][gold]
    assert theirs[fields["supply"].start + gold] == game.supply[gold]


def test_every_field_follows_the_state(official):
    """Over a random game: supply, decks, market, pending purchase and each seat's counts match the game."""
    m = official.module
    env = rl.aec_env(engine=official)
    enc = env.unwrapped.encoder
    fields = {f.name: f for f in enc.fields}
    for _agent, obs, game in play_random_aec(env, seed=11):
        vec = obs["observation"]
        p = game.current_player
        state = game.observation(p)

        def part(name, vec=vec):  # bound now, though it is only called in this pass of the loop
            f = fields[name]
            return vec[f.start : f.stop]

        assert part("supply").tolist() == game.supply
        assert part("deck").tolist() == [len(d) for d in game.decks]
        assert part("phase")[enc.phase_index[game.phase]] == 1 and part("phase").sum() == 1
        pending = state.get("pending")
        assert np.flatnonzero(part("pending")).tolist() == ([pending] if isinstance(pending, int) else [])
        for li, level in enumerate(m.LEVELS):
            for s, card in enumerate(game.market[li]):
                slot = part(f"market[{level}.{s + 1}]")
                assert slot[0] == (card is not None)
        for k in range(game.num_players):
            seat = part(f"seat[{k}]")
            q = (p + k) % game.num_players
            assert seat[: len(m.COLOURS)].tolist() == game.tokens[q]
            assert seat[len(m.COLOURS) : len(m.COLOURS) + len(m.GEMS)].tolist() == game.bonus[q]
            assert seat[len(m.COLOURS) + len(m.GEMS)] == game.prestige[q]
            assert seat[len(m.COLOURS) + len(m.GEMS) + 4] == len(game.reserved[q])


# ----------------------------------------------------------------------------- the spec's own zones

CITIES = str(ROOT / "variants" / "cities.yaml")


@pytest.fixture(scope="module")
def cities():
    return engines.load(CITIES)


def zone_parts(enc, vector) -> dict[str, list[float]]:
    return {f.name: vector[f.start : f.stop].tolist() for f in enc.fields if "zone[" in f.name}


def city_block(m, x) -> list[float]:
    """A city's block as the class docstring lays it out: present, hidden, then its columns."""
    tile, side, prestige, requires, any_one = m._k_cities[x]
    return [1.0, 0.0, tile, side, prestige, *requires, any_one]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_cities_observation_has_one_length_and_follows_the_zones(cities, players):
    """Over a random game, from every seat: the same length (the space's), the pile as its count, each
    city on display as its row of the table, each seat's claimed cities, seats relative to the observer."""
    m = cities.module
    env = rl.aec_env(engine=cities, players=players, max_turns=60)
    enc = env.unwrapped.encoder
    space = env.observation_space("player_0")["observation"]
    size = rl.Encoder(m, players).size
    assert enc.size == size and space.shape == (size,)
    slots = {2: 3, 3: 3, 4: 3}[players]  # cities_shown: three cities whatever the number of players
    block = 2 + 4 + len(m.GEMS)
    assert enc.size - enc.core_size == 1 + slots * block + players * 7 * block  # 7 tiles: a holding's bound
    for n, (_agent, _obs, game) in enumerate(play_random_aec(env, seed=players)):
        if n % 5:
            continue
        for me in range(players):
            vector = enc.encode(game.observation(me), game.prestige)
            assert vector.shape == (size,) and vector in space
            parts = zone_parts(enc, vector)
            assert parts["zone[city_pile]"] == [len(game.z_city_pile)]
            for s in range(slots):
                shown = game.z_city_display[s] if s < len(game.z_city_display) else None
                assert parts[f"zone[city_display][{s + 1}]"] == (
                    city_block(m, shown) if shown is not None else [0.0] * block
                )
            for k in range(players):
                held = game.z_claimed[(me + k) % players]
                for s in range(7):
                    assert parts[f"seat[{k}].zone[claimed][{s + 1}]"] == (
                        city_block(m, held[s]) if s < len(held) else [0.0] * block
                    )
    # A claim, made by hand if the random game made none: seat 1's city, seen by seat 0 as the next seat's.
    game = m.new_game(players, seed=1)
    x = game.z_city_display.pop(1)
    game.z_claimed[1].append(x)
    parts = zone_parts(enc, enc.encode(game.observation(0), game.prestige))
    assert parts["seat[1].zone[claimed][1]"] == city_block(m, x) and parts["seat[0].zone[claimed][1]"][0] == 0
    assert parts[f"zone[city_display][{slots}]"] == [0.0] * block  # the row closed up
    assert zone_parts(enc, enc.encode(game.observation(1), game.prestige))["seat[0].zone[claimed][1]"] == city_block(
        m, x
    )


def test_the_order_of_a_pile_is_not_observed(cities):
    """Two states that differ only in the order of the city pile give the same vector, for every seat."""
    m = cities.module
    enc = rl.Encoder(m, 3)
    game = m.new_game(3, seed=8)
    other = game.clone()
    other.z_city_pile.reverse()
    assert other.z_city_pile != game.z_city_pile
    for me in range(3):
        assert enc.encode(game.observation(me)).tobytes() == enc.encode(other.observation(me)).tobytes()
    fewer = game.clone()
    fewer.z_city_pile.pop()
    assert zone_parts(enc, enc.encode(fewer.observation(0)))["zone[city_pile]"] == [len(game.z_city_pile) - 1]


# sha256 of every seat's vector before each move of a seeded random game (at most 400 moves), computed
# with the encoder as it was before zones were encoded: an engine without zones is observed as it was.
UNCHANGED = {
    ("official", 2, 1): "b0c95f60379e9e608cfa3aea160ed949ee470f61572acd88d82c8fe795617b80",
    ("official", 4, 7): "c208219ee5dfc7c56d8b1bf8378dc2e7a536122a93d91afb9331b2fd2f6f064f",
    ("no_churn", 3, 5): "07853516e9035f795aedf14c4cfdef2b292d72f4e9e28408e3c1c2b60ffa17e8",
    ("grand_table", 6, 3): "a65f1ee4abae4799c484435bd8d76742b4350c3a0a94c32f7af66e0e47d5999e",
}


@pytest.mark.parametrize("name, players, seed", sorted(UNCHANGED))
def test_engines_without_zones_are_observed_byte_for_byte_as_before(name, players, seed):
    import hashlib
    import random

    m = engines.load(str(ROOT / "generated" / "engines" / f"{name}.py")).module
    enc = rl.Encoder(m, players)
    game = m.new_game(players, seed=seed)
    rng = random.Random(seed)
    digest = hashlib.sha256()
    for _ in range(400):
        if game.is_over():
            break
        for p in range(players):
            digest.update(enc.encode(game.observation(p), game.prestige).tobytes())
        game.apply(rng.choice(game.legal_actions()))
    assert digest.hexdigest() == UNCHANGED[name, players, seed]
    assert not any("zone[" in f.name for f in enc.fields) and enc.size == enc.core_size + sum(
        f.stop - f.start for f in enc.fields if ".var[" in f.name or f.name.startswith("var[")
    )
