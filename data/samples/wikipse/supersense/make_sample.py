"""Rebuild the supersense sample's archive and embeddings from the article folder.

`supertextwiki.tar.xz` packs `supertextwiki/` as UKP's archive is laid out (a folder of
subfolders, one file per article), with fixed times, owners and order, so the bytes are the
same on every run. `supersense-embeddings.txt` is word2vec text (`COUNT DIM` header) with a
10-dimensional vector for every annotated word of the sample, in UKP's vocabulary spelling
(ASCII-lowercased, punctuation deleted), for a few untagged words, and for the supersense
tokens (`nounperson`). A word's vector is the mean of one seeded random direction per noun
supersense it is annotated with, moved along one more seeded direction for each supersense
beyond the first, plus noise, and scaled with its log frequency: ambiguity is learnable from
the vectors, though not perfectly (26 directions crowd 10 dimensions, and the noise is large).
Edit the folder (a gzipped article: `gunzip -c`, edit, `gzip -n -9`), then run
`python make_sample.py` here.
"""

import io
import lzma
import math
import tarfile
from pathlib import Path

import numpy as np

from reprobe.wikipse.tasks.supersense import NOUN_SUPERSENSES, count_corpus, ukp_spelling

HERE = Path(__file__).resolve().parent
FOLDER = "supertextwiki"
DIM = 10
SEED = 2016
NOISE = 0.3
AMBIGUITY = 0.5  # the move along the ambiguity direction per extra supersense
UNTAGGED = ("the", "and", "of", "in", "a")
OTHER_SENSES = ("verb.motion", "verb.communication", "adj.all")


def pack_tar_xz(root: Path, archive: Path) -> None:
    """Write root's folder into an xz tar with fixed metadata and sorted members."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w", format=tarfile.USTAR_FORMAT) as tar:
        folder = root / FOLDER
        for path in [folder, *sorted(folder.rglob("*"))]:
            info = tarfile.TarInfo(path.relative_to(root).as_posix())
            info.mtime, info.uid, info.gid, info.uname, info.gname = 0, 0, 0, "", ""
            if path.is_dir():
                info.type, info.mode = tarfile.DIRTYPE, 0o755
                tar.addfile(info)
            else:
                data = path.read_bytes()
                info.size, info.mode = len(data), 0o644
                tar.addfile(info, io.BytesIO(data))
    archive.write_bytes(lzma.compress(buffer.getvalue(), format=lzma.FORMAT_XZ, preset=9))


def write_embeddings(root: Path, out: Path) -> None:
    """Write the sample's word2vec text vectors, seeded."""
    rng = np.random.default_rng(SEED)
    senses = [*NOUN_SUPERSENSES, *OTHER_SENSES]
    unit = rng.standard_normal((len(senses) + 1, DIM))
    unit /= np.linalg.norm(unit, axis=1, keepdims=True)
    direction, ambiguity = dict(zip(senses, unit[:-1], strict=True)), unit[-1]
    pairs = count_corpus(root / FOLDER).pairs
    words: dict[str, dict[str, int]] = {}
    for (word, sense), n in sorted(pairs.items()):
        words.setdefault(word, {})[sense] = n
    rows: list[tuple[str, np.ndarray]] = []
    for word in sorted(words):
        mean = np.mean([direction[s] for s in sorted(words[word])], axis=0)
        mean += AMBIGUITY * (len(words[word]) - 1) * ambiguity
        scale = 1 + 0.25 * math.log(sum(words[word].values()))
        rows.append((word, scale * (mean + NOISE * rng.standard_normal(DIM))))
    rows += [(word, 0.3 * rng.standard_normal(DIM)) for word in UNTAGGED]
    rows += [(ukp_spelling(s), direction[s]) for s in senses]
    lines = [f"{len(rows)} {DIM}"] + [word + " " + " ".join(f"{x:.6f}" for x in vector)
                                      for word, vector in rows]
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    pack_tar_xz(HERE, HERE / "supertextwiki.tar.xz")
    write_embeddings(HERE, HERE / "supersense-embeddings.txt")
