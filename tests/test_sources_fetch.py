"""Tests for reprobe.sources.fetch against a loopback HTTP server that misbehaves on request."""

from __future__ import annotations

import errno
import hashlib
import logging
import os
import random
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
import requests

from loopback import Server, ServerState, serve
from reprobe.errors import InputFormatError, ReprobeError, SourceError
from reprobe.sources import fetch
from reprobe.sources.fetch import copy_local, fetch_url
from reprobe.text import read_text

PAYLOAD = random.Random(0).randbytes(200_000)
PAYLOAD_SHA = hashlib.sha256(PAYLOAD).hexdigest()
# The transfer settings every call passes (the workflow's come from the config's download).
TRANSFER = {"retries": 5, "backoff": 1.0, "timeout": 60.0}
CUT_AT = 65_536


@pytest.fixture
def server() -> Iterator[Server]:
    """Run the loopback server in a thread; shut it down after the test."""
    state = ServerState(
        payloads={
            path: PAYLOAD
            for path in ("/data.bin", "/cut.bin", "/flaky.bin", "/norange.bin", "/down.bin")
        },
        cut_first={"/cut.bin": CUT_AT},
        fail_first={"/flaky.bin"},
        always_fail={"/down.bin"},
        ignore_range={"/norange.bin"},
    )
    with serve(state) as running:
        yield running


