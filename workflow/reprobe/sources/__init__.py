"""Materialise a workflow source: download or copy it, verify it, and unpack it safely."""
