"""The scale benchmark's equate chains: EQUATE's raw sources and released sets, generated in their
real layouts (scale_equate_inputs, scale_equate_fetched), and the rules that rebuild the test
sets from them.

Each chain is one rule's input at a growing size; its level folder holds the files and the
steps' outputs. The commands are the rules' (workflow/rules/equate_sets.smk, equate_rows.smk)
with config/paper.yaml's settings. Paper sizes, per job ("top": the quick ladder ends at the
paper's size, so nothing is extrapolated):

- equate_stresstest: AQuA-RAT train, 97,467 problems (AQuA's README), the top.
- equate_awpnli: questions.json's 1,492 problems (the file; config/paper.yaml), the top.
- equate_reddit_titles, equate_redditnli: one job over the per-subreddit r/Economics dump
  (config/paper.yaml: reddit_economics_submissions_redarcs, 2008-2022). No count is published:
  ~1M submissions, estimated as ~183 a day over 15 years. redditnli reads the titles parquet
  reddit_titles wrote on the same level.
- equate_newsnli: the 64 shard outputs over 92,579 CNN stories (config/paper.yaml) and the
  stories folder, which it hashes for the card; the default ladder's top (writing 92,579 story
  files takes minutes).
- equate_label: the NewsNLI candidates (the larger of its two jobs; RedditNLI's are 300)
  against the released NewsNLI (968 pairs, Ravichander et al. 2019, Table 2): ~162,000
  candidates, estimated as half of the ~3.5 scored pairs a story the generated shards hold; the
  top.
- equate_compare: the rebuilt Stress Test against the released one, 7,596 pairs each
  (config/paper.yaml), the top; its other job, AwpNLI's 722 pairs, costs little more than a start.
- equate_perturb: the released NewsNLI, 968 pairs, the top.
- equate_train_hyp: MultiNLI train, 392,702 pairs (Williams et al. 2018, Table 3), the top.
- equate_checkpoint: the fetched checkpoints, the larger GPT-2 MNLI's ~124.4M parameters
  (pytorch_model.bin ~498 MB; BERT's ~110M, ~438 MB: config/paper.yaml), the top. The command
  hard-links the files into one folder, so its cost stays flat.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from scale_equate_fetched import labelled_pairs, rebuilt_row, released_rows, write_checkpoint
from scale_equate_inputs import (
    NEWS_SHARDS,
    Draws,
    nli_rows,
    rng_of,
    write_aqua,
    write_jsonl,
    write_news,
    write_problems,
    write_reddit,
)
from scale_types import FilesChain, Level, Paper, Step, file_of, files_count, reprobe

Files = tuple[dict[str, Path], dict[str, float]]
AQUA_TRAIN = 97_467
AWP_PROBLEMS = 1_492
REDDIT_SUBMISSIONS = 1_000_000
CNN_STORIES = 92_579
NEWS_RELEASED = 968
NEWS_CANDIDATES = 162_000
STRESS_PAIRS = 7_596
MNLI_TRAIN = 392_702
GPT2_MNLI = 124_442_112  # GPT-2 small (124,439,808) and its 3-class head


@cache
def paper_config() -> dict[str, Any]:
    """config/paper.yaml, its schema's defaults filled in."""
    from reprobe.config import CHECKOUT, fill_defaults, load_yaml

    config = load_yaml(CHECKOUT / "config" / "paper.yaml")
    fill_defaults(config)
    return config


def equate_settings() -> dict[str, Any]:
    """config/paper.yaml's `equate` section."""
    return paper_config()["equate"]


def settings_of(section: str, kind: str) -> str:
    """The `--settings` JSON a rule passes for one `equate` section."""
    from reprobe.equate import settings
    from reprobe.step_settings import settings_json

    return settings_json(equate_settings()[section], getattr(settings, kind))


# --- the chains' writers ------------------------------------------------------------------------


