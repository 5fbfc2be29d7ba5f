"""The scale benchmark's WIKI-PSE part-2 chains: the rules downstream of the dataset and the
embeddings, each run as its rule runs it on generated files (scale_wikipse_sets_inputs, whose
docstring gives their layouts) with config/paper.yaml's settings.

Paper sizes (the largest job of each rule; `jobs` how many there are):
- baselines, analyses: a split of the release, 44,250 words (Yaghoobzadeh et al. 2019, §3).
- released: the rebuilt words.parquet's ≈276,000 annotated words (§3) against the released
  splits (44,250 words each).
- public, nlp: GloVe 6B's 400,000 words (its README) and fastText Wiki's 2,519,370 (wiki.en.vec's
  header), 300d, with the splits and SentEval's files at their real sizes there.
- authors_vectors: the authors' word/S-class SSKIP 400d file, ≈567,000 words (estimated: the
  word corpus's ≈500,000 words, §3, less the ≈276,000 annotated words, plus their ≈343,000
  word/S-class pairs).
- similarity: Table 6's 27,544 analogy questions (Google 19,544, MSR 8,000) with the pair sets
  at their real sizes, on 8 embeddings of ≈500,000 words (§3).
- supersense_dataset: UKP's 500,000-article sample (its README); supersense_probe: its splits of
  27,874 words (Appendix D).
"""

from __future__ import annotations

import json
from functools import cache

from scale_types import FilesChain, Level, Paper, Step, file_of, files_count, reprobe
from scale_wikipse_sets_inputs import (
    ANNOTATED_WORDS,
    PUBLIC_WORDS,
    QUESTIONS,
    SPLIT_WORDS,
    write_authors,
    write_public,
    write_released,
    write_similarity,
    write_splits,
    write_supersense,
)

SPLITS, RELEASED, PUBLIC = "wikipse_sets_splits", "wikipse_sets_released", "wikipse_sets_public"
AUTHORS, SIMILARITY = "wikipse_sets_authors", "wikipse_sets_similarity"
SUPERSENSE = "wikipse_sets_supersense"
AUTHORS_WORDS = 567_000
ARTICLES = 500_000
SUPERSENSE_SPLIT = 27_874
SERIES = {"word": "SSKIP word", "wght": "SSKIP wghtΣ", "unif": "SSKIP unifΣ"}
TASKS = ("MR", "CR", "SUBJ")

CHAINS: tuple[FilesChain, ...] = (
    FilesChain(SPLITS, {"tiny": [50, 100, 200], "quick": [1_383, 5_531, 22_125],
                        "default": [2_766, 5_531, 11_062, 22_125, 44_250]}, write_splits),
    FilesChain(RELEASED, {"tiny": [500, 1_000, 2_000], "quick": [17_250, 69_000, 276_000],
                          "default": [17_250, 34_500, 69_000, 138_000, 276_000]},
               write_released),
    FilesChain(PUBLIC, {"tiny": [2_000, 4_000, 8_000], "quick": [8_000, 32_000, 128_000],
                        "default": [16_000, 32_000, 64_000, 128_000, 256_000]}, write_public),
    FilesChain(AUTHORS, {"tiny": [500, 1_000, 2_000], "quick": [12_500, 50_000, 200_000],
                         "default": [17_720, 35_440, 70_880, 141_750, 283_500]},
               write_authors),
    FilesChain(SIMILARITY, {"tiny": [100, 200, 400], "quick": [430, 1_722, 6_886],
                            "default": [861, 1_722, 3_443, 6_886, 13_772]}, write_similarity),
    FilesChain(SUPERSENSE, {"tiny": [20, 40, 80], "quick": [2_000, 8_000, 32_000],
                            "default": [2_000, 4_000, 8_000, 16_000, 32_000]}, write_supersense),
)


