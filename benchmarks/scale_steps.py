"""The steps the scale benchmark times, each run as its rule runs it, and their paper sizes.

A step runs on one chain of generated inputs (scale_levels). On the "wiki" chain one shard job
reads the whole generated dump, which is then gathered, typed and made into corpora; within a
size a step reads what the steps it `needs` wrote (run untimed first when not timed themselves).

Every command is the one its rule in workflow/rules/*.smk runs, with the settings
config/paper.yaml gives (`scale_levels.paper_settings`), the shard count aside. Trainers run
with as many threads as the machine has (the paper's are `threads`).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from scale_chain_commands import (
    aggregate_argv,
    embed_argv,
    newsnli_shard_argv,
    probe_argv,
    train_argv,
)
from scale_files import FILE_OUTPUTS, FILE_STEPS
from scale_inputs import write_freebase
from scale_levels import (
    CLASSES,
    FIGER_MAP,
    SSKIP_DIM,
    Level,
    corpus_tokens,
    dump_mb,
    freebase_triples,
    numeracy_tokens,
    probe_words,
    read_json,
    reprobe,
    shard_stat,
    story_count,
    vector_words,
)
from scale_numeracy import (
    knn_argv,
    numeracy_probe_argv,
    numerals_argv,
    random_argv,
    tests_argv,
    vectors_argv,
)
from scale_stories import SHARDS as NEWS_SHARDS
from scale_stories import STORIES
from scale_types import SHARD_MB, SHARDS, SPILL_BUDGET_MB, Paper, Step
from scale_vectors import ALL_FILES_WORDS, LARGEST_WORDS
from scale_wiki import RENDERED_SHARE, WikiInfo

LINKS = 330e6  # links in English Wikipedia (issue 32)
# --- commands ---------------------------------------------------------------------------------


def plan_argv(level: Level) -> list[str]:
    """wikipedia_plan: one shard over the whole dump, by its multistream index."""
    assert isinstance(level.info, WikiInfo)
    return reprobe("wikipedia", "plan", "--dump", level.info.path, "--index", level.info.index,
                   "--shards", "1", "--block-pages", "100", "--output", level.folder / "plan.json")


def split_plan_argv(level: Level) -> list[str]:
    """wikipedia_plan cutting the dump in shards of about the ladder's smallest size."""
    assert isinstance(level.info, WikiInfo)
    return reprobe("wikipedia", "plan", "--dump", level.info.path, "--index", level.info.index,
                   "--shards", str(level.shards), "--block-pages", "100", "--output",
                   level.folder / "plan-split.json")


def first_shard_argv(level: Level) -> list[str]:
    """wikipedia_shard of the first of those shards."""
    assert isinstance(level.info, WikiInfo)
    return reprobe("wikipedia", "shard", "--plan", level.folder / "plan-split.json", "--dump",
                   level.info.path, "--shard", "0", "--output-dir", level.folder / "shard-first")


def shard_argv(level: Level) -> list[str]:
    """wikipedia_shard."""
    assert isinstance(level.info, WikiInfo)
    return reprobe("wikipedia", "shard", "--plan", level.folder / "plan.json", "--dump",
                   level.info.path, "--shard", "0", "--output-dir", level.folder / "shard")


def gather_argv(level: Level) -> list[str]:
    """wikipedia_gather, within SPILL_BUDGET_MB."""
    return reprobe("wikipedia", "gather", "--output-dir", level.folder / "gathered",
                   "--memory-mb", str(SPILL_BUDGET_MB), level.folder / "shard")


def freebase_argv(level: Level) -> list[str]:
    """wikipse_freebase, the paper's way (FIGER's MID → title TSV given); the dump is made
    here, from the level's titles, with ≈9.4 triples for each link the reader keeps."""
    from reprobe.wikipse.resource.classes import read_types_map

    assert isinstance(level.info, WikiInfo)
    titles = Path(level.info.titles).read_text(encoding="utf-8").splitlines()
    links = round(level.info.links * RENDERED_SHARE)
    dump = write_freebase(level.folder, titles, links, list(read_types_map(FIGER_MAP)))
    out = level.folder / "freebase"
    return reprobe("wikipse", "freebase", "--dump", dump.path, "--figer-map", FIGER_MAP,
                   "--mid-titles", dump.mid_titles, "--types-out", out / "types.parquet",
                   "--titles-out", out / "titles.parquet")


