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
from reprobe.numersense.finetune_settings import FinetuneSettings
from reprobe.numersense.table_commands import register_tables
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
    from reprobe.numersense.builder import DEFAULT_LEXICON, build_probes, write_outputs

    lexicon = json.loads(args.lexicon) or DEFAULT_LEXICON
    result = build_probes(Path(args.omcs), non_numeric_phrases=json.loads(args.phrases),
                          min_tokens=args.min_tokens, max_tokens=args.max_tokens, lexicon=lexicon)
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

    properties = read_properties(Path(args.conceptnet), relations=json.loads(args.relations),
                                 min_weight=args.min_weight)
    probes, counts = build_all_set(_labelled(Path(args.core)), properties,
                                   variants=args.variants)
    parameters = {"conceptnet": args.conceptnet,
                  "conceptnet_sha256": sha256_file(Path(args.conceptnet)),
                  "relations": json.loads(args.relations), "min_weight": args.min_weight,
                  "variants": args.variants, "nouns_with_properties": len(properties)}
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
    build_tiny_model(args.kind, lines, Path(args.output), seed=args.seed, hidden=args.hidden,
                     layers=args.layers, heads=args.heads, steps=args.steps, lr=args.lr,
                     vocab_size=args.vocab_size)
    log.info("tiny %s model from %d lines: %s", args.kind, len(lines), args.output)


def cmd_finetune(args: argparse.Namespace) -> None:
    """Fine-tune a masked LM with every number word of the training sentences masked."""
    from reprobe.numersense.finetune import finetune_masked_lm
    from reprobe.numersense.finetune_authors import read_sentences
    from reprobe.step_settings import read_settings

    settings = read_settings(args.settings, FinetuneSettings, "numersense.finetune")
    train = Path(args.train)
    rows = read_sentences(train) if settings.layout == "sentences" else _labelled(train)
    summary = finetune_masked_lm(args.base, rows, Path(args.output), settings,
                                 device=args.device)
    log.info("fine-tuned %s into %s: %s", args.base, args.output, json.dumps(summary, default=str))


def cmd_score(args: argparse.Namespace) -> None:
    """Rank the 12 number words for each probe of each set with any model; write predictions
    in the released layout and, where gold is given, hit@k under every convention."""
    from reprobe.numersense.models import detect_type, load_model
    from reprobe.numersense.score import RunSettings, check_multi_token, score_sets
    from reprobe.numersense.sets import load_numersense, numersense_setting, resolve_sets

    kind = detect_type(args.model) if args.type == "auto" else args.type
    sets = resolve_sets(args.set, args.gold, args.name, args.configfile)
    # What is not given comes from the config file, else the schema's defaults.
    config = load_numersense(args.configfile)
    protocol = args.protocol or numersense_setting(config, "protocols")[0]
    run = RunSettings(protocol,
                      args.batch_size or numersense_setting(config, "batch_size"),
                      args.device or numersense_setting(config, "device"),
                      args.precision or numersense_setting(config, "precision"),
                      numersense_setting(config, "clean_bos") if args.bos is None else args.bos)
    model, tokenizer = load_model(args.model, kind)
    if kind == "masked" and protocol == "clean":
        check_multi_token(tokenizer)
    results = score_sets(model, tokenizer, kind, args.row or args.model, sets, run,
                         Path(args.out))
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

    model, tokenizer = load_model(args.model, "masked")
    words = vocabulary_words(tokenizer, args.words, args.seed)
    if len(words) < args.words:
        log.warning("%s: only %d whole words in the vocabulary, not %d", args.model,
                    len(words), args.words)
    results = object_bias(model, tokenizer, TEMPLATES, words, batch_size=args.batch_size,
                          device=args.device)
    # Every word's mean: Table 3 keeps the top 3 of ours beside the paper's top 3.
    rows = top_rows(results, top=len(results[0][1]) if results else 0, n_words=len(words))
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=["model", *rows[0].keys()], lineterminator="\n")
    writer.writeheader()
    writer.writerows({"model": args.row, **row} for row in rows)
    atomic_write_text(Path(args.output), buffer.getvalue())


