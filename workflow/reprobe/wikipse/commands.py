"""`reprobe wikipse …`: the steps of the WIKI-PSE build (Yaghoobzadeh et al. 2019), part 1."""

from __future__ import annotations

import argparse
import json
import logging
from collections.abc import Callable
from pathlib import Path

from reprobe.step_options import (
    add_memory_option,
    add_names,
    add_paths,
    listed,
    one_of,
    optional,
    several,
)
from reprobe.step_settings import add_settings_option
from reprobe.wikipse.embedding.embedding_settings import EmbeddingSettings
from reprobe.wikipse.nlp_commands import register_nlp
from reprobe.wikipse.options import VECTOR_FORMATS, add_selection_options
from reprobe.wikipse.probe_commands import register_probes
from reprobe.wikipse.supersense_commands import register_supersense
from reprobe.wikipse.task_commands import register_tasks

log = logging.getLogger("reprobe.wikipse")
SELECTION = "wikipse.selection"


def cmd_freebase(args: argparse.Namespace) -> None:
    """Stream the Freebase dump once: keep the types types.map knows and the English titles."""
    from reprobe.wikipse.resource.classes import read_types_map
    from reprobe.wikipse.resource.freebase import stream_freebase, write_mid_titles

    counts = stream_freebase(Path(args.dump), set(read_types_map(Path(args.figer_map))),
                             Path(args.types_out), Path(args.titles_out))
    if args.mid_titles:
        # The paper's page -> topic mapping replaces the dump's own title keys.
        counts["mid_titles"] = write_mid_titles(Path(args.mid_titles), Path(args.titles_out))
    log.info("freebase: %s", json.dumps(counts))


def cmd_typing(args: argparse.Namespace) -> None:
    """Type every link target with S-classes; the fold and typing tables."""
    from reprobe.io import atomic_write_text
    from reprobe.wikipse.resource.classes import (
        compare_classes,
        figer_types_of,
        fold_rules,
        fold_table,
        read_types_map,
    )
    from reprobe.wikipse.resource.typing import read_title_table
    from reprobe.wikipse.resource.typing_spilled import type_dump_targets
    from reprobe.wikipse.tables import write_fold_table, write_typing_table

    types_map = read_types_map(Path(args.figer_map))
    figer = figer_types_of(types_map)
    rules = fold_rules(json.loads(args.fold))
    # The whole dump's targets and Freebase tables, within the job's memory budget.
    if args.title_table:
        produced, counts = type_dump_targets(
            Path(args.links), Path(args.output), figer, rules, args.memory_mb,
            title_figer=read_title_table(Path(args.title_table), figer_types=figer))
    else:
        produced, counts = type_dump_targets(
            Path(args.links), Path(args.output), figer, rules, args.memory_mb,
            freebase=(Path(args.freebase_types), Path(args.freebase_titles)),
            types_map=types_map)
    if args.released_classes:
        check = compare_classes(produced, Path(args.released_classes))
        counts["classes_produced"] = check["produced"]
        counts["released_classes_missing"] = len(check["missing"])
        log.info("classes against the released list: %s", json.dumps(check))
    atomic_write_text(Path(args.counts), json.dumps(counts, indent=2) + "\n")
    write_fold_table(fold_table(figer, rules), Path(args.fold_csv), Path(args.fold_md))
    write_typing_table(counts, Path(args.typing_csv), Path(args.typing_md))
    log.info("typing: %s", json.dumps(counts))


def cmd_corpus_shard(args: argparse.Namespace) -> None:
    """One shard's word and word/S-class corpora and counts."""
    from reprobe.wikipse.resource.classes import read_released_classes
    from reprobe.wikipse.resource.corpora import ShardCorpora, build_shard_corpora

    order = read_released_classes(Path(args.class_order)) if args.class_order else []
    folder = Path(args.output_dir)
    out = ShardCorpora(folder / "word.txt", folder / "sclass.txt", folder / "mentions.parquet",
                       folder / "tokens.parquet", folder / "stats.json")
    stats = build_shard_corpora(Path(args.sentences), Path(args.links), Path(args.redirects),
                                Path(args.typed), order, out)
    log.info("shard %s: %s", folder.name, json.dumps(stats))


def cmd_corpus(args: argparse.Namespace) -> None:
    """Gather the shards: one word corpus, one word/S-class corpus, summed counts."""
    from reprobe.wikipse.resource.corpora import gather_corpora

    stats = gather_corpora([Path(f) for f in args.shards], Path(args.output_dir),
                           args.memory_mb)
    log.info("corpora: %s", json.dumps(stats))