def typing_argv(level: Level) -> list[str]:
    """wikipse_typing, with the released class list as config/paper.yaml has it, within
    SPILL_BUDGET_MB."""
    out, freebase = level.folder / "typing", level.folder / "freebase"
    return reprobe("wikipse", "typing", "--figer-map", FIGER_MAP, "--links",
                   level.folder / "gathered" / "links.parquet", "--freebase-types",
                   freebase / "types.parquet", "--freebase-titles", freebase / "titles.parquet",
                   "--released-classes", CLASSES, "--output", out / "typed_targets.parquet",
                   "--counts", out / "typing.json", "--fold-csv", out / "fold.csv", "--fold-md",
                   out / "fold.md", "--typing-csv", out / "typing.csv", "--typing-md",
                   out / "typing.md", "--fold", level.settings["fold"], "--memory-mb",
                   str(SPILL_BUDGET_MB))


def corpus_shard_argv(level: Level, shard: str = "shard",
                      out: str = "wikipse_shard") -> list[str]:
    """wikipse_corpus_shard: a shard's sentences and links, the gathered redirects."""
    folder = level.folder / shard
    return reprobe("wikipse", "corpus-shard", "--sentences", folder / "sentences.parquet",
                   "--links", folder / "links.parquet", "--redirects",
                   level.folder / "gathered" / "redirects.parquet", "--typed",
                   level.folder / "typing" / "typed_targets.parquet", "--class-order", CLASSES,
                   "--output-dir", level.folder / out)


def first_corpus_shard_argv(level: Level) -> list[str]:
    """wikipse_corpus_shard on the first shard of the split plan, the whole dump's tables."""
    return corpus_shard_argv(level, "shard-first", "wikipse_shard_first")


def corpus_argv(level: Level) -> list[str]:
    """wikipse_corpus, within SPILL_BUDGET_MB."""
    return reprobe("wikipse", "corpus", "--output-dir", level.folder / "wikipse_corpus",
                   "--memory-mb", str(SPILL_BUDGET_MB), level.folder / "wikipse_shard")


def count_argv(level: Level) -> list[str]:
    """numeracy_count."""
    return reprobe("numeracy", "count", "--sentences", level.folder / "shard" / "sentences.parquet",
                   "--output", level.folder / "num" / "counts" / "0000.json")


def select_argv(level: Level) -> list[str]:
    """numeracy_select, with config/paper.yaml's 56M-sentence cap and seed."""
    return reprobe("numeracy", "select", "--sentences",
                   level.folder / "shard" / "sentences.parquet", "--shard-index", "0",
                   "--counts", level.folder / "num" / "counts" / "0000.json", "--seed",
                   level.settings["seed"], "--settings", level.settings["select"],
                   "--output-dir", level.folder / "num" / "parts" / "0000")


def numeracy_corpus_argv(level: Level) -> list[str]:
    """numeracy_corpus."""
    out = level.folder / "num" / "corpus"
    return reprobe("numeracy", "corpus", "--num", out / "num.txt", "--all", out / "all.txt",
                   "--stats", out / "stats.json", level.folder / "num" / "parts" / "0000")


# --- the table --------------------------------------------------------------------------------

SHARD = Paper(SHARD_MB, "shard job", "English Wikipedia in config/paper.yaml's 256 shards of "
              "~90 MB bz2 each (issue 32)", jobs=SHARDS)
WHOLE_LINKS = "~330M links in English Wikipedia (issue 32)"
NUMERACY = "Num and All corpora: 56M sentences, 1.5B tokens each (Naik et al. 2019, §3.1)"
# No published vocabulary for the numeracy corpora: WIKI-PSE's 500k words at 550M tokens and
# min count 20, grown by Heaps' law (V ∝ n^0.5) to 1.5B tokens, ~0.8M, about doubled by min
# count 5, and rounded up.
NUMERACY_VOCAB = ("; a vocabulary of ~2M words (estimated: no figure is published; WIKI-PSE's "
                  "500k at 550M tokens and min count 20, by Heaps' law, doubled for min count 5)")
