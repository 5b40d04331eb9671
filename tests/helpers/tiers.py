"""The fast tier (`bash dev/test.sh --fast`) and the whole suite: what the fast tier leaves out.

tests/conftest.py marks these tests `slow`; the whole suite (CI) runs every test.
"""

from __future__ import annotations

# Modules that play many games, mutate specs by the hundred, render every sheet or drive a browser.
SLOW_MODULES = frozenset(
    {
        "test_phrase_mutations",
        "test_mutations",
        "test_fuzz_untrusted",
        "test_gate",
        "test_gate_tools",
        "test_playtest_simulate",
        "test_playtest_records",
        "test_web_browser",
        "test_web_browser_play",
        "test_web_browser_replay",
        "test_lowering_shapes",
        "test_engine_properties",
        "test_playtest_bots",
        "test_playtest_engines",
        "test_playtest_ladder",
        "test_play",
        "test_cli_names",
        "test_zone_states",
        "test_sheets_a11y",
        "test_web_rules_fail",
        "test_pysource",
        "test_dev_scripts",
        "test_variants",
        "test_web_a11y",
        "test_native",
    }
)


# Single tests of fast modules that take 10 s or more each (measured with a per-test log of the
# fast tier: 130 s of its 789 s of test time): the whole suite runs them, the fast tier does not.
SLOW_TESTS = frozenset(
    {
        "test_lint.py::test_mypy_finds_nothing",
        "test_lint.py::test_mypy_strict_errors_only_fall",
        "test_saved_games.py::test_value_span_finds_what_json_loads_reads",
        "test_sizes.py::test_a_spec_at_a_documented_maximum_compiles_within_the_action_limit",
        "test_check_cost.py::test_the_longest_chain_within_the_bound_compiles_to_an_engine_of_its_size",
        "test_web_play.py::test_with_gold_every_payment_the_engine_accepts_is_shown_and_the_step_shows_them_again",
        "test_lowering.py::test_synthetic_variants_reach_the_lowering_paths_and_agree",
        "test_engine_formatting.py::test_the_formatter_moves_only_layout",
    }
)


# Tests run once per spec of the catalogue (the official spec and every variant of
# variants/index.yaml, parametrized by its path, file name or engine module name): the fast tier
# runs them on a few specs that reach most of the language (FAST_SPECS), the whole suite on every
# spec. Measured with the per-test log of a whole-suite run: 61 s of the fast tier's test time, 50 s
# of it on the specs left to the whole suite.
CATALOGUE_TESTS = frozenset(
    {
        "test_runtime.py::test_every_engine_runs_the_runtime_functions",
        "test_runtime.py::test_every_engine_holds_the_runtime_verbatim",
        "test_runtime.py::test_a_set_is_read_in_any_order_and_written_in_one",
        "test_runtime.py::test_every_engine_defines_what_the_runtime_imports",
        "test_sheets_golden.py::test_generated_sheets_are_current",
        "test_lower_ir.py::test_every_expression_slot_of_every_tree_holds_a_node",
        "test_worked_example.py::test_the_example_is_a_game_the_engine_replays_and_the_sheet_states",
        "test_playthroughs.py::test_catalogue_playthrough",
        "test_lowering.py::test_fast_legal_actions_agree_with_the_plain_conditions",
        "test_generated.py::test_committed_engine_is_up_to_date",
        "test_engine_fingerprints.py::test_engine_plays_as_its_fingerprints_say",
        "test_engine_face.py::test_the_state_is_public_under_its_documented_names_only",
    }
)

# The specs the fast tier runs CATALOGUE_TESTS on: the official rules; the Trading Posts (keyword
# literals, a set held as state, a power, a printed sheet that is compacted to fit); the Strongholds
# (blocking, placement, a shared state keyed by card, a queued step, an optional face-up choice).
FAST_SPECS = frozenset({"official", "trading-posts", "strongholds"})


def spec_of(param_id: str) -> str:
    """The catalogue spec a test's parameter names: `variants/trading-posts.yaml`,
    `trading-posts` and `trading_posts` (its engine module) all give `trading-posts`."""
    name = param_id.rsplit("/", 1)[-1]
    for suffix in (".yaml", ".py"):
        name = name.removesuffix(suffix)
    return name.replace("_", "-")
