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
