"""NLI pairs as the trained baselines read them: word ids in flat arrays (a whole MultiNLI in
tens of megabytes), then padded, length-bucketed batches of tensors.

Each token keeps a surface id: the vocabulary's id for a training word, a new id past it for a
word first seen in a test set (its word embedding is UNK's; CH still reads its characters).
What differs between the papers' readers is a `TextRule` (`architectures.py`): InferSent
wraps each sentence in <s> … </s> and drops words without a GloVe vector, CBOW and BiLSTM cut
every sentence at 50 tokens, SSEN at 60 in training and 150 after, ESIM and CH drop long
training pairs, CH keeps only its most frequent words.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from reprobe.equate.labels import LABELS
from reprobe.equate.trained.text import words
from reprobe.equate.trained.vocabulary import END, START, UNK, Vocabulary

# Batches are made from a seeded shuffle cut into chunks this many batches long, sorted by
# length inside a chunk: little padding, and still a different mix of pairs every epoch.
BUCKET_BATCHES = 50
# Characters CH reads of a word (longer tokens, URLs say, are cut).
MAX_WORD_CHARS = 20


@dataclass(frozen=True)
class TextRule:
    """How one baseline reads a sentence (from its released code)."""

    word_limit: int | None = None  # ids past it read as UNK (CH: its n_words)
    wrap: bool = False  # InferSent: <s> sentence </s>
    vectored_only: bool = False  # InferSent: words without a GloVe vector are dropped
    max_tokens: int | None = None  # every sentence cut to this many (Williams: seq_length 50)
    train_max_tokens: int | None = None  # SSEN: training sentences cut to this many
    train_drop_longer: int | None = None  # ESIM, CH: training pairs this long are left out
    chars: bool = False  # CH: character ids too


@dataclass
class EncodedPairs:
    """Pairs as surface ids: sentence 2i is pair i's premise, 2i+1 its hypothesis."""

    tokens: np.ndarray  # int32, every sentence's ids one after another
    starts: np.ndarray  # int64 [2N + 1]: sentence k is tokens[starts[k]:starts[k + 1]]
    labels: np.ndarray  # int64 [N]: index in LABELS, -1 when unlabelled
    surfaces: list[str] = field(default_factory=list)  # ids past the vocabulary -> word

    def __len__(self) -> int:
        return len(self.labels)

    def sentence(self, k: int) -> np.ndarray:
        """Surface ids of sentence k."""
        return self.tokens[self.starts[k]:self.starts[k + 1]]

    def pair_lengths(self) -> np.ndarray:
        """Each pair's longer sentence, in tokens."""
        lengths = np.diff(self.starts)
        return np.maximum(lengths[0::2], lengths[1::2])


def encode_pairs(rows: Iterable[dict[str, Any]], vocabulary: Vocabulary) -> EncodedPairs:
    """Tokenise and number the pairs' sentences (test words past the vocabulary get new ids)."""
    ids: list[int] = []
    starts = [0]
    labels: list[int] = []
    extra: dict[str, int] = {}
    size = len(vocabulary.words)
    for row in rows:
        for text in (row["sentence1"], row["sentence2"]):
            for word in words(text):
                index = vocabulary.word_id(word)
                if index == 1 and word != UNK:
                    index = extra.setdefault(word, size + len(extra))
                ids.append(index)
            starts.append(len(ids))
        label = row.get("gold_label", "")
        labels.append(LABELS.index(label) if label in LABELS else -1)
    return EncodedPairs(np.asarray(ids, dtype=np.int32), np.asarray(starts, dtype=np.int64),
                        np.asarray(labels, dtype=np.int64), list(extra))


def kept_for_training(data: EncodedPairs, rule: TextRule) -> np.ndarray:
    """Indices of the labelled pairs a baseline trains on (its length limit applied)."""
    keep = data.labels >= 0
    if rule.train_drop_longer is not None:
        keep &= data.pair_lengths() < rule.train_drop_longer
    return np.flatnonzero(keep)


def bucketed_batches(lengths: np.ndarray, batch_size: int,
                     rng: np.random.Generator | None) -> list[np.ndarray]:
    """Positions into `lengths` cut into batches of similar length: shuffled by `rng` (training)
    or, without one, all sorted by length (prediction)."""
    n = len(lengths)
    if rng is None:
        order = np.argsort(lengths, kind="stable")
        return [order[i:i + batch_size] for i in range(0, n, batch_size)]
    shuffled = rng.permutation(n)
    chunk = batch_size * BUCKET_BATCHES
    batches = []
    for start in range(0, n, chunk):
        part = shuffled[start:start + chunk]
        part = part[np.argsort(lengths[part], kind="stable")]
        batches += [part[i:i + batch_size] for i in range(0, len(part), batch_size)]
    return [batches[i] for i in rng.permutation(len(batches))]