def aqua_files(folder: Path, size: int) -> Files:
    """AQuA-RAT train.json of `size` problems."""
    path = folder / "aqua_train.json"
    return {"aqua": path}, write_aqua(path, size)


def problem_files(folder: Path, size: int) -> Files:
    """Roy & Roth's questions.json of `size` problems."""
    path = folder / "questions.json"
    return {"problems": path}, write_problems(path, size)


def reddit_files(folder: Path, size: int) -> Files:
    """A Pushshift dump of `size` submissions."""
    path = folder / "Economics_submissions.zst"
    return {"dump": path}, write_reddit(path, size)


def news_files(folder: Path, size: int) -> Files:
    """`size` CNN stories and the 64 newsnli-shard outputs over them."""
    import pandas as pd

    stories, shards = write_news(folder, size)
    candidates = sum(len(pd.read_parquet(path, columns=["score"])) for path in shards)
    return ({"stories": stories, **{f"shard{n}": path for n, path in enumerate(shards)}},
            {"stories": size, "candidates": candidates})


def label_files(folder: Path, size: int) -> Files:
    """`size` NewsNLI candidates (unlabelled) and the released NewsNLI (968 pairs, parsed), half
    of which are among the candidates (a tenth of those swapped)."""
    released = labelled_pairs(Draws(rng_of(7, NEWS_RELEASED)), NEWS_RELEASED)
    draws = Draws(rng_of(8, size))
    found = [(p, h) for p, h, _ in released[:min(size, NEWS_RELEASED) // 2]]
    found = [(h, p) if n % 10 == 0 else (p, h) for n, (p, h) in enumerate(found)]
    new = [(p, h) for p, h, _ in labelled_pairs(draws, size - len(found))]
    rows = [rebuilt_row(p, h, "", "news") for p, h in found + new]
    order = draws.rng.permutation(len(rows))
    write_jsonl(folder / "candidates.jsonl", (rows[i] for i in order))
    write_jsonl(folder / "released.jsonl", released_rows(draws, released, "news"))
    return ({"candidates": folder / "candidates.jsonl", "released": folder / "released.jsonl"},
            {"candidates": size, "released": NEWS_RELEASED})


def compare_files(folder: Path, size: int) -> Files:
    """A rebuilt Stress Test of `size` pairs and a released one (parsed) of as many: half of its
    pairs rebuilt exactly, a tenth swapped, a tenth with the premise only."""
    draws = Draws(rng_of(9, size))
    released = labelled_pairs(draws, size)
    rebuilt = []
    for n, (premise, hypothesis, label) in enumerate(released):
        kind = n % 10
        if kind < 5:
            rebuilt.append((premise, hypothesis, label))
        elif kind == 5:
            rebuilt.append((hypothesis, premise, "neutral"))
        else:
            other = labelled_pairs(draws, 1)[0]
            rebuilt.append((premise if kind == 6 else other[0], other[1], other[2]))
    write_jsonl(folder / "rebuilt.jsonl", (rebuilt_row(*t, "aqua") for t in rebuilt))
    write_jsonl(folder / "released.jsonl", released_rows(draws, released, "aqua"))
    return ({"rebuilt": folder / "rebuilt.jsonl", "released": folder / "released.jsonl"},
            {"pairs": size})


def perturb_files(folder: Path, size: int) -> Files:
    """A released NewsNLI of `size` parsed pairs (a third entailed)."""
    draws = Draws(rng_of(10, size))
    path = folder / "NewsNLI.jsonl"
    write_jsonl(path, released_rows(draws, labelled_pairs(draws, size), "news"))
    return {"newsnli": path}, {"pairs": size}


def mnli_files(folder: Path, size: int) -> Files:
    """MultiNLI's train jsonl of `size` pairs, where the config's member names it."""
    path = folder / "multinli_1.0" / "multinli_1.0_train.jsonl"
    write_jsonl(path, nli_rows(size))
    return {"train": path}, {"pairs": size, "MB": path.stat().st_size / 1e6}


def checkpoint_files(folder: Path, size: int) -> Files:
    """A fetched BERT MNLI checkpoint of about `size` parameters."""
    files, parameters = write_checkpoint(folder / "hub", size)
    weights = files["pytorch_model.bin"].stat().st_size
    return files, {"parameters": parameters, "weights MB": weights / 1e6}


CHAINS: tuple[FilesChain, ...] = (
    FilesChain("equate_aqua", {"tiny": [300, 1_200, 4_800], "quick": [6_092, 24_367, AQUA_TRAIN],
                               "default": [6_092, 12_184, 24_367, 48_734, AQUA_TRAIN]},
               aqua_files),
    FilesChain("equate_awp", {"tiny": [60, 240, 960], "quick": [93, 373, AWP_PROBLEMS],
                              "default": [93, 187, 373, 746, AWP_PROBLEMS]}, problem_files),
    FilesChain("equate_reddit", {"tiny": [200, 800, 3_200], "quick": [6_400, 25_600, 102_400],
                                 "default": [12_800, 25_600, 51_200, 102_400, 204_800]},
               reddit_files),
    # A story is a file: 92,579 of them take minutes to write, so only the default run's top
    # is the paper's folder.
    FilesChain("equate_news", {"tiny": [64, 256, 1_024], "quick": [1_447, 5_787, 23_145],
                               "default": [5_787, 11_574, 23_145, 46_290, CNN_STORIES]},
               news_files),
    FilesChain("equate_label", {"tiny": [200, 800, 3_200],
                                "quick": [10_125, 40_500, NEWS_CANDIDATES],
                                "default": [10_125, 20_250, 40_500, 81_000, NEWS_CANDIDATES]},
               label_files),
    FilesChain("equate_compare", {"tiny": [60, 240, 960], "quick": [474, 1_899, STRESS_PAIRS],
                                  "default": [474, 949, 1_899, 3_798, STRESS_PAIRS]},
               compare_files),
    FilesChain("equate_perturb", {"tiny": [30, 120, 480], "quick": [60, 242, NEWS_RELEASED],
                                  "default": [60, 121, 242, 484, NEWS_RELEASED]}, perturb_files),
    FilesChain("equate_mnli", {"tiny": [500, 2_000, 8_000], "quick": [24_544, 98_176, MNLI_TRAIN],
                               "default": [24_544, 49_088, 98_176, 196_351, MNLI_TRAIN]},
               mnli_files),
    FilesChain("equate_checkpoint",
               {"tiny": [500_000, 2_000_000, 8_000_000],
                "quick": [7_800_000, 31_000_000, GPT2_MNLI],
                "default": [7_800_000, 15_500_000, 31_000_000, 62_000_000, GPT2_MNLI]},
               checkpoint_files),
)


# --- the commands -------------------------------------------------------------------------------


def seed() -> str:
    """config/paper.yaml's seed."""
    return str(paper_config()["seed"])


def stresstest_argv(level: Level) -> list[str]:
    """equate_stresstest, with the config's 2,532-premise sample."""
    cap = equate_settings()["stresstest"]["max_premises"]
    return reprobe("equate", "stresstest", "--aqua", file_of(level, "aqua"), "--output",
                   level.folder / "rebuilt" / "stresstest.jsonl", "--seed", seed(),
                   *(["--max-premises", str(cap)] if cap else []))


def awpnli_argv(level: Level) -> list[str]:
    """equate_awpnli over every problem (config/paper.yaml lists no fold file)."""
    folds = equate_settings()["inputs"]["arithmetic_folds"]
    assert not folds, "config/paper.yaml now names fold files: generate them"
    return reprobe("equate", "awpnli", "--problems", file_of(level, "problems"), "--output",
                   level.folder / "rebuilt" / "awpnli.jsonl", "--seed", seed())


def reddit_titles_argv(level: Level) -> list[str]:
    """equate_reddit_titles over the level's dump."""
    return reprobe("equate", "reddit-titles", "--dump", file_of(level, "dump"), "--output",
                   level.folder / "shards" / "redditnli" / "economics.parquet")


def redditnli_argv(level: Level) -> list[str]:
    """equate_redditnli over the titles reddit_titles wrote, the config's top and days."""
    return reprobe("equate", "redditnli", "--settings", settings_of("redditnli",
                                                                    "RedditSettings"),
                   "--output", level.folder / "candidates" / "redditnli.jsonl",
                   level.folder / "shards" / "redditnli" / "economics.parquet")


def newsnli_argv(level: Level) -> list[str]:
    """equate_newsnli gathering the 64 shards."""
    assert equate_settings()["newsnli"]["shards"] == NEWS_SHARDS
    return reprobe("equate", "newsnli", "--stories", file_of(level, "stories"), "--output",
                   level.folder / "candidates" / "newsnli.jsonl",
                   *(file_of(level, f"shard{n}") for n in range(NEWS_SHARDS)))


def label_argv(level: Level) -> list[str]:
    """equate_label of the NewsNLI candidates."""
    return reprobe("equate", "label", "--test-set", "newsnli", "--candidates",
                   file_of(level, "candidates"), "--released", file_of(level, "released"),
                   "--output", level.folder / "rebuilt" / "newsnli.jsonl", "--recovery",
                   level.folder / "recovery" / "newsnli.json")


def compare_argv(level: Level) -> list[str]:
    """equate_compare of the rebuilt Stress Test."""
    return reprobe("equate", "recovery", "--test-set", "stresstest", "--rebuilt",
                   file_of(level, "rebuilt"), "--released", file_of(level, "released"),
                   "--output", level.folder / "recovery" / "stresstest.json")


def perturb_argv(level: Level) -> list[str]:
    """equate_perturb of the released NewsNLI."""
    out = level.folder / "perturbation"
    return reprobe("equate", "perturb", "--newsnli", file_of(level, "newsnli"), "--unperturbed",
                   out / "unperturbed.jsonl", "--perturbed", out / "perturbed.jsonl", "--seed",
                   seed())


def train_hyp_argv(level: Level) -> list[str]:
    """equate_train_hyp with the config's `equate.hyp`."""
    return reprobe("equate", "train-hyp", "--train", file_of(level, "train"), "--output",
                   level.folder / "models" / "hyp.bin", "--seed", seed(), "--settings",
                   settings_of("hyp", "HypSettings"))


HUB_FILES = ("config.json", "pytorch_model.bin", "vocab.txt", "tokenizer_config.json",
             "special_tokens_map.json")


def checkpoint_argv(level: Level) -> list[str]:
    """equate_checkpoint: the hub files as NAME=PATH, in the config's order."""
    names = list(equate_settings()["neural"]["BERT"]["files"])
    assert names == list(HUB_FILES), names
    return reprobe("equate", "checkpoint", "--output-dir", level.folder / "neural" / "BERT",
                   *(f"{name}={file_of(level, name)}" for name in names))


STEPS: tuple[Step, ...] = (
    Step("equate_stresstest", ("equate_stresstest",), "problems", 1, "equate_aqua",
         stresstest_argv, files_count("problems"),
         Paper(AQUA_TRAIN, "one job over AQuA-RAT train", "AQuA-RAT train: 97,467 problems "
               "(its README; 47.6 MB); the ladder's top")),
    Step("equate_awpnli", ("equate_awpnli",), "problems", 1, "equate_awp", awpnli_argv,
         files_count("problems"),
         Paper(AWP_PROBLEMS, "one job over questions.json", "Roy & Roth's questions.json: "
               "1,492 problems (the file; config/paper.yaml); the ladder's top")),
    Step("equate_reddit_titles", ("equate_reddit_titles",), "submissions", 1, "equate_reddit",
         reddit_titles_argv, files_count("submissions"),
         Paper(REDDIT_SUBMISSIONS, "one job: the r/Economics dump",
               "config/paper.yaml's one dump, r/Economics 2008-2022 (redarcs): ~1M "
               "submissions, estimated (no count is published: ~183 a day over 15 years)"),
         # zstd's decoder keeps up to the dump's window (Pushshift's: 2 GiB) of history, so
         # its memory grows linearly with what it has read until the window is full.
         budget_mb=2048, budget_why="zstd's decoder holds at most the dump's 2 GiB window",
         linear_memory=True),
    Step("equate_redditnli", ("equate_redditnli",), "submissions", 1, "equate_reddit",
         redditnli_argv, files_count("submissions"),
         Paper(REDDIT_SUBMISSIONS, "one job over the dump's titles",
               "the titles of config/paper.yaml's one dump, ~1M r/Economics submissions "
               "(estimated), posted ~183 a day as here"), needs=("equate_reddit_titles",)),
    Step("equate_newsnli", ("equate_newsnli",), "stories", 1, "equate_news", newsnli_argv,
         files_count("stories"),
         Paper(CNN_STORIES, "one job over the 64 shards", "config/paper.yaml: 92,579 CNN "
               "stories in 64 shards (the stories folder is hashed for the card); the default "
               "ladder's top")),
    Step("equate_label", ("equate_label",), "candidate pairs", 1, "equate_label", label_argv,
         files_count("candidates"),
         Paper(NEWS_CANDIDATES, "job: NewsNLI's candidates against its 968 released pairs",
               "~162,000 NewsNLI candidates, estimated: half of the ~3.5 scored pairs a story "
               "of 92,579 (as the stories chain's generator has them); RedditNLI's job labels "
               "300 (~0.5 s: work 1.05); the ladder's top", jobs=2, work=1.05)),
    Step("equate_compare", ("equate_compare",), "pairs", 1, "equate_compare", compare_argv,
         files_count("pairs"),
         Paper(STRESS_PAIRS, "job: the rebuilt Stress Test against the released one",
               "the Stress Test: 7,596 pairs rebuilt and released (config/paper.yaml); "
               "AwpNLI's job compares 722 (~0.2 s: work 1.2); the ladder's top", jobs=2,
               work=1.2)),
    Step("equate_perturb", ("equate_perturb",), "pairs", 1, "equate_perturb", perturb_argv,
         files_count("pairs"),
         Paper(NEWS_RELEASED, "one job over the released NewsNLI", "the released NewsNLI: "
               "968 pairs (Ravichander et al. 2019, Table 2); the ladder's top")),
    Step("equate_train_hyp", ("equate_train_hyp",), "pairs", 1, "equate_mnli", train_hyp_argv,
         files_count("pairs"),
         Paper(MNLI_TRAIN, "one training job", "MultiNLI train: 392,702 pairs (Williams et "
               "al. 2018, Table 3); the quick and default ladders' top")),
    Step("equate_checkpoint", ("equate_checkpoint",), "parameters", 1, "equate_checkpoint",
         checkpoint_argv, files_count("parameters"),
         Paper(GPT2_MNLI, "job: one fetched checkpoint", "config/paper.yaml's two fetched "
               "checkpoints: GPT-2 MNLI ~124.4M parameters (~498 MB), BERT-base MNLI ~110M "
               "(~438 MB); the ladder's top", jobs=2)),
)
OUTPUTS: dict[str, tuple[str, ...]] = {
    "equate_stresstest": ("rebuilt/stresstest.jsonl*",),
    "equate_awpnli": ("rebuilt/awpnli.jsonl*",),
    "equate_reddit_titles": ("shards/redditnli",),
    "equate_redditnli": ("candidates/redditnli.jsonl*",),
    "equate_newsnli": ("candidates/newsnli.jsonl*",),
    "equate_label": ("rebuilt/newsnli.jsonl*", "recovery/newsnli.json"),
    "equate_compare": ("recovery/stresstest.json",),
    "equate_perturb": ("perturbation",),
    "equate_train_hyp": ("models/hyp.bin",),
    "equate_checkpoint": ("neural/BERT",),
}
