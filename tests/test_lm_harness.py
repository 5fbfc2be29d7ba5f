"""The ground floor's harness runner (reprobe.lm_harness): its options and its install error.
Running tasks is tested through both harness commands (tests/test_equate_harness.py,
tests/test_numersense_harness_model.py)."""

import argparse
import sys

import pytest

from reprobe.errors import ReprobeError
from reprobe.lm_harness import INSTALL, add_task_options, require_lm_eval


def test_the_tasks_default_to_the_stage_s_tag():
    parser = argparse.ArgumentParser()
    add_task_options(parser, "equate", "exports/equate/lm_eval")
    args = parser.parse_args(["--include-path", "t", "--output", "r.json"])
    assert (args.include_path, args.output, args.tasks) == ("t", "r.json", ["equate"])
    assert parser.parse_args(["--include-path", "t", "--output", "r.json", "--tasks", "a",
                              "b"]).tasks == ["a", "b"]
    assert "exports/equate/lm_eval" in parser.format_help()


def test_without_lm_eval_the_error_names_the_command_and_the_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "lm_eval", None)
    with pytest.raises(ReprobeError, match="reprobe x harness needs") as error:
        require_lm_eval("reprobe x harness")
    assert INSTALL in str(error.value)
