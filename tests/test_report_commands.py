"""`reprobe report page`: the page and its tally from the command line; bad input named."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reprobe.cli import build_parser, main

MD = "# Table 9: BC-NUM\n\n| model | BC-NUM |\n|:--|:--|\n| GloVe | 52.14 (99.15, -47.01) |\n"


def page_args(tmp_path: Path, **changed: str) -> list[str]:
    """The page command for one hand-made table, with some options changed."""
    table = tmp_path / "table9.md"
    table.write_text(MD, encoding="utf-8")
    options = {"--title": "Naik et al. 2019", "--tolerance": "0.05",
               "--cards-under": str(tmp_path / "cards"), "--config-json": '{"seed": 1}',
               "--sources-json": "{}", "--output": str(tmp_path / "page.html"),
               "--summary": str(tmp_path / "page.json"), **changed}
    return ["report", "page", *(word for pair in options.items() for word in pair), str(table)]


def test_the_page_and_its_tally_are_written(tmp_path):
    assert main(page_args(tmp_path)) == 0
    summary = json.loads((tmp_path / "page.json").read_text())
    assert summary["counts"]["beyond"] == 1 and summary["tables"][0]["title"] == (
        "Table 9: BC-NUM")
    assert "Table 9: BC-NUM" in (tmp_path / "page.html").read_text(encoding="utf-8")


@pytest.mark.parametrize(("option", "value", "said"), [
    ("--config-json", "{seed", "--config-json: not JSON"),
    ("--sources-json", "[]", "--sources-json: expected a JSON object"),
    ("--tolerance", "-0.1", "--tolerance: -0.1 is negative"),
])
def test_bad_input_exits_1_naming_the_option(tmp_path, caplog, option, value, said):
    assert main(page_args(tmp_path, **{option: value})) == 1
    assert said in caplog.text and not (tmp_path / "page.html").exists()


def test_the_page_command_has_help(capsys):
    with pytest.raises(SystemExit) as done:
        build_parser().parse_args(["report", "page", "--help"])
    assert done.value.code == 0 and "--tolerance" in capsys.readouterr().out