GLOVE_840B = ("glove.840B.300d.txt, the numeracy config's largest file: 2,196,017 words, "
              "300d (its README)")
VECTOR_FILES = (f"; 17 files, costed as the largest times their words x dimension / 300 (≈"
                f"{ALL_FILES_WORDS / 1e6:.1f}M: scale_vectors.ALL_FILES_WORDS)")
GLOVE_ENTRIES = r"(\d+) co-occurrence entries"
GLOVE_EPOCH_SECONDS = r"GloVe epoch \d+/\d+: .*?, ([\d.]+) s, "


def training(family: str) -> Step:
    """numeracy_train for one family: one job per corpus (Num, All)."""
    return Step(f"numeracy_train_{family}", ("numeracy_train",), "tokens", 8, "text",
                train_argv(family), corpus_tokens,
                Paper(1.5e9, f"training job: {family} on one corpus", NUMERACY + NUMERACY_VOCAB,
                      jobs=2, vocabulary=2e6),
                vocabulary="words (min count 5)",
                log_counts={"co-occurrences": GLOVE_ENTRIES} if family == "glove" else {},
                log_sums={"fit_s": GLOVE_EPOCH_SECONDS} if family == "glove" else {})


STEPS: tuple[Step, ...] = (
    Step("wikipedia_plan", ("wikipedia_plan",), "MB (bz2)", 1, "wiki", plan_argv, dump_mb),
    Step("wikipedia_shard", ("wikipedia_shard",), "MB (bz2)", 1, "wiki", shard_argv, dump_mb,
         SHARD, needs=("wikipedia_plan",), whole_input=False),
    Step("wikipedia_gather", ("wikipedia_gather",), "links", 1, "wiki", gather_argv,
         shard_stat("links"), Paper(LINKS, "one job over every shard", WHOLE_LINKS),
         needs=("wikipedia_shard",), budget_mb=SPILL_BUDGET_MB),
    Step("wikipse_freebase", ("wikipse_freebase",), "triples", 1, "wiki", freebase_argv,
         freebase_triples, shows=("Freebase topics", "links"),
         paper=Paper(3.1e9, "one job over the whole dump",
                     "~3.1B triples in the Freebase dump (issue 32)")),
    Step("wikipse_typing", ("wikipse_typing",), "links", 1, "wiki", typing_argv,
         shard_stat("links"), Paper(LINKS, "one job over every link target", WHOLE_LINKS + "; the "
                                    "Freebase tables it joins grow with the links, as here"),
         needs=("wikipedia_gather", "wikipse_freebase"),
         shows=("links", "redirects", "Freebase topics"), budget_mb=SPILL_BUDGET_MB),
    Step("wikipse_corpus_shard", ("wikipse_corpus_shard",), "MB (bz2)", 1, "wiki",
         corpus_shard_argv, dump_mb,
         replace(SHARD, memory_size=SHARD_MB * SHARDS,
                 source=SHARD.source + "; it also reads the whole dump's redirects and typed "
                 "targets: unless its peak RSS stays flat with a fixed shard in a growing dump "
                 "(the `wikipse_corpus_shard_dump` series), it is evaluated at the whole dump "
                 "(256 × 90 MB), an upper bound"), needs=("wikipse_typing",)),
    Step("wikipedia_plan_split", ("wikipedia_plan",), "MB (bz2)", 1, "wiki", split_plan_argv,
         dump_mb),
    Step("wikipedia_shard_first", ("wikipedia_shard",), "MB (bz2)", 1, "wiki",
         first_shard_argv, dump_mb, needs=("wikipedia_plan_split",)),
    Step("wikipse_corpus_shard_dump", ("wikipse_corpus_shard",), "MB (bz2) of the whole dump",
         1, "wiki", first_corpus_shard_argv, dump_mb,
         needs=("wikipedia_shard_first", "wikipse_typing"),
         shows=("redirects", "links", "first shard's links"), series_of="wikipse_corpus_shard"),
    Step("wikipse_corpus", ("wikipse_corpus",), "tokens", 1, "wiki", corpus_argv,
         lambda level: float(read_json(level.folder / "wikipse_corpus" / "stats.json")["tokens"]),
         Paper(550e6, "one job over every shard", "the WIKI-PSE corpus: 550 million tokens "
               "(Yaghoobzadeh et al. 2019, §3)"), needs=("wikipse_corpus_shard",),
         budget_mb=SPILL_BUDGET_MB),
    Step("numeracy_count", ("numeracy_count",), "MB (bz2)", 1, "wiki", count_argv, dump_mb,
         SHARD, needs=("wikipedia_shard",), whole_input=False),
    Step("numeracy_select", ("numeracy_select",), "MB (bz2)", 1, "wiki", select_argv, dump_mb,
         SHARD, needs=("numeracy_count",), whole_input=False),
    Step("numeracy_corpus", ("numeracy_corpus",), "tokens", 1, "wiki", numeracy_corpus_argv,
         numeracy_tokens, Paper(3.0e9, "one job writing Num and All", NUMERACY),
         needs=("numeracy_select",)),
    training("glove"),
    training("word2vec"),
    training("fasttext"),
    Step("wikipse_embed", ("wikipse_embed",), "tokens", 8, "sskip", embed_argv, corpus_tokens,
         Paper(550e6, f"training job: SSKIP {SSKIP_DIM}d on one corpus",
               "the WIKI-PSE corpus: 550 million tokens (Yaghoobzadeh et al. 2019, §3); 16 "
               "jobs (SKIP and SSKIP, word and word/S-class corpora, 100-400d), costed as "
               "SSKIP at 400d times dimension/400; its vocabulary ≈500,000 words (§3)",
               jobs=16, work=10.0, vocabulary=5e5),
         vocabulary="words (min count 20)", warm_up=True),
    Step("wikipse_probe", ("wikipse_probe",), "words a split", 1, "probe", probe_argv,
         probe_words,
         Paper(44_250, f"probe job: one embedding, {SSKIP_DIM}d", "the WIKI-PSE train and "
               "test splits: 44,250 words each (Yaghoobzadeh et al. 2019, §3); config/paper.yaml "
               "has 75 probe jobs of 100-400d, costed as 400d times dimension/400",
               jobs=75, work=48.0), vocabulary="train words"),
    Step("wikipse_aggregate", ("wikipse_aggregate",), "words a split", 1, "probe",
         aggregate_argv, probe_words,
         Paper(143_000, "aggregation job: a 400d word/S-class embedding",
               "the WIKI-PSE dataset (44,250 words a split) summed from a word/S-class "
               "embedding whose vocabulary is taken as ≈500,000 (the word corpus's, §3): costed "
               "where the generated senses (3.5 a split's word) reach it, an upper bound",
               jobs=10), vocabulary="train words"),
    Step("numeracy_vectors", ("numeracy_vectors",), "words", 1, "vectors", vectors_argv,
         vector_words, Paper(LARGEST_WORDS, "conversion job: one published file",
                             GLOVE_840B + VECTOR_FILES, jobs=17,
                             work=round(ALL_FILES_WORDS / LARGEST_WORDS, 1)),
         vocabulary="words"),
    Step("numeracy_numerals", ("numeracy_numerals",), "words", 1, "vectors", numerals_argv,
         vector_words, Paper(LARGEST_WORDS, "job: one model's numerals", GLOVE_840B, jobs=17),
         needs=("numeracy_vectors",), vocabulary="words"),
    Step("numeracy_tests_mag", ("numeracy_shared_tests", "numeracy_model_tests"), "words", 1,
         "vectors", tests_argv("mag"), vector_words,
         Paper(LARGEST_WORDS, "test-set job: one model's numerals", GLOVE_840B + "; a shared "
               "set reads 6 or 11 models' numerals, whose common numbers are fewer", jobs=14),
         needs=("numeracy_numerals",), vocabulary="words"),
    Step("numeracy_tests_num", ("numeracy_shared_tests",), "words", 1, "vectors",
         tests_argv("num"), vector_words, needs=("numeracy_numerals",)),
    Step("numeracy_probe", ("numeracy_probe",), "words", 1, "vectors", numeracy_probe_argv,
         vector_words, Paper(LARGEST_WORDS, "probe job: one model", GLOVE_840B + "; the tests "
                             "are those of its own numerals here (one in 20 words)", jobs=17),
         needs=("numeracy_tests_mag", "numeracy_tests_num"), vocabulary="words"),
    Step("equate_newsnli_shard", ("equate_newsnli_shard",), "stories", 1, "stories",
         newsnli_shard_argv, story_count,
         Paper(STORIES / NEWS_SHARDS, "shard job", f"config/paper.yaml: {STORIES:,} CNN stories "
               f"in {NEWS_SHARDS} shard jobs (each also lists the whole folder)",
               jobs=NEWS_SHARDS), whole_input=False),
    Step("numeracy_random", ("numeracy_random",), "words", 1, "vectors", random_argv,
         vector_words, Paper(LARGEST_WORDS, "random-baseline job", GLOVE_840B + "; its tests "
                             "are those of the file's own numerals here", jobs=2),
         # Its model: a random vector for each number of the tests (numerals × dimension).
         needs=("numeracy_tests_mag", "numeracy_tests_num"), vocabulary="numerals"),
    Step("numeracy_knn", ("numeracy_knn",), "words a model", 1, "vectors", knn_argv,
         vector_words, Paper(LARGEST_WORDS, "one job: 17 models", GLOVE_840B + "; every model "
                             "costed as the largest"), needs=("numeracy_numerals",),
         vocabulary="words"),
    *FILE_STEPS,
)
BY_NAME = {step.name: step for step in STEPS}
OUTPUTS = {  # what each step writes, as globs in its level's folder
    "wikipedia_plan": ("plan.json",), "wikipedia_shard": ("shard",),
    "wikipedia_gather": ("gathered",), "wikipse_freebase": ("freebase",),
    "wikipse_typing": ("typing",), "wikipse_corpus_shard": ("wikipse_shard",),
    "wikipedia_plan_split": ("plan-split.json",), "wikipedia_shard_first": ("shard-first",),
    "wikipse_corpus_shard_dump": ("wikipse_shard_first",),
    "wikipse_corpus": ("wikipse_corpus",), "numeracy_count": ("num/counts",),
    "numeracy_select": ("num/parts",), "numeracy_corpus": ("num/corpus",),
    "numeracy_train_glove": ("glove.*",), "numeracy_train_word2vec": ("word2vec.*",),
    "numeracy_train_fasttext": ("fasttext.*",), "wikipse_embed": (f"sskip-{SSKIP_DIM}",),
    "wikipse_probe": ("probe",), "numeracy_vectors": ("model.kv*",),
    "numeracy_numerals": ("numerals.tsv", "table1.csv"), "numeracy_tests_mag": ("tests-mag",),
    "numeracy_tests_num": ("tests-num",), "numeracy_probe": ("probe.csv",),
    "numeracy_knn": ("knn.csv",), "equate_newsnli_shard": ("newsnli",),
    "numeracy_random": ("random.csv",), "wikipse_aggregate": ("aggregate",),
    **FILE_OUTPUTS,
}
BENCHMARKED = [step.name for step in STEPS if step.paper is not None]
SERIES = {step.series_of: step.name for step in STEPS if step.series_of}


def output_mb(step: Step, level: Level) -> float:
    """The size of what the step wrote at a level, MB (10^6 bytes)."""
    total = 0
    for pattern in OUTPUTS[step.name]:
        for found in level.folder.glob(pattern):
            files = found.rglob("*") if found.is_dir() else [found]
            total += sum(f.stat().st_size for f in files if f.is_file())
    return total / 1e6


def closure(names: list[str]) -> list[Step]:
    """The steps named and every step they need, in the table's (dependency) order."""
    wanted: set[str] = set()
    pending = list(names)
    while pending:
        name = pending.pop()
        if name not in wanted:
            wanted.add(name)
            pending.extend(BY_NAME[name].needs)
    return [step for step in STEPS if step.name in wanted]