def _run_options(parser: argparse.ArgumentParser) -> None:
    """Batch size, device and precision of a probing step."""
    parser.add_argument("--batch-size", type=int, required=True,
                        help="probes per forward pass (length-sorted; the scores equal one "
                             "probe a pass to float rounding)")
    parser.add_argument("--device", required=True, help="torch device: cpu, cuda, cuda:1, ...")
    parser.add_argument("--precision", choices=["bf16", "fp16"], default=None,
                        help="autocast on a GPU (default: float32)")


def _register_builders(sub: argparse._SubParsersAction,
                       add: Callable[..., argparse.ArgumentParser]) -> None:
    """The probe and fine-tuning set builders."""
    core = add("build-core", cmd_build_core, sub)
    core.add_argument("--omcs", required=True, help="OMCS free sentences (TSV with a header)")
    core.add_argument("--min-tokens", type=int, required=True, help="shortest sentence kept")
    core.add_argument("--max-tokens", type=int, required=True, help="longest sentence kept")
    core.add_argument("--phrases", required=True, help="JSON list of non-numeric phrases")
    core.add_argument("--lexicon", required=True,
                      help="JSON map category -> keywords ({} = the built-in lexicon)")
    core.add_argument("--txt", required=True, help="test.core.masked.txt (released layout)")
    core.add_argument("--tsv", required=True, help="the probes with their labels")
    core.add_argument("--card", required=True, help="JSON card: input, counts, parameters")
    core.add_argument("--categories", required=True, help="TSV probe, label, category")
    core.add_argument("--filters", required=True, help="filter table CSV (rule, dropped, kept)")

    adversarial = add("build-all", cmd_build_all, sub)
    adversarial.add_argument("--core", required=True, help="core probes with labels (.tsv)")
    adversarial.add_argument("--conceptnet", required=True,
                             help="ConceptNet assertions CSV (.csv or .csv.gz)")
    adversarial.add_argument("--relations", required=True,
                             help='JSON map relation -> "any" | "adjective"')
    adversarial.add_argument("--min-weight", type=float, required=True,
                             help="lowest edge weight kept")
    adversarial.add_argument("--variants", type=int, required=True,
                             help="adversarial probes per core probe at most")
    adversarial.add_argument("--txt", required=True, help="test.all.masked.txt")
    adversarial.add_argument("--tsv", required=True, help="the all set with labels")
    adversarial.add_argument("--card", required=True, help="JSON card")

    train = add("build-train", cmd_build_train, sub)
    train.add_argument("--generics", required=True, help="GenericsKB-Best TSV")
    train.add_argument("--tsv", required=True, help="train.masked.tsv")
    train.add_argument("--card", required=True, help="JSON card")
    train.add_argument("exclude", nargs="*", help="test probe files (.txt/.tsv) to keep apart")

    labels = add("released-labels", cmd_released_labels, sub)
    for name in ("core", "all", "train"):
        labels.add_argument(f"--rebuilt-{name}", required=True, help=f"rebuilt {name} (.tsv)")
    for name in ("core", "all", "train", "validation"):
        labels.add_argument(f"--released-{name}", default=None,
                            help=f"released {name} probes (absent: not compared)")
    for name in ("core", "all"):
        labels.add_argument(f"--labelled-{name}", default=None,
                            help=f"where the released {name} probes the builder re-creates go, "
                                 "with its labels (.tsv)")
    for name in ("core", "all"):
        labels.add_argument(f"--gold-{name}", default=None,
                            help=f"labels of the released {name} probes (.tsv; absent: the "
                                 "label agreement of that set is not measured)")
    labels.add_argument("--csv", required=True, help="overlap table CSV")
    labels.add_argument("--md", required=True, help="overlap table Markdown")


