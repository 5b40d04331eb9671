"""Reinforcement-learning environments over any generated engine (the optional extra ``rl``).

- :class:`SplendorAEC`: a PettingZoo AEC environment, agents ``player_0``... (one per
  seat). Each agent observes ``{"observation": float32 vector, "action_mask": int8 of
  length NUM_ACTIONS}``; the action space is ``Discrete(NUM_ACTIONS)``. A further
  decision of the same turn (returning tokens, choosing a noble, choosing how to pay:
  any end-of-turn step) is simply the same agent acting again. :func:`aec_env` wraps it
  with PettingZoo's usual checking wrappers.
- :class:`SplendorEnv`: a Gymnasium single-agent environment: one seat learns, the other
  seats are bots from :mod:`playtest.bots`, and ``action_masks()`` gives the legal
  actions (the convention of maskable policies). Registered as ``splendor_rules/Splendor-v0``.

Rewards are the engine's ``returns()`` at the end (1 for a winner, -1 otherwise) and 0
before. An illegal action ends the episode with ``illegal_reward`` for the agent that
played it (and 0 for the others); ``info["illegal_action"]`` holds the engine's message.
``max_turns`` truncates a game after that many turns (default: the spec's `max_turns` value, when it states one):
the engine ends it as truncated, and the environments report `truncated=True` with a reward of 0.

Both environments take ``engine``: a spec or variant path (built through
:mod:`playtest.engines`), a generated module path or dotted name, an
:class:`~playtest.engines.Engine`, or an engine module. Everything in the observation is
derived from that engine's constants (:class:`Encoder`), so any spec works: other gem
names, levels, player counts, market sizes, nobles, reserve limits, steps, and a spec's own
declared state and zones (their tables: ``VARIABLES``, ``ZONES``, ``KINDS``), each as the
observing seat may see it: a face-down pile as its count, another seat's private value or
privately drawn component as hidden. An engine without them is observed as before.

- :class:`SplendorVectorEnv`: many games stepped together into numpy arrays, Gymnasium's
  vector-env interface (batched observations, rewards, terminations, truncations, infos with
  the action masks, next-step autoreset), for self-play: each row is the seat to act's view.

The modules: :mod:`~playtest.rl.encoding` (the observation vector's layout, :class:`Encoder`),
:mod:`~playtest.rl.writer` (the same vector written straight from a game into a kept row, as
every environment observes), :mod:`~playtest.rl.envs` (the AEC and single-agent environments,
and the Gymnasium registration) and :mod:`~playtest.rl.vector` (the vector environment).
"""

from __future__ import annotations

try:  # the extra's packages, imported first so that a missing one says what to install
    import gymnasium  # noqa: F401
    import numpy as np  # noqa: F401
    from gymnasium import spaces  # noqa: F401
    from pettingzoo import AECEnv  # noqa: F401
    from pettingzoo.utils import wrappers  # noqa: F401
except ImportError as e:  # pragma: no cover - the message is the point
    raise ImportError(f"playtest.rl needs the 'rl' extra: pip install 'splendor-rules[rl]' ({e})") from None

from .encoding import UNBOUNDED, Encoder, Field
from .envs import ENV_ID, SplendorAEC, SplendorEnv, aec_env, default_players, engine_module
from .vector import SplendorVectorEnv

__all__ = [
    "ENV_ID",
    "UNBOUNDED",
    "Encoder",
    "Field",
    "SplendorAEC",
    "SplendorEnv",
    "SplendorVectorEnv",
    "aec_env",
    "default_players",
    "engine_module",
]