@cache
def wikipse_settings() -> dict[str, str]:
    """The settings JSON the rules pass, from config/paper.yaml with its schema's defaults:
    the classifiers (public, supersense-probe), SentEval's and the supersense selection's."""
    from reprobe.config import CHECKOUT, fill_defaults, load_yaml
    from reprobe.step_settings import settings_json
    from reprobe.wikipse.settings import ClassifierSettings, SelectionSettings, SentEvalSettings

    config = load_yaml(CHECKOUT / "config" / "paper.yaml")
    fill_defaults(config)
    wikipse = config["wikipse"]
    return {"classifiers": settings_json(wikipse["probes"], ClassifierSettings),
            "senteval": settings_json(wikipse["senteval"], SentEvalSettings),
            "selection": settings_json(wikipse["supersense"]["selection"], SelectionSettings),
            "ambiguity": str(wikipse["probes"]["ambiguity"]),
            "min_frequency": str(wikipse["supersense"]["min_frequency"])}


def split_options(level: Level, classes: bool = True) -> list[str]:
    """`--train --test` (and `--classes` for the released words) of a level's splits."""
    known = ["--classes", file_of(level, "classes")] if classes else []
    return ["--train", file_of(level, "train"), "--test", file_of(level, "test"), *known]


def baselines_argv(level: Level) -> list[str]:
    """wikipse_baselines on the released words (with the class list)."""
    return reprobe("wikipse", "baselines", *split_options(level), "--ambiguity",
                   wikipse_settings()["ambiguity"], "--seed", level.settings["seed"],
                   "--scores", level.folder / "baselines.csv")


def analyses_argv(level: Level) -> list[str]:
    """wikipse_analyses of the rebuild: 400d word vectors, three series' predictions."""
    return reprobe("wikipse", "analyses", "--word-vectors", file_of(level, "vectors"),
                   "--output-dir", level.folder / "analyses",
                   *split_options(level, classes=False), "--ambiguity",
                   wikipse_settings()["ambiguity"],
                   *(f"{series}={file_of(level, f'pred_{kind}')}"
                     for kind, series in SERIES.items()))


def released_argv(level: Level) -> list[str]:
    """wikipse_released: the released splits against the rebuilt words.parquet."""
    return reprobe("wikipse", "released", "--words", file_of(level, "words"),
                   "--released-train", file_of(level, "train"), "--released-test",
                   file_of(level, "test"), "--csv", level.folder / "released.csv", "--md",
                   level.folder / "released.md")


def public_files(level: Level) -> list[str]:
    """`NAME=PATH:FORMAT` of the two public embeddings, as the paper config names them."""
    return [f"GloVe (6B)={file_of(level, 'glove')}:glove_txt",
            f"fastText (Wiki)={file_of(level, 'fasttext')}:fasttext_vec"]


def public_argv(level: Level) -> list[str]:
    """wikipse_public on the released words: our three 300d rows (the level's one vectors
    folder for each) and the public files."""
    ours = [f"SSKIP {kind} 300={file_of(level, 'ours')}" for kind in ("word", "wghtΣ", "unifΣ")]
    return reprobe("wikipse", "public", "--train", file_of(level, "train"), "--test",
                   file_of(level, "test"), "--public", *public_files(level), "--ours", *ours,
                   "--settings", wikipse_settings()["classifiers"], "--seed",
                   level.settings["seed"], "--scores", level.folder / "public.csv")


def nlp_argv(level: Level) -> list[str]:
    """wikipse_nlp of the rebuild: SentEval's four tasks, our three rows, the public files."""
    tasks = {task: {role: file_of(level, f"{task}.{role}") for role in ("pos", "neg")}
             for task in TASKS}
    tasks["MRPC"] = {split: file_of(level, f"MRPC.{split}") for split in ("train", "test")}
    ours = [f"{row}={file_of(level, 'ours')}" for row in ("word", "wghtΣ", "unifΣ")]
    return reprobe("wikipse", "nlp", "--tasks", json.dumps(tasks), "--settings",
                   wikipse_settings()["senteval"], "--ours", *ours, "--public",
                   *public_files(level), "--seed", level.settings["seed"], "--scores",
                   level.folder / "nlp.csv")


def authors_argv(level: Level) -> list[str]:
    """wikipse_authors_vectors: the authors' file to a vectors folder (format auto)."""
    return reprobe("wikipse", "import-vectors", "--input", file_of(level, "vectors"),
                   "--format", "auto", "--output", level.folder / "sskip-sclass-400")


