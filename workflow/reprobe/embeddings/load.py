"""Load pretrained word vectors in the released formats, and cache them for memory mapping.

Only gensim's own KeyedVectors files (`kv`, and the `.kv` cache written here) are memory-mapped:
their arrays stored as separate `.npy` files are opened read-only with `mmap="r"`. The text
formats and the word2vec and fastText binaries are read whole into memory by gensim.
"""

from __future__ import annotations

import hashlib
import itertools
import pickle
import re
import struct
from pathlib import Path

import numpy as np
from gensim import utils as gensim_utils
from gensim.models import KeyedVectors
from gensim.models.fasttext import load_facebook_vectors

from reprobe.errors import InputFormatError
from reprobe.io import atomic_path
from reprobe.text import require_readable

FORMATS = ("auto", "glove_txt", "word2vec_txt", "word2vec_bin", "fasttext_vec", "fasttext_bin",
           "kv")
TEXT_FORMATS = ("glove_txt", "word2vec_txt", "fasttext_vec")

# fastText's binary files (since 0.9) open with this int32; older ones open with the dimension.
FASTTEXT_MAGIC = 793712314
_HEADER = re.compile(rb"\s*(\d+) (\d+)\s*")
_COMPRESSED = (".gz", ".bz2", ".xz", ".zst")
# Lines whose numbers are parsed before gensim reads the file (the rest only have their fields
# counted): enough to catch a wrong format early, cheap on a 5 GB file.
PREVALIDATE_LINES = 100
# Bytes a text vectors file is made of after its words: a binary format's floats are not.
_TEXT_BYTES = frozenset(b"0123456789.-+eE \t\r\n")
# gensim's saved objects are pickles: protocol 2 and later open with this byte.
_PICKLE = b"\x80"
# Rows checked for NaN at a time: a memory-mapped matrix is not copied whole.
_FINITE_BLOCK = 1 << 16


def _plain_suffix(path: Path) -> str:
    """The suffix that names the format, looking through a compression suffix."""
    suffixes = [s.lower() for s in path.suffixes]
    while suffixes and suffixes[-1] in _COMPRESSED:
        suffixes.pop()
    return suffixes[-1] if suffixes else ""


def _head_lines(path: Path, count: int) -> list[bytes]:
    """The first `count` lines of a (possibly compressed) file, as bytes."""
    with gensim_utils.open(str(path), "rb") as handle:
        return list(itertools.islice(handle, count))


def _is_header(first: bytes, second: bytes | None) -> bool:
    """Whether `first` is a word2vec "N D" header: two integers, the next line not a 1-d
    vector unless D is 1."""
    match = _HEADER.fullmatch(first)
    if match is None:
        return False
    # A GloVe file of 1-d vectors whose first word is a number looks the same: check the next
    # line. Any other length is a header whose rows do not match it, which the scan then names.
    return second is None or int(match.group(2)) == 1 or len(second.rstrip().split(b" ")) != 2


def detect_format(path: Path) -> str:
    """Decide a vector file's format from its suffix and its first bytes."""
    path = Path(path)
    suffix = _plain_suffix(path)
    if suffix == ".kv":
        return "kv"
    if suffix == ".bin":
        with gensim_utils.open(str(path), "rb") as handle:
            first = handle.readline(64)
        if len(first) >= 4 and struct.unpack("<i", first[:4])[0] == FASTTEXT_MAGIC:
            return "fasttext_bin"
        # word2vec's C tool writes an ASCII "N D" header line; old fastText files begin binary.
        return "word2vec_bin" if _HEADER.fullmatch(first) else "fasttext_bin"
    lines = _head_lines(path, 2)
    if not lines:
        raise InputFormatError(path, "line 1", "empty file: no vectors")
    if lines[0].startswith(_PICKLE):
        return "kv"
    if _is_header(lines[0], lines[1] if len(lines) > 1 else None):
        return "fasttext_vec" if suffix == ".vec" else "word2vec_txt"
    return "glove_txt"


def _check_text_line(path: Path, line_no: int, line: bytes, dim: int | None) -> int:
    """Check one "word f1 … fD" line; return D. Splits as gensim does (single spaces)."""
    fields = line.rstrip().split(b" ")
    where = f"line {line_no}"
    if len(fields) < 2 or not fields[0]:
        raise InputFormatError(path, where, "expected a word followed by its vector components")
    if dim is not None and len(fields) - 1 != dim:
        raise InputFormatError(path, where, f"expected {dim} numbers after the word, found "
                                            f"{len(fields) - 1}")
    try:
        [float(x) for x in fields[1:]]
    except ValueError:
        bad = next(x for x in fields[1:] if not _is_float(x))
        raise InputFormatError(path, where, f"not a number: {bad[:40]!r}") from None
    return len(fields) - 1


def _is_float(text: bytes) -> bool:
    """Whether bytes parse as a float."""
    try:
        float(text)
    except ValueError:
        return False
    return True


