"""Declaring a step's files and names in one call reads the command line as one add_argument
per option would."""

from __future__ import annotations

import argparse

import pytest

from reprobe.step_options import add_names, add_paths, listed, one_of, optional, several


def parser_of(**paths) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="step", exit_on_error=False)
    add_paths(parser, **paths)
    return parser


def test_a_string_is_a_required_option_named_with_dashes():
    parser = parser_of(output_dir="folder to write")
    assert parser.parse_args(["--output-dir", "out"]).output_dir == "out"
    with pytest.raises(SystemExit):
        parser.parse_args([])


def test_optional_several_and_listed():
    parser = parser_of(reference=optional("published numbers"), counts=several("shard counts"),
                       scores=listed("score CSVs"))
    args = parser.parse_args(["s1", "s2", "--counts", "a", "b"])
    assert (args.reference, args.counts, args.scores) == (None, ["a", "b"], ["s1", "s2"])
    with pytest.raises(SystemExit):
        parser.parse_args(["s1"])  # --counts is required
    assert parser_of(folds=listed("id files", at_least=0)).parse_args([]).folds == []


def test_an_option_of_several_values_may_be_given_once_per_value():
    # As the rules write a config's names: one `--option=VALUE` token each, a value beginning
    # with - included (`--models -x` would read -x as an option).
    parser = parser_of(models=several("row names"), output="CSV")
    args = parser.parse_args(["--models=-x", "--models=b", "--output=-o.csv"])
    assert (args.models, args.output) == (["-x", "b"], "-o.csv")
    assert parser.parse_args(["--models", "a", "b", "--models=c", "--output", "o"]).models == [
        "a", "b", "c"]
    with pytest.raises(argparse.ArgumentError, match="expected at least one"):
        parser.parse_args(["--models", "-x", "--output", "o"])


def test_a_listed_option_needs_one_value_unless_at_least_is_0():
    with pytest.raises(SystemExit):
        parser_of(scores=listed("score CSVs")).parse_args([])
    with pytest.raises(ValueError, match="at_least"):
        listed("x", at_least=2)


def test_names_with_choices_and_help(capsys):
    parser = argparse.ArgumentParser(prog="step")
    add_names(parser, model="row name", variant=one_of(["released", "rebuilt"]))
    assert parser.parse_args(["--model", "M", "--variant", "rebuilt"]).variant == "rebuilt"
    with pytest.raises(SystemExit):
        parser.parse_args(["--model", "M", "--variant", "other"])
    capsys.readouterr()
    with pytest.raises(SystemExit):
        parser.parse_args(["--help"])
    shown = capsys.readouterr().out
    assert "--model NAME" in shown and "row name" in shown and "{released,rebuilt}" in shown


def test_paths_show_as_path_in_help_and_positional_lists_by_name(capsys):
    parser = parser_of(output="CSV to write", scores=listed("score CSVs"))
    with pytest.raises(SystemExit):
        parser.parse_args(["--help"])
    shown = capsys.readouterr().out
    assert "--output PATH" in shown and "scores [scores ...]" in shown
