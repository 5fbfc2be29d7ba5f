"""Tests for reprobe.sources.materialise: the lock, the mirror, offline, the checksum list."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml

from loopback import Server, ServerState, serve
from reprobe.errors import SourceError
from reprobe.sources import fetch
from reprobe.sources.lock import read_lock
from reprobe.sources.materialise import listed_sha1, materialise_url
from reprobe.sources.settings import FetchSettings

BYTES = b"released file, version 1\n" * 500
CHANGED = b"released file, version 2\n" * 500
SHA = hashlib.sha256(BYTES).hexdigest()


@pytest.fixture
def server() -> Iterator[Server]:
    """A server with one good file and one whose first transfer is cut."""
    state = ServerState(payloads={"/a.tsv": BYTES, "/cut.tsv": BYTES},
                        cut_first={"/cut.tsv": 1000})
    with serve(state) as running:
        yield running


@pytest.fixture(autouse=True)
def no_waiting(monkeypatch: pytest.MonkeyPatch) -> None:
    """Retries without sleeping."""
    monkeypatch.setattr(fetch, "_sleep", lambda seconds: None)


def settings(tmp_path: Path, *, mirror: Path | None = None, offline: bool = False,
             lock: bool = True) -> FetchSettings:
    """Fetch settings with a lock in tmp_path."""
    return FetchSettings(retries=2, backoff=0, timeout=5,
                         lock=tmp_path / "config.lock.yaml" if lock else None,
                         mirror=mirror, offline=offline, progress=False)


def test_first_fetch_records_the_lock_and_later_fetches_check_it(tmp_path, server, session):
    dest = tmp_path / "raw/a/a.tsv"
    materialise_url("a", server.url("/a.tsv"), dest, sha256=None, size=None,
                    settings=settings(tmp_path), session=session)
    entry = read_lock(tmp_path / "config.lock.yaml")["a"]
    assert (entry["sha256"], entry["size"], entry["url"]) == (SHA, len(BYTES),
                                                             server.url("/a.tsv"))
    # The server now serves other bytes: a fresh machine's fetch stops, naming both hashes.
    server.state.payloads["/a.tsv"] = CHANGED
    other = tmp_path / "elsewhere/a.tsv"
    with pytest.raises(SourceError) as error:
        materialise_url("a", server.url("/a.tsv"), other, sha256=None, size=None,
                        settings=settings(tmp_path), session=session)
    message = str(error.value)
    assert "a:" in message and server.url("/a.tsv") in message and SHA in message
    assert hashlib.sha256(CHANGED).hexdigest() in message and "lock" in message
    assert not other.exists() and not (tmp_path / "elsewhere/a.tsv.part").exists()
    assert read_lock(tmp_path / "config.lock.yaml")["a"]["sha256"] == SHA


def test_a_config_pin_wins_and_nothing_is_locked(tmp_path, server, session):
    dest = tmp_path / "a.tsv"
    materialise_url("a", server.url("/a.tsv"), dest, sha256=SHA.upper(), size=len(BYTES),
                    settings=settings(tmp_path), session=session)
    assert dest.read_bytes() == BYTES
    assert not (tmp_path / "config.lock.yaml").exists()


def test_a_cut_transfer_resumes_and_is_locked_once(tmp_path, server, session):
    dest = tmp_path / "cut.tsv"
    materialise_url("cut", server.url("/cut.tsv"), dest, sha256=None, size=None,
                    settings=settings(tmp_path), session=session)
    assert dest.read_bytes() == BYTES
    assert server.state.ranges("/cut.tsv") == [None, "bytes=1000-"]
    assert read_lock(tmp_path / "config.lock.yaml")["cut"]["sha256"] == SHA


def test_a_mirror_file_is_used_before_the_url(tmp_path, server, session):
    mirror = tmp_path / "mirror"
    (mirror / "a").mkdir(parents=True)
    (mirror / "a/a.tsv").write_bytes(BYTES)
    dest = tmp_path / "raw/a.tsv"
    materialise_url("a", server.url("/a.tsv"), dest, sha256=SHA, size=None,
                    settings=settings(tmp_path, mirror=mirror, offline=True), session=session)
    assert dest.read_bytes() == BYTES and server.state.seen == []


def test_a_flat_mirror_is_searched_by_file_name(tmp_path, server, session):
    mirror = tmp_path / "mirror"
    mirror.mkdir()
    (mirror / "a.tsv").write_bytes(BYTES)
    dest = tmp_path / "raw/a.tsv"
    materialise_url("a", server.url("/a.tsv"), dest, sha256=None, size=None,
                    settings=settings(tmp_path, mirror=mirror), session=session)
    assert server.state.seen == []
    assert read_lock(tmp_path / "config.lock.yaml")["a"]["sha256"] == SHA


def test_a_mirror_file_with_the_wrong_hash_stops_and_is_not_copied(tmp_path, server, session):
    mirror = tmp_path / "mirror"
    mirror.mkdir()
    (mirror / "a.tsv").write_bytes(CHANGED)
    dest = tmp_path / "raw/a.tsv"
    with pytest.raises(SourceError, match=r"mirror file .*a\.tsv.*sha256 mismatch.*config says"):
        materialise_url("a", server.url("/a.tsv"), dest, sha256=SHA, size=None,
                        settings=settings(tmp_path, mirror=mirror), session=session)
    assert not dest.exists() and server.state.seen == []


def test_offline_without_the_file_names_where_it_looked(tmp_path, server, session):
    mirror = tmp_path / "mirror"
    mirror.mkdir()
    with pytest.raises(SourceError, match=r"a: offline, and http://127.*a\.tsv is not here"):
        materialise_url("a", server.url("/a.tsv"), tmp_path / "raw/a.tsv", sha256=None,
                        size=None, settings=settings(tmp_path, mirror=mirror, offline=True),
                        session=session)
    assert server.state.seen == []


def test_a_file_in_data_raw_that_verifies_is_not_fetched_again(tmp_path, server, session):
    dest = tmp_path / "a.tsv"
    dest.write_bytes(BYTES)
    materialise_url("a", server.url("/a.tsv"), dest, sha256=SHA, size=None,
                    settings=settings(tmp_path, offline=True), session=session)
    assert server.state.seen == []


def test_the_checksum_list_is_checked_and_a_wrong_file_kept_out(tmp_path, server, session):
    listing = tmp_path / "sha1sums.txt"
    listing.write_text(f"{hashlib.sha1(BYTES).hexdigest()}  a.tsv\n"
                       f"{'0' * 40}  other.bz2\n")
    dest = tmp_path / "raw/a.tsv"
    materialise_url("a", server.url("/a.tsv"), dest, sha256=None, size=None,
                    settings=settings(tmp_path), sha1_list=listing, session=session)
    assert dest.is_file()
    server.state.payloads["/a.tsv"] = CHANGED
    other = tmp_path / "other/a.tsv"
    with pytest.raises(SourceError, match=r"sha1 mismatch: .*sha1sums\.txt lists"):
        materialise_url("a", server.url("/a.tsv"), other, sha256=None, size=None,
                        settings=settings(tmp_path, lock=False), sha1_list=listing,
                        session=session)
    assert not other.exists() and not (tmp_path / "other/a.tsv.part").exists()


def test_listed_sha1_names_a_file_the_list_lacks(tmp_path):
    listing = tmp_path / "sums.txt"
    listing.write_text(f"{'a' * 40}  one.bz2\n")
    assert listed_sha1(listing, "one.bz2") == "a" * 40
    with pytest.raises(SourceError, match="lists no checksum for two.bz2"):
        listed_sha1(listing, "two.bz2")


def test_the_lock_file_is_readable_yaml_with_a_header(tmp_path, server, session):
    materialise_url("a", server.url("/a.tsv"), tmp_path / "a.tsv", sha256=None, size=None,
                    settings=settings(tmp_path), session=session)
    text = (tmp_path / "config.lock.yaml").read_text()
    assert text.startswith("# reprobe sources lock")
    assert yaml.safe_load(text)["sources"]["a"]["size"] == len(BYTES)
