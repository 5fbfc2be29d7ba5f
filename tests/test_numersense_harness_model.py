"""A masked LM through the real lm-evaluation-harness on NumerSense's tasks
(reprobe.numersense.harness_model), offline, on the default config's tiny BERT.

The rule: a choice's log-likelihood is the log of its number word's softmax probability at the
mask (reprobe's clean masked-LM protocol, `mlm.score_probes`); the harness's hit@k ranks the 12
choices by it, ties in the candidates' order, as reprobe's ranking does. Checked per choice (to
1e-9) and on hit@1/2/3, probe by probe and in total, exactly; and through `reprobe numersense
harness`.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from conftest import REPO
from reprobe.config import fill_defaults, load_yaml
from reprobe.numersense.candidates import CANDIDATES
from reprobe.numersense.evaluate import hits_at_k, probe_key
from reprobe.numersense.exports import Inputs, export_dataset
from reprobe.numersense.harness import write_harness_tasks
from reprobe.numersense.probes import read_masked_tsv
from reprobe.numersense.settings import TinySettings
from reprobe.step_settings import settings_json

pytest.importorskip("lm_eval")

SAMPLES = REPO / "data" / "samples" / "numersense"
PROBES, GOLD = SAMPLES / "released/test.core.masked.txt", SAMPLES / "released/test.core.labels.tsv"


@pytest.fixture(scope="module")
def tiny_bert(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The default config's tiny BERT, built by the workflow's command, with few steps."""
    from reprobe.cli import main

    config = load_yaml(REPO / "config/config.yaml")
    fill_defaults(config)
    tiny = {**config["numersense"]["models"]["tiny-BERT"]["tiny"], "steps": 5}
    folder = tmp_path_factory.mktemp("bert") / "tiny-BERT"
    assert main(["numersense", "tiny", "--kind", "bert", "--settings",
                 settings_json(tiny, TinySettings), "--omcs", str(SAMPLES / "omcs_sample.tsv"),
                 "--generics", str(SAMPLES / "genericskb_sample.tsv"),
                 "--seed", str(config["seed"]), "--output", str(folder)]) == 0
    return folder


@pytest.fixture
def core_tasks(tmp_path: Path) -> Path:
    """The released core stand-in exported, and its harness task folder."""
    export_dataset("released-core", Inputs(PROBES, GOLD, "gold"), tmp_path / "released-core", {})
    assert write_harness_tasks([tmp_path / "released-core"], tmp_path / "lm_eval") == [
        "numersense_core"]
    return tmp_path / "lm_eval"


def reprobe_ranking(model_dir: Path) -> tuple[list, list]:
    """The gold lines and reprobe's clean ranking of each of their probes (the same batches as
    the harness's model: probes the same to the last bit)."""
    from reprobe.numersense.mlm import score_probes
    from reprobe.numersense.models import load_model

    model, tokenizer = load_model(str(model_dir), "masked")
    gold = read_masked_tsv(GOLD, frozenset(CANDIDATES))
    # Each probe once, in the documents' order: the batches the model sees, as the harness's.
    probes = list(dict.fromkeys(g.probe for g in gold))
    ranked = dict(zip(probes, score_probes(model, tokenizer, probes, 8, "cpu"), strict=True))
    return gold, [ranked[g.probe] for g in gold]


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_the_harness_ranks_the_tiny_bert_as_the_clean_protocol(tiny_bert, core_tasks,
                                                                hf_offline):
    import lm_eval
    from lm_eval.tasks import TaskManager

    from reprobe.numersense.harness_model import MaskedLMProbe
    from reprobe.numersense.models import load_model

    model, tokenizer = load_model(str(tiny_bert), "masked")
    out = lm_eval.simple_evaluate(
        model=MaskedLMProbe(model, tokenizer, batch_size=8, device="cpu"),
        tasks=["numersense_core"], num_fewshot=0, log_samples=True,
        task_manager=TaskManager(include_path=str(core_tasks), include_defaults=False))
    samples = sorted(out["samples"]["numersense_core"], key=lambda s: s["doc_id"])
    gold, ranked = reprobe_ranking(tiny_bert)
    assert [s["doc"]["probe"] for s in samples] == [g.probe for g in gold]
    for sample, probe, ranking in zip(samples, gold, ranked, strict=True):
        scores = dict(ranking)
        lls = [float(ll) for ll, _ in sample["filtered_resps"]]
        assert lls == pytest.approx([math.log(scores[w]) for w in CANDIDATES], abs=1e-9)
        top = [word for word, _ in ranking]
        for k in (1, 2, 3):
            assert sample[f"hit@{k}"] == float(probe.label in top[:k]), (probe.probe, k)
    ours = hits_at_k(gold, {probe_key(g.probe): r for g, r in zip(gold, ranked, strict=True)},
                     convention="none")
    for k in (1, 2, 3):
        assert 100.0 * out["results"]["numersense_core"][f"hit@{k},none"] == pytest.approx(
            ours[k], abs=1e-9)


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_the_harness_command_writes_reprobe_s_hits(tiny_bert, core_tasks, hf_offline, tmp_path):
    from reprobe.cli import main

    output = tmp_path / "results.json"
    assert main(["numersense", "harness", "--model", str(tiny_bert), "--include-path",
                 str(core_tasks), "--output", str(output), "--batch-size", "8",
                 "--device", "cpu"]) == 0
    results = json.loads(output.read_text(encoding="utf-8"))["results"]["numersense_core"]
    gold, ranked = reprobe_ranking(tiny_bert)
    ours = hits_at_k(gold, {probe_key(g.probe): r for g, r in zip(gold, ranked, strict=True)},
                     convention="none")
    assert [100.0 * results[f"hit@{k},none"] for k in (1, 2, 3)] == pytest.approx(
        [ours[k] for k in (1, 2, 3)], abs=1e-9)