def _scan_text(path: Path, has_header: bool, parse_lines: int | None) -> None:
    """Count each line's fields, parse the first `parse_lines` (None: all); raise on a bad line."""
    # gensim broadcasts a line with a single number over the whole vector: it never complains.
    with gensim_utils.open(str(path), "rb") as handle:
        dim = None
        declared = None
        start = 1
        if has_header:
            header = handle.readline()
            match = _HEADER.fullmatch(header)
            if match is None:
                raise InputFormatError(path, "line 1", f"expected a header 'COUNT DIM', found "
                                                       f"{header[:60]!r}")
            declared, dim = int(match.group(1)), int(match.group(2))
            start = 2
        seen = 0
        for line_no, line in enumerate(handle, start=start):
            # Counting spaces runs in C: the whole-file check costs little beside gensim's parse.
            if parse_lines is None or seen < parse_lines or line.rstrip().count(b" ") != dim:
                dim = _check_text_line(path, line_no, line, dim)
            seen += 1
        if dim is None:
            raise InputFormatError(path, f"line {start}", "no vectors in the file")
        if declared is not None and seen != declared:
            raise InputFormatError(path, f"line {start + seen}", f"the header declares {declared} "
                                                                 f"vectors, the file has {seen}")


def _translate(path: Path, fmt: str, error: Exception) -> InputFormatError:
    """Turn gensim's error into one that names the line, scanning the file only on this path."""
    if fmt in TEXT_FORMATS:
        try:
            _scan_text(path, fmt != "glove_txt", None)
        except InputFormatError as located:
            return located
    if fmt == "word2vec_bin" and isinstance(error, EOFError):
        return InputFormatError(path, "end of file", "truncated: fewer vectors than the header "
                                                     "declares")
    return InputFormatError(path, "file", f"cannot be read as {fmt}: "
                                          f"{type(error).__name__}: {error}")


def _first_non_finite(vectors: np.ndarray) -> int | None:
    """The first row with a NaN or infinite component, None when every row is finite."""
    for start in range(0, len(vectors), _FINITE_BLOCK):
        finite = np.isfinite(vectors[start:start + _FINITE_BLOCK]).all(axis=1)
        if not finite.all():
            return start + int(np.argmin(finite))
    return None


def _check_finite_rows(path: Path, kv: KeyedVectors, fmt: str) -> None:
    """Reject NaN or infinite components, naming the first such word (and line, for text)."""
    row = _first_non_finite(kv.vectors)
    if row is None:
        return
    word = kv.index_to_key[row]
    where = f"line {row + (1 if fmt == 'glove_txt' else 2)}" if fmt in TEXT_FORMATS else \
        f"vector {row + 1}"
    raise InputFormatError(path, where, f"vector of {word!r} is not finite (NaN or inf)")


def _is_text(data: bytes) -> bool:
    """Whether bytes look like a text file's (no NUL, no control byte but tab and newline)."""
    return bool(data) and not any(byte < 9 or 13 < byte < 32 for byte in data)


def _check_binary(path: Path, fmt: str) -> None:
    """Refuse a text file named as a binary format: gensim would read its digits as floats."""
    with gensim_utils.open(str(path), "rb") as handle:
        first = handle.readline(64)
        if first.startswith(_PICKLE):
            raise InputFormatError(path, "file", f"a saved gensim object (format kv), not {fmt}")
        if fmt == "fasttext_bin":
            if _is_text(first + handle.read(64)):
                raise InputFormatError(path, "line 1", "text, not a fastText binary model "
                                                       "(fasttext_vec or word2vec_txt?)")
            if _HEADER.fullmatch(first):
                raise InputFormatError(path, "line 1", "a word2vec header 'COUNT DIM', not a "
                                                       "fastText binary model (word2vec_bin?)")
            return
        match = _HEADER.fullmatch(first)
        if match is None:
            raise InputFormatError(path, "line 1", f"expected a header 'COUNT DIM', found "
                                                   f"{first[:60]!r}")
        # The first word ends at its space; the bytes of its vector's floats follow.
        size = 4 * min(int(match.group(2)), 64)
        _, _, vector = handle.read(1024 + size).partition(b" ")
    if vector and set(vector[:size]) <= _TEXT_BYTES:
        raise InputFormatError(path, "line 2", "text numbers where word2vec_bin has binary "
                                               "floats (word2vec_txt or fasttext_vec?)")


def _load_keyed(path: Path) -> KeyedVectors:
    """gensim KeyedVectors saved with `.save()` (or a model's `.wv`), arrays memory-mapped."""
    try:
        loaded = KeyedVectors.load(str(path), mmap="r")
    except FileNotFoundError as error:
        raise InputFormatError(path, "arrays", f"a companion .npy file is missing: "
                                               f"{error.filename}") from error
    except (pickle.UnpicklingError, EOFError, AttributeError, ImportError, TypeError,
            ValueError, IndexError, KeyError, UnicodeDecodeError) as error:
        raise InputFormatError(path, "file", f"cannot be read as kv (gensim KeyedVectors): "
                                             f"{type(error).__name__}: {error}") from error
    kv = loaded if isinstance(loaded, KeyedVectors) else getattr(loaded, "wv", None)
    if not isinstance(kv, KeyedVectors):
        raise InputFormatError(path, "file", f"holds a {type(loaded).__name__}, not gensim "
                                             "KeyedVectors")
    rows, dim = kv.vectors.shape if kv.vectors.ndim == 2 else (len(kv.vectors), -1)
    if dim != kv.vector_size or rows != len(kv.index_to_key):
        raise InputFormatError(path, "arrays", f"{len(kv.index_to_key)} words of dimension "
                                               f"{kv.vector_size}, but vectors of shape "
                                               f"{kv.vectors.shape}")
    return kv


