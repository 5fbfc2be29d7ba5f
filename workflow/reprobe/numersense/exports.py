"""The NumerSense datasets as Hugging Face dataset folders (`reprobe numersense export`).

One folder per dataset, named `<variant>-<set>` (`rebuilt-core`, `released-validation`, …),
with one `test` split (a fine-tuning set: `train`) and a dataset card:
- probe sets (core, all, validation): `probe` (the sentence with `<mask>` where the number word
  was) and `label` (the number word, one of the 12 candidates); the rebuilt core adds
  `category` (Table 1's categories, from the builder's lexicon). A released core/all set has
  one row per labelled line the workflow scores (repeated probes kept, each with its own label:
  convention `none`, the one Table 2 is compared under);
- fine-tuning rows (train): `probe`, `label` and `sentence` (the probe with its label filled in);
- the authors' plain fine-tuning sentences (sentences): `sentence`.
The card says how the set was built (a rebuilt set's `.card.json`), from which files (sha256 of
the bytes read), how it overlaps the other variant, the sources' licences and the citation.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, NamedTuple

import pyarrow as pa

from reprobe.errors import InputFormatError, ReprobeError
from reprobe.hf_dataset import DatasetCard, write_dataset_folder
from reprobe.numersense.candidates import CANDIDATES
from reprobe.numersense.causal import filled
from reprobe.numersense.overlap import label_map, overlap_key, overlap_rows
from reprobe.numersense.probes import LabelledProbe, read_masked_tsv, read_masked_txt

PROBE_SETS = ("core", "all", "validation")
SETS = (*PROBE_SETS, "train", "sentences")
CITATION = """@inproceedings{lin-etal-2020-birds,
  title = {Birds have four legs?! {NumerSense}: Probing Numerical Commonsense Knowledge of
           Pre-Trained Language Models},
  author = {Lin, Bill Yuchen and Lee, Seyeon and Khanna, Rahul and Ren, Xiang},
  booktitle = {Proceedings of the 2020 Conference on Empirical Methods in Natural Language
               Processing (EMNLP)},
  year = {2020},
  publisher = {Association for Computational Linguistics},
  doi = {10.18653/v1/2020.emnlp-main.557}
}"""
SUMMARIES = {
    "core": "NumerSense's core probes: English commonsense sentences with one number word "
            "masked as `<mask>`.",
    "all": "NumerSense's core probes and their adversarial copies (an adjective inserted "
           "before a noun, from ConceptNet).",
    "validation": "NumerSense's released validation probes (labelled).",
    "train": "NumerSense's fine-tuning rows: generic sentences from GenericsKB-Best with one "
             "number word masked, the word, and the sentence filled in.",
    "sentences": "The plain GenericsKB sentences the NumerSense authors' README fine-tunes "
                 "masked LMs on (`gkb_best_filtered.txt`), one a row.",
}
ORIGINS = {"rebuilt": "Rebuilt by reprobe from the raw sources Lin et al. (2020) name.",
           "released": "The authors' release of Lin et al. (2020), exported by reprobe."}
TASK_NOTE = ("A model ranks the 12 number words (no, zero, one, …, ten) at the mask; hit@1/2/3 "
             "counts the rows whose `label` is among its top 1, 2, 3. The lm-evaluation-harness "
             "tasks in `exports/numersense/lm_eval/` score the released core, all and validation "
             "sets and the rebuilt core and all this way.")
OMCS_TERMS = ("The Open Mind Common Sense sentences (omcs-sentences-free.txt) ship with "
              "ConceptNet 5's downloads: ConceptNet's data as a whole is CC BY-SA 4.0, and a "
              "subset traced to its sources may be used under CC BY 4.0 (ConceptNet wiki, "
              "\"Copying and sharing ConceptNet\").")
LICENCES = {
    "released": ("mit", "The released files come from the authors' repository "
                 "(github.com/INK-USC/NumerSense), whose LICENSE is the MIT licence "
                 "(Copyright (c) 2020 INK-USC); the test labels, where given, from an early "
                 "public snapshot of it (scape1989/NumerSense). The probes were made from OMCS "
                 "sentences and ConceptNet adjectives, the fine-tuning sentences from "
                 "GenericsKB-Best (Allen Institute for AI, CC BY 4.0), whose terms apply too. "
                 + OMCS_TERMS),
    "core": ("cc-by-sa-4.0", "Rebuilt from OMCS sentences. " + OMCS_TERMS
             + " CC BY-SA 4.0 is named here as the stricter reading."),
    "all": ("cc-by-sa-4.0", "Rebuilt from OMCS sentences and ConceptNet 5.7 assertions (CC "
            "BY-SA 4.0). " + OMCS_TERMS),
    "train": ("cc-by-4.0", "Rebuilt from GenericsKB-Best (Allen Institute for AI), CC BY 4.0."),
}
SAMPLE_NOTE = ("Some files were read from local paths, not downloaded: the default "
               "configuration's samples are written for the reprobe project "
               "(data/samples/numersense/README.md) in the sources' layouts, not taken from them.")


class Inputs(NamedTuple):
    """What one export reads: its rows, and what the card says about them."""

    probes: Path
    labels: Path | None = None
    labels_from: str | None = None
    card_json: Path | None = None
    categories: Path | None = None
    compare: Path | None = None
    compare_labels: Path | None = None


def split_name(name: str) -> tuple[str, str]:
    """(variant, set) of a dataset name such as `rebuilt-core`; an error for any other name."""
    variant, _, set_name = name.partition("-")
    if variant not in ("rebuilt", "released") or set_name not in SETS:
        raise ReprobeError(f"--dataset {name}: expected <rebuilt|released>-<set>, the set one "
                           f"of {list(SETS)}")
    return variant, set_name


def labelled(path: Path, *, may_be_empty: bool = False) -> list[LabelledProbe]:
    """The labelled probes of a released-layout `.tsv`."""
    return read_masked_tsv(path, frozenset(CANDIDATES), may_be_empty=may_be_empty)


def probe_lines(path: Path) -> list[str]:
    """The probes of a `.txt` (one a line) or `.tsv` (probe<TAB>word) file, in file order."""
    return [p.probe for p in labelled(path)] if path.suffix == ".tsv" else read_masked_txt(path)


def read_sentences(path: Path) -> list[str]:
    """The non-blank lines of a plain-sentence file, stripped; an error naming the file if none."""
    try:
        lines = [line.strip() for line in path.read_text(encoding="utf-8").splitlines()]
    except UnicodeDecodeError as error:
        raise InputFormatError(path, f"byte {error.start}", "not UTF-8") from error
    sentences = [line for line in lines if line]
    if not sentences:
        raise InputFormatError(path, "whole file", "holds no sentence")
    return sentences


def read_categories(path: Path) -> list[str]:
    """The `category` column of the builder's `core.categories.tsv` (probe, label, category)."""
    rows = [line.split("\t") for line in path.read_text(encoding="utf-8").splitlines()[1:]
            if line.strip()]
    for number, row in enumerate(rows, start=2):
        if len(row) != 3:
            raise InputFormatError(path, f"line {number}", f"expected probe<TAB>label<TAB>"
                                   f"category, found {len(row)} fields")
    return [row[2] for row in rows]


