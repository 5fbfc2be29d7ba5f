"""Every value a rule hands a step is one token, `--option=VALUE` (issue 34).

argparse reads `--model -x` as an option missing its value: a row named `-x`, a source
`path: -train.tsv` or any other config value beginning with `-` would stop its job, after
earlier jobs ran, with "expected one argument" and no config key named. So each rule's shell
command writes `--option={value:q}`, each argument list the targets modules build holds
`f"--option={value}"` as one item, an option of several values is written once per value
(`--models=A --models=-B`; `reprobe.step_options.several` gathers them), and positional values
that come from the config follow `--`. Checked here on the text (the rules' shell commands and the
targets modules' list displays: no Snakemake run), and on rows named `-x` through each step's own
parser.
"""

from __future__ import annotations

import argparse
import ast
import copy
import re
from functools import cache
from pathlib import Path
from types import SimpleNamespace

import pytest

from conftest import REPO, option_value, option_values
from reprobe.cli import build_parser
from test_equate_targets import CONFIG, job, targets
from test_numeracy_targets import NumeracyTargets
from test_numeracy_targets import config as numeracy_config
from test_numersense_targets import NumerSenseTargets, raw_target, wildcards
from test_numersense_targets import config as numersense_config
from test_workflow_quoting import WORKFLOW_FILES, shell_blocks, string_literals

RULE_FILES = [*WORKFLOW_FILES, REPO / "workflow/templates/stage/rules.smk"]
# Options of several workflow paths (data/…, results/…: a rule's input or output list, which
# cannot begin with -), written `--option {list:q}`: the list's items follow the option.
PATH_LISTS = {("numeracy select", "--counts"), ("numeracy knn", "--vectors"),
              ("numeracy knn", "--numerals"), ("numeracy knn", "--set-numerals"),
              ("wikipse aggregate", "--words"), ("equate score", "--scores"),
              ("equate score", "--predictions")}
# Where a job's command ends: its log redirection or the next command.
COMMAND_ENDS = {"2>", ">", "2>>", ">>", "&&", "||", "|", ";"}
COMMAND_WORD = re.compile(r"[A-Za-z][\w-]*")
PLACEHOLDER = re.compile(r"\{[^{}]*\}")

# The modules that build the argument lists the rules pass (`{params.…:q}`).
BUILDERS = sorted({*(REPO / "workflow/reprobe").rglob("*targets.py"),
                   REPO / "workflow/reprobe/equate/row_jobs.py",
                   REPO / "workflow/reprobe/wikipse/extra.py",
                   REPO / "workflow/reprobe/config.py",
                   REPO / "workflow/templates/stage/targets.py"})
# Option tokens a builder may still give apart from their values, by module and option:
# `--from-shards` takes several results/ paths and its parser is a plain nargs="+" option
# (repeated, only its last would count).
SPACED = {("equate/targets.py", "--from-shards")}


@cache
def step_parser(command: tuple[str, ...]) -> argparse.ArgumentParser | None:
    """The parser of a `reprobe` step by its command words (None where the CLI has no such
    step: the stage template's placeholder name)."""
    parser = build_parser()
    for word in command:
        commands = next((action for action in parser._actions
                         if isinstance(action, argparse._SubParsersAction)), None)
        if commands is None or word not in commands.choices:
            return None
        parser = commands.choices[word]
    return parser


def option_action(parser: argparse.ArgumentParser | None, option: str) -> argparse.Action | None:
    """The action of an option of a step's parser (None where unknown)."""
    if parser is None:
        return None
    return parser._option_string_actions.get(option)


def reprobe_commands(words: list[str]) -> list[tuple[tuple[str, ...], list[str]]]:
    """(command words, the words after them) of each `python -m reprobe …` in a shell
    command's words, up to its log redirection or the next command."""
    found = []
    for i in range(2, len(words)):
        if words[i - 2:i + 1] != ["python", "-m", "reprobe"]:
            continue
        rest = words[i + 1:]
        end = next((k for k, word in enumerate(rest) if word in COMMAND_ENDS), len(rest))
        rest = rest[:end]
        size = next((k for k, word in enumerate(rest) if not COMMAND_WORD.fullmatch(word)),
                    len(rest))
        found.append((tuple(rest[:size]), rest[size:]))
    return found


