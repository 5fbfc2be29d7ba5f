"""No network: telling a name-resolution failure from a dropped link, and what to do instead.

A host name that does not resolve will not resolve a minute later on a machine without
internet, so it is retried once at most, and the error says how to run from a mirror or offline.
"""

from __future__ import annotations

import concurrent.futures
import os
import socket
from urllib.parse import urlparse

HUB_HOST = "huggingface.co"
# Words of resolver errors that reach us only as text (urllib3 before NameResolutionError).
_RESOLVER_WORDS = ("name or service not known", "nodename nor servname", "temporary failure in "
                   "name resolution", "failed to resolve", "no address associated")

OFFLINE_HINT = ("no network here (a host name does not resolve): use a mirror "
                "(download.mirror or REPROBE_MIRROR, filled with `reprobe sources fetch "
                "--configfile F --to DIR` where there is internet) or offline mode "
                "(download.offline or REPROBE_OFFLINE=1)")
HUB_HINT = ("no network here ({host} does not resolve): copy the model to a folder and name the "
            "folder, or fill the Hugging Face cache where there is internet and set "
            "HF_HUB_OFFLINE=1; for the workflow's sources use a mirror (download.mirror or "
            "REPROBE_MIRROR, `reprobe sources fetch --configfile F --to DIR`) or offline mode "
            "(download.offline or REPROBE_OFFLINE=1)")


def _causes(error: BaseException) -> list[BaseException]:
    """The error and everything it wraps: causes, contexts, `reason`s and exception args."""
    seen: list[BaseException] = []
    stack = [error]
    while stack:
        current = stack.pop()
        if any(current is known for known in seen):
            continue
        seen.append(current)
        linked = [current.__cause__, current.__context__, getattr(current, "reason", None),
                  *current.args]
        stack.extend(item for item in linked if isinstance(item, BaseException))
    return seen


def is_name_resolution(error: BaseException) -> bool:
    """Whether a failure is a host name that does not resolve (socket.gaierror, urllib's
    URLError around one, requests' ConnectionError around urllib3's NameResolutionError)."""
    for cause in _causes(error):
        if isinstance(cause, socket.gaierror) or type(cause).__name__ == "NameResolutionError":
            return True
        if any(word in str(cause).lower() for word in _RESOLVER_WORDS):
            return True
    return False


def resolves(host: str, timeout: float = 3.0) -> bool:
    """Whether `host` resolves within `timeout` seconds (a hung resolver counts as no)."""
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=1)
    try:
        pool.submit(socket.getaddrinfo, host, 443).result(timeout=timeout)
    except (OSError, concurrent.futures.TimeoutError, UnicodeError):
        return False
    finally:
        pool.shutdown(wait=False)
    return True


def hub_host() -> str:
    """The host the Hugging Face hub is reached at (HF_ENDPOINT, else huggingface.co)."""
    endpoint = os.environ.get("HF_ENDPOINT", "").strip()
    return (urlparse(endpoint).hostname or HUB_HOST) if endpoint else HUB_HOST
