"""Which jobs score Table 6's rows (reprobe.equate.row_jobs): one per row and variant over its
whole sets, the sharded sets per set; every score file made by exactly one job."""

from __future__ import annotations

import re
from types import SimpleNamespace

from reprobe.cli import build_parser
from reprobe.equate.row_jobs import RowJobs
from reprobe.equate.targets import RESULTS
from test_equate_targets import targets


def test_sharded_sets_are_left_to_the_per_set_rule() -> None:
    rows = RowJobs(targets())  # CONFIG shards released newsnli over 3 jobs
    assert rows.sharded == ["newsnli"]
    assert rows.whole_sets("released") == ["stresstest"]
    assert rows.variants() == ["released", "rebuilt", "perturbation"]
    assert re.fullmatch(rows.sharded_pattern(), "newsnli")
    assert RowJobs(targets(score_shards={})).sharded_pattern() == "no-sets"


def test_every_score_file_comes_from_exactly_one_job() -> None:
    eq = targets()
    rows = RowJobs(eq)
    made: list[str] = []
    for variant in rows.variants():
        for model in eq.variant_rows(variant):
            for kind in ("scores", "predictions"):
                made += [pattern.format(model=model) for pattern in rows.outputs(variant, kind)]
    gathered = [f"{RESULTS}/scores/{variant}/{name}/{model}.csv"
                for variant, sets in eq.sets.items() for name in sets if name in rows.sharded
                for model in eq.variant_rows(variant)]
    wanted = [path for variant in eq.sets for path in eq.variant_scores(variant)]
    scores = [path for path in made if path.endswith(".csv")]
    assert sorted(scores + gathered) == sorted(wanted)
    assert len(set(made)) == len(made)


def test_a_row_job_reads_its_sets_and_its_model_and_its_command_parses() -> None:
    eq = targets()
    rows = RowJobs(eq)
    wildcards = SimpleNamespace(model="tiny-BERT")
    inputs = rows.inputs("rebuilt")(wildcards)
    assert inputs["checkpoint"] == "data/models/equate/neural/tiny-BERT"
    assert len(inputs["pairs"]) == len(rows.whole_sets("rebuilt")) > 1
    arguments = rows.arguments("rebuilt")(wildcards)
    outputs = [pattern.format(model="tiny-BERT") for pattern in rows.outputs("rebuilt", "scores")]
    predictions = [p.format(model="tiny-BERT") for p in rows.outputs("rebuilt", "predictions")]
    args = build_parser().parse_args(["equate", "score", *arguments, "--scores", *outputs,
                                      "--predictions", *predictions])
    assert args.test_set == rows.whole_sets("rebuilt") and len(args.pairs) == len(outputs)
    assert args.kind == "neural" and args.checkpoint == inputs["checkpoint"]
    # MAJ is no row of §5.1's.
    assert "MAJ" in eq.variant_rows("rebuilt") and "MAJ" not in eq.variant_rows("perturbation")
