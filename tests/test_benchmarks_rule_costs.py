"""Tests for benchmarks/rule_costs.py: each rule's costs from the default run and the scale
benchmark."""

from __future__ import annotations

import math
import sys

import pytest

from conftest import REPO

sys.path.insert(0, str(REPO / "benchmarks"))
import rule_costs  # noqa: E402

DEFAULT = {"wikipedia": {"shards": 4, "block_pages": 10},
           "wikipse": {"embeddings": {"dims": [16, 32]}}}
PAPER = {"wikipedia": {"shards": 256, "block_pages": 100},
         "wikipse": {"embeddings": {"dims": [100, 400]}}}
OLD = {"unit": "shards", "mem_mb": [800.0, 40.0], "runtime_min": [30.0, 1.0],
       "from": "not measured: the request before issue 32"}
RUN = {"jobs": 2, "wall_s": 6.0, "cpu_s": 5.0, "max_wall_s": 4.0, "max_rss_mb": 200.0}


def test_the_line_through_two_measurements() -> None:
    assert rule_costs.line_through((4, 200), (256, 2720)) == (160.0, 10.0)
    # The same units in both configs: the larger measurement is the floor.
    assert rule_costs.line_through((100, 50), (100, 300)) == (300, 0.0)
    # Never a negative growth.
    assert rule_costs.line_through((4, 500), (256, 100)) == (500, 0.0)


def test_units_follow_the_config_as_the_targets_count_them() -> None:
    assert rule_costs.config_units("wikipse_embed", PAPER) == 256 * 4
    assert rule_costs.config_units("wikipedia_shard", PAPER) == 100
    assert rule_costs.config_units("numeracy_train", DEFAULT) == 4
    assert rule_costs.config_units("equate_table6", PAPER) == 0


def test_a_rule_measured_at_both_scales_is_a_line_through_both() -> None:
    paper = {"mem_mb": 2720.0, "runtime_min": 254.0 / 1, "output_mb": 2560.0, "step": "s"}
    entry = rule_costs.rule_entry("wikipse_corpus", OLD, RUN, paper, (DEFAULT, PAPER), "d")
    assert entry["mem_mb"] == [160.0, 10.0]
    assert entry["runtime_min"][1] == pytest.approx((254 - 4 / 60) / 252, abs=1e-4)
    assert "benchmarks/scale.py step s (extrapolated" in entry["from"]
    entry = rule_costs.with_output(entry, "wikipse_corpus", 0.4, paper, (DEFAULT, PAPER))
    assert entry["output_mb"][1] == pytest.approx((2560 - 0.4) / 252, abs=1e-3)


def test_a_fixed_size_rule_measured_at_the_paper_size_says_so() -> None:
    old = {"unit": None, "mem_mb": [3276.8, 0.0], "runtime_min": [30.0, 0.0], "from": "guess"}
    paper = {"mem_mb": 480.0, "runtime_min": 0.4, "output_mb": None, "step": "equate_label",
             "extrapolated": False}
    entry = rule_costs.rule_entry("equate_label", old, RUN, paper, (DEFAULT, PAPER), "d")
    assert entry["mem_mb"] == [480.0, 0.0] and entry["runtime_min"] == [0.4, 0.0]
    assert "step equate_label (measured at the paper's size" in entry["from"]
    points = rule_costs.scale_points({"s": {"rules": ["r"], "threads": 1, "paper": {
        "cpu_s": 60.0, "peak_rss_mb": 100.0, "extrapolated": False}}})
    assert points["r"]["extrapolated"] is False and points["r"]["runtime_min"] == 1.0


def test_a_rule_not_measured_at_scale_keeps_its_earlier_growth() -> None:
    entry = rule_costs.rule_entry("wikipse_corpus", OLD, RUN, None, (DEFAULT, PAPER), "d")
    assert entry["mem_mb"] == [200.0, 40.0] and entry["runtime_min"][1] == 1.0
    assert "growth per unit not measured" in entry["from"]
    assert "output_mb" not in rule_costs.with_output(entry, "wikipse_corpus", 3.0, None,
                                                     (DEFAULT, PAPER))


def test_a_light_rule_takes_the_default_runs_figures() -> None:
    old = {**OLD, "unit": None, "mem_mb": [800.0, 0.0], "runtime_min": [5.0, 0.0]}
    entry = rule_costs.rule_entry("numeracy_table", old, RUN, None, (DEFAULT, PAPER), "d")
    assert entry["mem_mb"] == [200.0, 0.0] and entry["runtime_min"] == [round(4 / 60, 3), 0.0]
    entry = rule_costs.with_output(entry, "numeracy_table", 0.02, None, (DEFAULT, PAPER))
    assert entry["output_mb"] == [0.02, 0.0]


