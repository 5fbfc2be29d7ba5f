"""The real lm-evaluation-harness runs the NumerSense task the workflow writes, on the tiny GPT-2
the workflow builds, offline, and its numbers are reprobe's.

The scoring rule (the tasks' sentence rule, `reprobe.numersense.harness_utils`): the context is
empty (`target_delimiter: ""`) and each of the 12 choices is the whole probe with a number word
in place of its mask. With an empty context the harness scores a choice after the model's
prefix token (BOS, else EOS: GPT-2's `<|endoftext|>`), so a choice's log-likelihood is the sum of
the log-probabilities of every token of the filled sentence: reprobe's causal scorer with a BOS
token first (`score_probes_causal(..., bos=True)`, protocol `clean`) gives the mean of the same
log-probabilities, so harness log-likelihood = reprobe score × the sentence's token count (to
1e-4 here). hit@k: the gold word among the k choices of highest log-likelihood, ties in the
candidates' order, "no" and "zero" apart (reprobe's convention `none`); where the 12 filled
sentences of a probe have one token count (every number word one token, as in GPT-2's own
vocabulary), that is reprobe's ranking, and hit@1/2/3 are equal exactly, probe by probe.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import REPO
from reprobe.config import fill_defaults, load_yaml
from reprobe.numersense.candidates import CANDIDATES
from reprobe.numersense.causal import filled, score_probes_causal
from reprobe.numersense.evaluate import hits_at_k, probe_key
from reprobe.numersense.exports import Inputs, export_dataset
from reprobe.numersense.harness import write_harness_tasks
from reprobe.numersense.probes import read_masked_tsv
from reprobe.numersense.settings import TinySettings
from reprobe.step_settings import settings_json

pytest.importorskip("lm_eval")
pytest.importorskip("accelerate")  # the harness's HF backend needs it (lm-eval[hf])

SAMPLES = REPO / "data" / "samples" / "numersense"
OFFLINE = ("HF_HUB_OFFLINE", "HF_DATASETS_OFFLINE", "TRANSFORMERS_OFFLINE")
# Run in a fresh interpreter: the offline switches and the datasets cache are read when
# `datasets` is first imported, which another test may have done in this one.
RUNNER = """
import json, sys
import lm_eval
from lm_eval.tasks import TaskManager

model, tasks, out = sys.argv[1:4]
result = lm_eval.simple_evaluate(
    model="hf", model_args=f"pretrained={model},dtype=float32", tasks=["numersense_core"],
    task_manager=TaskManager(include_path=tasks, include_defaults=False), num_fewshot=0,
    batch_size=16, device="cpu", log_samples=True)
samples = sorted(result["samples"]["numersense_core"], key=lambda s: s["doc_id"])
json.dump({"results": result["results"]["numersense_core"],
           "samples": [{"doc": s["doc"], "arguments": [list(a) for a in s["arguments"]],
                        "lls": [float(r[0]) for r in s["filtered_resps"]],
                        **{f"hit@{k}": s[f"hit@{k}"] for k in (1, 2, 3)}} for s in samples]},
          open(out, "w"))
"""


def build_tiny_gpt2(folder: Path) -> Path:
    """The default config's tiny GPT-2, built by the workflow's command, with few steps."""
    from reprobe.cli import main

    config = load_yaml(REPO / "config/config.yaml")
    fill_defaults(config)
    tiny = {**config["numersense"]["models"]["tiny-GPT-2"]["tiny"], "steps": 5}
    status = main(["numersense", "tiny", "--kind", "gpt2",
                   "--settings", settings_json(tiny, TinySettings),
                   "--omcs", str(SAMPLES / "omcs_sample.tsv"),
                   "--generics", str(SAMPLES / "genericskb_sample.tsv"),
                   "--seed", str(config["seed"]), "--output", str(folder)])
    assert status == 0
    return folder


def run_harness(model: Path, tasks: Path, tmp_path: Path) -> dict:
    """simple_evaluate on the task folder, offline, in a subprocess; its results and samples."""
    env = {**os.environ, **dict.fromkeys(OFFLINE, "1"), "TOKENIZERS_PARALLELISM": "false",
           "HF_DATASETS_CACHE": str(tmp_path / "hf_datasets"), "HF_HOME": str(tmp_path / "hf")}
    out = tmp_path / "harness.json"
    run = subprocess.run([sys.executable, "-c", RUNNER, str(model), str(tasks), str(out)],
                         env=env, capture_output=True, text=True, timeout=300, check=False)
    assert run.returncode == 0, run.stderr[-3000:]
    return json.loads(out.read_text(encoding="utf-8"))


def test_the_harness_gives_reprobe_s_log_likelihoods_and_hits(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for variable in OFFLINE:
        monkeypatch.setenv(variable, "1")
    model_dir = build_tiny_gpt2(tmp_path / "tiny-GPT-2")
    # The released core stand-in with its gold: 31 lines, a repeated probe with two labels.
    probes_file, gold_file = (SAMPLES / "released/test.core.masked.txt",
                              SAMPLES / "released/test.core.labels.tsv")
    built = tmp_path / "built" / "exports"
    export_dataset("released-core", Inputs(probes_file, gold_file, "gold"),
                   built / "released-core", {})
    assert write_harness_tasks([built / "released-core"], built / "lm_eval") == [
        "numersense_core"]
    # The exports travel: the tasks read their data relative to their own folder.
    moved = tmp_path / "elsewhere" / "exports"
    shutil.copytree(built, moved)
    shutil.rmtree(built)
    harness = run_harness(model_dir, moved / "lm_eval", tmp_path)

    from transformers import AutoModelForCausalLM, AutoTokenizer

    model = AutoModelForCausalLM.from_pretrained(str(model_dir), local_files_only=True)
    tokenizer = AutoTokenizer.from_pretrained(str(model_dir), local_files_only=True)
    gold = read_masked_tsv(gold_file, frozenset(CANDIDATES))
    ranked = score_probes_causal(model, tokenizer, [g.probe for g in gold], 8, "cpu",
                                 precision=None, bos=True)
    samples = harness["samples"]
    assert [s["doc"]["probe"] for s in samples] == [g.probe for g in gold]
    for sample, probe, ranking in zip(samples, gold, ranked, strict=True):
        scores = dict(ranking)
        counts = set()
        for word, (context, choice), ll in zip(CANDIDATES, sample["arguments"], sample["lls"],
                                               strict=True):
            assert context == "" and choice == filled(probe.probe, word)
            n = len(tokenizer(choice, add_special_tokens=False)["input_ids"])
            counts.add(n)
            assert ll == pytest.approx(scores[word] * n, abs=1e-4), (probe.probe, word)
        # One token count per probe: the harness's sum ranks as reprobe's mean does.
        assert len(counts) == 1, probe.probe
        top = [word for word, _ in ranking]
        for k in (1, 2, 3):
            assert sample[f"hit@{k}"] == float(probe.label in top[:k]), (probe.probe, k)
    # reprobe's own hit@k (percent, convention none, gold line by gold line) on that ranking.
    ours = hits_at_k(gold, {probe_key(g.probe): r for g, r in zip(gold, ranked, strict=True)},
                     convention="none")
    for k in (1, 2, 3):
        hits = sum(s[f"hit@{k}"] for s in samples)
        assert 100.0 * hits / len(gold) == ours[k]
        assert harness["results"][f"hit@{k},none"] == pytest.approx(hits / len(gold), abs=1e-12)
