"""What the STAGE_NAME rules read, from the config."""

from __future__ import annotations

from reprobe.STAGE_NAME.targets import StageTargets


def test_the_input_is_the_configured_source():
    config = {"STAGE_NAME": {"input": {"source": "s", "member": "a.txt"}}}
    targets = StageTargets(config, lambda name: f"data/raw/{name}/extracted")
    assert targets.input.target == "data/raw/s/extracted"
    assert targets.input.path == "data/raw/s/extracted/a.txt"
    assert targets.tables[0].endswith("/counts.csv")
