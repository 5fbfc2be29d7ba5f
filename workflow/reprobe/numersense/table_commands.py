"""`reprobe numersense table2 | table2-conventions | table3 | figure3`: NumerSense's tables."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path

from reprobe.errors import ReprobeError
from reprobe.step_options import Option, add_names, add_paths, listed, one_of, optional

# Rows of models the paper did not test, as the targets name them (numersense/targets.py).
BEYOND_PAPER = Option("rows beyond the paper: models the paper did not test (numersense.models "
                      "not named as its rows), their (clean) and fine-tuned rows; marked and "
                      "placed last", required=False, nargs="+")


def cmd_table2(args: argparse.Namespace) -> None:
    """Table 2 (hit@k on core and + adversarial probes) beside the paper's numbers."""
    from reprobe.numersense.tables import write_table2

    write_table2([Path(p) for p in args.scores], Path(args.reference), Path(args.csv),
                 Path(args.md), args.variant, args.no_zero, args.gold,
                 beyond_paper_rows=args.beyond_paper or [])


def cmd_table2_conventions(args: argparse.Namespace) -> None:
    """Every Table 2 number under each no/zero convention, side by side."""
    from reprobe.numersense.tables import write_table2_conventions

    write_table2_conventions([Path(p) for p in args.scores], Path(args.csv), Path(args.md),
                             beyond_paper_rows=args.beyond_paper or [])


def cmd_table3(args: argparse.Namespace) -> None:
    """Table 3 (object bias) beside the paper's numbers."""
    from reprobe.numersense.tables import write_table3

    write_table3([Path(p) for p in args.results], Path(args.reference), Path(args.csv),
                 Path(args.md), beyond_paper_rows=args.beyond_paper or [])


def cmd_figure3(args: argparse.Namespace) -> None:
    """Figure 3: per-category hit@1 (CSV, Markdown, PNG) beside the paper's figures."""
    from reprobe.numersense.tables import write_figure3

    predictions = {}
    for item in args.predictions:
        row, sep, path = item.rpartition("=")
        if not sep:
            raise ReprobeError(f"figure3: expected ROW=PREDICTIONS, got {item!r}")
        predictions[row] = Path(path)
    write_figure3(Path(args.categories), predictions, Path(args.reference), Path(args.csv),
                  Path(args.png), args.no_zero, beyond_paper_rows=args.beyond_paper or [])


def _convention(parser: argparse.ArgumentParser) -> None:
    """The no/zero convention of hit@k."""
    parser.add_argument("--no-zero", choices=["none", "released", "official", "merge"],
                        required=True,
                        help="none: the words as they are (reproduces the paper's Table 2); "
                             "released: the authors' src/evaluator.py exactly; official: "
                             "'no' read as 'zero' gold line by gold line; merge: their scores "
                             "summed")


def register_tables(sub: argparse._SubParsersAction,
                    add: Callable[..., argparse.ArgumentParser]) -> None:
    """Tables 2 and 3 and Figure 3."""
    table2 = add("table2", cmd_table2, sub)
    add_names(table2, variant=one_of(["rebuilt", "released"]),
              gold=optional("where the released core/all labels come from (a note); absent: "
                            "the labels the builder re-creates"), beyond_paper=BEYOND_PAPER)
    add_paths(table2, reference="the paper's numbers (long CSV)", csv="Table 2 (CSV)",
              md="Table 2 (Markdown)", scores=listed("score files", at_least=0))
    _convention(table2)

    conventions = add("table2-conventions", cmd_table2_conventions, sub)
    add_names(conventions, beyond_paper=BEYOND_PAPER)
    add_paths(conventions, csv="every convention's numbers (CSV)", md="the same (Markdown)",
              scores=listed("score files"))

    table3 = add("table3", cmd_table3, sub)
    add_names(table3, beyond_paper=BEYOND_PAPER)
    add_paths(table3, reference="the paper's numbers (long CSV)", csv="Table 3 (CSV)",
              md="Table 3 (Markdown)", results=listed("per-row template results (CSV)"))

    figure = add("figure3", cmd_figure3, sub)
    add_names(figure, beyond_paper=BEYOND_PAPER)
    add_paths(figure, categories="core probes with categories (TSV)",
              reference="the paper's numbers (long CSV)",
              csv="per-category hit@1 (a .md goes beside)", png="the figure",
              predictions=listed("ROW=predictions.jsonl on the core set"))
    _convention(figure)
