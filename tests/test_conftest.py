"""The suite's own helpers: a missing quality tool skips locally and fails under CI."""

from __future__ import annotations

import pytest

from conftest import missing_tool


def test_a_missing_tool_fails_under_ci_and_skips_elsewhere(monkeypatch):
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="CI is set"):
        missing_tool("snakefmt is not installed")
    for value in ("", "0", "false"):
        monkeypatch.setenv("CI", value)
        with pytest.raises(pytest.skip.Exception):
            missing_tool("snakefmt is not installed")
