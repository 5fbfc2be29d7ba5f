"""What a rule reads, as the stages' targets name it (the ground floor's `reprobe.reads`)."""

from __future__ import annotations

from reprobe.reads import Read, inside, slug


def test_a_member_is_read_inside_its_extracted_folder():
    assert inside("data/raw/wn/extracted", "dict/index.noun") == \
        "data/raw/wn/extracted/dict/index.noun"
    assert inside("data/raw/jobs/jobs.txt", None) == "data/raw/jobs/jobs.txt"
    read = Read("data/raw/wn/extracted", inside("data/raw/wn/extracted", "dict"))
    assert read.target != read.path


def test_a_row_name_becomes_a_file_name():
    assert slug("GPT-2 (MNLI)") == "GPT-2-MNLI"
    assert slug("Ft. RoBERTa-L.") == "Ft.-RoBERTa-L."
    assert slug("Q-REAS") == "Q-REAS"