def similarity_argv(level: Level) -> list[str]:
    """wikipse_similarity of the rebuild: the seven datasets, SKIP and SSKIP at 100-400d
    (both models the level's one folder of each dimension)."""
    from scale_wikipse_sets_inputs import DIMS, PAIRS

    kinds = {**dict.fromkeys(PAIRS, "pairs"), "MEN": "pairs_pos", "Google": "analogy",
             "MSR": "msr_analogy"}
    datasets = {name: {"path": file_of(level, name), "kind": kind} for name, kind in
                kinds.items()}
    return reprobe("wikipse", "similarity", "--reference", REFERENCE_TABLE6, "--csv",
                   level.folder / "table6.csv", "--md", level.folder / "table6.md",
                   "--variant", "rebuilt", "--datasets", json.dumps(datasets),
                   *(f"{model} {dim}={file_of(level, f'vectors{dim}')}"
                     for model in ("SKIP", "SSKIP") for dim in DIMS))


def supersense_dataset_argv(level: Level) -> list[str]:
    """wikipse_supersense_dataset over the level's corpus folder."""
    settings = wikipse_settings()
    return reprobe("wikipse", "supersense-dataset", "--corpus", file_of(level, "corpus"),
                   "--min-frequency", settings["min_frequency"], "--settings",
                   settings["selection"], "--seed", level.settings["seed"], "--output-dir",
                   level.folder / "supersense")


def supersense_probe_argv(level: Level) -> list[str]:
    """wikipse_supersense_probe on that dataset with the level's embeddings."""
    out = level.folder / "supersense"
    return reprobe("wikipse", "supersense-probe", "--train", out / "train.tsv", "--test",
                   out / "test.tsv", "--vectors", file_of(level, "vectors"), "--format",
                   "word2vec_txt", "--settings", wikipse_settings()["classifiers"], "--seed",
                   level.settings["seed"], "--scores", level.folder / "table8.csv")


def supersense_split(level: Level) -> float:
    """Words in the supersense dataset's train split (its card)."""
    card = json.loads((level.folder / "supersense" / "card.json").read_text(encoding="utf-8"))
    return float(card["splits"]["train"]["words"])


def _reference_table6() -> str:
    """The paper's Table 6 numbers, as the rule reads them (config/reference)."""
    from harness import REPO

    return str(REPO / "config" / "reference" / "wikipse" / "table6.csv")


REFERENCE_TABLE6 = _reference_table6()
SPLIT_SOURCE = "the WIKI-PSE train and test splits: 44,250 words each (Yaghoobzadeh et al. " \
    "2019, §3)"
PUBLIC_SOURCE = ("glove.6B.300d.txt's 400,000 words (its README) and wiki.en.vec's 2,519,370 "
                 "(its header), 300d; the job scales with them, its splits (44,250 words) and "
                 "shared subset (13,000, §5.1) at the same share")
