"""Every step's settings, as a person runs the step by hand: with no `--settings`, with `{}`,
with `--set KEY=VALUE`, from `--configfile`, and with one wrong value per key, generated
from the schema: a settings object, or one line naming the key (never a "bug" message)."""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterator

import jsonschema
import pytest

from reprobe.cli import build_parser, run_step
from reprobe.config import load_schema
from reprobe.errors import ConfigError
from reprobe.step_settings import (
    SettingsOption,
    resolve_settings,
    section_label,
    section_schema,
    setting_names,
)


def steps(parser: argparse.ArgumentParser, words: tuple[str, ...] = ()
          ) -> Iterator[tuple[tuple[str, ...], argparse.ArgumentParser]]:
    """(command words, parser) of every step that declares settings."""
    if parser.get_default("settings_options"):
        yield words, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from steps(sub, (*words, name))


def required_arguments(parser: argparse.ArgumentParser) -> list[str]:
    """A value for each required option and positional of a step (the files need not exist:
    the settings are resolved before the step reads anything)."""
    argv: list[str] = []
    for action in parser._actions:
        value = str(next(iter(action.choices))) if action.choices else (
            "1" if action.type in (int, float) else "x")
        if action.option_strings and action.required:
            argv += [f"{action.option_strings[-1]}={value}"]
        elif not action.option_strings and action.dest != "help" and action.nargs != 0:
            argv += [value]
    return argv


STEPS = list(steps(build_parser()))
IDS = [" ".join(words) for words, _ in STEPS]


def parsed(words: tuple[str, ...], parser: argparse.ArgumentParser, *extra: str
           ) -> argparse.Namespace:
    """The step's command line with its required arguments and `extra`, parsed and resolved."""
    args = build_parser(words[0]).parse_args([*words, *required_arguments(parser), *extra])
    resolve_settings(args)
    return args


def required_without_default(option: SettingsOption) -> list[str]:
    """The keys of a section that have neither a value nor a default when none is given."""
    schema = section_schema(option.cls, option.path)
    return [key for key in schema["required"] if "default" not in schema["properties"][key]]


def test_every_step_with_settings_is_found():
    assert len(STEPS) >= 25, IDS
    assert "numersense tiny" in IDS and "equate train-baseline" in IDS


@pytest.mark.parametrize(("words", "parser"), STEPS, ids=IDS)
@pytest.mark.parametrize("given", [(), ("--settings={}",)], ids=["absent", "empty"])
def test_a_step_runs_on_the_schemas_defaults(words, parser, given):
    options = parser.get_default("settings_options")
    missing = [key for option in options for key in required_without_default(option)]
    if missing:
        with pytest.raises(ConfigError, match=f"'{missing[0]}' is a required property"):
            parsed(words, parser, *given)
        return
    args = parsed(words, parser, *given)
    for option in options:
        assert isinstance(getattr(args, option.dest), option.cls), option


def wrong_value(node: dict, root: dict) -> object | None:
    """A JSON value the key's schema refuses (None when it takes anything)."""
    validator = jsonschema.Draft202012Validator({"$defs": root["$defs"], **node})
    for candidate in ({"no such key": [1]}, [["x"]], "no such value", -(10 ** 9), 10 ** 12,
                      True, None, 0.5):
        if not validator.is_valid(candidate):
            return candidate
    return None


def wrong_cases() -> Iterator[tuple[tuple[str, ...], argparse.ArgumentParser, str, object]]:
    """(step, parser, key, wrong value) for every key of every step's settings."""
    root = load_schema()
    for words, parser in STEPS:
        option = parser.get_default("settings_options")[0]
        schema = section_schema(option.cls, option.path)
        for key in setting_names(option.cls):
            value = wrong_value(schema["properties"][key], root)
            if value is not None:
                yield words, parser, key, value


WRONG = list(wrong_cases())


@pytest.mark.parametrize(("words", "parser", "key", "value"), WRONG,
                         ids=[f"{' '.join(w)} {k}" for w, _, k, _ in WRONG])
