"""Embeddings beyond the paper: what the rules read for `wikipse.extra_vectors`, and how their
rows are named.

Why a key of its own: `public` is Table 3's comparison (the paper's two public embeddings on the
words all of them share) and `authors.embeddings` names the authors' files by model, corpus and
size; a person's own embedding is neither. Each one named here is converted once to a vectors
folder (memory-mapped by every probe), probed by Tables 2 and 4's S-class and ambiguity probes on
the rebuilt and the released words, and scored on Table 6's similarity sets. Its rows carry
`(beyond the paper)` in their name (the paper has no number for them) and sit below the
paper's rows.

A light module: the rules' targets and the tables read it, so it loads neither gensim nor
scikit-learn.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from reprobe.errors import ConfigError
from reprobe.reads import Read, slug
from reprobe.step_settings import settings_json
from reprobe.tables.beyond import beyond_row
from reprobe.wikipse.settings import EmbeddingProbeSettings

EXTRA_MODELS = "data/models/wikipse/extra"
EXTRA_RESULTS = "results/wikipse/probes"
# The dataset variants whose words an extra embedding is probed on: the others probe the
# released words again (the authors' corpus and embeddings), which would repeat its row.
EXTRA_VARIANTS = ("rebuilt", "released")


def extra_files(extra: Mapping[str, Any]) -> dict[str, str]:
    """File name → configured name of every extra embedding; two names with one file name are
    an error naming both."""
    files: dict[str, str] = {}
    for name in extra:
        if slug(name) in files:
            raise ConfigError(f"wikipse.extra_vectors: {files[slug(name)]!r} and {name!r} make "
                              f"the same file name {slug(name)!r}: rename one")
        files[slug(name)] = name
    return files


class ExtraTargets:
    """Inputs and arguments of the extra embeddings' jobs, for `WikiPseTargets` (which sets
    `wp`, `variants` and `source`)."""

    wp: dict[str, Any]
    variants: list[str]
    source: Callable[[Mapping[str, Any]], Read]

    def extra_spec(self, wildcards: Any) -> tuple[str, Mapping[str, Any]]:
        """The configured name and entry of the extra embedding a job is about."""
        name = extra_files(self.wp["extra_vectors"])[wildcards.wp_extra]
        return name, self.wp["extra_vectors"][name]

    def extra_scores(self, variant: str) -> list[str]:
        """The score files of the extra embeddings a variant's Tables 2 and 4 read."""
        if variant not in EXTRA_VARIANTS:
            return []
        return [f"{EXTRA_RESULTS}/{variant}/extra/{file}.csv"
                for file in extra_files(self.wp["extra_vectors"])]

    def extra_folders(self, variant: str = "rebuilt") -> dict[str, str]:
        """Name → vectors folder of the extra embeddings Table 6 scores (the rebuild's)."""
        if variant != "rebuilt":
            return {}
        return {name: f"{EXTRA_MODELS}/{file}"
                for file, name in extra_files(self.wp["extra_vectors"]).items()}

    def extra_target(self, wildcards: Any) -> str:
        """What converting one extra embedding tracks: its source."""
        return self.source(self.extra_spec(wildcards)[1]).target

    def extra_import_arguments(self, wildcards: Any) -> list[str]:
        """`reprobe wikipse import-vectors` options of one extra embedding (its dimension when
        the config names one, checked), as argument tokens."""
        _, spec = self.extra_spec(wildcards)
        dim = [f"--dim={spec['dim']}"] if spec.get("dim") else []
        return [f"--input={self.source(spec).path}", f"--format={spec['format']}", *dim]

    def extra_probe_arguments(self, wildcards: Any) -> list[str]:
        """`reprobe wikipse probe` names and settings of one extra embedding (its row, the plain
        lookup, wikipse.probes), as argument tokens; the dimension is the vectors' own."""
        name, _ = self.extra_spec(wildcards)
        return [f"--row={beyond_row(name)}", "--lookup=plain",
                f"--settings={settings_json(self.wp['probes'], EmbeddingProbeSettings)}"]

    def extra_similarity_arguments(self, variant: str = "rebuilt") -> list[str]:
        """`--beyond=NAME=FOLDER` of each extra embedding of Table 6, as argument tokens (none
        without extras)."""
        return [f"--beyond={name}={folder}" for name, folder in self.extra_folders(variant).items()]
