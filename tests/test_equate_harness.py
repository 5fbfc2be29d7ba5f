"""EQUATE's lm-evaluation-harness tasks (reprobe.equate.harness_tasks), run by the real
harness, offline: on the workflow's tiny NLI model (a BERT classifier, through
reprobe.equate.harness_model), and on a tiny GPT-2 trained here on the NLI training sample.

The classifier's rule (reprobe.equate.harness_model): a choice scores the log-probability of
the class it names (two-way False: the likelier of neutral and contradiction), so the harness's
accuracy is Table 6's accuracy of the same checkpoint; checked per choice (1e-4) and exactly.

The causal LM's rule,
as the harness scores RTE and ANLI: the context is the prompt
"{premise}\\nQuestion: {hypothesis} True or False?\\nAnswer:" (three-way: "True, False, or
Neither?"), each choice is " True", " False" (" Neither") after it, and a choice's score is the
summed log-probability of its tokens given the context; the prediction is the best choice.
The test recomputes that rule with torch and checks the harness's log-likelihoods (to 1e-4)
and its accuracy (exactly).
"""

from __future__ import annotations

import dataclasses
import json
import math
from pathlib import Path

import gensim
import pytest
import yaml

from conftest import REPO
from reprobe.equate import harness_utils
from reprobe.equate.evaluate import accuracy, two_class_of
from reprobe.equate.exports import export_set
from reprobe.equate.harness_tasks import task_name, task_yaml, write_tasks
from reprobe.equate.jsonl import read_pairs
from reprobe.equate.labels import LABELS
from reprobe.equate.settings import TINY_PATH, TinyNliSettings
from reprobe.step_settings import settings_from_schema

SAMPLES = REPO / "data/samples/equate"
# The default run's stand-in for GloVe: gensim's small fastText vectors (config.yaml's source).
VECTORS = Path(gensim.__file__).parent / "test/test_data/lee_fasttext.vec"


def test_the_utils_labels_are_reprobes():
    assert harness_utils.THREE_WAY == LABELS
    doc = {"gold_label": "contradiction"}
    assert (harness_utils.three_way_target(doc), harness_utils.two_way_target(doc)) == (2, 1)


def test_two_way_sets_ask_true_or_false_and_three_way_sets_add_neither(tmp_path):
    two = task_yaml(tmp_path / "released-rte_quant", tmp_path / "lm_eval")
    three = task_yaml(tmp_path / "rebuilt-stresstest", tmp_path / "lm_eval")
    assert "True or False?" in two and "doc_to_target: !function utils.two_way_target" in two
    assert "True, False, or Neither?" in three and "- Neither" in three
    assert "utils.three_way_target" in three
    # The data is named relative to the task folder, so exports/ can be moved whole.
    assert "dataset_folder: ../rebuilt-stresstest" in three and "dataset_path" not in three
    assert "custom_dataset: !function utils.exported_dataset" in three
    assert task_name(tmp_path / "perturbation-perturbed") == "equate_perturbation_perturbed"
    assert "True or False?" in task_yaml(tmp_path / "perturbation-unperturbed", tmp_path)


def direct_loglikelihood(model, tokenizer, context: str, continuation: str) -> float:
    """The summed log-probability of `continuation` after `context`, tokenized as the harness
    does (the pair encoded whole, the context's own encoding split off)."""
    import torch

    whole = tokenizer.encode(context + continuation)
    context_ids = tokenizer.encode(context)
    ids = torch.tensor([whole])
    with torch.inference_mode():
        logits = model(input_ids=ids[:, :-1]).logits[0].float()
    logp = torch.log_softmax(logits, dim=-1).gather(-1, ids[0, 1:, None])[:, 0]
    return float(logp[len(context_ids) - 1:].sum())


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_the_harness_scores_a_set_as_the_task_defines(tmp_path, hf_offline):
    lm_eval = pytest.importorskip("lm_eval")
    from lm_eval.tasks import TaskManager
    from transformers import AutoModelForCausalLM, AutoTokenizer

    # A tiny causal LM trained on the NLI sample's sentences (the NumerSense stage's builder).
    from reprobe.numersense.tiny import build_tiny_model

    train = list(read_pairs(SAMPLES / "nli_train.jsonl"))
    lines = [text for row in train for text in (row["sentence1"], row["sentence2"])]
    model_dir = build_tiny_model("gpt2", lines, tmp_path / "gpt2", seed=0, hidden=32, layers=2,
                                 heads=2, steps=20, lr=3e-3, vocab_size=800)
    tokenizer = AutoTokenizer.from_pretrained(str(model_dir), local_files_only=True)
    # Short pairs: the tiny model reads 128 positions, and the harness would cut longer prompts.
    pairs = [row for row in read_pairs(SAMPLES / "redditnli.jsonl")
             if len(tokenizer.encode(row["sentence1"] + row["sentence2"])) < 90][:12]
    assert len(pairs) >= 4
    source = tmp_path / "redditnli.jsonl"
    source.write_text("".join(json.dumps(row) + "\n" for row in pairs), encoding="utf-8")
    folder = tmp_path / "exports" / "released-redditnli"
    export_set(source, folder, variant="released", test_set="redditnli", recovery=None,
               sources={})
    write_tasks([folder], tmp_path / "lm_eval")
    out = lm_eval.simple_evaluate(
        model="hf", model_args=f"pretrained={model_dir},dtype=float32",
        tasks=["equate_released_redditnli"],
        task_manager=TaskManager(include_path=str(tmp_path / "lm_eval"),
                                 include_defaults=False),
        num_fewshot=0, batch_size=8, device="cpu", log_samples=True)
    samples = sorted(out["samples"]["equate_released_redditnli"], key=lambda s: s["doc_id"])
    assert len(samples) == len(pairs)
    model = AutoModelForCausalLM.from_pretrained(str(model_dir), local_files_only=True).eval()
    correct = 0
    for sample, pair in zip(samples, pairs, strict=True):
        context = (f"{pair['sentence1']}\nQuestion: {pair['sentence2']} True, False, or "
                   "Neither?\nAnswer:")
        ours = [direct_loglikelihood(model, tokenizer, context, f" {choice}")
                for choice in ("True", "Neither", "False")]
        theirs = [float(ll) for ll, _ in sample["filtered_resps"]]
        assert ours == pytest.approx(theirs, abs=1e-4)
        correct += ours.index(max(ours)) == LABELS.index(pair["gold_label"])
    assert out["results"]["equate_released_redditnli"]["acc,none"] == correct / len(pairs)


