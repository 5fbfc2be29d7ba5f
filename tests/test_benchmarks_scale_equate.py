"""benchmarks/scale_equate*.py: the equate chains' generated files are read by the rules' own
readers, grow an open vocabulary and repeat no record, and each step runs its rule's command
(workflow/rules/equate_*.smk) with the same options. Nothing is timed."""

from __future__ import annotations

import json
import math
import random
import re
import sys
from collections import Counter
from pathlib import Path

import pandas as pd
import pytest

from conftest import REPO

sys.path.insert(0, str(REPO / "benchmarks"))
import scale_equate  # noqa: E402
import scale_equate_fetched  # noqa: E402
from scale_types import FilesInfo, Level, files_level  # noqa: E402

from reprobe.equate.jsonl import read_pairs  # noqa: E402
from reprobe.equate.sets import awpnli, newsnli, perturb, recovery, redditnli, stresstest  # noqa: E402

CHAINS = {chain.name: chain for chain in scale_equate.CHAINS}
RULES = (REPO / "workflow" / "rules" / "equate_sets.smk").read_text(encoding="utf-8") + (
    REPO / "workflow" / "rules" / "equate_rows.smk").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def work(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One folder for the module's levels: each is written once (files_level caches it)."""
    return tmp_path_factory.mktemp("equate")


def level(work: Path, chain: str, size: int) -> Level:
    """A chain's level at a size, its files written under `work`."""
    info = files_level(CHAINS[chain], work / chain / f"size-{size}", size)
    return Level(chain, size, Path(info.path), info, {}, 1)


def tiny(work: Path, chain: str, rung: int = 0) -> FilesInfo:
    """A level of a chain's tiny ladder."""
    return level(work, chain, CHAINS[chain].ladders["tiny"][rung]).info


def files(info: FilesInfo, role: str) -> Path:
    """A generated file of a level."""
    return Path(info.files[role])


def test_the_aqua_file_yields_premises_and_grows(work: Path) -> None:
    small, large = tiny(work, "equate_aqua"), tiny(work, "equate_aqua", 1)
    questions = list(stresstest.read_questions(files(large, "aqua")))
    assert len(questions) == large.size == len(set(questions))
    assert len(stresstest.premises(files(large, "aqua"))) > large.size
    assert large.counts["distinct words"] > 2 * small.counts["distinct words"]


def test_the_problems_give_awpnli_pairs(work: Path) -> None:
    info = tiny(work, "equate_awp")
    problems = awpnli.read_problems(files(info, "problems"))
    assert len({p.text for p in problems}) == info.size == 60
    made = [awpnli.problem_pairs(p, random.Random(0)) for p in problems]
    assert sum(isinstance(pairs, list) for pairs in made) >= 55


def test_the_reddit_dump_is_read_and_has_usable_titles(work: Path) -> None:
    small, large = tiny(work, "equate_reddit"), tiny(work, "equate_reddit", 1)
    dump = files(large, "dump")
    assert dump.read_bytes()[:4] == b"\x28\xb5\x2f\xfd"  # zstd
    records = list(redditnli.read_submissions(dump))
    assert len(records) == large.size == len({r["id"] for r in records})
    assert {r["subreddit"] for r in records} > {"Economics", "economics"}
    stats: Counter[str] = Counter()
    titles = redditnli.dump_titles(files(small, "dump"), redditnli.SUBREDDIT, stats)
    assert 0.15 * stats["submissions"] < len(titles) < 0.5 * stats["submissions"]
    assert stats["meta"] > 0
    words = [{w for r in redditnli.read_submissions(files(info, "dump"))
              for w in r["title"].split()} for info in (small, large)]
    assert len(words[1]) > 2 * len(words[0])


def test_the_news_shards_and_stories_are_read(work: Path) -> None:
    info = tiny(work, "equate_news")
    stories = list(newsnli.iter_stories(files(info, "stories")))
    assert len(stories) == info.size == 64 and all(story.highlights for _, story in stories)
    shards = [files(info, f"shard{n}") for n in range(64)]
    frame = pd.concat(pd.read_parquet(path) for path in shards)
    assert tuple(frame.columns) == newsnli.SHARD_COLUMNS
    assert len(frame) == info.counts["candidates"] and frame["sentence1"].is_unique
    counts = json.loads(shards[0].with_suffix(".json").read_text(encoding="utf-8"))
    assert set(counts) == set(newsnli.COUNTS) and counts["stories"] == 1


def test_the_label_and_compare_files_are_read_and_recovered(work: Path) -> None:
    label = tiny(work, "equate_label")
    candidates = list(read_pairs(files(label, "candidates"), labelled=False))
    assert len(candidates) == label.size == len({r["sentence1"] for r in candidates})
    found = recovery.recovery_table(files(label, "candidates"), files(label, "released"))
    assert found["released"] == 968
    assert found["recovered_exact"] + found["recovered_swapped"] == label.size // 2
    compare = tiny(work, "equate_compare")
    found = recovery.recovery_table(files(compare, "rebuilt"), files(compare, "released"))
    assert found["recovered_exact"] == compare.size // 2
    assert found["recovered_swapped"] == compare.size // 10


def test_the_released_newsnli_is_perturbed(work: Path) -> None:
    info = tiny(work, "equate_perturb", 1)
    rows = list(read_pairs(files(info, "newsnli")))
    assert len(rows) == info.size and all(row["sentence1_dep_parse"] for row in rows)
    unperturbed, perturbed = perturb.perturb_pairs(rows, seed=0)
    entailed = sum(row["gold_label"] == "entailment" for row in rows)
    assert len(perturbed) == len(unperturbed) >= entailed // 2 > 0


def test_the_mnli_rows_are_read(work: Path) -> None:
    small, large = tiny(work, "equate_mnli"), tiny(work, "equate_mnli", 1)
    rows = list(read_pairs(files(large, "train")))
    assert len(rows) == large.size == len({row["sentence2"] for row in rows})
    assert {"pairID", "promptID", "sentence1_parse"} <= set(rows[0])
    words = [{w for row in read_pairs(files(info, "train")) for w in row["sentence1"].split()}
             for info in (small, large)]
    assert len(words[1]) > 2 * len(words[0])


def test_the_checkpoint_is_bert_for_sequence_classification(work: Path) -> None:
    import torch

    info = tiny(work, "equate_checkpoint")
    config = json.loads(files(info, "config.json").read_text(encoding="utf-8"))
    state = torch.load(files(info, "pytorch_model.bin"), weights_only=True)
    assert sum(t.numel() for t in state.values()) == info.counts["parameters"]
    assert info.counts["parameters"] == pytest.approx(info.size, rel=0.1)
    assert scale_equate_fetched.bert_parameters(config["hidden_size"]) == info.counts[
        "parameters"]
    vocab = files(info, "vocab.txt").read_text(encoding="utf-8").split()
    assert len(vocab) == len(set(vocab)) == config["vocab_size"]
    assert set(info.files) == set(scale_equate.HUB_FILES)


def test_the_bert_parameters_are_bert_bases_at_its_size() -> None:
    # bert-base-uncased with a 3-class head: 109,482,240 + 768 x 3 + 3 parameters.
    assert scale_equate_fetched.bert_parameters(768) == 109_484_547
    shapes = scale_equate_fetched.bert_shapes(64)
    assert sum(math.prod(shape) for shape in shapes.values()) == (
        scale_equate_fetched.bert_parameters(64))
    assert shapes["classifier.weight"] == (3, 64) and len(shapes) == 5 + 12 * 16 + 4


def rule_shell(rule: str) -> str:
    """The shell command of a rule in equate_sets.smk or equate_rows.smk, its strings joined."""
    block = re.search(rf"\nrule {rule}:\n(.*?)(?=\nrule |\n# |\nfor |\Z)", RULES, re.S)
    assert block, rule
    shell = block[1].split("shell:", 1)[1]
    return "".join(re.findall(r'"([^"]*)"', shell))


# What a rule's parameters expand to on its command line (equate/targets.py).
EXPANDS = {"params.cap": ["--max-premises"], "params.settings": ["--settings"],
           "input.folds": [], "params.files": []}


def shell_options(shell: str) -> tuple[list[str], list[str]]:
    """(the `reprobe` words, the options) of a rule's shell command."""
    words = shell.split(" 2>")[0].split()
    assert words[:3] == ["python", "-m", "reprobe"], shell
    # An option and its value are one word (`--output={output:q}`); `--` alone ends the options.
    options = [w.split("=", 1)[0] for w in words if w.startswith("--") and w != "--"]
    for word in words:
        found = re.fullmatch(r"\{(\w+\.\w+):q\}", word)
        if found and found[1] in EXPANDS:
            options += EXPANDS[found[1]]
    return words[3:5], options


@pytest.mark.parametrize("step", scale_equate.STEPS, ids=lambda step: step.name)
def test_each_step_runs_its_rules_command(step, work: Path) -> None:
    (rule,) = step.rules
    command, options = shell_options(rule_shell(rule))
    argv = step.argv(level(work, step.chain, CHAINS[step.chain].ladders["tiny"][0]))
    assert argv[1:3] == ["-m", "reprobe"] and argv[3:5] == command
    assert sorted(w for w in argv if w.startswith("--")) == sorted(options)
    assert step.paper is not None and step.threads == 1


def test_outputs_and_ladders_cover_every_step() -> None:
    assert set(scale_equate.OUTPUTS) == {step.name for step in scale_equate.STEPS}
    for chain in scale_equate.CHAINS:
        assert len(chain.ladders["tiny"]) == 3 and len(chain.ladders["default"]) == 5
        quick = chain.ladders["quick"]
        assert len(quick) == 3 and quick[-1] >= 16 * quick[0] * 0.99