@dataclass
class Batch:
    """One batch's tensors: word ids [B, L] (0 pads), lengths [B], characters [B, L, W] (CH),
    labels [B]."""

    premise: Any
    premise_lengths: Any
    hypothesis: Any
    hypothesis_lengths: Any
    labels: Any
    premise_chars: Any = None
    hypothesis_chars: Any = None

    def to(self, device: Any) -> Batch:
        """The batch on a device."""
        return Batch(*(None if t is None else t.to(device) for t in (
            self.premise, self.premise_lengths, self.hypothesis, self.hypothesis_lengths,
            self.labels, self.premise_chars, self.hypothesis_chars)))


class BatchMaker:
    """Turns pair indices into a Batch by one baseline's `TextRule`."""

    def __init__(self, data: EncodedPairs, vocabulary: Vocabulary, has_vector: np.ndarray,
                 rule: TextRule, *, training: bool) -> None:
        self.data, self.vocabulary, self.rule = data, vocabulary, rule
        self.has_vector, self.training = has_vector, training
        self.size = len(vocabulary.words)
        self.start, self.end = vocabulary.word_id(START), vocabulary.word_id(END)

    def surface(self, index: int) -> str:
        """The word a surface id stands for."""
        return (self.vocabulary.words[index] if index < self.size
                else self.data.surfaces[index - self.size])

    def sentence_ids(self, k: int) -> tuple[list[int], list[int]]:
        """(word ids, surface ids) of sentence k as this baseline reads it."""
        surface = [int(i) for i in self.data.sentence(k)]
        if self.rule.vectored_only:
            surface = [i for i in surface if i < self.size and self.has_vector[i]]
        if self.rule.wrap:
            surface = [self.start, *surface, self.end]
        if self.training and self.rule.train_max_tokens is not None:
            surface = surface[:self.rule.train_max_tokens]
        if self.rule.max_tokens is not None:
            surface = surface[:self.rule.max_tokens]
        limit = self.rule.word_limit
        ids = [i if i < self.size and (limit is None or i < limit) else 1 for i in surface]
        # An empty sentence (every word dropped) reads as one UNK: a length of 0 has no states.
        return (ids, surface) if ids else ([1], [1])

    def _side(self, torch: Any, sentences: Sequence[int]) -> tuple[Any, Any, Any]:
        """(ids [B, L], lengths [B], chars [B, L, W] or None) of some sentences."""
        read = [self.sentence_ids(k) for k in sentences]
        length = max(len(ids) for ids, _ in read)
        ids = torch.zeros((len(read), length), dtype=torch.long)
        for row, (sentence, _) in enumerate(read):
            ids[row, :len(sentence)] = torch.tensor(sentence, dtype=torch.long)
        lengths = torch.tensor([len(sentence) for sentence, _ in read], dtype=torch.long)
        chars = None
        if self.rule.chars:
            spelled = [[self.vocabulary.char_ids(self.surface(i))[:MAX_WORD_CHARS] or [1]
                        for i in surface] for _, surface in read]
            width = max(len(w) for sentence in spelled for w in sentence)
            chars = torch.zeros((len(read), length, width), dtype=torch.long)
            for row, sentence in enumerate(spelled):
                for position, word in enumerate(sentence):
                    chars[row, position, :len(word)] = torch.tensor(word, dtype=torch.long)
        return ids, lengths, chars

    def __call__(self, indices: Sequence[int]) -> Batch:
        """The batch of these pairs."""
        import torch

        premise, premise_lengths, premise_chars = self._side(torch, [2 * i for i in indices])
        hypothesis, hypothesis_lengths, hypothesis_chars = self._side(
            torch, [2 * i + 1 for i in indices])
        labels = torch.tensor(self.data.labels[np.asarray(indices)], dtype=torch.long)
        return Batch(premise, premise_lengths, hypothesis, hypothesis_lengths, labels,
                     premise_chars, hypothesis_chars)


def batches_of(maker: BatchMaker, positions: Sequence[np.ndarray]) -> Iterator[Batch]:
    """The batches of these index groups."""
    for group in positions:
        yield maker([int(i) for i in group])
