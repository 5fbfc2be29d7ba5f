"""lm-evaluation-harness tasks for the exported NumerSense probe sets
(`reprobe numersense harness-tasks`).

One task YAML per exported probe-set folder, named `numersense_<set>` for a released set and
`numersense_rebuilt_<set>` for a rebuilt one, all tagged `numersense`, and `utils.py` (a copy of
`harness_utils.py`: the sentence rule and hit@1/2/3, and the loader). Each YAML names its folder
relative to its own (`custom_dataset: !function utils.exported_dataset`; a relative
`dataset_path` would be read against the current directory), so exports/ can be moved whole.
Run them with `lm_eval --model hf --model_args pretrained=MODEL --tasks numersense_core
--include_path exports/numersense/lm_eval`.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from importlib.resources import files
from pathlib import Path
from typing import Any

import yaml

from reprobe.errors import ReprobeError
from reprobe.io import atomic_directory
from reprobe.numersense.exports import PROBE_SETS, split_name

TAG = "numersense"
# The harness imports these by name from utils.py; YAML's `!function` tag is written as text
# (yaml.safe_dump cannot write a custom tag).
FUNCTIONS = {"custom_dataset": "exported_dataset", "doc_to_text": "sentence_text",
             "doc_to_choice": "sentence_choices", "doc_to_target": "doc_to_target",
             "process_results": "process_results"}
HEADER = ("# NumerSense (Lin et al. 2020), written by `reprobe numersense harness-tasks`.\n"
          "# The sentence rule: empty context, each choice the whole probe with a number word\n"
          "# at its mask, so a choice's log-likelihood is the sum over every token of the\n"
          "# filled sentence after the model's BOS (else EOS) token; hit@k over that ranking,\n"
          "# ties in candidate order, no/zero apart (utils.py).\n")


def task_name(dataset: str) -> str:
    """The task of an exported folder: `numersense_core`, `numersense_rebuilt_core`, …"""
    variant, set_name = split_name(dataset)
    if set_name not in PROBE_SETS:
        raise ReprobeError(f"{dataset}: only probe sets {list(PROBE_SETS)} are harness tasks")
    return f"numersense_{set_name}" if variant == "released" else f"numersense_{variant}_{set_name}"


def task_config(name: str, folder: Path, tasks: Path) -> dict[str, Any]:
    """A task's YAML fields, but the `!function` ones; the data is `folder` named relative to
    the task folder `tasks`."""
    return {
        "task": name,
        "tag": [TAG],
        "dataset_kwargs": {"dataset_folder": os.path.relpath(folder, tasks)},
        "test_split": "test",
        "output_type": "multiple_choice",
        "target_delimiter": "",
        "metric_list": [{"metric": f"hit@{k}", "aggregation": "mean", "higher_is_better": True}
                        for k in (1, 2, 3)],
        "metadata": {"version": 1.0, "dataset": folder.name},
    }


def task_yaml(name: str, folder: Path, tasks: Path) -> str:
    """A task's whole YAML text."""
    functions = "".join(f"{key}: !function utils.{value}\n" for key, value in FUNCTIONS.items())
    return HEADER + yaml.safe_dump(task_config(name, folder, tasks), sort_keys=False) + functions


def check_folder(folder: Path) -> None:
    """An error naming the folder unless it is an exported probe set (a test split)."""
    if not (folder / "data" / "test.parquet").is_file():
        raise ReprobeError(f"{folder}: no data/test.parquet (not an exported probe set)")


def readme(names: Sequence[str]) -> str:
    """The task folder's README: its tasks and the command that runs them."""
    listed = "".join(f"- `{name}`\n" for name in names)
    return (f"# NumerSense tasks for lm-evaluation-harness\n\n{listed}\nAll are tagged "
            f"`{TAG}`. Run one (or the tag) on any model:\n\n```\nlm_eval --model hf "
            "--model_args pretrained=MODEL --tasks numersense_core --include_path "
            "exports/numersense/lm_eval\n```\n\nThe scoring rule is in `utils.py`; each YAML "
            "names its dataset folder relative to this folder, so `exports/numersense` can be "
            "moved or copied whole.\n")


def write_harness_tasks(datasets: Sequence[Path], output: Path) -> list[str]:
    """Write one task YAML per exported folder, utils.py and a README; the task names."""
    names = []
    with atomic_directory(output) as staging:
        utils = files("reprobe.numersense").joinpath("harness_utils.py").read_text("utf-8")
        (staging / "utils.py").write_text(utils, encoding="utf-8")
        for folder in (Path(d).resolve() for d in datasets):
            name = task_name(folder.name)
            check_folder(folder)
            (staging / f"{name}.yaml").write_text(task_yaml(name, folder, output.resolve()),
                                                  encoding="utf-8")
            names.append(name)
        (staging / "README.md").write_text(readme(names), encoding="utf-8")
    return names