def test_a_wrong_value_is_one_line_naming_the_key(words, parser, key, value):
    option = parser.get_default("settings_options")[0]
    with pytest.raises(ConfigError) as caught:
        parsed(words, parser, f"--settings={json.dumps({key: value})}")
    message = str(caught.value)
    assert f"{section_label(option.path)}.{key}" in message, message
    assert "\n" not in message


def test_set_is_typed_by_the_schema_and_laid_over_settings():
    words, parser = dict(zip(IDS, STEPS, strict=True))["numeracy knn"]
    args = parsed(words, parser, '--settings={"k": 5, "target": "log"}', "--set=k=3")
    assert args.settings.k == 3 and args.settings.target == "log"
    with pytest.raises(ConfigError, match=r"numeracy\.knn\.k: 'three' is not of type"):
        parsed(words, parser, "--set=k=three")


def test_set_reaches_a_nested_key_of_a_map_entry():
    words, parser = dict(zip(IDS, STEPS, strict=True))["equate score"]
    args = parsed(words, parser, "--set=released_code.Q-REAS.solutions=every")
    entry = args.settings.released_code["Q-REAS"]
    assert entry["solutions"] == "every" and "mismatch" in entry  # its default filled in


def test_configfile_gives_what_settings_leave_out(tmp_path):
    overlay = tmp_path / "my.yaml"
    overlay.write_text("numeracy:\n  knn:\n    k: 7\n", encoding="utf-8")
    words, parser = dict(zip(IDS, STEPS, strict=True))["numeracy knn"]
    assert parsed(words, parser, f"--configfile={overlay}").settings.k == 7
    assert parsed(words, parser, f"--configfile={overlay}", "--set=k=2").settings.k == 2


def test_a_map_entrys_settings_from_configfile_need_the_section(tmp_path):
    words, parser = dict(zip(IDS, STEPS, strict=True))["numersense tiny"]
    with pytest.raises(ConfigError, match=r"give --section.*numersense\.models\.<row>\.tiny"):
        parsed(words, parser, "--configfile=config/config.yaml")
    config = tmp_path / "c.yaml"
    config.write_text("numersense:\n  models:\n    mine:\n      tiny: {kind: bert, heads: 4, "
                      "hidden: 16}\n", encoding="utf-8")
    args = parsed(words, parser, f"--configfile={config}", "--section=numersense.models.mine.tiny")
    assert (args.settings.heads, args.settings.hidden) == (4, 16)


def test_a_check_across_keys_names_them_before_the_step_runs():
    words, parser = dict(zip(IDS, STEPS, strict=True))["numersense tiny"]
    with pytest.raises(ConfigError, match=r"numersense\.models\.<row>\.tiny: hidden \(32\) "
                                          r"must be a multiple of heads \(3\)"):
        parsed(words, parser, '--settings={"kind": "bert", "heads": 3}')


def test_a_wrong_setting_ends_the_step_with_one_line_and_no_bug_message(caplog):
    words, parser = dict(zip(IDS, STEPS, strict=True))["equate score"]
    args = build_parser("equate").parse_args(
        [*words, *required_arguments(parser), "--set=max_depth=-1"])
    assert run_step(args) == 1
    assert "equate.qreas.max_depth" in caplog.text and "bug" not in caplog.text


def test_section_names_the_main_settings_and_a_second_option_keeps_its_own(tmp_path):
    config = tmp_path / "c.yaml"
    config.write_text("equate:\n  trained:\n    mine: {architecture: cbow, width: 0.5}\n"
                      "  training: {precision: fp16}\n", encoding="utf-8")
    words, parser = dict(zip(IDS, STEPS, strict=True))["equate train-baseline"]
    args = parsed(words, parser, f"--configfile={config}", "--section=equate.trained.mine")
    assert (args.settings.architecture, args.settings.width) == ("cbow", 0.5)
    assert args.training.precision == "fp16"
    args = parsed(words, parser, f"--configfile={config}", "--section=equate.trained.mine",
                  "--set-training=precision=bf16")
    assert args.training.precision == "bf16"