def load_vectors(path: Path, fmt: str = "auto") -> KeyedVectors:
    """Load word vectors from GloVe, word2vec or fastText files, or gensim's own KeyedVectors
    (memory-mapped), `fmt` in FORMATS."""
    path = Path(path)
    if fmt not in FORMATS:
        raise ValueError(f"unknown vector format {fmt!r}; expected one of {', '.join(FORMATS)}")
    require_readable(path)  # an error saying why: no such file, permission denied, a folder
    if fmt == "auto":
        fmt = detect_format(path)
    if fmt == "kv":
        kv = _load_keyed(path)
        _check_finite_rows(path, kv, fmt)
        return kv
    if fmt in TEXT_FORMATS:
        _scan_text(path, fmt != "glove_txt", PREVALIDATE_LINES)
    else:
        _check_binary(path, fmt)
    # Released vector files hold the odd word that is not valid UTF-8 (gensim's own
    # pang_lee_polarity_fasttext.vec does): such a word gets U+FFFD rather than failing the load.
    text = {"unicode_errors": "replace"}
    try:
        if fmt == "glove_txt":
            kv = KeyedVectors.load_word2vec_format(str(path), binary=False, no_header=True,
                                                   **text)
        elif fmt in ("word2vec_txt", "fasttext_vec"):
            kv = KeyedVectors.load_word2vec_format(str(path), binary=False, **text)
        elif fmt == "word2vec_bin":
            kv = KeyedVectors.load_word2vec_format(str(path), binary=True, **text)
        else:
            kv = load_facebook_vectors(str(path))
    except (ValueError, EOFError, UnicodeDecodeError, struct.error, NotImplementedError,
            AssertionError, IndexError, OSError, OverflowError) as error:
        # gensim's messages name neither the line nor, for short lines, the problem.
        raise _translate(path, fmt, error) from error
    _check_finite_rows(path, kv, fmt)
    return kv


def _cache_key(path: Path, fmt: str) -> str:
    """A short key that changes when the source file changes (path, size, mtime, format)."""
    stat = path.stat()
    text = f"{path.resolve()}\0{stat.st_size}\0{stat.st_mtime_ns}\0{fmt}"
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def cache_native(path: Path, fmt: str = "auto", cache_dir: Path | None = None) -> Path:
    """Convert a vector file once to gensim's native `.kv` (+ `.npy`) for memory-mapped loads."""
    path = Path(path)
    cache_dir = Path(cache_dir) if cache_dir is not None else path.parent
    if fmt == "auto":
        fmt = detect_format(path)
    name = path.name
    for suffix in _COMPRESSED:
        name = name.removesuffix(suffix)
    kv_path = cache_dir / f"{Path(name).stem}.{_cache_key(path, fmt)}.kv"
    if kv_path.is_file():
        return kv_path
    return save_native(load_vectors(path, fmt), kv_path)


def save_native(kv: KeyedVectors, kv_path: Path) -> Path:
    """Write vectors in gensim's native format: `kv_path` plus one `.npy` per array."""
    kv_path = Path(kv_path)
    # gensim pickles a log of events with their date, host and the temporary file's name: off,
    # so that the same vectors give the same bytes on every run.
    kv.lifecycle_events = None
    with atomic_path(kv_path) as temporary:
        # sep_limit=0 stores every array as its own .npy, so every array can be memory-mapped.
        kv.save(str(temporary), sep_limit=0)
        # gensim finds the arrays by the .kv's own name: rename them before the .kv appears.
        for array in temporary.parent.glob(f"{temporary.name}.*.npy"):
            array.replace(kv_path.parent / (kv_path.name + array.name[len(temporary.name):]))
    return kv_path


def load_native(kv_path: Path) -> KeyedVectors:
    """Load a `.kv` written by `cache_native`, its arrays memory-mapped read-only."""
    kv_path = Path(kv_path)
    require_readable(kv_path)
    try:
        return KeyedVectors.load(str(kv_path), mmap="r")
    except FileNotFoundError as error:
        raise InputFormatError(kv_path, "arrays", f"a companion .npy file is missing: "
                                                  f"{error.filename}") from error


def plain_vectors(kv: KeyedVectors) -> KeyedVectors:
    """The vocabulary's word vectors alone (a fastText model's n-gram tables dropped)."""
    if type(kv) is KeyedVectors:
        return kv
    # Probes look words up by name: the vectors fastText composes for its vocabulary are what
    # a released .vec file would hold.
    plain = KeyedVectors(kv.vector_size, dtype=kv.vectors.dtype)
    plain.add_vectors(list(kv.index_to_key), kv.vectors)
    return plain
