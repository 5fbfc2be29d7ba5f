"""Generated inputs of the scale benchmark's WIKI-PSE part-2 chains (scale_wikipse_sets), each in
the layout its rule reads:

- `splits`: the released-format train/test splits of N words with 400d vectors
  (`scale_inputs.write_probe_data`), and the analysed model's test predictions (`.npz`, the keys
  `wikipse probe --predictions` writes) for its word, wghtΣ and unifΣ rows.
- `released`: a rebuilt `words.parquet` of N annotated words (`write_dataset`'s columns) and the
  released train/test files, 44,250 / 276,000 of N words each, most of them rebuilt words.
- `public`: GloVe 6B's `glove.6B.300d.txt` (no header) and fastText's `wiki.en.vec` (a header)
  of N words together, in the real files' proportion (400,000 : 2,519,370), holding the plain
  form of about 13,000 / 44,250 of the splits' words (Table 3's shared subset), the splits
  (N × 44,250 / 2,919,370 words each, 300d vectors folder as our rows) and SentEval's MR, CR,
  SUBJ and MRPC files at the same share of their real sizes.
- `authors`: the authors' `embeddings/sskip.400.txt`: word2vec text (`V D` header) of N words.
- `similarity`: Table 6's seven datasets in their layouts (MEN `w-n w-n score`, tab-separated
  pairs, Google's `: section` analogies, MSR's `a b c CAT d`) with N Google+MSR questions in
  all, and four word-vector folders (100-400d) whose vocabulary grows to 500,000 at the paper's
  27,544 questions.
- `supersense`: UKP's supertextwiki folder of N articles (subfolders, gzipped files without a
  .gz name, `Term_noun.x` tokens) and its word2vec text embeddings (300d, every word seen 20
  times or more).

Words come from scale_inputs' open Zipf vocabulary; every generator is seeded by its size.
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from harness import REPO
from scale_inputs import HEAD_RANKS, draw_ranks, rank_word, words_of, write_probe_data, zipf_words

CLASSES = REPO / "data" / "samples" / "wikipse" / "released" / "semantic_classes.txt"
PROBE_DIM = 400  # the analysed model's dimension (Figures 3-6 use 400d)
PUBLIC_DIM = 300
SPLIT_WORDS = 44_250  # a split of the release (Yaghoobzadeh et al. 2019, §3)
ANNOTATED_WORDS = 276_000  # annotated words in the vocabulary (§3): the rebuilt words.parquet
SHARED_SUBSET = 13_000  # a split's words in both public vocabularies (§5.1, Table 3)
GLOVE_WORDS, FASTTEXT_WORDS = 400_000, 2_519_370  # glove.6B.300d.txt; wiki.en.vec
PUBLIC_WORDS = GLOVE_WORDS + FASTTEXT_WORDS
# SentEval's files: MR 5,331 + 5,331, CR 2,405 + 1,370, SUBJ 5,000 + 5,000 sentences; MRPC's
# 4,076 train and 1,725 test pairs.
SENTEVAL = {"MR": (5_331, 5_331), "CR": (2_405, 1_370), "SUBJ": (5_000, 5_000)}
MRPC = (4_076, 1_725)
# Table 6's datasets: pairs (MEN 3,000, MTurk 287, RW 2,034, WS353 353, SimLex 999) and
# analogies (Google 19,544, MSR 8,000).
PAIRS = {"MEN": 3_000, "MTurk": 287, "RW": 2_034, "WS353": 353, "SimLex999": 999}
ANALOGIES = {"Google": 19_544, "MSR": 8_000}
QUESTIONS = sum(ANALOGIES.values())
SIMILARITY_VOCABULARY = 500_000  # the word corpus's vocabulary (§3)
CANDIDATES = 30_000  # the analogies search the 30,000 most frequent keys (tasks.similarity)
DIMS = (100, 200, 300, 400)
NOUNS = ("Tops", "act", "animal", "artifact", "attribute", "body", "cognition", "communication",
         "event", "feeling", "food", "group", "location", "motive", "object", "person",
         "phenomenon", "plant", "possession", "process", "quantity", "relation", "shape",
         "state", "substance", "time")
VERBS = ("motion", "communication", "change", "cognition", "social", "stative")
ARTICLES_PER_FOLDER = 1_000
NOUN_SHARE, VERB_SHARE = 0.2, 0.08  # tokens tagged (estimated: Babelfy tags content words)
EMBEDDING_MIN_COUNT = 20
Files = tuple[dict[str, Path], dict[str, float]]
# Vector components as text: 5 decimals of multiples of 1/20,000 in [-2, 2], looked up (a loop
# formatting every float would take minutes at the ladders' tops).
_STEPS = 20_000
_TEXT = np.array([f"{k / _STEPS:.5f}" for k in range(-2 * _STEPS, 2 * _STEPS + 1)], dtype=object)


def class_names() -> list[str]:
    """The 34 S-classes of the released class list (`-location`, …)."""
    lines = CLASSES.read_text(encoding="utf-8").splitlines()
    return [line.split()[0] for line in lines if line.strip()]


def vector_text(rng: np.random.Generator, rows: int, dim: int) -> list[str]:
    """`rows` lines of `dim` Gaussian components (σ 0.3), 5 decimals, space-separated."""
    steps = np.clip(np.rint(rng.standard_normal((rows, dim)) * 0.3 * _STEPS), -2 * _STEPS,
                    2 * _STEPS).astype(np.int64) + 2 * _STEPS
    return [" ".join(row) for row in _TEXT[steps].tolist()]


def write_text_vectors(path: Path, names: Sequence[str], dim: int, rng: np.random.Generator,
                       header: bool) -> Path:
    """A GloVe (no header) or word2vec/fastText text file (`V D` first) of the names."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8") as out:
        if header:
            out.write(f"{len(names)} {dim}\n")
        for start in range(0, len(names), 10_000):
            block = names[start:start + 10_000]
            out.writelines(f"{name} {row}\n" for name, row in
                           zip(block, vector_text(rng, len(block), dim), strict=True))
    return path


