"""`reprobe numersense …`: the steps of the NumerSense workflow (Lin et al. 2020)."""

from __future__ import annotations

import argparse
import csv
import io
import json
import logging
from collections.abc import Callable
from pathlib import Path

from reprobe.errors import ReprobeError
from reprobe.io import atomic_write_text
from reprobe.numersense.export_commands import register_exports
from reprobe.numersense.finetune_settings import FinetuneSettings
from reprobe.numersense.settings import (
    TINY_PATH,
    AdversarialSettings,
    BuilderSettings,
    ProbeSettings,
    RunSettings,
    TinySettings,
)
from reprobe.numersense.table_commands import register_tables
from reprobe.step_options import add_names, add_paths, listed, one_of, optional
from reprobe.step_settings import add_settings_option

log = logging.getLogger("reprobe.numersense")


def _labelled(path: Path) -> list:
    """The labelled probes of a `.tsv` in the released layout."""
    from reprobe.numersense.candidates import CANDIDATES
    from reprobe.numersense.probes import read_masked_tsv

    return read_masked_tsv(path, frozenset(CANDIDATES))


def _probe_texts(path: Path) -> list[str]:
    """The probes of a released-layout file: `.txt` (masked text) or `.tsv` (with labels)."""
    from reprobe.numersense.probes import read_masked_txt

    if path.suffix == ".tsv":
        return [probe.probe for probe in _labelled(path)]
    return read_masked_txt(path)


def cmd_build_core(args: argparse.Namespace) -> None:
    """Core probes from OMCS: filters, masking, categories, the filter table."""
    from reprobe.numersense.builder import build_probes, write_outputs

    settings = args.settings
    result = build_probes(Path(args.omcs), settings)
    write_outputs(result, Path(args.txt), Path(args.tsv), Path(args.card), Path(args.filters))
    buffer = io.StringIO()
    writer = csv.writer(buffer, delimiter="\t", lineterminator="\n")
    writer.writerow(("probe", "label", "category"))
    writer.writerows((p.probe, p.label, c) for p, c in zip(result.probes, result.categories,
                                                            strict=True))
    atomic_write_text(Path(args.categories), buffer.getvalue())
    log.info("core probes: %d of %d English rows; categories %s", len(result.probes),
             result.english_rows, json.dumps(result.category_counts))


def cmd_build_all(args: argparse.Namespace) -> None:
    """The all set: each core probe and its ConceptNet adjective variants."""
    from reprobe.numersense.builder import sha256_file
    from reprobe.numersense.conceptnet import build_all_set, read_properties, write_all_set

    settings = args.settings
    # A float even where the config writes `min_weight: 1`: the card says 1.0 either way.
    min_weight = float(settings.min_weight)
    properties = read_properties(Path(args.conceptnet), relations=settings.relations,
                                 min_weight=min_weight)
    probes, counts = build_all_set(_labelled(Path(args.core)), properties,
                                   variants=settings.variants)
    parameters = {"conceptnet": args.conceptnet,
                  "conceptnet_sha256": sha256_file(Path(args.conceptnet)),
                  "relations": settings.relations, "min_weight": min_weight,
                  "variants": settings.variants, "nouns_with_properties": len(properties)}
    write_all_set(probes, Path(args.txt), Path(args.tsv), Path(args.card), counts, parameters)
    log.info("all probes: %s", json.dumps(counts))


def cmd_build_train(args: argparse.Namespace) -> None:
    """The fine-tuning set from GenericsKB, kept apart from every test probe."""
    from reprobe.numersense.builder import sha256_file
    from reprobe.numersense.generics import finetune_rows, read_generics, write_finetune_set
    from reprobe.numersense.overlap import overlap_key

    exclude = {overlap_key(p) for path in args.exclude for p in _probe_texts(Path(path))}
    rows, counts = finetune_rows((text for _, text in read_generics(Path(args.generics))),
                                 exclude=exclude)
    parameters = {"generics": args.generics, "generics_sha256": sha256_file(Path(args.generics)),
                  "excluded_test_probe_files": list(args.exclude)}
    write_finetune_set(rows, Path(args.tsv), Path(args.card), counts, parameters)
    log.info("fine-tuning rows: %s", json.dumps(counts))


