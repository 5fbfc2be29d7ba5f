"""Pack the readable sample folders into the archive formats of the real sources.

The default run reads `cnn_stories.tgz` (laid out as the DeepMind archive: cnn/stories/*.story)
and `wordnet.zip` (laid out as NLTK's package: wordnet/<database files>), so it unpacks them
exactly as the paper configuration does. Edit the folders, then run `python pack.py` here; the
archives are byte-for-byte reproducible (fixed times, owners and order), and
tests/test_samples.py fails when they no longer match the folders.
"""

import gzip
import io
import tarfile
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
EPOCH = (1980, 1, 1, 0, 0, 0)  # the earliest time a zip entry can hold


def pack_tgz(folder: Path, archive: Path, prefix: str) -> None:
    """Write folder's files under prefix/ into a gzip tar with fixed metadata."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w", format=tarfile.USTAR_FORMAT) as tar:
        for path in sorted(p for p in folder.iterdir() if p.is_file()):
            data = path.read_bytes()
            info = tarfile.TarInfo(f"{prefix}/{path.name}")
            info.size, info.mtime, info.mode = len(data), 0, 0o644
            tar.addfile(info, io.BytesIO(data))
    with archive.open("wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0,
                                                  filename="") as gz:
        gz.write(buffer.getvalue())


def pack_zip(folder: Path, archive: Path, prefix: str) -> None:
    """Write folder's files under prefix/ into a zip with fixed metadata."""
    with zipfile.ZipFile(archive, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for path in sorted(p for p in folder.iterdir() if p.is_file()):
            zf.writestr(zipfile.ZipInfo(f"{prefix}/{path.name}", EPOCH), path.read_bytes(),
                        compress_type=zipfile.ZIP_DEFLATED)


if __name__ == "__main__":
    pack_tgz(HERE / "cnn_stories", HERE / "cnn_stories.tgz", "cnn/stories")
    pack_zip(HERE / "wordnet", HERE / "wordnet.zip", "wordnet")
