"""The command line: help for every command, and bad input ends with a message, not a trace."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from conftest import REPO
from reprobe.cli import build_parser, main


@pytest.mark.parametrize("command", [[], ["fetch"], ["extract"], ["wikipedia", "plan"],
                                     ["wikipedia", "shard"], ["wikipedia", "gather"],
                                     ["table", "wikipedia-stats"], ["config-check"]])
def test_every_command_has_help(command, capsys):
    with pytest.raises(SystemExit) as done:
        build_parser().parse_args([*command, "--help"])
    assert done.value.code == 0
    assert "usage: reprobe" in capsys.readouterr().out


def test_bad_input_exits_1_with_the_file_named(tmp_path, caplog):
    dump = tmp_path / "cut.xml.bz2"
    dump.write_bytes(b"BZh91AY&SY" + b"\0" * 20)
    code = main(["wikipedia", "plan", "--dump", str(dump), "--shards", "1",
                 "--output", str(tmp_path / "plan.json")])
    assert code == 1
    assert str(dump) in caplog.text
    assert not (tmp_path / "plan.json").exists()


def test_shard_given_another_dump_than_planned_exits_1_naming_both(tmp_path, caplog):
    planned, given = tmp_path / "planned.xml", tmp_path / "given.xml"
    planned.write_text("<mediawiki></mediawiki>\n")
    given.write_text("<mediawiki></mediawiki>\n")
    plan = tmp_path / "plan.json"
    assert main(["wikipedia", "plan", "--dump", str(planned), "--shards", "1",
                 "--output", str(plan)]) == 0
    code = main(["wikipedia", "shard", "--plan", str(plan), "--dump", str(given), "--shard", "0",
                 "--output-dir", str(tmp_path / "shard"), "--quiet"])
    assert code == 1
    assert str(planned) in caplog.text and str(given) in caplog.text
    assert not (tmp_path / "shard" / "stats.json").exists()


def test_config_check_lists_sources():
    result = subprocess.run([sys.executable, "-m", "reprobe", "config-check", "config/config.yaml"],
                            capture_output=True, text=True, cwd=REPO)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("enwiki_excerpt\t")


@pytest.mark.parametrize("step", ["awpnli", "stresstest", "newsnli-shard", "newsnli",
                                  "reddit-titles", "redditnli", "label", "recovery", "perturb",
                                  "train-hyp", "tiny-model", "checkpoint", "score", "table6",
                                  "perturbation-table", "recovery-table"])
def test_every_equate_step_has_help(step, capsys):
    with pytest.raises(SystemExit) as done:
        build_parser().parse_args(["equate", step, "--help"])
    assert done.value.code == 0
    assert "usage: reprobe equate" in capsys.readouterr().out


def test_bad_equate_row_names_file_and_line(tmp_path, caplog):
    pairs = tmp_path / "set.jsonl"
    pairs.write_text('{"sentence1": "A has 3.", "sentence2": "A has 3.", '
                     '"gold_label": "entailment"}\n{"sentence1": "B", "gold_label": "maybe"}\n')
    code = main(["equate", "score", "--kind", "majority", "--model", "MAJ", "--test-set",
                 "awpnli", "--variant", "rebuilt", "--pairs", str(pairs),
                 "--scores", str(tmp_path / "s.csv"), "--predictions", str(tmp_path / "p.jsonl")])
    assert code == 1
    assert str(pairs) in caplog.text and "line 2" in caplog.text
    assert not (tmp_path / "s.csv").exists() and not (tmp_path / "p.jsonl").exists()


def test_rebuilt_set_compared_with_a_released_one(tmp_path):
    """`equate recovery`: a Stress Test rebuilt with the same seed reproduces every pair."""
    aqua = REPO / "data/samples/equate/aqua_dev.json"
    for name, seed in (("released", 1), ("rebuilt", 1), ("other", 2)):
        assert main(["equate", "stresstest", "--aqua", str(aqua), "--seed", str(seed),
                     "--output", str(tmp_path / f"{name}.jsonl")]) == 0
    for name in ("rebuilt", "other"):
        assert main(["equate", "recovery", "--test-set", "stresstest", "--rebuilt",
                     str(tmp_path / f"{name}.jsonl"), "--released",
                     str(tmp_path / "released.jsonl"),
                     "--output", str(tmp_path / f"{name}.json")]) == 0
    same = json.loads((tmp_path / "rebuilt.json").read_text())
    other = json.loads((tmp_path / "other.json").read_text())
    assert same["recovered_exact"] == same["released"] == 36 and same["test_set"] == "stresstest"
    # Another seed changes the hypotheses: entailment and contradiction pairs keep their
    # premise; neutral pairs (premise = the entailed rewrite) are missed.
    assert other["recovered_exact"] < 36 and other["recovered_premise_only"] >= 24


def test_score_names_the_missing_option(tmp_path, caplog):
    code = main(["equate", "score", "--kind", "qreas", "--model", "Q-REAS", "--test-set",
                 "awpnli", "--variant", "rebuilt", "--pairs", "x.jsonl", "--jobs", "j.txt",
                 "--scores", str(tmp_path / "s.csv"), "--predictions", str(tmp_path / "p.jsonl")])
    assert code == 1
    assert "needs --wordnet, --nationalities" in caplog.text


def test_an_unreadable_input_is_one_line_and_a_traceback_only_with_debug(tmp_path):
    probes = tmp_path / "core.tsv"
    probes.write_bytes(b"cats have <mask> legs.\tfour\n\xff\n")
    step = ["numersense", "released-labels", *[f"--rebuilt-{s}={probes}" for s in
                                                  ("core", "all", "train")],
            f"--csv={tmp_path / 'o.csv'}", f"--md={tmp_path / 'o.md'}"]
    messages = []
    for argv, traceback in ((step, False), (["--debug", *step], True),
                            (["config-check", str(tmp_path / "none.yaml")], False)):
        done = subprocess.run([sys.executable, "-m", "reprobe", *argv], capture_output=True,
                              text=True, cwd=REPO)
        assert done.returncode == 1 and ("Traceback" in done.stderr) == traceback
        if not traceback:
            assert len(done.stderr.strip().splitlines()) == 1, done.stderr
        messages.append(done.stderr)
    assert "core.tsv: line 2, byte offset 28: byte ff is not utf-8" in messages[0]
    assert "none.yaml: no such config file" in messages[2]
    assert not list(tmp_path.glob("o.*"))


def test_an_unexpected_error_is_one_line_unless_debug(monkeypatch, caplog):
    def broken(_args):
        """A step with a bug."""
        raise KeyError("oops")

    parser = build_parser()
    parser._subparsers._group_actions[0].choices["config-check"].set_defaults(handler=broken)
    monkeypatch.setattr("reprobe.cli.build_parser", lambda *_: parser)
    assert main(["config-check", "x"]) == 1
    assert "KeyError: 'oops'" in caplog.text and "--debug" in caplog.text
    assert "Traceback" not in caplog.text
    caplog.clear()
    assert main(["--debug", "config-check", "x"]) == 1
    assert "Traceback" in caplog.text


HEAVY = ("pandas", "torch", "transformers", "sklearn", "gensim", "pyarrow", "duckdb")
STAGE_PACKAGES = ("reprobe.numeracy", "reprobe.equate", "reprobe.numersense", "reprobe.wikipse")


def modules_loaded_by(code: str) -> tuple[list[str], list[str]]:
    """In a fresh interpreter: the heavy libraries and the stage modules `code` imports."""
    probe = (f"import json, sys\n{code}\n"
             f"print(json.dumps([sorted(m for m in {HEAVY!r} if m in sys.modules), "
             f"sorted(m for m in sys.modules if m.startswith({STAGE_PACKAGES!r}))]))")
    heavy, stages = json.loads(subprocess.run([sys.executable, "-c", probe],
                                              capture_output=True, text=True,
                                              check=True).stdout)
    return heavy, stages


def test_importing_the_cli_and_building_every_parser_loads_no_heavy_library():
    heavy, _ = modules_loaded_by("from reprobe.cli import build_parser; build_parser()")
    assert heavy == []


def test_help_loads_no_stage_module():
    heavy, stages = modules_loaded_by("from reprobe.cli import build_parser, command_named; "
                                      "build_parser(command_named(['--help']))")
    assert heavy == []
    # A stage's package holds only its name and title (`STAGE`); nothing below it is loaded.
    assert [name for name in stages if name not in STAGE_PACKAGES] == []


def test_a_step_loads_only_its_own_stage():
    heavy, stages = modules_loaded_by(
        "import contextlib, io\n"
        "from reprobe.cli import build_parser, command_named\n"
        "argv = ['-v', 'equate', 'score', '--help']\n"
        "with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):\n"
        "    build_parser(command_named(argv)).parse_args(argv)")
    assert heavy == []
    assert {name.split(".")[1] for name in stages if name not in STAGE_PACKAGES} == {"equate"}


def test_a_stage_not_named_is_listed_by_its_title(capsys):
    with pytest.raises(SystemExit):
        build_parser("").parse_args(["--help"])
    assert "Ravichander et al. 2019, EQUATE" in capsys.readouterr().out