def save_folder(folder: Path, names: Sequence[str], dim: int, rng: np.random.Generator) -> Path:
    """A vectors folder of the workflow (KeyedVectors) with Gaussian float32 vectors."""
    from gensim.models import KeyedVectors

    from reprobe.wikipse.embedding.vectors import save_vectors

    keyed = KeyedVectors(dim)
    keyed.add_vectors(list(names), rng.standard_normal((len(names), dim)).astype(np.float32))
    return save_vectors(keyed, folder)


# --- splits and the analysed model's predictions ---------------------------------------------


def write_predictions(test: Path, out: Path, rng: np.random.Generator) -> Path:
    """An `.npz` of test predictions as `wikipse probe --predictions` writes it: the true
    labels, and each classifier's with a tenth of the entries flipped."""
    from reprobe.wikipse.probing.probes import ambiguity_labels, indicator
    from reprobe.wikipse.resource.release import read_split

    split = read_split(test)
    words = list(split.classes)
    classes = sorted({c for found in split.classes.values() for c in found})
    y_true = indicator(words, split.classes, classes)
    a_true = ambiguity_labels(words, split, "authors")
    saved = {"words": np.array(words, dtype=str), "classes": np.array(classes),
             "y_true": y_true, "a_true": a_true}
    for kind in ("LR", "KNN", "MLP"):
        flip = rng.random(y_true.shape) < 0.1
        saved[f"y_pred_{kind}"] = np.where(flip, 1 - y_true, y_true).astype(np.int8)
        a_flip = rng.random(a_true.shape) < 0.2
        saved[f"a_pred_{kind}"] = np.where(a_flip, 1 - a_true, a_true).astype(np.int8)
        saved[f"a_proba_{kind}"] = np.clip(a_true * 0.6 + rng.random(a_true.shape) * 0.4, 0, 1)
    out.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(out, **saved)
    return out


def write_splits(folder: Path, size: int) -> Files:
    """The splits of `size` words with 400d vectors, and three series' predictions."""
    info = write_probe_data(folder / "probe", size, PROBE_DIM, class_names())
    rng = np.random.default_rng([3, size])
    files = {"train": Path(info.train), "test": Path(info.test), "vectors": Path(info.path),
             "classes": CLASSES}
    for kind in ("word", "wght", "unif"):
        files[f"pred_{kind}"] = write_predictions(Path(info.test),
                                                  folder / "predictions" / f"{kind}.npz", rng)
    return files, {"words a split": size, "dimensions": PROBE_DIM}


# --- the released files and the rebuilt words.parquet ----------------------------------------


