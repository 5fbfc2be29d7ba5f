"""The config schema refuses values that would break a step or silently misbehave (issue 34):
every number has a lower bound, every pattern says in words what it wants (`x-message`, which
the config check prints instead of the regex), every map of names refuses names no file or
command line carries, and each value once let through is refused by name."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

import jsonschema
import pytest
import yaml

from conftest import REPO

SCHEMA = yaml.safe_load((REPO / "workflow/schemas/config.schema.yaml").read_text(encoding="utf-8"))
DEFAULT = yaml.safe_load((REPO / "config/config.yaml").read_text(encoding="utf-8"))

# Numbers where any value means something, each with its reason.
UNBOUNDED_NUMBERS = {
    # Substituted as text into a source's url or path: the number is just its digits.
    "variables.*",
}
# Maps keyed by something other than a name the workflow makes files or arguments of.
UNNAMED_MAPS = {
    # Class names or indices of a checkpoint's own config (id2label), looked up as they are.
    "$defs.neural_model.label_map",
}


def schema_nodes(node: Any, path: str) -> Iterator[tuple[str, dict[str, Any]]]:
    """Every schema node below `node`, with a dotted path (`*`: a map's values, `[]`: items)."""
    if not isinstance(node, dict):
        return
    yield path, node
    for name, child in node.get("properties", {}).items():
        yield from schema_nodes(child, f"{path}.{name}".lstrip("."))
    for name, child in node.get("$defs", {}).items():
        yield from schema_nodes(child, f"$defs.{name}")
    for key, suffix in (("additionalProperties", "*"), ("items", "[]"),
                        ("propertyNames", "(name)"), ("not", "(not)")):
        yield from schema_nodes(node.get(key), f"{path}.{suffix}".lstrip("."))
    for key in ("oneOf", "anyOf", "allOf"):
        for index, child in enumerate(node.get(key, ())):
            yield from schema_nodes(child, f"{path}.({key}{index})".lstrip("."))


NODES = dict(schema_nodes(SCHEMA, ""))


def types(node: dict[str, Any]) -> set[str]:
    """The JSON types a node declares."""
    declared = node.get("type", ())
    return {declared} if isinstance(declared, str) else set(declared)


def test_every_number_has_a_lower_bound():
    numbers = [path for path, node in NODES.items() if types(node) & {"integer", "number"}]
    assert len(numbers) > 50, "the walk found too few numbers: does it still reach them all?"
    unbounded = [path for path in numbers if path not in UNBOUNDED_NUMBERS
                 and "minimum" not in NODES[path] and "exclusiveMinimum" not in NODES[path]]
    assert not unbounded, f"numbers without minimum or exclusiveMinimum: {unbounded}"
    assert set(numbers) >= UNBOUNDED_NUMBERS, "an allowed unbounded number is gone: drop it"


def test_every_pattern_says_in_words_what_it_wants():
    patterns = [path for path, node in NODES.items() if isinstance(node.get("pattern"), str)]
    assert len(patterns) > 10
    silent = [path for path in patterns if not str(NODES[path].get("x-message", "")).strip()]
    assert not silent, f"patterns without an x-message: {silent}"


def test_every_map_of_names_checks_its_names():
    maps = [path for path, node in NODES.items()
            if isinstance(node.get("additionalProperties"), dict)]
    unchecked = [path for path in maps
                 if path not in UNNAMED_MAPS and "propertyNames" not in NODES[path]]
    assert not unchecked, f"maps whose names go unchecked: {unchecked}"


def problems(changes: dict[str, Any]) -> list[tuple[str, str]]:
    """(dotted key, message) of each schema error of the default config with `changes`
    (dotted key -> value) made to a copy of it."""
    config = copy.deepcopy(DEFAULT)
    for key, value in changes.items():
        *parents, last = key.split(".")
        node = config
        for part in parents:
            node = node.setdefault(part, {})
        node[last] = value
    validator = jsonschema.Draft202012Validator(SCHEMA)
    return [(".".join(str(p) for p in error.absolute_path), error.message)
            for error in validator.iter_errors(config)]


def test_the_default_config_is_valid():
    assert problems({}) == []


TINY_NEURAL = {"tiny": {"hidden": 32, "layers": 2, "steps": 30}}
TRAINED = {"architecture": "align", "max_epochs": 4}

# (what, changes, the key the error must name): each value once let through.
REFUSED = [
    ("Q-REAS max_depth 0", {"equate.qreas": {"max_depth": 0}}, "equate.qreas.max_depth"),
    ("Q-REAS max_depth -1", {"equate.qreas": {"max_depth": -1}}, "equate.qreas.max_depth"),
    ("Q-REAS max_solutions 0", {"equate.qreas": {"max_solutions": 0}},
     "equate.qreas.max_solutions"),
    ("years dates", {"equate.qreas": {"years": "dates"}}, "equate.qreas.years"),
    ("solutions all", {"equate.qreas": {"released_code": {"Q-REAS": {"solutions": "all"}}}},
     "equate.qreas.released_code.Q-REAS.solutions"),
    ("no PMI threshold", {"numeracy.pmi.lambdas": []}, "numeracy.pmi.lambdas"),
    ("a PMI threshold twice", {"numeracy.pmi.lambdas": [500, 500]}, "numeracy.pmi.lambdas"),
    ("a PMI threshold among the primitives", {"numeracy.pmi.lambdas": [5]},
     "numeracy.pmi.lambdas.0"),
    ("neural tiny layers 0", {"equate.neural.tiny-BERT.tiny.layers": 0},
     "equate.neural.tiny-BERT.tiny.layers"),
    ("neural tiny steps 0", {"equate.neural.tiny-BERT.tiny.steps": 0},
     "equate.neural.tiny-BERT.tiny.steps"),
    ("neural tiny lr -1", {"equate.neural.tiny-BERT.tiny.lr": -1},
     "equate.neural.tiny-BERT.tiny.lr"),
    ("neural tiny hidden odd (two heads)", {"equate.neural.tiny-BERT.tiny.hidden": 33},
     "equate.neural.tiny-BERT.tiny.hidden"),
    ("NumerSense tiny layers 0", {"numersense.models.tiny-BERT.tiny.layers": 0},
     "numersense.models.tiny-BERT.tiny.layers"),
    ("NumerSense tiny steps 0", {"numersense.models.tiny-BERT.tiny.steps": 0},
     "numersense.models.tiny-BERT.tiny.steps"),
    ("NumerSense tiny lr -1", {"numersense.models.tiny-BERT.tiny.lr": -1},
     "numersense.models.tiny-BERT.tiny.lr"),
    ("a row named ''", {"equate.neural": {"": TINY_NEURAL}}, "equate.neural"),
    ("a row named a\\nb", {"equate.trained": {"a\nb": TRAINED}}, "equate.trained"),
    ("a row named with a tab", {"numersense.models": {"a\tb": {"hub": "gpt2"}}},
     "numersense.models"),
    ("a row whose file name is empty", {"equate.qreas": {"variants": {"()": {}}}},
     "equate.qreas.variants"),
    ("a row named ..", {"wikipse.similarity": {"..": {"source": "x", "kind": "pairs"}}},
     "wikipse.similarity"),
    ("a numeracy model named with /", {"numeracy.off_the_shelf": {
        "a/b": {"source": "gensim_lee_fasttext", "format": "fasttext_vec"}}},
     "numeracy.off_the_shelf"),
    ("a public embedding named with =", {"wikipse.public": {
        "a=b": {"source": "gensim_lee_fasttext", "format": "fasttext_vec"}}}, "wikipse.public"),
    ("a checkpoint file outside its folder", {"equate.neural": {
        "BERT": {"files": {"../config.json": "gensim_lee_fasttext"}}}},
     "equate.neural.BERT.files"),
    ("seed -1", {"seed": -1}, "seed"),
    ("seed past numpy's", {"seed": 2**32}, "seed"),
    ("GloVe learning rate 0", {"numeracy.retrain.glove.learning_rate": 0},
     "numeracy.retrain.glove.learning_rate"),
    ("GloVe x_max 0", {"numeracy.retrain.glove.x_max": 0}, "numeracy.retrain.glove.x_max"),
    ("no family retrained", {"numeracy.retrain.families": []}, "numeracy.retrain.families"),
    ("no Table 6 version", {"equate.versions": []}, "equate.versions"),
    ("a classifier twice", {"wikipse.probes": {"classifiers": ["LR", "LR"]}},
     "wikipse.probes.classifiers"),
    ("an embedding size twice", {"wikipse.embeddings.dims": [16, 16]}, "wikipse.embeddings.dims"),
    ("subsampling 1", {"wikipse.embeddings.sample": 1}, "wikipse.embeddings.sample"),
    ("dropout 1", {"wikipse.mention_typing.typer.dropout": 1},
     "wikipse.mention_typing.typer.dropout"),
    ("a device torch has not", {"numersense.device": "gpu"}, "numersense.device"),
    ("a binary task without its files", {"wikipse.senteval.tasks.MR": {
        "train": {"source": "wikipse_mr_pos_sample"}, "test": {"source": "wikipse_mr_neg_sample"}}},
     "wikipse.senteval.tasks.MR"),
    ("MRPC without its test file", {"wikipse.senteval.tasks.MRPC": {
        "train": {"source": "wikipse_mrpc_train_sample"}}}, "wikipse.senteval.tasks.MRPC"),
    ("a FIGER path of nothing", {"wikipse.fold": [{"figer": "/", "sclass": None, "reason": ""}]},
     "wikipse.fold.0.figer"),
    ("a ConceptNet relation with its /r/", {"numersense.adversarial.relations": {
        "/r/HasProperty": "any"}}, "numersense.adversarial.relations"),
    ("an empty lexicon keyword", {"numersense.builder": {"lexicon": {"time": [""]}}},
     "numersense.builder.lexicon.time.0"),
    ("a placeholder name str.format misreads", {"variables": {"a.b": "x"}}, "variables"),
    ("month 13", {"sources.monthly": {"url": "https://example.org/{month}",
                                      "months": {"first": "2020-13", "last": "2021-01"}}},
     "sources.monthly.months.first"),
    ("a url with a space", {"sources.equate_jobs_sample": {"url": "https://example.org/a b"}},
     "sources.equate_jobs_sample.url"),
    ("a stored file named ..", {"sources.equate_jobs_sample.filename": ".."},
     "sources.equate_jobs_sample.filename"),
    ("a source name with a newline", {"sources": {**DEFAULT["sources"], "a\n": {"path": "x"}}},
     "sources"),
]


@pytest.mark.parametrize(("changes", "key"), [case[1:] for case in REFUSED],
                         ids=[case[0] for case in REFUSED])
def test_a_value_that_would_break_a_step_is_refused_naming_its_key(changes, key):
    found = problems(changes)
    assert any(path == key for path, _ in found), f"{key} not refused: {found}"


ACCEPTED = [
    ("a row name with a leading dash (passed as --option=NAME)",
     {"equate.trained": {"-x": TRAINED}}),
    ("row names with spaces, brackets and dots",
     {"equate.qreas": {"variants": {"Q-REAS (pool of 50)": {}, "Ft. BERT-L.": {}}}}),
    ("a GPU by index", {"numersense.device": "cuda:1"}),
    ("an extra binary task", {"wikipse.senteval.tasks.MPQA": {
        "pos": {"source": "wikipse_mr_pos_sample"}, "neg": {"source": "wikipse_mr_neg_sample"}}}),
    ("no template rows", {"numersense.templates": {"models": []}}),
    ("no wang2vec model", {"wikipse.embeddings.wang2vec_models": []}),
    ("seed 0", {"seed": 0}),
    ("a standalone file", {"extends": None}),
]


@pytest.mark.parametrize("changes", [case[1] for case in ACCEPTED],
                         ids=[case[0] for case in ACCEPTED])
def test_a_meaningful_value_stays_valid(changes):
    assert problems(changes) == []
