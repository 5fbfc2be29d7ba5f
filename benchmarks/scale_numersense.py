"""The scale benchmark's NumerSense chains: the builders' raw sources and the template job's
masked LM, generated in their real layouts (scale_numersense_inputs).

- `numersense_omcs`: the OMCS free sentences of N lines; `numersense_core` (build-core) reads
  them. Paper: the whole file, 898,161 lines (104 MB, config/paper.yaml's size): the ladder's top.
- `numersense_conceptnet`: the ConceptNet assertions of N rows and the rebuilt core probes;
  `numersense_all` (build-all) reads both. Paper: 34,074,917 rows (ConceptNet 5.7.0, the
  Hugging Face conceptnet5 card; 498 MB gzip, config/paper.yaml).
- `numersense_generics`: GenericsKB-Best of N rows and the four test probe files;
  `numersense_train` (build-train) reads them. Paper: 1,020,868 rows (GenericsKB-Best, the size
  config/paper.yaml's description gives): the ladder's top.
- `numersense_bert`: a BERT-shaped masked LM of hidden size N; `numersense_templates` fills
  Table 3's 3 templates with the paper config's 1,000 words (3,000 probes a job) and scores
  them. Its unit is the model's parameters; the paper's largest template row is RoBERTa-large
  (355M parameters; BERT-large 335M). The job runs on a GPU in config/paper.yaml; here on the
  CPU with the config's threads, so its time is a CPU job's (a GPU is faster).
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from scale_numersense_inputs import write_bert, write_conceptnet, write_generics, write_omcs
from scale_types import FilesChain, Level, Paper, Step, file_of, files_count, reprobe

OMCS_LINES = 898_161  # omcsnet_sentences_free (Hugging Face conceptnet5 card)
CONCEPTNET_ROWS = 34_074_917  # ConceptNet 5.7.0 assertions (same card)
GENERICS_ROWS = 1_020_868  # GenericsKB-Best (config/paper.yaml's description)
TEMPLATE_PARAMETERS = 355e6  # RoBERTa-large, the larger of the paper's two template rows
TEMPLATE_JOBS = 2  # numersense.templates.models: BERT-Large, RoBERTa-Large

CHAINS: tuple[FilesChain, ...] = (
    FilesChain("numersense_omcs", {
        "tiny": [2_000, 4_000, 8_000], "quick": [56_135, 224_540, OMCS_LINES],
        "default": [56_135, 112_270, 224_540, 449_080, OMCS_LINES]}, write_omcs),
    FilesChain("numersense_conceptnet", {
        "tiny": [4_000, 8_000, 16_000], "quick": [250_000, 1_000_000, 4_000_000],
        "default": [500_000, 1_000_000, 2_000_000, 4_000_000, 8_000_000]}, write_conceptnet),
    FilesChain("numersense_generics", {
        "tiny": [2_000, 4_000, 8_000], "quick": [63_804, 255_217, GENERICS_ROWS],
        "default": [63_804, 127_608, 255_217, 510_434, GENERICS_ROWS]}, write_generics),
    # Hidden sizes: quick 1.0M, 4.4M and 23M parameters; default 2.1M to BERT-base's 110M
    # (BERT-large's 335M, hidden 1024, takes ~10 CPU minutes here: extrapolated instead).
    FilesChain("numersense_bert", {
        "tiny": [32, 64, 128], "quick": [32, 128, 384],
        "default": [64, 128, 256, 512, 768]}, write_bert),
)


@cache
def numersense_config() -> dict[str, Any]:
    """config/paper.yaml's numersense section, its schema's defaults filled in."""
    from reprobe.config import CHECKOUT, fill_defaults, load_yaml

    config = load_yaml(CHECKOUT / "config" / "paper.yaml")
    fill_defaults(config)
    return {**config["numersense"], "seed": config["seed"]}


def builder_settings() -> str:
    """build-core's --settings, as the rule passes them."""
    from reprobe.numersense.settings import BuilderSettings
    from reprobe.numersense.targets import ordered_settings_json

    return ordered_settings_json(numersense_config()["builder"], BuilderSettings)


def adversarial_settings() -> str:
    """build-all's --settings, as the rule passes them."""
    from reprobe.numersense.settings import AdversarialSettings
    from reprobe.numersense.targets import ordered_settings_json

    return ordered_settings_json(numersense_config()["adversarial"], AdversarialSettings)


