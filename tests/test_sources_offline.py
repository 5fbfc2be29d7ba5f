"""Tests for reprobe.sources.offline: name-resolution failures fail fast and say what to do."""

from __future__ import annotations

import socket
import time
import urllib.error
from pathlib import Path

import pytest
import requests

from reprobe.errors import SourceError
from reprobe.sources import fetch, offline
from reprobe.sources.fetch import fetch_url


def no_resolver(*args: object, **kwargs: object) -> object:
    """A resolver on a machine without network."""
    raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")


@pytest.fixture
def unresolved(monkeypatch: pytest.MonkeyPatch) -> None:
    """No host name resolves."""
    monkeypatch.setattr(socket, "getaddrinfo", no_resolver)


def test_a_gaierror_and_urllibs_wrapper_are_name_resolution() -> None:
    error = socket.gaierror(socket.EAI_NONAME, "Name or service not known")
    assert offline.is_name_resolution(error)
    assert offline.is_name_resolution(urllib.error.URLError(error))
    assert not offline.is_name_resolution(ConnectionResetError("reset by peer"))


def test_requests_connection_error_of_an_unresolved_host_is_name_resolution(
        unresolved: None) -> None:
    with pytest.raises(requests.ConnectionError) as caught:
        requests.get("http://reprobe-test.invalid/x", timeout=5)
    assert offline.is_name_resolution(caught.value)


def test_resolves_is_false_without_a_resolver(unresolved: None) -> None:
    assert not offline.resolves("huggingface.co")


def test_a_hung_resolver_counts_as_unresolved(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(socket, "getaddrinfo", lambda *a, **k: time.sleep(5))
    started = time.monotonic()
    assert not offline.resolves("huggingface.co", timeout=0.2)
    assert time.monotonic() - started < 2


def test_hub_host_follows_hf_endpoint(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HF_ENDPOINT", "https://hub.example.org:8443")
    assert offline.hub_host() == "hub.example.org"
    monkeypatch.delenv("HF_ENDPOINT")
    assert offline.hub_host() == "huggingface.co"


def test_fetch_retries_an_unresolved_host_once_and_names_mirror_and_offline(
        unresolved: None, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    waited: list[float] = []
    monkeypatch.setattr(fetch, "_sleep", waited.append)
    with pytest.raises(SourceError) as caught:
        fetch_url("http://reprobe-test.invalid/data.bin", tmp_path / "data.bin", source="src",
                  retries=8, backoff=5.0, timeout=60.0, progress=False)
    message = str(caught.value)
    assert "gave up after 2 attempts" in message
    for words in ("download.mirror", "REPROBE_MIRROR", "reprobe sources fetch --configfile F "
                  "--to DIR", "download.offline", "REPROBE_OFFLINE=1"):
        assert words in message
    assert waited == [5.0]
