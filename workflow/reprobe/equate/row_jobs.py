"""Which jobs score Table 6's rows: one job per row and evaluation variant scores every set of
the variant that is scored whole, its model, fastText file or WordNet loaded once; a set spread
over shards (`equate.score_shards`) keeps a job per shard and one that gathers them.

Loading is most of a score job on the small sets (a process importing torch for a tiny BERT
takes seconds; its ten pairs, milliseconds): the default run scored 64 (set, row) jobs, and
scores the same cells in 35 (docs/benchmarks.md). The score files stay one per set and row, so
the tables read what they read before.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from reprobe.equate.targets import RESULTS, EquateTargets


class RowJobs:
    """The score jobs of one configuration's Table 6 rows (`equate_score_<variant>` rules)."""

    def __init__(self, targets: EquateTargets) -> None:
        self.targets = targets
        shards = targets.equate["score_shards"]
        self.sharded = sorted(name for name, count in shards.items() if int(count) > 1)

    def whole_sets(self, variant: str) -> list[str]:
        """A variant's sets scored whole, in table order."""
        return [name for name in self.targets.sets[variant] if name not in self.sharded]

    def variants(self) -> list[str]:
        """The variants with a set scored whole: one rule each."""
        return [variant for variant in self.targets.sets if self.whole_sets(variant)]

    def model_pattern(self, variant: str) -> str:
        """The `model` wildcard's constraint in a variant's rule."""
        return "|".join(re.escape(model) for model in self.targets.variant_rows(variant)
                        ) or "no-models"

    def sharded_pattern(self) -> str:
        """The `test_set` wildcard's constraint of the per-set (shard-gathering) score rule."""
        return "|".join(re.escape(name) for name in self.sharded) or "no-sets"

    def outputs(self, variant: str, kind: str) -> list[str]:
        """A variant rule's outputs of one kind (`scores` CSV or `predictions` jsonl), one per
        set, with the `{model}` wildcard."""
        extension = {"scores": "csv", "predictions": "jsonl"}[kind]
        return [f"{RESULTS}/{kind}/{variant}/{name}/{{model}}.{extension}"
                for name in self.whole_sets(variant)]

    def inputs(self, variant: str) -> Callable[[Any], dict[str, Any]]:
        """A variant rule's input function: every set's pairs, then the row's predictor files."""

        def row_inputs(wildcards: Any) -> dict[str, Any]:
            """What one row's job reads on the variant's whole sets."""
            return {"pairs": [self.targets.pairs(variant, name).target
                              for name in self.whole_sets(variant)],
                    **{option: read.target for option, read
                       in self.targets.predictor_files(wildcards.model).items()}}

        return row_inputs

    def arguments(self, variant: str) -> Callable[[Any], list[str]]:
        """A variant rule's `reprobe equate score` arguments but its outputs, as tokens."""

        def row_arguments(wildcards: Any) -> list[str]:
            """The row, its variant's sets and their pairs, its predictor's files and settings."""
            sets = self.whole_sets(variant)
            return self.targets.row_arguments(wildcards.model, [
                f"--variant={variant}", *(f"--test-set={name}" for name in sets),
                *(f"--pairs={self.targets.pairs(variant, name).path}" for name in sets)])

        return row_arguments