def string_table(columns: Mapping[str, Sequence[str]]) -> pa.Table:
    """A table of string columns."""
    return pa.table({name: pa.array(list(values), pa.string())
                     for name, values in columns.items()})


def rows_table(set_name: str, inputs: Inputs) -> pa.Table:
    """The dataset's rows as an Arrow table, columns as the module docstring lists them."""
    if set_name == "sentences":
        return string_table({"sentence": read_sentences(inputs.probes)})
    rows = labelled(inputs.labels, may_be_empty=True) if inputs.labels else labelled(
        inputs.probes)
    if not rows:
        # `datasets` cannot read a split without rows, nor the harness score one.
        raise InputFormatError(inputs.labels, "whole file", f"no labelled probe for "
                               f"{inputs.probes}: nothing to export (numersense.gold can label "
                               "the released probes)")
    columns = {"probe": [r.probe for r in rows], "label": [r.label for r in rows]}
    if set_name == "train":
        columns["sentence"] = [filled(r.probe, r.label) for r in rows]
    if inputs.categories:
        categories = read_categories(inputs.categories)
        if len(categories) != len(rows):
            raise InputFormatError(inputs.categories, "whole file", f"{len(categories)} "
                                   f"categories for {len(rows)} probes in {inputs.probes}")
        columns["category"] = categories
    return string_table(columns)


def sha256_sources(sources: Mapping[str, Mapping[str, Any]]) -> dict[str, dict[str, Any]]:
    """Each source as the card lists it: where it comes from, the sha256 of the file read."""
    from reprobe.numersense.builder import sha256_file

    listed = {}
    for name, spec in sources.items():
        where = {key: spec[key] for key in ("url", "path") if spec.get(key)}
        listed[name] = {**where, "sha256": sha256_file(Path(spec["file"]))}
    return listed


def card_lines(card: Mapping[str, Any]) -> list[str]:
    """A rebuilt set's `.card.json` as card lines: its counts, then each parameter."""
    lines = [f"{key}: {json.dumps(value, ensure_ascii=False)}" for key, value in card.items()
             if key != "parameters"]
    lines += [f"parameter {key}: {json.dumps(value, ensure_ascii=False)}"
              for key, value in (card.get("parameters") or {}).items()]
    return lines


