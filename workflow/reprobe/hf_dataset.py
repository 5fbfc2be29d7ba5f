"""A dataset as a Hugging Face dataset folder: one Parquet file per split and a `README.md`
dataset card whose YAML header the hub and `datasets.load_dataset(folder)` read.

The header names the splits' files (`configs`), their columns and types (`dataset_info`), the
licence and the task categories; the body says what the dataset is, how it was built and from
which sources (with sha256), how it compares with the released version, and how to cite the
paper. Written with pyarrow alone: `datasets` is needed only to read the folder back.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import yaml

from reprobe.io import atomic_directory

# The dataset card: the file a rule names as a folder's output (a `directory()` output would
# leave Snakemake's `.snakemake_timestamp` among the dataset's files).
CARD = "README.md"
# Arrow types as the hub's dataset_info names them.
_DTYPES = {pa.string(): "string", pa.large_string(): "string", pa.int64(): "int64",
           pa.int32(): "int32", pa.float64(): "float64", pa.float32(): "float32",
           pa.bool_(): "bool"}


@dataclass(frozen=True)
class DatasetCard:
    """What a dataset card says besides its splits: the hub's header fields and the body."""

    pretty_name: str
    summary: str
    license: str
    licence_note: str
    task_categories: tuple[str, ...]
    citation: str
    built: Sequence[str] = field(default_factory=tuple)
    sources: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    comparison: str = ""


def card_path(folder: str) -> str:
    """The card of an exported folder (or task folder): the path its rule outputs."""
    return f"{folder}/{CARD}"


def feature(arrow_type: pa.DataType) -> dict[str, Any]:
    """A column type as the card's `features` entry (a list column is a `sequence`)."""
    if pa.types.is_list(arrow_type) or pa.types.is_large_list(arrow_type):
        return {"sequence": feature(arrow_type.value_type)["dtype"]}
    if arrow_type not in _DTYPES:
        raise ValueError(f"no dataset card type for the Arrow type {arrow_type}")
    return {"dtype": _DTYPES[arrow_type]}


def card_header(card: DatasetCard, splits: Mapping[str, pa.Table]) -> dict[str, Any]:
    """The card's YAML header: licence, tasks, the splits' files, columns and sizes."""
    first = next(iter(splits.values()))
    return {
        "pretty_name": card.pretty_name,
        "license": card.license,
        "task_categories": list(card.task_categories),
        "language": ["en"],
        "configs": [{"config_name": "default",
                     "data_files": [{"split": name, "path": f"data/{name}.parquet"}
                                    for name in splits]}],
        "dataset_info": {
            "features": [{"name": column.name, **feature(column.type)}
                         for column in first.schema],
            "splits": [{"name": name, "num_bytes": table.nbytes,
                        "num_examples": table.num_rows} for name, table in splits.items()]},
    }


def card_text(card: DatasetCard, splits: Mapping[str, pa.Table]) -> str:
    """The whole `README.md`: the YAML header between `---` lines, then the body."""
    header = yaml.safe_dump(card_header(card, splits), sort_keys=False, allow_unicode=True)
    rows = "\n".join(f"| {name} | {table.num_rows} |" for name, table in splits.items())
    sources = "\n".join(
        f"| {name} | {spec.get('url') or spec.get('path') or ''} | "
        f"{spec.get('sha256') or 'not pinned'} |" for name, spec in card.sources.items())
    body = [f"# {card.pretty_name}", "", card.summary, "", "## Splits", "",
            "| split | rows |", "|---|---|", rows, "", "## How it was built", "",
            *(f"- {line}" for line in card.built), "",
            "## Sources", "", "| source | where | sha256 |", "|---|---|---|",
            sources or "| (none recorded) | | |", "",
            "## Compared with the released version", "",
            card.comparison or "No released version is configured to compare with.", "",
            "## Licence", "", card.licence_note, "", "## Citation", "", "```bibtex",
            card.citation.strip(), "```", ""]
    return f"---\n{header}---\n\n" + "\n".join(body)


def write_dataset_folder(folder: Path, splits: Mapping[str, Any], card: DatasetCard) -> None:
    """Write the folder atomically: `data/<split>.parquet` per split (a pandas frame or an
    Arrow table, all with the same columns) and `README.md`."""
    if not splits:
        raise ValueError(f"{folder}: a dataset needs at least one split")
    tables = {name: split if isinstance(split, pa.Table)
              else pa.Table.from_pandas(split, preserve_index=False)
              for name, split in splits.items()}
    first = next(iter(tables.values())).schema
    empty = [name for name, table in tables.items() if table.num_rows == 0]
    if empty:
        # `datasets` cannot read a Parquet split without rows: leave the split out instead.
        raise ValueError(f"{folder}: split {empty[0]} has no rows")
    for name, table in tables.items():
        if not table.schema.equals(first):
            raise ValueError(f"{folder}: split {name} has columns {table.schema.names}, "
                             f"not {first.names}")
    with atomic_directory(Path(folder)) as tmp:
        (tmp / "data").mkdir()
        for name, table in tables.items():
            pq.write_table(table.replace_schema_metadata(None), tmp / "data" / f"{name}.parquet")
        (tmp / "README.md").write_text(card_text(card, tables), encoding="utf-8")


def read_card_json(path: Path) -> dict[str, Any]:
    """A built file's `.card.json` beside it (how it was built, its sources), if there is one."""
    card = Path(f"{path}.card.json")
    return json.loads(card.read_text(encoding="utf-8")) if card.exists() else {}
