"""What the WIKI-PSE export rules read and write (reprobe.wikipse.export_targets)."""

from __future__ import annotations

import json
from types import SimpleNamespace

from conftest import option_value, option_values
from reprobe.config import CHECKOUT, fill_defaults, load_yaml
from reprobe.wikipse.export_targets import WikiPseExports
from reprobe.wikipse.paths import DATA
from reprobe.wikipse.targets import WikiPseTargets
from test_wikipse_targets import part2_config, raw_target


def test_exports_write_each_dataset_and_compare_it_with_the_other() -> None:
    targets = WikiPseTargets(part2_config(), raw_target, ["0000"])
    sources = {"dump": {"url": "https://example.org/d.bz2", "sha256": "ab"},
               "map": {"package": "pkg", "path": "m.map"}}
    exports = WikiPseExports(targets, sources, "dump")
    assert exports.folders == ["exports/wikipse/rebuilt", "exports/wikipse/released"]
    rebuilt = exports.arguments(SimpleNamespace(wp_dataset="rebuilt"))
    assert option_value(rebuilt, "--train") == f"{DATA}/dataset/train.tsv"
    assert option_value(rebuilt, "--compare-test") == raw_target("test")
    assert json.loads(option_value(rebuilt, "--sources-json")) == {
        "dump": {"url": "https://example.org/d.bz2", "sha256": "ab"},
        "map": {"path": "pkg package: m.map"}}
    released = exports.inputs(SimpleNamespace(wp_dataset="released"))
    assert released["card"] == [] and released["compare"] == [
        f"{DATA}/dataset/train.tsv", f"{DATA}/dataset/test.tsv"]
    section = part2_config()
    del section["wikipse"]["typing"], section["wikipse"]["fold"]
    alone = WikiPseExports(WikiPseTargets(section, raw_target, []), sources, None)
    assert alone.folders == ["exports/wikipse/released"]
    released_alone = alone.arguments(SimpleNamespace(wp_dataset="released"))
    assert option_values(released_alone, "--compare-variant") == []


def test_the_supersense_dataset_gets_a_folder_of_its_own() -> None:
    section = part2_config()
    sources = {"ukp": {"url": "https://example.org/supertextwiki.tar.xz", "sha256": "cd"}}
    assert "exports/wikipse/supersense" not in WikiPseExports(
        WikiPseTargets(section, raw_target, ["0000"]), sources, None).folders
    section["wikipse"]["supersense"] = {"corpus": {"source": "ukp"}, "min_frequency": 2,
                                        "embeddings": {"source": "vec", "format": "auto"}}
    exports = WikiPseExports(WikiPseTargets(section, raw_target, ["0000"]), sources, None)
    assert exports.folders[-1] == "exports/wikipse/supersense"
    arguments = exports.supersense_arguments()
    assert len(arguments) == 1 and json.loads(option_value(arguments, "--sources-json")) == sources


def test_the_default_run_exports_the_supersense_dataset() -> None:
    loaded = load_yaml(CHECKOUT / "config" / "config.yaml")
    fill_defaults(loaded)
    exports = WikiPseExports(WikiPseTargets(loaded, raw_target, ["0000"]),
                             loaded["sources"], loaded["wikipedia"]["dump"])
    assert "exports/wikipse/supersense" in exports.folders
    (name,) = json.loads(option_value(exports.supersense_arguments(), "--sources-json"))
    assert name == loaded["wikipse"]["supersense"]["corpus"]["source"]