# linear_memory: the steps that read whole embedding files (public, nlp, authors_vectors,
# supersense_probe) or touch every row of their vectors (similarity's norms) hold memory linear
# in their words on top of the interpreter's start, which a power law through it understates.
STEPS: tuple[Step, ...] = (
    Step("wikipse_baselines", ("wikipse_baselines",), "words a split", 1, SPLITS,
         baselines_argv, files_count("words a split"),
         Paper(SPLIT_WORDS, "baselines job: one dataset variant", SPLIT_SOURCE + "; 2 jobs "
               "(the rebuild and the released words)", jobs=2)),
    Step("wikipse_analyses", ("wikipse_analyses", "wikipse_analyses_authors"), "words a split",
         1, SPLITS, analyses_argv, files_count("words a split"),
         Paper(SPLIT_WORDS, "analyses job: SSKIP 400d's three series", SPLIT_SOURCE + "; 2 jobs "
               "(the rebuild and the authors' corpus)", jobs=2),
         vocabulary="words a split"),  # it holds the split words' vectors: the probe's model
    Step("wikipse_released", ("wikipse_released",), "rebuilt words", 1, RELEASED,
         released_argv, files_count("rebuilt words"),
         Paper(ANNOTATED_WORDS, "one job: the release against the rebuild", "≈276,000 "
               "annotated words in the vocabulary (Yaghoobzadeh et al. 2019, §3), the released "
               "splits 44,250 words each (their line counts)")),
    Step("wikipse_public", ("wikipse_public",), "public words", 1, PUBLIC, public_argv,
         files_count("public words"),
         Paper(PUBLIC_WORDS, "Table 3 job: one dataset variant", PUBLIC_SOURCE + "; 3 jobs "
               "(rebuilt, released, authors' corpus)", jobs=3), linear_memory=True,
         vocabulary="public words"),  # it holds the embedding files: vocabulary × dimension
    Step("wikipse_nlp", ("wikipse_nlp", "wikipse_nlp_authors"), "public words", 1, PUBLIC,
         nlp_argv, files_count("public words"),
         Paper(PUBLIC_WORDS, "Table 5 job: our three rows and the public files", PUBLIC_SOURCE
               + "; SentEval's MR 10,662, CR 3,775, SUBJ 10,000 sentences and MRPC's 5,801 "
               "pairs at the same share; the authors' corpus job has no public rows", jobs=2),
         linear_memory=True, vocabulary="public words"),
    Step("wikipse_authors_vectors", ("wikipse_authors_vectors",), "words", 1, AUTHORS,
         authors_argv, files_count("words"),
         Paper(AUTHORS_WORDS, "import job: one of the authors' 400d files", "the authors' "
               "word/S-class SSKIP 400d file: ≈567,000 words (estimated: the word corpus's "
               "≈500,000, §3, less ≈276,000 annotated words, plus their ≈343,000 word/S-class "
               "pairs); 2 files", jobs=2), linear_memory=True, vocabulary="words"),
    Step("wikipse_similarity", ("wikipse_similarity", "wikipse_similarity_authors"),
         "analogy questions", 1, SIMILARITY, similarity_argv, files_count("analogy questions"),
         Paper(QUESTIONS, "Table 6 job: 8 embeddings (SKIP, SSKIP at 100-400d)", "Google's "
               "19,544 and MSR's 8,000 analogy questions (the pair sets at their real sizes: MEN "
               "3,000, MTurk 287, RW 2,034, WS353 353, SimLex 999), each embedding ≈500,000 "
               "words (§3); 2 jobs (the rebuild and the authors' corpus)", jobs=2),
         linear_memory=True, vocabulary="vocabulary"),
    Step("wikipse_supersense_dataset", ("wikipse_supersense_dataset",), "articles", 1,
         SUPERSENSE, supersense_dataset_argv, files_count("articles"),
         Paper(ARTICLES, "one job over the whole corpus", "UKP's supertextwiki: a 500,000-"
               "article Wikipedia sample (UKPLab/acl2016-supersense-embeddings README); ~600 "
               "tokens an article here, a fifth of them noun-tagged (estimated)")),
    Step("wikipse_supersense_probe", ("wikipse_supersense_probe",), "words a split", 1,
         SUPERSENSE, supersense_probe_argv, supersense_split,
         Paper(SUPERSENSE_SPLIT, "one job: Table 8", "the supersense dataset's train and test: "
               "27,874 words each (Yaghoobzadeh et al. 2019, Appendix D); UKP's 300d embeddings "
               "taken to grow with them, as the generated ones (every corpus word seen 20 "
               "times) do"), needs=("wikipse_supersense_dataset",), linear_memory=True,
         shows=("articles", "embedding words"), vocabulary="embedding words"),
)
OUTPUTS: dict[str, tuple[str, ...]] = {
    "wikipse_baselines": ("baselines.csv",), "wikipse_analyses": ("analyses",),
    "wikipse_released": ("released.*",), "wikipse_public": ("public.csv",),
    "wikipse_nlp": ("nlp.csv",), "wikipse_authors_vectors": ("sskip-sclass-400",),
    "wikipse_similarity": ("table6.*",), "wikipse_supersense_dataset": ("supersense",),
    "wikipse_supersense_probe": ("table8.csv",),
}
