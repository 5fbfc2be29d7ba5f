"""Every placeholder in a rule's shell command is quoted by Snakemake (`{name:q}`).

A list param quoted with :q becomes its elements, each shell-quoted, joined by spaces (what
`shlex.join` gives), so params that stand for several arguments are lists of argument tokens
(the `*targets.py` modules) and no placeholder needs to be left unquoted. The workflow files are
snakefmt-formatted: a shell command is the string literals indented below a `shell:` line.
"""

from __future__ import annotations

import ast
import io
import re
import textwrap
import tokenize
from pathlib import Path

import pytest

from conftest import REPO

WORKFLOW_FILES = [REPO / "Snakefile", *sorted((REPO / "workflow" / "rules").glob("*.smk"))]
SHELL_LINE = re.compile(r"^(?P<indent>[ \t]*)shell:[ \t]*(?P<rest>.*)$")
# Doubled braces are literal braces in a Snakemake command, not placeholders.
LITERAL_BRACES = re.compile(r"\{\{|\}\}")
PLACEHOLDER = re.compile(r"\{[^{}]*\}")


def indent_of(line: str) -> int:
    """The width of a line's leading whitespace."""
    return len(line) - len(line.lstrip(" \t"))


def shell_blocks(text: str) -> list[tuple[int, str]]:
    """(line number of its first line, source) of each `shell:` directive's value: the text
    after `shell:` on its line, and the lines below it indented deeper (blank lines and
    comments inside included)."""
    lines = text.splitlines()
    blocks = []
    for number, line in enumerate(lines):
        match = SHELL_LINE.match(line)
        if not match:
            continue
        depth = len(match["indent"])
        body = [match["rest"]] if match["rest"].strip() else []
        start = number + 1 if body else number + 2
        for following in lines[number + 1:]:
            if following.strip() and indent_of(following) <= depth:
                break
            body.append(following)
        while body and not body[-1].strip():
            body.pop()
        blocks.append((start, textwrap.dedent("\n".join(body))))
    return blocks


def string_literals(source: str, first_line: int) -> list[tuple[int, str, str]]:
    """(line, prefix, raw text between the quotes) of each string literal in a shell block
    (read inside parentheses, as Python reads the directive's value)."""
    literals = []
    tokens = tokenize.generate_tokens(io.StringIO(f"(\n{source}\n)\n").readline)
    for token in tokens:
        if token.type != tokenize.STRING:
            continue
        prefix = re.match(r"[A-Za-z]*", token.string).group(0)
        quoted = token.string[len(prefix):]
        quote = quoted[:3] if quoted[:3] in ('"""', "'''") else quoted[0]
        literals.append((first_line + token.start[0] - 2, prefix.lower(),
                         quoted[len(quote):-len(quote)]))
    return literals


def unquoted_placeholders(path: Path, root: Path = REPO) -> list[str]:
    """`file:line: {placeholder}` of every placeholder of a shell command that lacks :q (and
    of every shell command that is not plain string literals, which this check cannot read)."""
    name = path.relative_to(root).as_posix()
    problems = []
    for first_line, source in shell_blocks(path.read_text(encoding="utf-8")):
        literals = string_literals(source, first_line)
        if not literals:
            problems.append(f"{name}:{first_line}: a shell command that is no string literal")
        try:
            ast.parse(f"(\n{source}\n)", mode="eval")
        except SyntaxError:
            problems.append(f"{name}:{first_line}: a shell command that does not parse")
        for line, prefix, text in literals:
            if "f" in prefix:
                problems.append(f"{name}:{line}: an f-string shell command (its braces are "
                                "Python's, not Snakemake's)")
                continue
            for placeholder in PLACEHOLDER.findall(LITERAL_BRACES.sub("", text)):
                if not placeholder.endswith(":q}"):
                    problems.append(f"{name}:{line}: {placeholder}")
    return problems


def test_the_workflow_files_have_shell_commands():
    found = {path.name: len(shell_blocks(path.read_text(encoding="utf-8")))
             for path in WORKFLOW_FILES}
    assert "Snakefile" in found and "download.smk" in found
    # Every rule file's `shell:` lines are found (a stage file without any would be odd).
    assert found["download.smk"] == 2 and sum(found.values()) >= 50, found


@pytest.mark.parametrize("path", WORKFLOW_FILES, ids=lambda path: path.name)
def test_every_shell_placeholder_is_quoted(path: Path):
    problems = unquoted_placeholders(path)
    assert not problems, "placeholders without :q in shell commands:\n" + "\n".join(problems)


def test_the_check_finds_what_it_should(tmp_path: Path):
    rules = tmp_path / "rules.smk"
    rules.write_text(textwrap.dedent('''\
        rule a:
            output:
                "a",
            params:
                n=1,
            shell:
                "echo {params.n:q} {{literal}} ${{HOME}} "
                # a comment inside the command
                "{params.n} > {output:q}"


        rule b:
            shell: "echo {wildcards.x}"


        rule c:
            shell:
                f"echo {x}"
        '''), encoding="utf-8")
    assert unquoted_placeholders(rules, tmp_path) == [
        "rules.smk:9: {params.n}",
        "rules.smk:13: {wildcards.x}",
        "rules.smk:18: an f-string shell command (its braces are Python's, not Snakemake's)",
    ]