def test_the_tasks_of_exported_folders_are_written_with_utils(tmp_path):
    folder = tmp_path / "released-rte_quant"
    export_set(SAMPLES / "rte_quant.jsonl", folder, variant="released", test_set="rte_quant",
               recovery=None, sources={})
    write_tasks([folder], tmp_path / "lm_eval")
    assert sorted(p.name for p in (tmp_path / "lm_eval").iterdir()) == [
        "README.md", "equate_released_rte_quant.yaml", "utils.py"]


@pytest.fixture(scope="module")
def tiny_nli(tmp_path_factory: pytest.TempPathFactory):
    """The default run's tiny NLI checkpoint: config.yaml's settings, the NLI sample."""
    from reprobe.equate.neural import build_tiny_nli_model

    config = yaml.safe_load((REPO / "config/config.yaml").read_text(encoding="utf-8"))
    changes = config["equate"]["neural"]["tiny-BERT"]["tiny"]
    return build_tiny_nli_model(tmp_path_factory.mktemp("nli") / "tiny-BERT",
                                SAMPLES / "nli_train.jsonl", seed=config["seed"],
                                settings=settings_from_schema(TinyNliSettings, TINY_PATH,
                                                              **changes))


def classifier_log_probs(model_dir, pair: dict) -> dict[str, float]:
    """The checkpoint's log-probability per label for one pair, computed here with torch."""
    import torch
    from transformers import AutoModelForSequenceClassification, AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(str(model_dir), local_files_only=True)
    model = AutoModelForSequenceClassification.from_pretrained(str(model_dir),
                                                               local_files_only=True).eval()
    with torch.inference_mode():
        logits = model(**tokenizer(pair["sentence1"], pair["sentence2"], truncation=True,
                                   max_length=256, return_tensors="pt")).logits[0]
    values = torch.log_softmax(logits.float(), dim=-1).tolist()
    return {model.config.id2label[i]: v for i, v in enumerate(values)}


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
@pytest.mark.parametrize("test_set", ["redditnli", "rte_quant"])
def test_the_harness_scores_the_tiny_nli_model_as_table6_does(tmp_path, hf_offline, tiny_nli,
                                                              test_set):
    lm_eval = pytest.importorskip("lm_eval")
    from lm_eval.tasks import TaskManager

    from reprobe.equate.harness_model import NliClassifierLM
    from reprobe.equate.neural import predict_nli

    folder = tmp_path / "exports" / f"released-{test_set}"
    export_set(SAMPLES / f"{test_set}.jsonl", folder, variant="released", test_set=test_set,
               recovery=None, sources={})
    write_tasks([folder], tmp_path / "lm_eval")
    task = task_name(folder)
    out = lm_eval.simple_evaluate(
        model=NliClassifierLM(tiny_nli, batch_size=8), tasks=[task],
        task_manager=TaskManager(include_path=str(tmp_path / "lm_eval"),
                                 include_defaults=False),
        num_fewshot=0, log_samples=True)
    pairs = list(read_pairs(SAMPLES / f"{test_set}.jsonl"))
    samples = sorted(out["samples"][task], key=lambda s: s["doc_id"])
    assert len(samples) == len(pairs)
    two_class = two_class_of(test_set, "released")
    for sample, pair in zip(samples, pairs, strict=True):
        probs = classifier_log_probs(tiny_nli, pair)
        if two_class:
            ours = [probs["entailment"], max(probs["neutral"], probs["contradiction"])]
        else:
            ours = [probs["entailment"], probs["neutral"], probs["contradiction"]]
        theirs = [float(ll) for ll, _ in sample["filtered_resps"]]
        assert ours == pytest.approx(theirs, abs=1e-4)
    predicted = predict_nli(tiny_nli, pairs, batch_size=8)
    table6 = accuracy([p["gold_label"] for p in pairs], predicted, two_class)
    assert out["results"][task]["acc,none"] * 100 == pytest.approx(table6, abs=1e-9)