def run_settings() -> str:
    """templates' --settings as the rule passes them, on the CPU (the paper's device is a GPU)."""
    from reprobe.numersense.settings import RunSettings
    from reprobe.step_settings import settings_json

    settings = json.loads(settings_json(numersense_config(), RunSettings))
    return json.dumps({**settings, "device": "cpu"}, sort_keys=True)


def core_argv(level: Level) -> list[str]:
    """numersense_core."""
    out = level.folder / "core"
    return reprobe("numersense", "build-core", "--omcs", file_of(level, "omcs"),
                   "--settings", builder_settings(), "--txt", out / "test.core.masked.txt",
                   "--tsv", out / "test.core.masked.tsv", "--card", out / "core.card.json",
                   "--categories", out / "core.categories.tsv", "--filters", out / "filters.csv")


def all_argv(level: Level) -> list[str]:
    """numersense_all."""
    out = level.folder / "all"
    return reprobe("numersense", "build-all", "--core", file_of(level, "core"),
                   "--conceptnet", file_of(level, "conceptnet"),
                   "--settings", adversarial_settings(), "--txt", out / "test.all.masked.txt",
                   "--tsv", out / "test.all.masked.tsv", "--card", out / "all.card.json")


def train_argv(level: Level) -> list[str]:
    """numersense_train: the rebuilt and the released test files kept apart (positional, in
    the order NumerSenseTargets.test_probe_files lists them)."""
    out = level.folder / "train"
    exclude = [file_of(level, role) for role in
               ("rebuilt_core", "rebuilt_all", "released_core", "released_all")]
    return reprobe("numersense", "build-train", "--generics", file_of(level, "generics"),
                   "--tsv", out / "train.masked.tsv", "--card", out / "train.card.json",
                   *exclude)


def templates_argv(level: Level) -> list[str]:
    """numersense_templates of one row, with the paper's words and seed."""
    config = numersense_config()
    return reprobe("numersense", "templates", "--row", "BERT-Large", "--model",
                   file_of(level, "model"), "--words", str(config["templates"]["words"]),
                   "--seed", str(config["seed"]), "--settings", run_settings(),
                   "--output", Path(level.folder) / "templates" / "bert-large.csv")


STEPS: tuple[Step, ...] = (
    Step("numersense_core", ("numersense_core",), "OMCS lines", 1, "numersense_omcs",
         core_argv, files_count("lines"),
         Paper(OMCS_LINES, "build-core job", "omcs-sentences-free.txt: 898,161 lines "
               "(Hugging Face conceptnet5 card; 104 MB in config/paper.yaml)")),
    Step("numersense_all", ("numersense_all",), "ConceptNet rows", 1, "numersense_conceptnet",
         all_argv, files_count("rows"),
         Paper(CONCEPTNET_ROWS, "build-all job", "conceptnet-assertions-5.7.0.csv.gz: "
               "34,074,917 edges (Hugging Face conceptnet5 card; 498 MB gzip in "
               "config/paper.yaml); the core probes a fixed 3,000 (estimated)")),
    Step("numersense_train", ("numersense_train",), "GenericsKB rows", 1,
         "numersense_generics", train_argv, files_count("rows"),
         Paper(GENERICS_ROWS, "build-train job", "GenericsKB-Best.tsv: 1,020,868 sentences "
               "(config/paper.yaml; 94.9 MB); the test files at their fixed sizes")),
    # Its work and weights grow with the model's parameters (3,000 probes at every size):
    # CPU and peak RSS go linearly from the largest sizes to the paper's model (`vocabulary`).
    Step("numersense_templates", ("numersense_templates",), "model parameters",
         int(numersense_config()["threads"]), "numersense_bert", templates_argv,
         files_count("parameters"),
         Paper(TEMPLATE_PARAMETERS, "template job: 3 templates x 1,000 words, on the CPU",
               "RoBERTa-large's 355M parameters (BERT-large: 335M), the larger of "
               "numersense.templates.models in config/paper.yaml", jobs=TEMPLATE_JOBS,
               vocabulary=TEMPLATE_PARAMETERS), vocabulary="parameters"),
)
OUTPUTS: dict[str, tuple[str, ...]] = {
    "numersense_core": ("core",), "numersense_all": ("all",), "numersense_train": ("train",),
    "numersense_templates": ("templates",),
}
