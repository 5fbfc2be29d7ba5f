"""Tests for reprobe.sources.inventory and mirror: fill a mirror, lock, verify, offline lists."""

from __future__ import annotations

import copy
import hashlib
from collections.abc import Iterator
from pathlib import Path

import pytest

from loopback import Server, ServerState, serve
from reprobe.config import CHECKOUT, fill_defaults, load_yaml
from reprobe.errors import ConfigError, SourceError
from reprobe.sources.inventory import (
    fill_mirror,
    lock_fetched,
    selected_sources,
    verify_fetched,
)
from reprobe.sources.lock import read_lock
from reprobe.sources.mirror import missing_offline, offline_report

FILES = {"/one.tsv": b"one\n" * 100, "/two.tsv": b"two\n" * 100,
         "/sums.txt": b"", "/dump.bz2": b"dump bytes" * 50}


@pytest.fixture
def server() -> Iterator[Server]:
    """A server with two files, a dump and its checksum list."""
    payloads = dict(FILES)
    payloads["/sums.txt"] = f"{hashlib.sha1(FILES['/dump.bz2']).hexdigest()}  dump.bz2\n".encode()
    with serve(ServerState(payloads=payloads)) as running:
        yield running


@pytest.fixture
def config(server: Server) -> dict:
    """The default config with three URL sources: one named by equate, a dump and its list."""
    config = copy.deepcopy(load_yaml(CHECKOUT / "config/config.yaml"))
    config["sources"].update({
        "one": {"url": server.url("/one.tsv")},
        "two": {"url": server.url("/two.tsv")},
        "sums": {"url": server.url("/sums.txt")},
        "dump": {"url": server.url("/dump.bz2"), "sha1sums": "sums"},
    })
    config["equate"]["inputs"]["jobs"] = {"source": "one"}
    fill_defaults(config)
    config["download"].update(retries=0, backoff=0)
    return config


@pytest.fixture(autouse=True)
def no_proxy(monkeypatch: pytest.MonkeyPatch) -> None:
    """Loopback requests never go through a proxy from the environment."""
    monkeypatch.setenv("NO_PROXY", "127.0.0.1")
    monkeypatch.delenv("http_proxy", raising=False)
    monkeypatch.delenv("HTTP_PROXY", raising=False)


def test_fill_mirror_only_a_section_fetches_its_sources(tmp_path, config):
    lock = tmp_path / "c.lock.yaml"
    files = fill_mirror(config, lock, tmp_path / "mirror", ["equate"], progress=False)
    assert tmp_path / "mirror/one/one.tsv" in files
    assert not (tmp_path / "mirror/two").exists()
    assert set(read_lock(lock)) == {"one"}


def test_fill_mirror_checks_a_dump_against_its_list(tmp_path, config):
    files = fill_mirror(config, tmp_path / "c.lock.yaml", tmp_path / "mirror", [],
                        progress=False)
    assert tmp_path / "mirror/dump/dump.bz2" in files
    # Local files join the mirror too, verified against their pins.
    excerpt = tmp_path / "mirror/enwiki_excerpt" / Path(
        config["sources"]["enwiki_excerpt"]["path"]).name
    assert excerpt in files and excerpt.stat().st_size == config["sources"]["enwiki_excerpt"][
        "size"]
    assert set(read_lock(tmp_path / "c.lock.yaml")) == {"one", "two", "sums", "dump"}


def test_an_unknown_section_is_named(config):
    with pytest.raises(ConfigError, match="--only nope"):
        selected_sources(config, ["nope"])


def test_lock_then_verify_fetched_files(tmp_path, config):
    raw = tmp_path / "data/raw"
    (raw / "one").mkdir(parents=True)
    (raw / "one/one.tsv").write_bytes(FILES["/one.tsv"])
    lock = tmp_path / "c.lock.yaml"
    assert lock_fetched(config, lock, tmp_path) == ["one"]
    verdicts = {check.source: check for check in verify_fetched(config, lock, tmp_path)}
    assert (verdicts["one"].origin, verdicts["one"].verdict) == ("lock", "ok")
    assert verdicts["two"].verdict == "not fetched"
    (raw / "one/one.tsv").write_bytes(b"changed")
    verdicts = {check.source: check for check in verify_fetched(config, lock, tmp_path)}
    assert verdicts["one"].verdict.startswith("MISMATCH")
    with pytest.raises(SourceError, match="the lock .* says"):
        lock_fetched(config, lock, tmp_path)


def test_offline_lists_every_missing_url_source_at_once(tmp_path, config):
    from reprobe.config import expand_sources

    mirror = tmp_path / "mirror"
    mirror.mkdir()
    (mirror / "two.tsv").write_bytes(FILES["/two.tsv"])
    missing = missing_offline(expand_sources(config), mirror, tmp_path)
    assert [line.split(":")[0] for line in missing] == ["one", "sums", "dump"]
    report = offline_report(missing, mirror)
    assert "offline: 3 sources" in report and "reprobe sources fetch" in report


def test_a_checksum_list_must_name_a_source(config):
    from reprobe.config import check_config

    config["sources"]["dump"]["sha1sums"] = "nowhere"
    with pytest.raises(ConfigError, match=r"sources\.dump\.sha1sums: no single source"):
        check_config(config)

