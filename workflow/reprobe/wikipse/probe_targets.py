"""What Tables 2 and 4's probes read: each variant's split files, the probed embeddings and
their vectors, the probe jobs' arguments and the tables' score files; the part of
`WikiPseTargets` about the S-class and ambiguity probes."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import SimpleNamespace
from typing import Any

from reprobe.reads import Read
from reprobe.step_settings import settings_json
from reprobe.wikipse.paths import DATA, RESULTS
from reprobe.wikipse.settings import EmbeddingProbeSettings
from reprobe.wikipse.task_targets import AGGREGATES, MODEL_NAMES, PROBED, VECTOR_FOLDERS


def authors_embedding_names(embeddings: Mapping[str, Any]) -> list[str]:
    """What the authors' embeddings are probed as: a word file as itself, a word/S-class file
    as its unifΣ and wghtΣ (`sskip-sclass-400` → `sskip-wght-400`, `sskip-unif-400`), in the
    order of Tables 2 and 4 (model, word/wght/unif, dimension)."""
    names = []
    for name in embeddings:
        model, corpus, dim = name.split("-")
        names += [f"{model}-word-{dim}"] if corpus == "word" else [
            f"{model}-{kind}-{dim}" for kind in AGGREGATES]
    kinds = list(PROBED)
    return sorted(names, key=lambda n: (n.split("-")[0], kinds.index(n.split("-")[1]),
                                        int(n.split("-")[2])))


class ProbeTargets:
    """Inputs and arguments of the probes, their baselines and Tables 2-4, for `WikiPseTargets`
    (which sets `wp`, `source`, the released files, the variants and the trained models)."""

    wp: dict[str, Any]
    released: Mapping[str, Any]
    authors: Mapping[str, Any]
    rebuild: bool
    variants: list[str]
    source: Callable[[Mapping[str, Any]], Read]
    class_order_file: Callable[[], list[str]]
    released_words: Callable[[], list[str]]
    trained: Callable[..., tuple[list[str], list[int]]]
    extra_scores: Callable[[str], list[str]]

    def split_files(self, variant: str) -> list[str]:
        """The train and test files of one dataset variant (released format): every variant
        but the rebuild probes the released words."""
        if variant != "rebuilt":
            return [self.source(self.released[split]).path for split in ("train", "test")]
        return [f"{DATA}/dataset/{split}.tsv" for split in ("train", "test")]

    def split_inputs(self, wildcards: Any) -> list[str]:
        """What a probe or baseline job tracks of its dataset variant (and class list)."""
        if wildcards.wp_variant != "rebuilt":
            return [self.source(self.released[split]).target for split in ("train", "test")
                    ] + self.class_order_file()
        return self.split_files("rebuilt")

    def split_arguments(self, wildcards: Any) -> list[str]:
        """`--train=PATH --test=PATH` of a dataset variant, and for the released files the
        class list to check them against (`--classes`), when configured, as argument tokens."""
        train, test = self.split_files(wildcards.wp_variant)
        known = [f"--classes={self.source(self.released['classes']).path}"] \
            if wildcards.wp_variant != "rebuilt" and "classes" in self.released else []
        return [f"--train={train}", f"--test={test}", *known]

    def released_stats_inputs(self) -> list[str]:
        """What the released splits' statistics track: the released files and class list
        (none when the released splits are not configured)."""
        if not self.released_words():
            return []
        return self.split_inputs(SimpleNamespace(wp_variant="released"))

    def released_stats_arguments(self) -> list[str]:
        """`--train=PATH --test=PATH [--classes=PATH]` of the released files, as argument
        tokens."""
        if not self.released_words():
            return []
        return self.split_arguments(SimpleNamespace(wp_variant="released"))

    def ambiguity_argument(self) -> list[str]:
        """`--ambiguity=READING`: what makes a word multi-class (wikipse.probes.ambiguity), as
        argument tokens."""
        return [f"--ambiguity={self.wp['probes']['ambiguity']}"]

    def row_name(self, wildcards: Any) -> str:
        """Tables 2 and 4's row of a probed embedding: `SSKIP unifΣ`."""
        return f"{MODEL_NAMES[wildcards.wp_model]} {PROBED[wildcards.wp_kind]}"

    def probe_arguments(self, wildcards: Any) -> list[str]:
        """`reprobe wikipse probe` names and settings (wikipse.probes: the classifiers and
        the ambiguity reading) of one embedding, as argument tokens."""
        return [f"--row={self.row_name(wildcards)}", f"--dim={wildcards.wp_dim}",
                f"--settings={settings_json(self.wp['probes'], EmbeddingProbeSettings)}"]

    def probe_scores(self, wildcards: Any) -> list[str]:
        """Every score file one Table 2, 3 or 4 reads: each embedding, the baselines and the
        extra embeddings, or (Table 3) the public-embedding comparison."""
        variant = wildcards.wp_variant
        if wildcards.wp_table == "table3":
            return [f"{RESULTS}/probes/{variant}/public.csv"]
        # The baselines need only the words: every variant on the released words shares one.
        words = "rebuilt" if variant == "rebuilt" else "released"
        return [*(f"{RESULTS}/probes/{variant}/{name}.csv" for name in self.probed_in(variant)),
                f"{RESULTS}/probes/{words}/baselines.csv", *self.extra_scores(variant)]

    def variants_scores(self, wildcards: Any) -> list[str]:
        """Every score file of every variant of Table 2 or 4."""
        return [path for variant in self.variants for path in self.probe_scores(
            SimpleNamespace(wp_variant=variant, wp_table=wildcards.wp_table))]

    def variants_arguments(self, wildcards: Any) -> list[str]:
        """`VARIANT=PATH` of every score file of Table 2 or 4, as argument tokens."""
        return [f"{variant}={path}" for variant in self.variants
                for path in self.probe_scores(
                    SimpleNamespace(wp_variant=variant, wp_table=wildcards.wp_table))]

    def probed_in(self, variant: str) -> list[str]:
        """The embeddings a variant probes: ours (trained here or on the authors' corpora), or
        the authors' own as configured; none of ours without a rebuild (baselines only)."""
        if variant == "authors_embeddings":
            return authors_embedding_names(self.authors["embeddings"])
        if variant in ("rebuilt", "released") and not self.rebuild:
            return []
        models, dims = self.trained(variant)
        return [f"{model}-{kind}-{dim}" for model in models for kind in PROBED for dim in dims]

    def probe_vectors(self, wildcards: Any) -> str:
        """The vectors folder one probe job reads."""
        return (f"{VECTOR_FOLDERS[wildcards.wp_variant]}/"
                f"{wildcards.wp_model}-{wildcards.wp_kind}-{wildcards.wp_dim}")

    def probe_threads(self) -> int:
        """Processes of a probe job (the per-class classifiers in parallel)."""
        return int(self.wp["probes"]["n_jobs"])