def _register_models(sub: argparse._SubParsersAction,
                     add: Callable[..., argparse.ArgumentParser]) -> None:
    """Tiny models, fine-tuning, probing and templates."""
    tiny = add("tiny", cmd_tiny, sub)
    tiny.add_argument("--kind", choices=["bert", "roberta", "gpt2"], required=True)
    tiny.add_argument("--omcs", required=True, help="OMCS sentences the model learns from")
    tiny.add_argument("--generics", required=True, help="GenericsKB sentences, too")
    tiny.add_argument("--output", required=True, help="model folder (save_pretrained)")
    tiny.add_argument("--seed", type=int, required=True)
    for name, kind in (("hidden", int), ("layers", int), ("heads", int), ("steps", int),
                       ("lr", float), ("vocab-size", int)):
        tiny.add_argument(f"--{name}", type=kind, required=True)

    finetune = add("finetune", cmd_finetune, sub)
    finetune.add_argument("--base", required=True, help="masked LM folder or hub name")
    finetune.add_argument("--train", required=True, help="train.masked.tsv (probe<TAB>word), "
                          "or plain sentences (gkb_best_filtered.txt) when train_set is authors")
    finetune.add_argument("--output", required=True, help="fine-tuned model folder")
    add_settings_option(finetune, FinetuneSettings, "numersense.finetune")
    finetune.add_argument("--device", required=True, help="torch device")

    score = add("score", cmd_score, sub)
    score.description = (
        "Score any masked or causal LM on NumerSense: ranked predictions in the authors' "
        "released layout (OUT/<name>.jsonl) and, where gold labels are given, hit@1/2/3 under "
        "every no/zero convention (OUT/<name>.csv). Example: reprobe numersense score "
        "--model bert-base-uncased --set core --out runs/bert")
    score.add_argument("--model", required=True, help="model folder or hub name")
    score.add_argument("--type", choices=["auto", "masked", "causal"], default="auto",
                       help="masked or causal LM (auto: read from the model's config)")
    score.add_argument("--set", action="append", required=True, metavar="SET",
                       help="core, all or validation (the configured released file, fetched "
                            "by the workflow) or a probe file (.txt one probe a line, .tsv "
                            "probe<TAB>word); repeat for several sets")
    score.add_argument("--gold", action="append", default=[], metavar="FILE",
                       help="labelled probes (.tsv) for each --set in order, '-' for none "
                            "(default: a .tsv set's own labels, the configured gold of core "
                            "and all, validation's labels)")
    score.add_argument("--name", action="append", default=[], metavar="NAME",
                       help="output name for each --set in order (default: the set's name or "
                            "file stem)")
    score.add_argument("--row", default=None, help="row name in the score rows (default: "
                                                    "the model)")
    score.add_argument("--protocol", choices=["authors", "clean"], default=None,
                       help="authors: the authors' procedure (the paper's rows); clean: the "
                            "probe as written, whole-vocabulary softmax (masked) or a BOS "
                            "token first (causal); default: the config's first protocol")
    score.add_argument("--bos", action=argparse.BooleanOptionalAction, default=None,
                       help="clean protocol, causal LMs: a BOS token before each sentence "
                            "(default: the config's clean_bos)")
    score.add_argument("--batch-size", type=int, default=None,
                       help="probes per forward pass, length-sorted (default: the config's)")
    score.add_argument("--device", default=None,
                       help="torch device: cpu, cuda, cuda:1, ... (default: the config's)")
    score.add_argument("--precision", choices=["bf16", "fp16"], default=None,
                       help="autocast on a GPU (default: float32)")
    score.add_argument("--configfile", default="config/config.yaml",
                       help="where core/all/validation, their gold and the defaults of the "
                            "options above are configured (schema defaults where absent)")
    score.add_argument("--out", required=True, help="folder for predictions and scores")

    released = add("score-released", cmd_score_released, sub)
    released.add_argument("--row", required=True, help="row name in Table 2")
    released.add_argument("--set", required=True, help="core or all")
    released.add_argument("--predictions", required=True, help="the authors' .output.jsonl")
    released.add_argument("--gold", required=True, help="labelled probes (.tsv)")
    released.add_argument("--scores", required=True,
                          help="hit@k score rows under every convention (CSV)")

    templates = add("templates", cmd_templates, sub)
    templates.add_argument("--row", required=True, help="row name in Table 3")
    templates.add_argument("--model", required=True, help="masked LM folder or hub name")
    templates.add_argument("--words", type=int, required=True, help="words filling [x]")
    templates.add_argument("--seed", type=int, required=True, help="seed of the word draw")
    templates.add_argument("--output", required=True, help="mean softmax per word (CSV)")
    _run_options(templates)


def register(commands: argparse._SubParsersAction,
             add: Callable[..., argparse.ArgumentParser]) -> None:
    """Add the `numersense` command group to the CLI."""
    group = commands.add_parser("numersense", help="Lin et al. 2020: NumerSense probes")
    sub = group.add_subparsers(dest="numersense_command", required=True, metavar="STEP")
    _register_builders(sub, add)
    _register_models(sub, add)
    register_tables(sub, add)