def cmd_released_labels(args: argparse.Namespace) -> None:
    """Label the released core/all probes the builder re-creates; the overlap table."""
    from reprobe.numersense.overlap import overlap_rows, recover_labels, write_overlap_table

    rebuilt = {name: _labelled(Path(path)) for name, path in
               (("core", args.rebuilt_core), ("all", args.rebuilt_all),
                ("train", args.rebuilt_train))}
    released = {name: _probe_texts(Path(path)) for name, path in
                (("core", args.released_core), ("all", args.released_all),
                 ("train", args.released_train), ("validation", args.released_validation))
                if path}
    for name in ("core", "all"):
        target = getattr(args, f"labelled_{name}")
        if target and name not in released:
            raise ReprobeError(f"--labelled-{name} needs --released-{name}")
        if target:
            labelled = recover_labels(released[name], rebuilt[name])
            atomic_write_text(Path(target),
                              "".join(f"{p.probe}\t{p.label}\n" for p in labelled))
            log.info("released %s: %d of %d lines labelled by the builder", name,
                     len(labelled), len(released[name]))
    # Released validation probes are core-like sentences: set beside the rebuilt core.
    rebuilt["validation"] = rebuilt["core"]
    write_overlap_table(overlap_rows(released, rebuilt, _released_labels(args)),
                        Path(args.csv), Path(args.md))


def _released_labels(args: argparse.Namespace) -> dict[str, dict[str, str]]:
    """The labels known for released probes: train's and validation's own, core's and all's
    from --gold-<set>."""
    from reprobe.numersense.overlap import label_map

    sources = {"train": args.released_train, "validation": args.released_validation,
               "core": args.gold_core, "all": args.gold_all}
    return {name: label_map(_labelled(Path(path))) for name, path in sources.items() if path}


def cmd_tiny(args: argparse.Namespace) -> None:
    """Build a tiny BERT, RoBERTa or GPT-2 from the OMCS and GenericsKB sentences."""
    from reprobe.numersense.builder import normalise, read_omcs
    from reprobe.numersense.generics import read_generics
    from reprobe.numersense.tiny import build_tiny_model

    lines = [normalise(text) for _, text, language in read_omcs(Path(args.omcs))
             if language == "en"]
    lines += [text for _, text in read_generics(Path(args.generics))]
    settings = args.settings
    build_tiny_model(args.kind, lines, Path(args.output), seed=args.seed,
                     hidden=settings.hidden, layers=settings.layers, heads=settings.heads,
                     steps=settings.steps, lr=settings.lr, vocab_size=settings.vocab_size)
    log.info("tiny %s model from %d lines: %s", args.kind, len(lines), args.output)


def cmd_finetune(args: argparse.Namespace) -> None:
    """Fine-tune a masked LM with every number word of the training sentences masked."""
    from reprobe.numersense.finetune import finetune_masked_lm
    from reprobe.numersense.finetune_authors import read_sentences

    settings = args.settings
    train = Path(args.train)
    rows = read_sentences(train) if settings.layout == "sentences" else _labelled(train)
    summary = finetune_masked_lm(args.base, rows, Path(args.output), settings,
                                 device=args.device)
    log.info("fine-tuned %s into %s: %s", args.base, args.output, json.dumps(summary, default=str))


def _use_threads(threads: int) -> None:
    """Let torch use the CPU threads the job was given (`numersense.threads`), no more."""
    import torch

    torch.set_num_threads(threads)


def cmd_score(args: argparse.Namespace) -> None:
    """Rank the 12 number words for each probe of each set with any model; write predictions
    in the released layout and, where gold is given, hit@k under every convention."""
    from reprobe.numersense.models import detect_type, load_model
    from reprobe.numersense.score import check_multi_token, score_sets
    from reprobe.numersense.sets import (
        NAMED_SETS_CONFIG,
        load_numersense,
        numersense_setting,
        resolve_sets,
    )

    kind = args.type or detect_type(args.model)
    configfile = args.configfile or NAMED_SETS_CONFIG
    sets = resolve_sets(args.probes, args.gold, args.name, configfile)
    # What is not given comes from the config file, else the schema's defaults.
    protocol = args.protocol or numersense_setting(load_numersense(configfile), "protocols")[0]
    settings = args.settings
    _use_threads(settings.threads)
    model, tokenizer = load_model(args.model, kind)
    if kind == "masked" and protocol == "clean":
        check_multi_token(tokenizer)
    results = score_sets(model, tokenizer, kind, args.row or args.model, sets, protocol,
                         settings, Path(args.out))
    for name, rows in results.items():
        print(f"{name}: " + "; ".join(f"{r.setting} {r.metric} {r.value:.2f} (n={r.n})"
                                      for r in rows))