def spaced_options(path: Path, root: Path = REPO) -> list[str]:
    """`file:line: command option value` of every option of a rule's shell command written
    apart from its value (a space, not `=`), but the PATH_LISTS; and of every option the step
    does not have."""
    name = path.relative_to(root).as_posix()
    problems = []
    for first_line, source in shell_blocks(path.read_text(encoding="utf-8")):
        text = "".join(literal for _, _, literal in string_literals(source, first_line))
        for command, words in reprobe_commands(text.split()):
            parser, where = step_parser(command), f"{name}:{first_line}: {' '.join(command)}"
            for k, word in enumerate(words):
                if word == "--":  # positional values only, from here on
                    break
                if not word.startswith("--"):
                    continue
                option = word.split("=", 1)[0]
                action = option_action(parser, option)
                if parser is not None and action is None:
                    problems.append(f"{where} {option}: no such option")
                if "=" in word or (action is not None and action.nargs == 0):
                    continue
                value = words[k + 1] if k + 1 < len(words) else ""
                several = action is not None and action.nargs in ("+", "*")
                if not (several and (" ".join(command), option) in PATH_LISTS
                        and PLACEHOLDER.fullmatch(value)):
                    problems.append(f"{where} {option} {value}")
    return problems


def option_tokens(path: Path, root: Path = REPO / "workflow/reprobe") -> list[str]:
    """`module:line: token` of every item of a list, tuple or set display in a module that is
    an option without its value (a string or f-string beginning `--`, no `=` in its text)."""
    name = path.relative_to(root).as_posix() if path.is_relative_to(root) else path.name
    problems = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.List | ast.Tuple | ast.Set):
            continue
        for item in node.elts:
            if isinstance(item, ast.Constant) and isinstance(item.value, str):
                text = item.value
            elif isinstance(item, ast.JoinedStr):
                text = "".join(part.value if isinstance(part, ast.Constant) else "{}"
                               for part in item.values)
            else:
                continue
            if text.startswith("--") and text != "--" and "=" not in text \
                    and (name, text) not in SPACED:
                problems.append(f"{name}:{item.lineno}: {text}")
    return problems


@pytest.mark.parametrize("path", RULE_FILES, ids=lambda path: path.name)
def test_every_option_of_a_rule_is_written_with_its_value(path: Path):
    problems = spaced_options(path)
    assert not problems, ("options written apart from their values (write --option={value:q}):"
                          "\n" + "\n".join(problems))


@pytest.mark.parametrize("path", RULE_FILES, ids=lambda path: path.name)
def test_no_rule_builds_an_option_token_of_its_own(path: Path):
    # A params list written in the rules file itself (`["--index", path]`).
    text = path.read_text(encoding="utf-8")
    found = re.findall(r'"--[\w-]+"\s*[,\]]', text)
    assert not found, f"{path.name}: option tokens apart from their values: {found}"


@pytest.mark.parametrize("path", BUILDERS, ids=lambda path: path.parent.name + "/" + path.name)
def test_every_argument_list_gives_an_option_and_its_value_as_one_item(path: Path):
    problems = option_tokens(path)
    assert not problems, ("options apart from their values (write f\"--option={value}\"):\n"
                          + "\n".join(problems))


