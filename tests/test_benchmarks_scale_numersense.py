"""benchmarks/scale_numersense*.py: the generated OMCS, ConceptNet and GenericsKB files are read
by the builders' own readers, grow an open vocabulary and repeat no record; the BERT-shaped model
loads as a masked LM; each step runs its rule's command. Nothing is timed."""

from __future__ import annotations

import gzip
import sys
from pathlib import Path

import pytest

from conftest import REPO, rule_options

sys.path.insert(0, str(REPO / "benchmarks"))
import scale_numersense  # noqa: E402
import scale_numersense_inputs as inputs  # noqa: E402
from scale_types import FilesInfo, Level  # noqa: E402

from reprobe.numersense.builder import build_probes, read_omcs  # noqa: E402
from reprobe.numersense.candidates import CANDIDATES  # noqa: E402
from reprobe.numersense.conceptnet import read_properties  # noqa: E402
from reprobe.numersense.generics import read_generics  # noqa: E402
from reprobe.numersense.probes import read_masked_tsv, read_masked_txt  # noqa: E402
from reprobe.numersense.settings import BuilderSettings  # noqa: E402

SMALL, LARGE = 1_000, 4_000


def written(tmp_path: Path, write, size: int) -> tuple[dict[str, Path], dict[str, float]]:
    """A generator's files of one size in their own folder."""
    folder = tmp_path / f"{write.__name__}-{size}"
    folder.mkdir()
    return write(folder, size)


def test_omcs_is_read_by_the_builder_and_grows(tmp_path: Path) -> None:
    (small, small_counts), (large, large_counts) = (
        written(tmp_path, inputs.write_omcs, size) for size in (SMALL, LARGE))
    rows = list(read_omcs(large["omcs"]))
    assert len(rows) == LARGE == large_counts["lines"]
    assert large_counts["distinct words"] > small_counts["distinct words"]
    english = [text.lower() for _, text, language in rows if language == "en"]
    assert len(set(english)) > 0.98 * len(english)  # ~1% repeats, for the duplicate filter
    settings = BuilderSettings(min_tokens=4, max_tokens=25,
                               non_numeric_phrases=list(inputs.PHRASES), lexicon={})
    result = build_probes(large["omcs"], settings)
    # Every filter drops some sentences, and probes are made.
    assert result.probes and all(result.filter_counts[rule] > 0 for rule in (
        "no_number_word", "non_numeric_use", "too_short", "duplicate"))


def test_conceptnet_gives_properties_and_grows(tmp_path: Path) -> None:
    (small, small_counts), (large, large_counts) = (
        written(tmp_path, inputs.write_conceptnet, size) for size in (SMALL * 4, LARGE * 4))
    with gzip.open(large["conceptnet"], "rt", encoding="utf-8") as handle:
        lines = handle.read().splitlines()
    assert len(lines) == len(set(lines)) == LARGE * 4
    assert all(len(line.split("\t")) == 5 for line in lines)
    found = [read_properties(files["conceptnet"], relations={"HasProperty": "any"},
                             min_weight=1.0) for files in (small, large)]
    assert 0 < len(found[0]) < len(found[1])
    assert large_counts["distinct words"] > small_counts["distinct words"]
    core = read_masked_tsv(large["core"], frozenset(CANDIDATES))
    assert len(core) == len({p.probe for p in core}) == inputs.CORE_PROBES


def test_generics_and_test_files_are_read_and_grow(tmp_path: Path) -> None:
    (small, small_counts), (large, large_counts) = (
        written(tmp_path, inputs.write_generics, size) for size in (SMALL, LARGE))
    sentences = [text for _, text in read_generics(large["generics"])]
    assert len(sentences) == LARGE and len(set(sentences)) > 0.99 * LARGE
    assert large_counts["distinct words"] > small_counts["distinct words"]
    assert large_counts["test probes in it"] > 0
    for role in ("rebuilt_core", "rebuilt_all"):
        assert read_masked_tsv(large[role], frozenset(CANDIDATES))
    assert len(read_masked_txt(large["released_core"])) == inputs.RELEASED_CORE
    assert len(read_masked_txt(large["released_all"])) == inputs.RELEASED_ALL


def test_bert_model_loads_with_whole_words(tmp_path: Path) -> None:
    from reprobe.numersense.models import load_model
    from reprobe.numersense.templates import vocabulary_words

    files, counts = written(tmp_path, inputs.write_bert, 32)
    model, tokenizer = load_model(str(files["model"]), "masked")
    assert counts["parameters"] == sum(p.numel() for p in model.parameters())
    assert counts["vocabulary"] == inputs.BERT_VOCABULARY
    assert len(vocabulary_words(tokenizer, 1_000, 0)) == 1_000
    assert inputs.bert_shape(1024) == (24, 16) and inputs.bert_shape(768) == (12, 12)




@pytest.mark.parametrize("step", scale_numersense.STEPS, ids=lambda step: step.name)
def test_each_step_runs_its_rules_command(step, tmp_path: Path) -> None:
    chain = next(c for c in scale_numersense.CHAINS if c.name == step.chain)
    roles = ("omcs", "conceptnet", "core", "generics", "rebuilt_core", "rebuilt_all",
             "released_core", "released_all", "model")
    info = FilesInfo(str(tmp_path), 10, {role: str(tmp_path / role) for role in roles},
                     {"lines": 10, "rows": 10, "parameters": 10})
    argv = step.argv(Level(chain.name, 10, tmp_path, info, {}, 2))
    assert argv[:3] == [sys.executable, "-m", "reprobe"]
    command, options = rule_options(step.rules[0])
    assert argv[3:5] == command
    assert options <= set(argv), options - set(argv)
    assert step.paper is not None and step.size(Level(chain.name, 10, tmp_path, info, {}, 2))
    sizes = {mode: chain.ladders[mode] for mode in ("tiny", "quick", "default")}
    assert len(sizes["tiny"]) == 3 and len(sizes["default"]) == 5


def test_train_excludes_every_test_file_the_rule_names(tmp_path: Path) -> None:
    from reprobe.config import CHECKOUT, fill_defaults, load_yaml
    from reprobe.numersense.targets import NumerSenseTargets

    config = load_yaml(CHECKOUT / "config" / "paper.yaml")
    fill_defaults(config)
    targets = NumerSenseTargets(config, lambda name: f"data/raw/{name}/{name}")
    assert len(targets.test_probe_files()) == 4  # rebuilt core, all; released core, all
    assert scale_numersense.numersense_config()["templates"]["words"] == 1_000
