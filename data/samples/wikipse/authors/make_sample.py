"""Write `wikipse_data_sample.zip`: a stand-in for the WIKI-PSE authors' bundle (data.zip).

The real bundle holds, at its root, `corpus.txt` (the corpus the authors trained word
embeddings on, `@apple@` tokens) and `word_sclass/corpus.txt` (the word/S-class corpus,
`@apple@-organization` tokens), and their trained embeddings. This sample has the same layout,
built from the corpora reprobe's default run writes from the Wikipedia excerpt in gensim's test
data (every other line, so that it is smaller and not the rebuild itself), and two embeddings
trained on it by reprobe's SSKIP (16 dimensions, word2vec text): `embeddings/sskip-word-16.txt`
and `word_sclass/embeddings/sskip-16.txt`. The zip is byte-reproducible (fixed member times,
sorted members).

    snakemake --cores all data/processed/wikipse/corpus/word.txt   # the default run's corpora
    python data/samples/wikipse/authors/make_sample.py
"""

from __future__ import annotations

import tempfile
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
CORPORA = Path("data/processed/wikipse/corpus")
MEMBERS = {"word.txt": "corpus.txt", "sclass.txt": "word_sclass/corpus.txt"}
VECTORS = {"corpus.txt": "embeddings/sskip-word-16.txt",
           "word_sclass/corpus.txt": "word_sclass/embeddings/sskip-16.txt"}
FIXED_TIME = (2019, 6, 1, 0, 0, 0)


def every_other_line(path: Path) -> str:
    """The even-numbered lines of a corpus."""
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    return "".join(lines[::2])


def trained(corpus: Path, work: Path) -> str:
    """SSKIP vectors of a corpus in word2vec text format (16 dimensions, seeded, one thread)."""
    from reprobe.wikipse.embedding.sskip import SSkipConfig, train_sskip

    vectors = train_sskip(corpus, SSkipConfig(dim=16, min_count=3, epochs=5, seed=0))
    out = work / "vectors.txt"
    vectors.save_word2vec_format(str(out), binary=False)
    return out.read_text(encoding="utf-8")


def main() -> None:
    """Build the zip beside this script."""
    files = {member: every_other_line(CORPORA / name) for name, member in MEMBERS.items()}
    with tempfile.TemporaryDirectory() as tmp:
        for member, text in list(files.items()):
            corpus = Path(tmp) / "corpus.txt"
            corpus.write_text(text, encoding="utf-8")
            files[VECTORS[member]] = trained(corpus, Path(tmp))
    with zipfile.ZipFile(HERE / "wikipse_data_sample.zip", "w") as bundle:
        for member in sorted(files):
            info = zipfile.ZipInfo(member, FIXED_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            bundle.writestr(info, files[member])


if __name__ == "__main__":
    main()
