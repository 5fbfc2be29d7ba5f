"""Checks across keys of one config object: each named by its keys before any job, in the
workflow's config and in a step's settings alike, and quiet on values of the wrong type (the
schema names those)."""

from __future__ import annotations

import copy

import pytest

from conftest import REPO
from reprobe.config import check_config, load_yaml
from reprobe.config_constraints import CHECKS, LOCATIONS, heads_divide_hidden
from reprobe.errors import ConfigError


@pytest.fixture
def default_config() -> dict:
    """The embedded default, as its file holds it."""
    return load_yaml(REPO / "config/config.yaml")


def test_every_check_has_a_place_and_every_place_a_known_check():
    placed = {name for names in LOCATIONS.values() for name in names}
    assert placed == set(CHECKS)


def test_heads_must_divide_the_hidden_size(default_config):
    config = copy.deepcopy(default_config)
    row = next(name for name, spec in config["numersense"]["models"].items() if "tiny" in spec)
    config["numersense"]["models"][row]["tiny"]["heads"] = 3
    with pytest.raises(ConfigError, match=rf"numersense\.models\.{row}\.tiny: hidden \(\d+\) "
                                          r"must be a multiple of heads \(3\)"):
        check_config(config)
    assert heads_divide_hidden({"hidden": 32, "heads": 4}) is None


def test_the_builders_shortest_sentence_is_at_most_its_longest(default_config):
    config = copy.deepcopy(default_config)
    config["numersense"]["builder"] = {"min_tokens": 40, "max_tokens": 2}
    with pytest.raises(ConfigError, match=r"numersense\.builder: min_tokens \(40\) is above "
                                          r"max_tokens \(2\)"):
        check_config(config)


def test_a_sources_first_month_is_at_most_its_last(default_config):
    config = copy.deepcopy(default_config)
    config["sources"]["dumps"] = {"url": "https://example.org/RS_{month}.zst",
                                  "months": {"first": "2019-05", "last": "2018-01"}}
    with pytest.raises(ConfigError, match=r"sources\.dumps\.months: first \(2019-05\) is "
                                          r"above last \(2018-01\)"):
        check_config(config)


@pytest.mark.parametrize("name", sorted(CHECKS))
def test_a_check_leaves_wrong_types_to_the_schema(name):
    for wrong in ({"hidden": "32", "heads": [3], "min_tokens": {}, "max_tokens": 2,
                   "first": 5, "last": "2019-01"}, {}):
        assert CHECKS[name](wrong) is None