def cmd_score_released(args: argparse.Namespace) -> None:
    """hit@k of the authors' released predictions under every convention."""
    from reprobe.numersense.evaluate import read_prediction_lines
    from reprobe.numersense.score import convention_rows
    from reprobe.scores import write_scores

    lines = read_prediction_lines(Path(args.predictions))
    rows = convention_rows(args.row, args.set, _labelled(Path(args.gold)), lines)
    write_scores(rows, Path(args.scores))


def cmd_templates(args: argparse.Namespace) -> None:
    """Table 3's object-bias templates filled with random vocabulary words."""
    from reprobe.numersense.models import load_model
    from reprobe.numersense.templates import TEMPLATES, object_bias, top_rows, vocabulary_words

    settings = args.settings
    _use_threads(settings.threads)
    model, tokenizer = load_model(args.model, "masked")
    words = vocabulary_words(tokenizer, args.words, args.seed)
    if len(words) < args.words:
        log.warning("%s: only %d whole words in the vocabulary, not %d", args.model,
                    len(words), args.words)
    results = object_bias(model, tokenizer, TEMPLATES, words, settings)
    # Every word's mean: Table 3 keeps the top 3 of ours beside the paper's top 3.
    rows = top_rows(results, top=len(results[0][1]) if results else 0, n_words=len(words))
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=["model", *rows[0].keys()], lineterminator="\n")
    writer.writeheader()
    writer.writerows({"model": args.row, **row} for row in rows)
    atomic_write_text(Path(args.output), buffer.getvalue())


def _register_builders(sub: argparse._SubParsersAction,
                       add: Callable[..., argparse.ArgumentParser]) -> None:
    """The probe and fine-tuning set builders."""
    core = add("build-core", cmd_build_core, sub)
    add_paths(core, omcs="OMCS free sentences (TSV with a header)",
              txt="test.core.masked.txt (released layout)", tsv="the probes with their labels",
              card="JSON card: input, counts, parameters",
              categories="TSV probe, label, category",
              filters="filter table CSV (rule, dropped, kept)")
    add_settings_option(core, BuilderSettings, "numersense.builder")

    adversarial = add("build-all", cmd_build_all, sub)
    add_paths(adversarial, core="core probes with labels (.tsv)",
              conceptnet="ConceptNet assertions CSV (.csv or .csv.gz)",
              txt="test.all.masked.txt", tsv="the all set with labels", card="JSON card")
    add_settings_option(adversarial, AdversarialSettings, "numersense.adversarial")

    train = add("build-train", cmd_build_train, sub)
    add_paths(train, generics="GenericsKB-Best TSV", tsv="train.masked.tsv", card="JSON card",
              exclude=listed("test probe files (.txt/.tsv) to keep apart", at_least=0))

    labels = add("released-labels", cmd_released_labels, sub)
    add_paths(labels,
              **{f"rebuilt_{name}": f"rebuilt {name} (.tsv)" for name in ("core", "all", "train")},
              **{f"released_{name}": optional(f"released {name} probes (absent: not compared)")
                 for name in ("core", "all", "train", "validation")},
              **{f"labelled_{name}": optional(f"where the released {name} probes the builder "
                                              "re-creates go, with its labels (.tsv)")
                 for name in ("core", "all")},
              **{f"gold_{name}": optional(f"labels of the released {name} probes (.tsv; absent: "
                                          "the label agreement of that set is not measured)")
                 for name in ("core", "all")},
              csv="overlap table CSV", md="overlap table Markdown")