def class_lines(names: Sequence[str], rng: np.random.Generator, classes: Sequence[str]
                ) -> list[dict[str, int]]:
    """Each word's classes and counts: 1.75 a word on average, as the release has."""
    found = []
    for count in (1 + rng.poisson(0.75, size=len(names))).tolist():
        picks = rng.choice(len(classes), size=min(count, len(classes)), replace=False)
        counts = np.sort(rng.integers(20, 2_000, size=picks.size))[::-1]
        found.append({classes[c]: int(n) for c, n in zip(picks.tolist(), counts.tolist(),
                                                         strict=True)})
    return found


def write_released(folder: Path, size: int) -> Files:
    """`words.parquet` of `size` rebuilt words, and released train/test files of
    size × 44,250 / 276,000 words each, nine in ten of them rebuilt words."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from reprobe.wikipse.resource.dataset import DATASET_SCHEMA
    from reprobe.wikipse.resource.release import format_line, ordered

    rng = np.random.default_rng([4, size])
    classes = class_names()
    names = [f"@{rank_word(rank)}@" for rank in range(HEAD_RANKS, HEAD_RANKS + size)]
    words = class_lines(names, rng, classes)
    per_split = max(1, round(size * SPLIT_WORDS / ANNOTATED_WORDS))
    chosen = rng.permutation(size)[:2 * per_split].tolist()
    rows = [ordered(found) for found in words]
    split = [""] * size
    for at, index in enumerate(chosen):
        split[index] = "train" if at < per_split else "test"
    table = pa.table({"word": names, "split": split, "classes": [[c for c, _ in r] for r in rows],
                      "freqs": [[n for _, n in r] for r in rows],
                      "total": [sum(n for _, n in r) for r in rows],
                      "n_classes": [len(r) for r in rows]}, schema=DATASET_SCHEMA)
    pq.write_table(table, folder / "words.parquet", compression="zstd")
    # A tenth of the released words are not rebuilt (new names, other classes).
    others = [f"@{rank_word(rank)}@" for rank in range(HEAD_RANKS + size,
                                                       HEAD_RANKS + size + 2 * per_split)]
    other_classes = class_lines(others, rng, classes)
    files = {"words": folder / "words.parquet"}
    for at, name in enumerate(("train", "test")):
        picks = chosen[at * per_split:(at + 1) * per_split]
        lines = [format_line(names[i], words[i]) if rng.random() < 0.9 else
                 format_line(others[at * per_split + k], other_classes[at * per_split + k])
                 for k, i in enumerate(picks)]
        files[name] = folder / f"{name}.tsv"
        files[name].write_text("\n".join(lines) + "\n", encoding="utf-8")
    return files, {"rebuilt words": size, "released words a split": per_split}


# --- public embeddings, the splits they share, SentEval's tasks -------------------------------


def sentences(rng: np.random.Generator, count: int) -> list[str]:
    """`count` sentences of 5 to 40 words of the open vocabulary, some capitalised, a full
    stop or comma now and then, as SentEval's tokenised files have them."""
    lengths = rng.integers(5, 41, size=count)
    words = zipf_words(rng, int(lengths.sum()))
    ends = np.cumsum(lengths).tolist()
    return [" ".join(words[a:b]) + (" ." if rng.random() < 0.7 else " ,")
            for a, b in zip([0, *ends], ends, strict=False)]


def write_senteval(folder: Path, share: float, rng: np.random.Generator) -> dict[str, Path]:
    """MR, CR, SUBJ (a positive and a negative file each, latin-1 lines) and MRPC's train and
    test files (header, then Quality, #1 ID, #2 ID, #1 String, #2 String), at `share` of their
    real sizes (40 lines a file at least: the folds need both labels)."""
    files: dict[str, Path] = {}
    folder.mkdir(parents=True, exist_ok=True)
    for task, counts in SENTEVAL.items():
        for role, count in zip(("pos", "neg"), counts, strict=True):
            files[f"{task}.{role}"] = folder / f"{task.lower()}.{role}"
            lines = sentences(rng, max(40, round(count * share)))
            files[f"{task}.{role}"].write_text("\n".join(lines) + "\n", encoding="latin-1")
    for split, count in zip(("train", "test"), MRPC, strict=True):
        pairs = max(40, round(count * share))
        left, right = sentences(rng, pairs), sentences(rng, pairs)
        labels = (rng.random(pairs) < 0.68).astype(int).tolist()
        ids = rng.integers(10_000, 4_000_000, size=(pairs, 2)).tolist()
        rows = [f"{y}\t{a}\t{b}\t{s}\t{t}" for y, (a, b), s, t in
                zip(labels, ids, left, right, strict=True)]
        files[f"MRPC.{split}"] = folder / f"msr_paraphrase_{split}.txt"
        files[f"MRPC.{split}"].write_text(
            "\ufeffQuality\t#1 ID\t#2 ID\t#1 String\t#2 String\n" + "\n".join(rows) + "\n",
            encoding="utf-8")
    return files