def test_a_two_way_checkpoint_cannot_answer_neither():
    from reprobe.equate.harness_model import choice_log_likelihood

    two_way = {"entailment": -0.2, "non-entailment": -1.7}
    assert choice_log_likelihood(two_way, " False", three_way=False) == -1.7
    assert choice_log_likelihood(two_way, " Neither", three_way=True) == -math.inf
    with pytest.raises(ValueError, match="Maybe"):
        choice_log_likelihood(two_way, " Maybe", three_way=True)


def assert_the_harness_command_scores_as_table6(tmp_path, checkpoint, predict) -> None:
    """`reprobe equate harness` on a three-way and a two-way set: each task's accuracy is
    Table 6's, from `predict(checkpoint, pairs, batch_size=8)`."""
    pytest.importorskip("lm_eval")
    from reprobe.cli import main

    folders = []
    for test_set in ("redditnli", "rte_quant"):
        folders.append(tmp_path / "exports" / f"released-{test_set}")
        export_set(SAMPLES / f"{test_set}.jsonl", folders[-1], variant="released",
                   test_set=test_set, recovery=None, sources={})
    write_tasks(folders, tmp_path / "lm_eval")
    output = tmp_path / "results.json"
    assert main(["equate", "harness", "--checkpoint", str(checkpoint), "--include-path",
                 str(tmp_path / "lm_eval"), "--output", str(output), "--batch-size", "8"]) == 0
    results = json.loads(output.read_text(encoding="utf-8"))["results"]
    for folder in folders:
        test_set = folder.name.partition("-")[2]
        pairs = list(read_pairs(SAMPLES / f"{test_set}.jsonl"))
        table6 = accuracy([p["gold_label"] for p in pairs],
                          predict(checkpoint, pairs, batch_size=8),
                          two_class_of(test_set, "released"))
        assert results[task_name(folder)]["acc,none"] * 100 == pytest.approx(table6, abs=1e-9)


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_the_harness_command_writes_the_accuracy_of_every_tagged_task(tmp_path, hf_offline,
                                                                      tiny_nli):
    from reprobe.equate.neural import predict_nli

    assert_the_harness_command_scores_as_table6(tmp_path, tiny_nli, predict_nli)


def test_the_harness_command_without_lm_eval_says_how_to_install_it(tmp_path, monkeypatch,
                                                                     caplog):
    import sys

    from reprobe.cli import main

    monkeypatch.setitem(sys.modules, "lm_eval", None)  # import lm_eval raises
    assert main(["equate", "harness", "--checkpoint", str(tmp_path), "--include-path",
                 str(tmp_path), "--output", str(tmp_path / "r.json"), "--batch-size", "8"]) == 1
    assert "pip install -e '.[harness]'" in caplog.text
    assert not (tmp_path / "r.json").exists()


@pytest.fixture(scope="module")
def trained_esim(tmp_path_factory: pytest.TempPathFactory):
    """The default run's tiny ESIM (config.yaml's row), trained on the NLI sample."""
    from reprobe.equate.settings import TRAINED_PATH, TrainedRowSettings
    from reprobe.equate.trained.saved import TrainedSettings, train_baseline
    from reprobe.equate.trained.vocabulary import make_vocabulary

    config = yaml.safe_load((REPO / "config/config.yaml").read_text(encoding="utf-8"))
    row = settings_from_schema(TrainedRowSettings, TRAINED_PATH,
                               **config["equate"]["trained"]["tiny-ESIM"])
    base = tmp_path_factory.mktemp("trained")
    make_vocabulary(SAMPLES / "nli_train.jsonl", VECTORS, base / "vocabulary")
    train_baseline(SAMPLES / "nli_train.jsonl", SAMPLES / "multinli_dev_matched.jsonl",
                   base / "vocabulary", base / "tiny-ESIM",
                   settings=TrainedSettings(**dataclasses.asdict(row), device="cpu",
                                            precision=None),
                   seed=config["seed"], threads=1)
    return base / "tiny-ESIM"


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_the_harness_command_scores_a_trained_baseline_as_table6_does(tmp_path, hf_offline,
                                                                     trained_esim):
    from reprobe.equate.trained.saved import predict_trained

    assert_the_harness_command_scores_as_table6(tmp_path, trained_esim, predict_trained)
