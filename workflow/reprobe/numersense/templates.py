"""The object-bias templates of NumerSense's Table 3 (Lin et al. 2020).

A masked LM may predict a number from the template alone, whatever the object: the paper fills
the "[x]" of three templates with 1,000 randomly drawn words and averages, per template, each
candidate's softmax probability at the mask over the fillings; the table shows the top three.
The words here are drawn from the model's own vocabulary (whole-word entries only), so each
filling is one known word to the model, and the draw is reproducible for a seed.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from reprobe.errors import ReprobeError
from reprobe.numersense.candidates import CANDIDATES, candidate_token_id, model_name
from reprobe.numersense.mlm import rank, score_probes
from reprobe.numersense.probes import MASK
from reprobe.numersense.settings import RunSettings

SLOT = "[x]"
TEMPLATES: tuple[str, ...] = (
    f"a {SLOT} usually has {MASK} legs.",
    f"most {SLOT} have {MASK} wheels.",
    f"all {SLOT} have {MASK} sides.",
)

Ranked = list[tuple[str, float]]


def word_prefix(tokenizer: Any) -> str:
    """The marker a vocabulary puts on a word after a space: "" (WordPiece), "Ġ", "▁"."""
    # The tokenizer's own form of " one" tells its style; the candidates are single tokens in
    # every model the stage scores, so this never guesses from the vocabulary's contents.
    token = tokenizer.convert_ids_to_tokens(candidate_token_id(tokenizer, "one"))
    if not token.endswith("one"):
        raise ReprobeError(f"{model_name(tokenizer)}: ' one' is the token {token!r}, so its "
                           f"vocabulary's word marker cannot be read off it")
    return token[:-len("one")]


def _is_word(word: str) -> bool:
    """A lowercase ASCII word of at least 2 letters that is not a candidate."""
    return (len(word) >= 2 and word.isascii() and word.isalpha() and word.islower()
            and word not in CANDIDATES)


def whole_words(tokenizer: Any) -> list[str]:
    """The vocabulary's whole-word entries that are plain lowercase words, sorted."""
    prefix = word_prefix(tokenizer)
    specials = set(tokenizer.all_special_tokens)
    words = set()
    for token in tokenizer.get_vocab():
        if token in specials:
            continue
        if prefix:
            word = token[len(prefix):] if token.startswith(prefix) else ""
        else:
            word = "" if token.startswith("##") else token
        if _is_word(word):
            words.add(word)
    return sorted(words)


def vocabulary_words(tokenizer: Any, n: int, seed: int) -> list[str]:
    """n distinct whole words of the vocabulary drawn with seed; all of them if fewer exist."""
    if n < 0:
        raise ReprobeError(f"the number of words must be at least 0, got {n}")
    # Sorted before the draw: a vocabulary's dict order is no part of the seed's promise.
    pool = whole_words(tokenizer)
    rng = random.Random(seed)
    if len(pool) <= n:
        rng.shuffle(pool)
        return pool
    return rng.sample(pool, n)


def fill(template: str, word: str) -> str:
    """The template with its slot filled by word."""
    if template.count(SLOT) != 1:
        raise ReprobeError(f"a template needs exactly one {SLOT}, found "
                           f"{template.count(SLOT)}: {template!r}")
    return template.replace(SLOT, word)


def object_bias(
    model: Any,
    tokenizer: Any,
    templates: Sequence[str],
    words: Sequence[str],
    run: RunSettings,
) -> list[tuple[str, Ranked]]:
    """Per template, the candidates with their mean probability (percent) over words, best first."""
    if not words:
        raise ReprobeError("object bias needs at least one word to fill the templates with")
    probes = [fill(template, word) for template in templates for word in words]
    # One scoring call for every template: the length-sorted batches then pad the least.
    ranked = score_probes(model, tokenizer, probes, run.batch_size, run.device,
                          precision=run.precision)
    results = []
    for index, template in enumerate(templates):
        totals = dict.fromkeys(CANDIDATES, 0.0)
        for scores in ranked[index * len(words):(index + 1) * len(words)]:
            for word, score in scores:
                totals[word] += score
        means = [100.0 * totals[word] / len(words) for word in CANDIDATES]
        results.append((template, rank(means)))
    return results


def top_rows(results: Sequence[tuple[str, Ranked]], top: int = 3, *,
             n_words: int) -> list[dict[str, object]]:
    """Table 3's rows: each template's top candidates with their mean softmax in percent."""
    return [{"template": template, "rank": position, "word": word,
             "mean_softmax_percent": percent, "n_words": n_words}
            for template, ranked in results
            for position, (word, percent) in enumerate(ranked[:top], start=1)]