def write_public(folder: Path, size: int) -> Files:
    """GloVe 6B's and fastText Wiki's files of `size` words together, the splits they share
    a part of, and SentEval's tasks, all at size / 2,919,370 of the paper's."""
    share = size / PUBLIC_WORDS
    per_split = max(50, round(SPLIT_WORDS * share))
    info = write_probe_data(folder / "probe", per_split, PUBLIC_DIM, class_names())
    rng = np.random.default_rng([5, size])
    split_ranks = np.arange(HEAD_RANKS, HEAD_RANKS + 2 * per_split)
    shared = split_ranks[rng.random(split_ranks.size) < SHARED_SUBSET / SPLIT_WORDS]
    glove = max(1, round(size * GLOVE_WORDS / PUBLIC_WORDS))
    files = {"train": Path(info.train), "test": Path(info.test), "ours": Path(info.path)}
    for name, count, header in (("glove", glove, False), ("fasttext", size - glove, True)):
        # The open vocabulary's most frequent words, past the splits' ranks, and the shared ones.
        fill = count - shared.size
        ranks = np.concatenate([np.arange(1, 1 + min(fill, HEAD_RANKS - 1)), np.arange(
            HEAD_RANKS + 2 * per_split, HEAD_RANKS + 2 * per_split + max(0, fill - HEAD_RANKS + 1)),
            shared])
        names = [rank_word(rank) for rank in rng.permutation(ranks).tolist()]
        path = folder / ("glove.6B.300d.txt" if name == "glove" else "wiki.en.vec")
        files[name] = write_text_vectors(path, names, PUBLIC_DIM, rng, header)
    files.update(write_senteval(folder / "senteval", share, rng))
    return files, {"public words": size, "GloVe words": glove, "words a split": per_split,
                   "shared words": int(shared.size) // 2}


# --- the authors' embeddings -------------------------------------------------------------------


def write_authors(folder: Path, size: int) -> Files:
    """The authors' `embeddings/sskip.400.txt` (wang2vec's text output: `V D`, then a word and
    its components a line) of `size` words: `@word@` mention tokens and plain words."""
    rng = np.random.default_rng([6, size])
    names = [f"@{word}@" if rng.random() < 0.5 else word
             for word in (rank_word(rank) for rank in range(1, size + 1))]
    path = write_text_vectors(folder / "embeddings" / "sskip.400.txt", names, PROBE_DIM, rng,
                              header=True)
    return {"vectors": path}, {"words": size, "dimensions": PROBE_DIM}


# --- Table 6's datasets and word vectors -------------------------------------------------------


def similarity_words(rng: np.random.Generator, count: int, vocabulary: int) -> list[str]:
    """`count` benchmark words, most of them in the vectors' vocabulary (ranks ≤ vocabulary)."""
    ranks = draw_ranks(rng, count)
    ranks = np.where(rng.random(count) < 0.9, 1 + ranks % vocabulary, ranks)
    return words_of(ranks).tolist()


def write_similarity(folder: Path, size: int) -> Files:
    """Table 6's datasets with `size` analogy questions (Google and MSR in their proportion,
    the pair sets at the same share) and SKIP's word vectors at 100-400d whose vocabulary grows
    from 30,000 to 500,000 at the paper's 27,544 questions."""
    share = size / QUESTIONS
    vocabulary = CANDIDATES + round((SIMILARITY_VOCABULARY - CANDIDATES) * share)
    rng = np.random.default_rng([7, size])
    files: dict[str, Path] = {}
    data = folder / "datasets"
    data.mkdir(parents=True, exist_ok=True)
    for name, count in PAIRS.items():
        pairs = max(10, round(count * share))
        left, right = (similarity_words(rng, pairs, vocabulary) for _ in range(2))
        scores = rng.random(pairs) * 10
        if name == "MEN":  # lemma form: `word-n word-n score`, space-separated
            lines = [f"{a}-n {b}-n {s:.2f}" for a, b, s in zip(left, right, scores, strict=True)]
        else:
            lines = [f"{a}\t{b}\t{s:.2f}" for a, b, s in zip(left, right, scores, strict=True)]
        files[name] = data / f"{name}.txt"
        files[name].write_text("\n".join(lines) + "\n", encoding="utf-8")
    for name, count in ANALOGIES.items():
        questions = max(10, round(count * share))
        words = [similarity_words(rng, questions, vocabulary) for _ in range(4)]
        if name == "Google":
            lines = []
            for at, row in enumerate(zip(*words, strict=True)):
                lines += [f": section-{at // 500}"] * (at % 500 == 0) + [" ".join(row)]
        else:
            lines = [f"{a} {b} {c} NN {d}" for a, b, c, d in zip(*words, strict=True)]
        files[name] = data / f"{name}.txt"
        files[name].write_text("\n".join(lines) + "\n", encoding="utf-8")
    names = [rank_word(rank) for rank in range(1, vocabulary + 1)]
    for dim in DIMS:
        folder_dim = folder / f"skip-word-{dim}"
        save_folder(folder_dim, names, dim, rng)
        files[f"vectors{dim}"] = folder_dim
    return files, {"analogy questions": size, "vocabulary": vocabulary}


# --- UKP's supersense-annotated Wikipedia and its embeddings ----------------------------------


def article_text(rng: np.random.Generator, tokens: int) -> tuple[str, np.ndarray]:
    """An article's lines (≈26.5 tokens a sentence): open-vocabulary words, a fifth tagged with
    a noun supersense (a word's usual one, some words with a second now and then), some with a
    verb supersense, and the noun-tagged tokens' ranks."""
    ranks = draw_ranks(rng, tokens)
    words = words_of(ranks)
    draw = rng.random(tokens)
    noun = draw < NOUN_SHARE
    verb = (draw >= NOUN_SHARE) & (draw < NOUN_SHARE + VERB_SHARE)
    # A word's supersenses follow its rank: its usual one, and for two in five a second one
    # that a third of its tokens take.
    usual = (ranks * 2_654_435_761) % len(NOUNS)
    second = (usual + 1 + (ranks * 40_503) % (len(NOUNS) - 1)) % len(NOUNS)
    ambiguous = (ranks * 7_919) % 5 < 2
    sense = np.where(ambiguous & (rng.random(tokens) < 1 / 3), second, usual)
    capital = rng.random(tokens) < 0.15
    out = []
    for at, word in enumerate(words.tolist()):
        term = word.title() if capital[at] else word
        if noun[at]:
            term += "_noun." + NOUNS[sense[at]]
        elif verb[at]:
            term += "_verb." + VERBS[ranks[at] % len(VERBS)]
        out.append(term)
    lengths = rng.integers(5, 49, size=tokens // 5 + 1)
    ends = np.minimum(np.cumsum(lengths), tokens)
    bounds = [0, *sorted(set(ends.tolist()))]
    lines = [" ".join(out[a:b]) + " ." for a, b in zip(bounds, bounds[1:], strict=False) if b > a]
    return "\n".join(lines) + "\n", ranks


def write_supersense(folder: Path, size: int) -> Files:
    """The supertextwiki folder of `size` articles (200-1,000 tokens each, a thousand a
    subfolder, gzipped under plain names) and UKP-style word2vec text embeddings (300d) of every
    word it holds 20 times or more, and the 26 noun supersenses."""
    rng = np.random.default_rng([8, size])
    corpus = folder / "supertextwiki"
    counts: dict[int, int] = {}
    tokens = 0
    for article in range(size):
        sub = corpus / f"{article // ARTICLES_PER_FOLDER:04d}"
        sub.mkdir(parents=True, exist_ok=True)
        length = int(rng.integers(200, 1_001))
        text, ranks = article_text(rng, length)
        tokens += length + text.count("\n")  # each line ends in a full-stop token
        with gzip.open(sub / f"wiki_{article:07d}", "wt", encoding="utf-8", compresslevel=1) as f:
            f.write(text)
        found, times = np.unique(ranks, return_counts=True)
        for rank, n in zip(found.tolist(), times.tolist(), strict=True):
            counts[rank] = counts.get(rank, 0) + n
    vocabulary = [rank_word(r) for r, n in counts.items() if n >= EMBEDDING_MIN_COUNT]
    vocabulary += ["noun." + name for name in NOUNS]
    path = write_text_vectors(folder / "supersense-embeddings.txt", vocabulary, PUBLIC_DIM, rng,
                              header=True)
    (folder / "corpus.json").write_text(json.dumps({"tokens": tokens}) + "\n", encoding="utf-8")
    return {"corpus": corpus, "vectors": path}, {"articles": size, "tokens": tokens,
                                                "embedding words": len(vocabulary)}
