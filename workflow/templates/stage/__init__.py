"""STAGE_TITLE."""

from reprobe.stage import Stage

STAGE = Stage("STAGE_NAME", "STAGE_TITLE")