def test_a_heavy_rule_without_units_keeps_its_request() -> None:
    old = {**OLD, "unit": None, "mem_mb": [3276.8, 0.0]}
    entry = rule_costs.rule_entry("equate_stresstest", old, RUN, None, (DEFAULT, PAPER), "d")
    assert entry["mem_mb"] == [3276.8, 0.0]
    assert "the request before issue 32 stays" in entry["from"]


def test_an_unmeasured_rule_keeps_its_entry() -> None:
    assert rule_costs.rule_entry("wikipse_corpus", OLD, None, None, (DEFAULT, PAPER), "d") == OLD


def test_every_rule_is_rewritten_and_equate_scores_keep_their_kinds() -> None:
    costs = {"rules": {"numeracy_table": {**OLD, "unit": None}, "equate_score[other]": OLD,
                       "equate_score[fetched]": OLD}}
    run = {"date": "2026-11-29T10:00", "rules": {"numeracy_table": RUN, "equate_score": RUN}}
    rules = rule_costs.new_rules(costs, run, (DEFAULT, PAPER))
    assert rules["numeracy_table"]["mem_mb"] == [200.0, 0.0]
    other, fetched = rules["equate_score[other]"], rules["equate_score[fetched]"]
    assert other["mem_mb"] == [200.0, 0.0] and fetched["mem_mb"] == [3500.0, 0.0]
    # ~950 pairs at Q-REAS's slowest measured 83 pairs/s.
    assert other["runtime_min"][0] == pytest.approx(950 / 83 / 60, abs=1e-3)
    assert fetched["runtime_min"][0] > other["runtime_min"][0]
    assert "default run 2026-11-29" in other["from"] and "Q-REAS" in other["from"]


def test_a_derived_paper_job_stands_for_an_unbenchmarked_one() -> None:
    old = {"unit": "largest model", "mem_mb": [1600.0, 1600.0], "runtime_min": [15.0, 17.5],
           "from": "not measured"}
    costs = {"rules": {"numersense_probe": old, "equate_score[other]": OLD,
                       "equate_score[fetched]": OLD}}
    run = {"date": "2026-11-29", "rules": {"numersense_probe": RUN}}
    paper = {**PAPER, "numersense": {"models": {"x": {"hub": "bert-large-uncased"}}}}
    default = {**DEFAULT, "numersense": {"models": {"tiny": {"kind": "bert"}}}}
    entry = rule_costs.new_rules(costs, run, (default, paper))["numersense_probe"]
    runtime = rule_costs.DERIVED["numersense_probe"]["runtime_min"]
    assert entry["runtime_min"][0] + 3 * entry["runtime_min"][1] == pytest.approx(runtime, 1e-3)
    assert "derived:" in entry["from"]


def test_the_units_mirror_what_each_stages_targets_count() -> None:
    from types import SimpleNamespace

    from reprobe.config import fill_defaults, load_yaml
    from reprobe.numeracy.targets import NumeracyTargets
    from reprobe.numersense.targets import NumerSenseTargets
    from reprobe.resources import MEMORY_MARGIN, requested, rule_scale, wikipedia_resources
    from reprobe.wikipse.targets import WikiPseTargets

    paper = load_yaml(REPO / "config" / "paper.yaml")
    fill_defaults(paper)
    shards = [f"{k:04d}" for k in range(paper["wikipedia"]["shards"])]
    raw = lambda name: f"data/raw/{name}/{name}"  # noqa: E731
    largest = SimpleNamespace(wp_dim=str(max(paper["wikipse"]["embeddings"]["dims"])))
    asked = {
        "wikipedia_shard": wikipedia_resources(paper["wikipedia"], "wikipedia_shard"),
        "wikipedia_gather": wikipedia_resources(paper["wikipedia"], "wikipedia_gather"),
        "numeracy_train": NumeracyTargets(paper, {}, str).resources("numeracy_train"),
        "numersense_probe": NumerSenseTargets(paper, raw).resources("numersense_probe"),
        "wikipse_typing": WikiPseTargets(paper, raw, shards).resources("wikipse_typing"),
        "wikipse_embed": WikiPseTargets(paper, raw, shards).resources("wikipse_embed")}
    # The jobs over the whole dump ask for their memory budget on top (with its margin).
    budget = math.ceil(paper["wikipedia"]["gather_memory_mb"] * MEMORY_MARGIN)
    for rule, resources in asked.items():
        wildcards = largest if rule == "wikipse_embed" else None
        expected = requested(rule_scale(rule), rule_costs.config_units(rule, paper))[0]
        if rule in ("wikipedia_gather", "wikipse_typing"):
            expected += budget
        assert resources["mem_mb"](wildcards, 1) == expected, rule