def cmd_dataset(args: argparse.Namespace) -> None:
    """The dataset: annotated words over the minimum frequency, the seeded selection."""
    from reprobe.wikipse.resource.corpora import read_frequent_counts
    from reprobe.wikipse.resource.dataset import select, write_dataset
    from reprobe.wikipse.tables import stats_rows, write_stats_table

    folder = Path(args.corpus_dir)
    # Only the words over the minimum frequency leave the (spilled) tables of the whole corpus.
    words, vocabulary = read_frequent_counts(folder, args.min_frequency, args.memory_mb,
                                             Path(args.output_dir))
    selection = args.settings
    splits = select(words, single_per_split=selection.single_per_split,
                    multi_per_split=selection.multi_per_split, seed=args.seed)
    corpus = json.loads((folder / "stats.json").read_text(encoding="utf-8"))
    card = {"corpus": corpus, "min_frequency": args.min_frequency, "seed": args.seed,
            "selection": {"single_per_split": selection.single_per_split,
                          "multi_per_split": selection.multi_per_split}}
    write_dataset(words, splits, Path(args.output_dir), card)
    rows = stats_rows(corpus, vocabulary, words, splits)
    write_stats_table(rows, Path(args.reference), Path(args.csv), Path(args.md))


def cmd_released(args: argparse.Namespace) -> None:
    """How many released words the rebuild has, with the same classes and dominant class."""
    from reprobe.wikipse.resource.dataset import compare_release, read_dataset
    from reprobe.wikipse.resource.release import read_release
    from reprobe.wikipse.tables import write_released_table

    rebuilt = read_dataset(Path(args.words))
    comparisons = {split: compare_release(read_release(Path(path)), rebuilt)
                   for split, path in (("train", args.released_train),
                                       ("test", args.released_test)) if path}
    write_released_table(comparisons, Path(args.csv), Path(args.md))


def cmd_export(args: argparse.Namespace) -> None:
    """Write one dataset variant as a Hugging Face dataset folder (Parquet and a card)."""
    from reprobe.io import json_object
    from reprobe.text import read_json
    from reprobe.wikipse.exports import export_variant

    built = {**(read_json(Path(args.card)) if args.card else {}),
             **({"typing_method": args.typing_method} if args.typing_method else {})}
    compare = (args.compare_variant, {"train": Path(args.compare_train),
                                      "test": Path(args.compare_test)}) \
        if args.compare_variant else None
    rows = export_variant({"train": Path(args.train), "test": Path(args.test)},
                          Path(args.output), variant=args.variant, built=built,
                          sources=json_object(args.sources_json, "--sources-json"),
                          compare=compare)
    log.info("%s: %s", args.output, json.dumps(rows))


def cmd_embed(args: argparse.Namespace) -> None:
    """Train SKIP or SSKIP vectors on a corpus; save them (memory-mappable KeyedVectors)."""
    from reprobe.sources.extract import member_file
    from reprobe.wikipse.embedding.embed import train_embedding
    from reprobe.wikipse.embedding.vectors import save_vectors

    settings = args.settings
    wang2vec = settings.wang2vec_for(args.model)
    # SSKIP's corpus ids go beside the output (a disk the job writes to), not into memory.
    vectors = train_embedding(args.model, member_file(Path(args.corpus)),
                              settings.trainer(int(args.dim), args.seed),
                              Path(wang2vec) if wang2vec else None,
                              scratch=Path(args.output).parent)
    save_vectors(vectors, Path(args.output))
    log.info("%s on %s: %d vectors of %d dimensions", args.model, args.corpus, len(vectors),
             vectors.vector_size)


def _aggregate_words(paths: list[Path]) -> dict[str, dict[str, int]]:
    """word → {S-class: freq} to aggregate: a rebuilt words.parquet, or released-format files
    (the authors' corpus and embeddings, weighted by the released counts; a word in two files
    takes the first file's counts)."""
    from reprobe.wikipse.resource.dataset import read_dataset
    from reprobe.wikipse.resource.release import read_release

    words: dict[str, dict[str, int]] = {}
    for path in paths:
        found = read_dataset(path) if path.suffix == ".parquet" else read_release(path)
        words.update({w: c for w, c in found.items() if w not in words})
    return words


def cmd_import_vectors(args: argparse.Namespace) -> None:
    """Someone else's trained vectors (the authors' bundle, an extra embedding) as a vectors
    folder, which the probes memory-map."""
    from reprobe.sources.extract import member_file
    from reprobe.wikipse.embedding.outside import checked_dimension, read_embedding
    from reprobe.wikipse.embedding.vectors import save_vectors

    path = member_file(Path(args.input))
    vectors = read_embedding(path, args.format)
    checked_dimension(vectors, args.dim, path)
    save_vectors(vectors, Path(args.output), {"source.txt": f"{args.input}\n"})
    log.info("%s: %d vectors of %d dimensions", args.input, len(vectors), vectors.vector_size)


def cmd_aggregate(args: argparse.Namespace) -> None:
    """unifΣ and wghtΣ of the dataset's words from word/S-class vectors."""
    from reprobe.wikipse.embedding.aggregate import aggregate
    from reprobe.wikipse.embedding.vectors import load_vectors, save_vectors

    words = _aggregate_words([Path(p) for p in args.words])
    senses = load_vectors(Path(args.sense_vectors))
    for kind, out in (("unif", args.unif), ("wght", args.wght)):
        vectors, counts = aggregate(words, senses, kind)
        save_vectors(vectors, Path(out), {"counts.json": json.dumps(counts, indent=1) + "\n"})
        log.info("%sΣ: %s", kind, json.dumps(counts))


