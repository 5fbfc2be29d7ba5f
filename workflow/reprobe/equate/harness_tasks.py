"""EQUATE's sets as lm-evaluation-harness tasks: NLI as multiple choice, as the harness scores
RTE (two-way: "True or False?") and ANLI (three-way: "True, False, or Neither?").

One task per exported dataset folder (`equate_<variant>_<set>`, tagged `equate`), reading that
folder named relative to the task folder (`custom_dataset: !function utils.exported_dataset`: a
relative `dataset_path` would be read against the directory the harness runs in), so exports/
can be moved whole, and `utils.py` (reprobe.equate.harness_utils) for the gold choice.
"""

from __future__ import annotations

import os
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


def task_yaml(folder: Path, tasks: Path) -> str:
    """One task's YAML: the folder's test split as NLI multiple choice, scored by accuracy; the
    folder is named relative to the task folder `tasks`."""
    variant, _, test_set = folder.name.partition("-")
    form = TWO_WAY if two_class_of(test_set, variant) else THREE_WAY
    task = {"task": task_name(folder), "tag": ["equate"],
            "dataset_kwargs": {"dataset_folder": os.path.relpath(folder.resolve(), tasks)},
            "test_split": "test",
            "output_type": "multiple_choice", "doc_to_text": form["text"],
            "doc_to_choice": form["choices"],
            "metric_list": [{"metric": "acc", "aggregation": "mean", "higher_is_better": True}],
            "metadata": {"version": 1.0}}
    # `!function` is the harness's own YAML tag: safe_dump cannot write it.
    return (yaml.safe_dump(task, sort_keys=False, allow_unicode=True)
            + "custom_dataset: !function utils.exported_dataset\n"
            + f"doc_to_target: !function {form['target']}\n")


def readme(names: list[str]) -> str:
    """The task folder's README (the file its rule outputs): its tasks and how to run them."""
    listed = "".join(f"- `{name}`\n" for name in names)
    return (f"# EQUATE tasks for lm-evaluation-harness\n\n{listed}\nAll are tagged `equate`. "
            "Run them on any model:\n\n```\nlm_eval --model hf --model_args pretrained=MODEL "
            "--tasks equate --include_path exports/equate/lm_eval\n```\n\nThe gold choice is "
            "in `utils.py`; each YAML names its dataset folder relative to this folder, so "
            "`exports/equate` can be moved or copied whole.\n")


def write_tasks(folders: list[Path], output: Path) -> None:
    """Write one task per exported folder, utils.py and a README into `output` (atomically)."""
    with atomic_directory(output) as tmp:
        for folder in folders:
            (tmp / f"{task_name(folder)}.yaml").write_text(task_yaml(folder, output.resolve()),
                                                           encoding="utf-8")
        shutil.copyfile(UTILS, tmp / "utils.py")
        (tmp / "README.md").write_text(readme([task_name(f) for f in folders]),
                                       encoding="utf-8")