def test_the_checks_find_what_they_should(tmp_path: Path):
    rules = tmp_path / "rules.smk"
    rules.write_text(
        'rule a:\n    shell:\n'
        '        "python -m reprobe equate score --kind {params.k:q} --model={params.m:q} "\n'
        '        "--scores {output:q} --pairs {input:q} --nope=1 2> {log:q}"\n\n\n'
        'rule b:\n    shell:\n'
        '        "python -m reprobe equate checkpoint --output-dir={output:q} -- {params.f:q}"\n',
        encoding="utf-8")
    found = [problem.split(": ", 1)[1] for problem in spaced_options(rules, tmp_path)]
    assert found == ["equate score --kind {params.k:q}", "equate score --pairs {input:q}",
                     "equate score --nope: no such option"]
    module = tmp_path / "targets.py"
    module.write_text('A = ["--kind", kind, f"--model={m}", "--", f"--{o}", v]\n'
                      'B = [f"--{o}={v}" for o, v in x]\n', encoding="utf-8")
    assert [problem.split(": ", 1)[1] for problem in option_tokens(module, tmp_path)] == [
        "--kind", "--{}"]


# -- a row named -x reaches its step as one `--model=-x` ------------------------------------

def test_an_equate_row_named_like_an_option_is_one_argument():
    neural = copy.deepcopy(CONFIG["equate"]["neural"])
    neural["-x"] = neural.pop("tiny BERT")
    eq = targets(neural=neural)
    wildcards = job("x")  # the row's file name
    arguments = eq.score_arguments(wildcards)
    assert "--model=-x" in arguments and "-x" not in arguments
    parser = build_parser()
    score = parser.parse_args(["equate", "score", *arguments, "--threads=1",
                               "--test-set=awpnli", "--variant=rebuilt", "--predictions=p"])
    assert score.model == "-x" and score.kind == "neural"
    # As the rules wrote it before: the step stops, the row's name read as an option.
    with pytest.raises(SystemExit):
        parser.parse_args(["equate", "score", "--kind", "neural", "--model", "-x",
                           "--test-set", "awpnli", "--variant", "rebuilt", "--pairs", "p",
                           "--predictions", "q"])
    # The tables mark it beyond the paper, as the table steps read it.
    assert eq.beyond_paper_option() == ["--beyond-paper=-x"]
    table = parser.parse_args(["equate", "table6", "--reference=r", "--csv=c", "--md=m",
                               *eq.table_options(SimpleNamespace(variant="rebuilt")), "s.csv"])
    assert table.beyond_paper == ["-x"] and table.scores == ["s.csv"]


def test_a_numersense_model_named_like_an_option_is_one_argument():
    models = {"-x": {"path": "-x", "type": "causal"}, "tiny-BERT": {"tiny": {"kind": "bert"}}}
    ns = NumerSenseTargets(numersense_config(models=models), raw_target)
    arguments = ns.probe_arguments(wildcards(ns_row="x"))
    assert option_value(arguments, "--row") == "-x"
    assert option_value(arguments, "--model") == "-x"
    assert "-x" not in arguments
    parser = build_parser()
    score = parser.parse_args(["numersense", "score", *arguments, *ns.probe_options(),
                               "--out=o"])
    assert (score.row, score.model) == ("-x", "-x")
    # Several rows beyond the paper, and Figure 3's ROW=PREDICTIONS after `--`.
    figure = ns.figure_arguments()
    assert option_values(figure, "--beyond-paper") == ["-x", "tiny-BERT"]
    read = parser.parse_args(["numersense", "figure3", "--categories=c", "--reference=r",
                              "--csv=f.csv", "--png=f.png", *figure])
    assert read.beyond_paper == ["-x", "tiny-BERT"]
    assert read.predictions[0] == "-x=results/numersense/probe/x/rebuilt-core.jsonl"


def test_a_numeracy_model_named_like_an_option_is_one_argument():
    shelf = {"-x": {"source": "small", "format": "word2vec_txt"}}
    num = NumeracyTargets(numeracy_config(off_the_shelf=shelf), {}, str)
    models = num.knn_models()
    assert models[0] == "--models=-x" and len(models) == len(num.models)
    vectors = [f"data/models/numeracy/{model}.kv" for model in num.models]
    knn = build_parser().parse_args(["numeracy", "knn", *models, "--vectors", *vectors,
                                     "--numerals", "n", "--set-numerals", "s", "--seed=1",
                                     "--output=o", *num.knn_arguments()])
    assert knn.models == num.models and knn.models[0] == "-x"