def _register_models(sub: argparse._SubParsersAction,
                     add: Callable[..., argparse.ArgumentParser]) -> None:
    """Tiny models and fine-tuning."""
    tiny = add("tiny", cmd_tiny, sub)
    add_names(tiny, kind=one_of(["bert", "roberta", "gpt2"]))
    add_paths(tiny, omcs="OMCS sentences the model learns from",
              generics="GenericsKB sentences, too", output="model folder (save_pretrained)")
    add_settings_option(tiny, TinySettings, TINY_PATH)
    tiny.add_argument("--seed", type=int, required=True)

    finetune = add("finetune", cmd_finetune, sub)
    add_paths(finetune, base="masked LM folder or hub name",
              train="train.masked.tsv (probe<TAB>word), or plain sentences "
                    "(gkb_best_filtered.txt) when train_set is authors",
              output="fine-tuned model folder")
    add_settings_option(finetune, FinetuneSettings, "numersense.finetune")
    finetune.add_argument("--device", required=True, help="torch device")


def _register_probing(sub: argparse._SubParsersAction,
                      add: Callable[..., argparse.ArgumentParser]) -> None:
    """Probing any model, scoring the authors' predictions, the templates."""
    score = add("score", cmd_score, sub)
    score.description = (
        "Score any masked or causal LM on NumerSense: ranked predictions in the authors' "
        "released layout (OUT/<name>.jsonl) and, where gold labels are given, hit@1/2/3 under "
        "every no/zero convention (OUT/<name>.csv). Example: reprobe numersense score "
        "--model bert-base-uncased --probes core --out runs/bert --settings '{\"device\": "
        "\"cuda\"}'. The settings left out of --settings come from --configfile's numersense "
        "section (the schema's defaults where absent).")
    add_names(score, model="model folder or hub name",
              type=one_of(["masked", "causal"], "masked or causal LM (absent: read from the "
                          "model's config)", required=False),
              row=optional("row name in the score rows (absent: the model)"),
              protocol=one_of(["authors", "clean"], "authors: the authors' procedure (the "
                              "paper's rows); clean: the probe as written, whole-vocabulary "
                              "softmax (masked) or a BOS token first (causal); absent: the "
                              "config's first protocol", required=False))
    score.add_argument("--probes", action="append", required=True, metavar="SET",
                       help="core, all or validation (the configured released file, fetched "
                            "by the workflow) or a probe file (.txt one probe a line, .tsv "
                            "probe<TAB>word); repeat for several sets")
    score.add_argument("--gold", action="append", default=[], metavar="FILE",
                       help="labelled probes (.tsv) for each --probes in order, '-' for none "
                            "(default: a .tsv set's own labels, the configured gold of core "
                            "and all, validation's labels)")
    score.add_argument("--name", action="append", default=[], metavar="NAME",
                       help="output name for each --probes in order (default: the set's name or "
                            "file stem)")
    score.add_argument("--configfile", help="where core/all/validation, their gold, the "
                       "protocol and the settings --settings leaves out are configured (absent: "
                       "the sets from config/config.yaml, the settings' schema defaults)")
    add_settings_option(score, ProbeSettings, "numersense")
    add_paths(score, out="folder for predictions and scores")

    released = add("score-released", cmd_score_released, sub)
    add_names(released, row="row name in Table 2", set="core or all")
    add_paths(released, predictions="the authors' .output.jsonl", gold="labelled probes (.tsv)",
              scores="hit@k score rows under every convention (CSV)")

    templates = add("templates", cmd_templates, sub)
    add_names(templates, row="row name in Table 3", model="masked LM folder or hub name")
    templates.add_argument("--words", type=int, required=True, help="words filling [x]")
    templates.add_argument("--seed", type=int, required=True, help="seed of the word draw")
    add_paths(templates, output="mean softmax per word (CSV)")
    add_settings_option(templates, RunSettings, "numersense")


def register(commands: argparse._SubParsersAction,
             add: Callable[..., argparse.ArgumentParser]) -> None:
    """Add the `numersense` command group to the CLI."""
    group = commands.add_parser("numersense", help="Lin et al. 2020: NumerSense probes")
    sub = group.add_subparsers(dest="numersense_command", required=True, metavar="STEP")
    _register_builders(sub, add)
    _register_models(sub, add)
    _register_probing(sub, add)
    register_tables(sub, add)
    register_exports(sub, add)