def _register_data(sub: argparse._SubParsersAction,
                   add: Callable[..., argparse.ArgumentParser]) -> None:
    """Typing, corpora and the dataset."""
    freebase = add("freebase", cmd_freebase, sub)
    add_paths(freebase, dump="Freebase RDF dump (.gz)", figer_map="FIGER's types.map",
              mid_titles=optional("FIGER's MID -> Wikipedia title TSV (absent: the dump's keys)"),
              types_out="MID -> Freebase type (Parquet)", titles_out="MID -> title (Parquet)")

    typing = add("typing", cmd_typing, sub)
    add_paths(typing, links="gathered Wikipedia links (Parquet)", figer_map="FIGER's types.map",
              title_table=optional("title -> FIGER types TSV"),
              freebase_types=optional("from `wikipse freebase`"),
              freebase_titles=optional("from `wikipse freebase`"),
              released_classes=optional("released semantic_classes.txt, to compare the class "
                                        "set with"),
              output="typed targets (Parquet)", counts="typing counts (JSON)",
              fold_csv="fold table (CSV)", fold_md="fold table (Markdown)",
              typing_csv="typing table (CSV)", typing_md="typing table (Markdown)")
    typing.add_argument("--fold", required=True, help="the fold rows (JSON list)")
    add_memory_option(typing)

    shard = add("corpus-shard", cmd_corpus_shard, sub)
    add_paths(shard, sentences="a Wikipedia shard's sentences", links="the same shard's links",
              redirects="gathered redirects (Parquet)", typed="typed targets (Parquet)",
              class_order=optional("semantic_classes.txt: the class a multi-class mention's "
                                   "token takes"),
              output_dir="the shard's corpus folder")

    corpus = add("corpus", cmd_corpus, sub)
    add_paths(corpus, output_dir="the gathered corpus folder",
              shards=listed("the shards' corpus folders, in order"))
    add_memory_option(corpus)

    dataset = add("dataset", cmd_dataset, sub)
    add_paths(dataset, corpus_dir="the gathered corpus folder",
              output_dir="train.tsv, test.tsv (released format), words.parquet, card.json",
              reference="the paper's statistics", csv="statistics table (CSV)",
              md="statistics table (Markdown)")
    add_selection_options(dataset, SELECTION)
    add_memory_option(dataset)

    released = add("released", cmd_released, sub)
    add_paths(released, words="the rebuilt words.parquet",
              released_train=optional("released train.tsv"),
              released_test=optional("released test.tsv"), csv="the table (CSV)",
              md="the table (Markdown)")

    export = add("export", cmd_export, sub)
    add_names(export, variant=one_of(["rebuilt", "released"]),
              typing_method=one_of(["table", "freebase"], "the rebuild's typing",
                                   required=False),
              compare_variant=one_of(["rebuilt", "released"], "the variant to compare with",
                                     required=False))
    add_paths(export, train="the variant's train.tsv (released format)",
              test="the variant's test.tsv", card=optional("the rebuild's card.json"),
              compare_train=optional("the other variant's train.tsv"),
              compare_test=optional("the other variant's test.tsv"),
              output="the dataset folder to write")
    export.add_argument("--sources-json", required=True,
                        help="the configured sources the card lists (JSON: name -> spec)")


def _register_vectors(sub: argparse._SubParsersAction,
                      add: Callable[..., argparse.ArgumentParser]) -> None:
    """Embeddings and aggregates."""
    embed = add("embed", cmd_embed, sub)
    add_names(embed, model=one_of(["skip", "sskip"]), dim="dimensions (one of the dims)")
    add_paths(embed, corpus="one sentence a line", output="vectors folder (KeyedVectors)")
    embed.add_argument("--seed", type=int, required=True, help="the config's seed")
    add_settings_option(embed, EmbeddingSettings, "wikipse.embeddings")

    aggregate = add("aggregate", cmd_aggregate, sub)
    add_paths(aggregate, words=several("the dataset's words.parquet, or released-format files"),
              sense_vectors="word/S-class vectors folder", unif="unifΣ vectors folder",
              wght="wghtΣ vectors folder")

    imported = add("import-vectors", cmd_import_vectors, sub)
    add_paths(imported, input="a vectors file (a member of the unpacked bundle)",
              output="vectors folder (KeyedVectors)")
    add_names(imported, format=one_of(VECTOR_FORMATS),
              dim=optional("the dimension the vectors must have (absent: the file's own)"))


def register(commands: argparse._SubParsersAction,
             add: Callable[..., argparse.ArgumentParser]) -> None:
    """Add the `wikipse` command group to the CLI."""
    group = commands.add_parser("wikipse", help="Yaghoobzadeh et al. 2019: WIKI-PSE")
    sub = group.add_subparsers(dest="wikipse_command", required=True, metavar="STEP")
    _register_data(sub, add)
    _register_vectors(sub, add)
    register_probes(sub, add)
    register_tasks(sub, add)
    register_nlp(sub, add)
    register_supersense(sub, add)
