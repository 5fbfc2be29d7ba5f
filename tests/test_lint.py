"""The workflow and the package pass their linters; the paper configuration plans fully."""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import sys

from conftest import REPO, missing_tool
from reprobe.config import expand_sources, load_yaml


def run(*command: str) -> subprocess.CompletedProcess:
    """Run a command in the repository and capture its output."""
    return subprocess.run(command, cwd=REPO, capture_output=True, text=True, timeout=300)


def test_snakemake_lint_is_clean():
    result = run(sys.executable, "-m", "snakemake", "--lint", "-s", "Snakefile")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Congratulations" in result.stdout + result.stderr


def test_snakefmt_check_is_clean():
    if shutil.which("snakefmt") is None:
        missing_tool("snakefmt is not installed (pip install -e '.[test]')")
    result = run("snakefmt", "--check", "Snakefile", "workflow/rules")
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_is_clean():
    if shutil.which("ruff") is None:
        missing_tool("ruff is not installed (pip install -e '.[test]')")
    result = run("ruff", "check", "workflow", "tests", "benchmarks")
    assert result.returncode == 0, result.stdout + result.stderr


def named_sources(config: dict, sources: dict) -> set[str]:
    """The sources a config's sections (not `sources` itself) name, and the checksum lists
    those sources point at."""
    found: set[str] = set()

    def walk(value: object) -> None:
        """Collect every string that names a source."""
        if isinstance(value, dict):
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)
        elif isinstance(value, str) and value in sources:
            found.add(value)

    walk({key: value for key, value in config.items() if key != "sources"})
    return found | {spec["sha1sums"] for name, spec in sources.items()
                    if name in found and spec.get("sha1sums")}


def test_paper_config_plans_every_download_and_the_wikipedia_stage(tmp_path):
    # README's plan command, as written (a target after --configfile would be read as a config).
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    plan = re.search(r"^(snakemake -n .*--configfile config/paper\.yaml\S*)", readme, re.M)
    assert plan, "README has no plan command for the paper configuration"
    words = shlex.split(plan.group(1).split("#")[0])
    result = run(sys.executable, "-m", *words, "-d", str(tmp_path))
    assert result.returncode == 0, result.stderr[-3000:]
    # The paper configuration replaces the default one: none of its samples or stand-ins.
    for default_only in ("gensim-lee", "_sample", "tiny-BERT"):
        assert default_only not in result.stdout, default_only
    counts = dict(re.findall(r"^(\w+)\s+(\d+)$", result.stdout, flags=re.M))
    config = load_yaml(REPO / "config/paper.yaml")
    sources = expand_sources(config)
    # Every source a section names is fetched, and no other (the monthly Reddit dumps, an
    # alternative named in a comment, are not).
    named = named_sources(config, sources)
    assert int(counts["fetch_source"]) == len(named) < len(sources)
    assert int(counts["extract_source"]) == sum(bool(sources[name].get("extract"))
                                                for name in named)
    assert int(counts["wikipedia_shard"]) == config["wikipedia"]["shards"]
    assert counts["wikipedia_gather"] == counts["table_wikipedia_stats"] == "1"
    # EQUATE: seventeen rows (MAJ, HYP, the eight trained baselines, BERT, GPT-2, three
    # released-code Q-REAS rows, Q-REAS (Algorithm 1) and its strict variant) on five released
    # and four rebuilt sets, sixteen on the two §5.1 sets, eleven (HYP, trained, checkpoints) on
    # MultiNLI dev-matched. Each sharded set (released and rebuilt both hold the three) in its
    # shards, gathered per set and row; a row's other sets of a variant in one job
    # (equate.row_jobs); both fetched checkpoints assembled; Table 6 × 2 variants × 2.
    shards = config["equate"]["score_shards"]
    assert int(counts["equate_score_shard"]) == 17 * 2 * sum(shards.values())
    assert int(counts["equate_score"]) == 17 * 2 * len(shards)
    for variant, rows in (("released", 17), ("rebuilt", 17), ("perturbation", 16),
                          ("mnli", 11)):
        assert int(counts[f"equate_score_{variant}"]) == rows, variant
    assert int(counts["equate_checkpoint"]) == 2 and "equate_tiny_model" not in counts
    assert int(counts["equate_table6"]) == 4 and counts["equate_table7"] == "1"
    assert int(counts["equate_train_baseline"]) == 8 and counts["equate_vocabulary"] == "1"
