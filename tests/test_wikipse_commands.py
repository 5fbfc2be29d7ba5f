"""The `reprobe wikipse` steps the default run does not take: the paper's Freebase typing path,
run through the CLI on the Freebase sample written for this project."""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import yaml

from conftest import REPO
from reprobe.cli import main
from reprobe.wikipse.resource.typing import read_typed_targets

SAMPLES = REPO / "data/samples/wikipse"


def test_freebase_then_typing_through_the_cli(tmp_path: Path) -> None:
    types, titles = tmp_path / "types.parquet", tmp_path / "titles.parquet"
    assert main(["wikipse", "freebase", "--dump", str(SAMPLES / "freebase_sample.nt.gz"),
                 "--figer-map", str(SAMPLES / "figer_types.map"), "--types-out", str(types),
                 "--titles-out", str(titles)]) == 0
    links = tmp_path / "links.parquet"
    pq.write_table(pa.table({"target": ["Aristotle", "Aristotle", "George Orwell",
                                        "Nowhere Special"]}), links)
    fold = yaml.safe_load((REPO / "config/config.yaml").read_text())["wikipse"]["fold"]
    out = tmp_path / "out"
    assert main(["wikipse", "typing", "--links", str(links), "--figer-map",
                 str(SAMPLES / "figer_types.map"), "--fold", json.dumps(fold),
                 "--freebase-types", str(types), "--freebase-titles", str(titles),
                 "--output", str(out / "typed.parquet"), "--counts", str(out / "counts.json"),
                 "--fold-csv", str(out / "fold.csv"), "--fold-md", str(out / "fold.md"),
                 "--typing-csv", str(out / "typing.csv"),
                 "--typing-md", str(out / "typing.md"), "--memory-mb", "64"]) == 0
    typed = read_typed_targets(out / "typed.parquet")
    assert typed["Aristotle"] == ["-person"] and typed["George Orwell"] == ["-person"]
    counts = json.loads((out / "counts.json").read_text())
    assert counts["unmapped_title"] == 1 and counts["links"] == 4 and counts["links_typed"] == 3


def test_shared_options_name_the_formats_the_loader_reads() -> None:
    from reprobe.embeddings.load import FORMATS
    from reprobe.wikipse.options import VECTOR_FORMATS

    assert set(VECTOR_FORMATS) == set(FORMATS)


def test_shared_options_name_the_similarity_kinds_the_schema_allows() -> None:
    from reprobe.config import load_schema
    from reprobe.wikipse.options import SIMILARITY_KINDS

    similarity = load_schema()["properties"]["wikipse"]["properties"]["similarity"]
    assert list(SIMILARITY_KINDS) == similarity["additionalProperties"]["properties"]["kind"][
        "enum"]