def built_lines(variant: str, set_name: str, inputs: Inputs, rows: int) -> list[str]:
    """The card's "how it was built" lines."""
    if variant == "rebuilt":
        lines = [f"Rebuilt by reprobe (`reprobe numersense build-{set_name}`) from the raw "
                 f"sources below into `{inputs.probes}` ({rows} rows)."]
        if inputs.card_json:
            card = json.loads(inputs.card_json.read_text(encoding="utf-8"))
            lines.append(f"The build's record (`{inputs.card_json}`) follows.")
            lines += card_lines(card)
        return lines
    lines = [f"The authors' released file as published: `{inputs.probes}`; probes stripped of "
             "their trailing spaces, repeated lines kept."]
    if inputs.labels:
        total = len(probe_lines(inputs.probes))
        origin = ("the configured gold labels (numersense.gold)" if inputs.labels_from == "gold"
                  else "reprobe's builder, for the released probes it re-creates; the other "
                  "lines are left out")
        lines.append(f"Labels from `{inputs.labels}`: {origin}. {rows} labelled rows for the "
                     f"{total} released lines, one row per label line (a repeated probe keeps "
                     "each label: convention `none`).")
    return lines


def percent(value: float) -> str:
    """A share in percent with one decimal, or n/a."""
    return "n/a" if math.isnan(value) else f"{value:.1f}%"


def probe_overlap(released: Sequence[str], released_labels: Sequence[LabelledProbe] | None,
                  rebuilt: Sequence[LabelledProbe]) -> str:
    """How many distinct probes the two variants share, and how often with the same label."""
    known = {"set": label_map(released_labels)} if released_labels else None
    row = overlap_rows({"set": released}, {"set": rebuilt}, known)[0]
    text = (f"Of the {row['released_distinct']} distinct released probes "
            f"({row['released_lines']} lines), {row['shared_distinct']} "
            f"({percent(row['share_of_released'])}) are also among the "
            f"{row['rebuilt_distinct']} distinct rebuilt probes "
            f"({percent(row['share_of_rebuilt'])} of them), compared lowercased with "
            "whitespace collapsed.")
    if row["label_compared"]:
        text += (f" Of the shared probes with a label on both sides ({row['label_compared']}), "
                 f"{percent(row['label_agreement'])} carry the same label.")
    return text


def sentence_overlap(released: Sequence[str], rebuilt: Sequence[str]) -> str:
    """How many distinct sentences the released and rebuilt fine-tuning sets share."""
    theirs = {overlap_key(s) for s in released}
    ours = {overlap_key(s) for s in rebuilt}
    shared = len(theirs & ours)
    return (f"Of the {len(theirs)} distinct released sentences, {shared} are also among the "
            f"{len(ours)} distinct sentences of the rebuilt fine-tuning rows (filled in), "
            "compared lowercased with whitespace collapsed.")


def comparison_text(variant: str, set_name: str, inputs: Inputs) -> str:
    """How this dataset compares with the other variant's ('' when there is none)."""
    if not inputs.compare:
        return ""
    other = "rebuilt" if variant == "released" else "released"
    if set_name == "sentences":
        rebuilt = [filled(p.probe, p.label) for p in labelled(inputs.compare)]
        return sentence_overlap(read_sentences(inputs.probes), rebuilt)
    if variant == "released":
        # The released validation probes are core-like: compared with the rebuilt core.
        ours = labelled(inputs.probes) if inputs.probes.suffix == ".tsv" else (
            labelled(inputs.labels, may_be_empty=True) if inputs.labels else None)
        text = probe_overlap(probe_lines(inputs.probes), ours, labelled(inputs.compare))
        return f"Compared with the {other} set `{inputs.compare}`: {text}"
    theirs = labelled(inputs.compare_labels) if inputs.compare_labels else (
        labelled(inputs.compare) if inputs.compare.suffix == ".tsv" else None)
    text = probe_overlap(probe_lines(inputs.compare), theirs, labelled(inputs.probes))
    return f"Compared with the {other} set `{inputs.compare}`: {text}"


def licence(variant: str, set_name: str, sources: Mapping[str, Mapping[str, Any]]
            ) -> tuple[str, str]:
    """The card's licence identifier and note."""
    key = "released" if variant == "released" else set_name
    identifier, note = LICENCES[key]
    if any(not spec.get("url") for spec in sources.values()):
        note += " " + SAMPLE_NOTE
    return identifier, note


def export_dataset(name: str, inputs: Inputs, output: Path,
                   sources: Mapping[str, Mapping[str, Any]]) -> int:
    """Write one NumerSense dataset as a dataset folder with its card; its row count."""
    variant, set_name = split_name(name)
    table = rows_table(set_name, inputs)
    identifier, note = licence(variant, set_name, sources)
    card = DatasetCard(
        pretty_name=f"NumerSense {set_name} ({variant})",
        summary=(f"{SUMMARIES[set_name]} {ORIGINS[variant]} Dataset `{name}`; columns: "
                 f"{', '.join(table.column_names)}. "
                 + (TASK_NOTE if set_name in PROBE_SETS else "")),
        license=identifier, licence_note=note, task_categories=("fill-mask",),
        citation=CITATION, built=built_lines(variant, set_name, inputs, table.num_rows),
        sources=sha256_sources(sources),
        comparison=comparison_text(variant, set_name, inputs))
    split = "train" if set_name in ("train", "sentences") else "test"
    write_dataset_folder(output, {split: table}, card)
    return table.num_rows