@pytest.fixture
def delays(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """Record the backoff waits instead of sleeping through them."""
    waited: list[float] = []
    monkeypatch.setattr(fetch, "_sleep", waited.append)
    return waited


def test_plain_download_verifies_and_renames(
    server: Server, session: requests.Session, tmp_path: Path
) -> None:
    dest = tmp_path / "sub" / "data.bin"
    out = fetch_url(
        server.url("/data.bin"),
        dest,
        source="plain",
        sha256=PAYLOAD_SHA,
        size=len(PAYLOAD),
        progress=False,
        session=session,
        retries=5, backoff=1.0, timeout=60.0,
    )
    assert out == dest
    assert dest.read_bytes() == PAYLOAD
    assert sorted(p.name for p in dest.parent.iterdir()) == ["data.bin"]


def test_cut_transfer_resumes_with_range_request(
    server: Server,
    session: requests.Session,
    tmp_path: Path,
    delays: list[float],
    caplog: pytest.LogCaptureFixture,
) -> None:
    dest = tmp_path / "cut.bin"
    with caplog.at_level(logging.WARNING, logger="reprobe.sources"):
        fetch_url(server.url("/cut.bin"), dest, source="cut", sha256=PAYLOAD_SHA,
                  session=session, **TRANSFER)
    assert server.state.ranges("/cut.bin") == [None, f"bytes={CUT_AT}-"]
    assert dest.read_bytes() == PAYLOAD
    assert not (tmp_path / "cut.bin.part").exists()
    assert "attempt 1 of 6" in caplog.text
    assert f"{CUT_AT} bytes on disk" in caplog.text


def test_server_ignoring_range_still_yields_the_right_file(
    server: Server, session: requests.Session, tmp_path: Path
) -> None:
    dest = tmp_path / "norange.bin"
    # A stale prefix that does not match the payload: appending to it would corrupt the file.
    (tmp_path / "norange.bin.part").write_bytes(b"x" * 1000)
    fetch_url(
        server.url("/norange.bin"),
        dest,
        source="norange",
        sha256=PAYLOAD_SHA,
        progress=False,
        session=session,
        retries=5, backoff=1.0, timeout=60.0,
    )
    assert server.state.ranges("/norange.bin") == ["bytes=1000-"]
    assert dest.read_bytes() == PAYLOAD


def test_complete_part_answered_416_counts_as_done(
    server: Server, session: requests.Session, tmp_path: Path
) -> None:
    dest = tmp_path / "data.bin"
    (tmp_path / "data.bin.part").write_bytes(PAYLOAD)
    fetch_url(
        server.url("/data.bin"),
        dest,
        source="done",
        sha256=PAYLOAD_SHA,
        size=len(PAYLOAD),
        progress=False,
        session=session,
        retries=5, backoff=1.0, timeout=60.0,
    )
    assert server.state.ranges("/data.bin") == [f"bytes={len(PAYLOAD)}-"]
    assert dest.read_bytes() == PAYLOAD


def test_checksum_mismatch_names_hashes_and_leaves_nothing(
    server: Server, session: requests.Session, tmp_path: Path
) -> None:
    dest = tmp_path / "data.bin"
    wrong = "0" * 64
    with pytest.raises(SourceError) as info:
        fetch_url(
            server.url("/data.bin"),
            dest,
            source="badsum",
            sha256=wrong,
            progress=False,
            session=session,
            retries=5, backoff=1.0, timeout=60.0,
        )
    message = str(info.value)
    assert "badsum" in message and wrong in message and PAYLOAD_SHA in message
    assert not dest.exists()
    assert not (tmp_path / "data.bin.part").exists()


def test_size_mismatch_is_detected(
    server: Server, session: requests.Session, tmp_path: Path
) -> None:
    dest = tmp_path / "data.bin"
    with pytest.raises(SourceError, match=rf"expected {len(PAYLOAD) + 1} bytes.*{len(PAYLOAD)}"):
        fetch_url(
            server.url("/data.bin"),
            dest,
            source="badsize",
            size=len(PAYLOAD) + 1,
            progress=False,
            session=session,
            retries=5, backoff=1.0, timeout=60.0,
        )
    assert not dest.exists()
    assert not (tmp_path / "data.bin.part").exists()


def test_404_fails_at_once_naming_the_status(
    server: Server, session: requests.Session, tmp_path: Path, delays: list[float]
) -> None:
    url = server.url("/missing.bin")
    with pytest.raises(SourceError) as info:
        fetch_url(url, tmp_path / "m.bin", source="gone", progress=False, session=session,
                  **TRANSFER)
    message = str(info.value)
    assert "gone" in message and url in message and "404" in message
    assert len(server.state.ranges("/missing.bin")) == 1
    assert delays == []


def test_server_error_once_is_retried_and_succeeds(
    server: Server, session: requests.Session, tmp_path: Path, delays: list[float]
) -> None:
    dest = tmp_path / "flaky.bin"
    fetch_url(
        server.url("/flaky.bin"),
        dest,
        source="flaky",
        sha256=PAYLOAD_SHA,
        backoff=0.5,
        progress=False,
        session=session,
        retries=5, timeout=60.0,
    )
    assert dest.read_bytes() == PAYLOAD
    assert len(server.state.ranges("/flaky.bin")) == 2
    assert delays == [0.5]


def test_persistent_server_error_gives_up_with_exponential_backoff(
    server: Server, session: requests.Session, tmp_path: Path, delays: list[float]
) -> None:
    with pytest.raises(SourceError, match=r"down: .*HTTP 500.*3 attempts"):
        fetch_url(
            server.url("/down.bin"),
            tmp_path / "down.bin",
            source="down",
            retries=2,
            backoff=1.0,
            progress=False,
            session=session,
            timeout=60.0,
        )
    assert len(server.state.ranges("/down.bin")) == 3
    assert delays == [1.0, 2.0]


def test_existing_verified_dest_makes_no_request(
    server: Server, session: requests.Session, tmp_path: Path
) -> None:
    dest = tmp_path / "data.bin"
    dest.write_bytes(PAYLOAD)
    fetch_url(server.url("/data.bin"), dest, source="cached", sha256=PAYLOAD_SHA,
              session=session, **TRANSFER)
    assert server.state.seen == []


def test_existing_dest_that_fails_verification_is_fetched_again(
    server: Server, session: requests.Session, tmp_path: Path
) -> None:
    dest = tmp_path / "data.bin"
    dest.write_bytes(b"stale")
    fetch_url(
        server.url("/data.bin"),
        dest,
        source="stale",
        sha256=PAYLOAD_SHA,
        progress=False,
        session=session,
        retries=5, backoff=1.0, timeout=60.0,
    )
    assert dest.read_bytes() == PAYLOAD


@pytest.fixture
def local_file(tmp_path: Path) -> Path:
    """A small local source file."""
    path = tmp_path / "in" / "local.bin"
    path.parent.mkdir()
    path.write_bytes(PAYLOAD)
    return path


def test_copy_local_copies_and_verifies(local_file: Path, tmp_path: Path) -> None:
    dest = tmp_path / "out" / "local.bin"
    out = copy_local(local_file, dest, source="local", sha256=PAYLOAD_SHA, size=len(PAYLOAD))
    assert out == dest
    assert dest.read_bytes() == PAYLOAD
    assert sorted(p.name for p in dest.parent.iterdir()) == [".local.bin.origin", "local.bin"]


def test_copy_local_never_links_so_touching_the_copy_leaves_the_source(
    local_file: Path, tmp_path: Path
) -> None:
    # Snakemake touches finished outputs: a hard link would move the source's mtime too.
    before = local_file.stat().st_mtime_ns
    dest = copy_local(local_file, tmp_path / "out" / "local.bin", source="local")
    assert not dest.samefile(local_file) and local_file.stat().st_nlink == 1
    os.utime(dest, ns=(before + 10**9, before + 10**9))
    assert local_file.stat().st_mtime_ns == before


def test_copy_local_replaces_an_old_hard_link_with_a_copy(local_file: Path,
                                                          tmp_path: Path) -> None:
    # A data/raw/ file hard-linked by an older version is replaced, the source left as it is.
    dest = tmp_path / "out" / "local.bin"
    dest.parent.mkdir()
    os.link(local_file, dest)
    copy_local(local_file, dest, source="local", sha256=PAYLOAD_SHA)
    assert dest.read_bytes() == PAYLOAD and not dest.samefile(local_file)
    assert local_file.read_bytes() == PAYLOAD
    assert sorted(p.name for p in dest.parent.iterdir()) == [".local.bin.origin", "local.bin"]


@pytest.mark.parametrize("failure", [OSError(18, "Invalid cross-device link"), 0])
def test_copy_local_copies_plainly_when_copy_file_range_fails(
    local_file: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, failure: object
) -> None:
    def copy_file_range(*args: object, **kwargs: object) -> int:
        if isinstance(failure, OSError):
            raise failure
        return 0  # some file systems copy nothing and report no error

    monkeypatch.setattr(fetch.os, "copy_file_range", copy_file_range, raising=False)
    dest = tmp_path / "out" / "local.bin"
    copy_local(local_file, dest, source="local", sha256=PAYLOAD_SHA)
    assert dest.read_bytes() == PAYLOAD
    assert not dest.samefile(local_file)
    assert sorted(p.name for p in dest.parent.iterdir()) == [".local.bin.origin", "local.bin"]


def test_copy_local_wrong_sha256_names_the_source(local_file: Path, tmp_path: Path) -> None:
    dest = tmp_path / "out" / "local.bin"
    with pytest.raises(SourceError, match=rf"mylocal: .*expected {'f' * 64}, got {PAYLOAD_SHA}"):
        copy_local(local_file, dest, source="mylocal", sha256="f" * 64)
    assert not dest.exists()


def test_copy_local_missing_path_names_it(tmp_path: Path) -> None:
    missing = tmp_path / "nope.bin"
    with pytest.raises(SourceError, match=rf"mylocal: .*{re.escape(str(missing))}"):
        copy_local(missing, tmp_path / "out.bin", source="mylocal")


def no_space(*args: object, **kwargs: object) -> object:
    """A write on a full disk: the OS names no file."""
    raise OSError(errno.ENOSPC, "No space left on device")


def test_a_full_disk_during_a_download_names_the_output(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fetch, "_download", no_space)
    dest = tmp_path / "raw" / "data.bin"
    with pytest.raises(ReprobeError, match=rf"^{re.escape(str(dest))}: failed while writing it "
                       r"\(No space left on device\)"):
        fetch_url("http://127.0.0.1:9/data.bin", dest, source="src", progress=False, **TRANSFER)


def test_a_full_disk_during_a_local_copy_names_the_output(
        local_file: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fetch, "_copy_file", no_space)
    dest = tmp_path / "out" / "local.bin"
    with pytest.raises(ReprobeError, match=rf"^{re.escape(str(dest))}: failed while writing"):
        copy_local(local_file, dest, source="local")
    assert sorted(p.name for p in dest.parent.iterdir()) == []


def test_an_error_in_a_copied_input_names_the_configured_file(tmp_path: Path) -> None:
    configured = tmp_path / "mine" / "probes.tsv"
    configured.parent.mkdir()
    configured.write_bytes(b"ok\n\xff\n")
    copy = copy_local(configured, tmp_path / "data" / "raw" / "probes" / "probes.tsv",
                      source="probes")
    with pytest.raises(InputFormatError) as caught:
        read_text(copy)
    assert str(caught.value).startswith(f"{copy} (copied from {configured.resolve()}): line 2")


def test_a_download_over_a_copy_forgets_where_the_copy_came_from(
    server: Server, session: requests.Session, tmp_path: Path, local_file: Path
) -> None:
    dest = tmp_path / "out" / "data.bin"
    copy_local(local_file, dest, source="local")
    dest.unlink()
    fetch_url(server.url("/data.bin"), dest, source="url", progress=False, session=session,
              **TRANSFER)
    assert sorted(p.name for p in dest.parent.iterdir()) == ["data.bin"]
