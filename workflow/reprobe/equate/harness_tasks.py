"""EQUATE's sets as lm-evaluation-harness tasks: NLI as multiple choice, as the harness scores
RTE (two-way: "True or False?") and ANLI (three-way: "True, False, or Neither?").

One task per exported dataset folder (`equate_<variant>_<set>`, tagged `equate`), reading that
folder by its absolute path (the harness resolves a relative path against the directory it
runs in), and `utils.py` (reprobe.equate.harness_utils) for the gold choice.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import yaml

from reprobe.equate.evaluate import two_class_of
from reprobe.io import atomic_directory

UTILS = Path(__file__).with_name("harness_utils.py")
TWO_WAY = {"text": "{{sentence1}}\nQuestion: {{sentence2}} True or False?\nAnswer:",
           "choices": ["True", "False"], "target": "utils.two_way_target"}
THREE_WAY = {"text": "{{sentence1}}\nQuestion: {{sentence2}} True, False, or Neither?"
                     "\nAnswer:",
             "choices": ["True", "Neither", "False"], "target": "utils.three_way_target"}


def task_name(folder: Path) -> str:
    """A folder's task name: `released-rte_quant` -> `equate_released_rte_quant`."""
    return "equate_" + folder.name.replace("-", "_")


def task_yaml(folder: Path) -> str:
    """One task's YAML: the folder's test split as NLI multiple choice, scored by accuracy."""
    variant, _, test_set = folder.name.partition("-")
    form = TWO_WAY if two_class_of(test_set, variant) else THREE_WAY
    task = {"task": task_name(folder), "tag": ["equate"],
            "dataset_path": str(folder.resolve()), "test_split": "test",
            "output_type": "multiple_choice", "doc_to_text": form["text"],
            "doc_to_choice": form["choices"],
            "metric_list": [{"metric": "acc", "aggregation": "mean", "higher_is_better": True}],
            "metadata": {"version": 1.0}}
    # `!function` is the harness's own YAML tag: safe_dump cannot write it.
    return (yaml.safe_dump(task, sort_keys=False, allow_unicode=True)
            + f"doc_to_target: !function {form['target']}\n")


def write_tasks(folders: list[Path], output: Path) -> None:
    """Write one task per exported folder, and utils.py, into `output` (atomically)."""
    with atomic_directory(output) as tmp:
        for folder in folders:
            (tmp / f"{task_name(folder)}.yaml").write_text(task_yaml(folder), encoding="utf-8")
        shutil.copyfile(UTILS, tmp / "utils.py")
