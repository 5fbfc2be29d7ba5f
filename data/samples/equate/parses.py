"""Add CoreNLP-layout annotations to some sample pairs, as the released EQUATE files carry them.

The released jsonl rows hold, per sentence of each side, lowercased `_tokens`, Penn `_pos` tags,
basic dependencies (`_dep_parse`: dicts with dep, governor, governorGloss, dependent,
dependentGloss; 1-based, ROOT at 0) and the bracketed constituency parse (`_syntax_parse`). The
released-code Q-REAS (reprobe.equate.authors) reads only these. The parses below were written by
hand for this project's own sample sentences: a tree per sentence, tokens and tags taken from its
leaves, and its dependencies as `relation head dependent` (1-based), expanded by
`reprobe.equate.authors.layout`. Run `python parses.py` here
after editing; it rewrites `rte_quant.jsonl` and `redditnli.jsonl` in place, matching rows by
their sentences. Rows not listed keep no parse, so the row's score counts only parsed pairs.
"""

import json
from pathlib import Path

from reprobe.equate.authors.layout import sentence_fields

HERE = Path(__file__).resolve().parent

PARSES = {
    "Twelve miners were rescued after spending 69 days underground.": (
        "(ROOT (S (NP (CD twelve) (NNS miners)) (VP (VBD were) (VP (VBN rescued) (PP (IN after)"
        " (S (VP (VBG spending) (NP (CD 69) (NNS days)) (ADVP (RB underground))))))) (. .)))",
        "nummod 2 1; nsubjpass 4 2; auxpass 4 3; ROOT 0 4; mark 6 5; advcl 4 6; nummod 8 7;"
        " dobj 6 8; advmod 6 9; punct 4 10"),
    "12 miners were rescued.": (
        "(ROOT (S (NP (CD 12) (NNS miners)) (VP (VBD were) (VP (VBN rescued))) (. .)))",
        "nummod 2 1; nsubjpass 4 2; auxpass 4 3; ROOT 0 4; punct 4 5"),
    "Police arrested 17 people, most of them students.": (
        "(ROOT (S (NP (NNS police)) (VP (VBD arrested) (NP (NP (CD 17) (NNS people)) (, ,)"
        " (NP (NP (JJS most) (PP (IN of) (NP (PRP them)))) (NP (NNS students))))) (. .)))",
        "nsubj 2 1; ROOT 0 2; nummod 4 3; dobj 2 4; punct 4 5; appos 4 6; case 8 7; nmod 6 8;"
        " dep 6 9; punct 2 10"),
    "Police arrested 70 people.": (
        "(ROOT (S (NP (NNS police)) (VP (VBD arrested) (NP (CD 70) (NNS people))) (. .)))",
        "nsubj 2 1; ROOT 0 2; nummod 4 3; dobj 2 4; punct 2 5"),
    "The company's 120 engineers work in three offices.": (
        "(ROOT (S (NP (NP (DT the) (NN company) (POS 's)) (CD 120) (NNS engineers)) (VP (VBP work)"
        " (PP (IN in) (NP (CD three) (NNS offices)))) (. .)))",
        "det 2 1; nmod:poss 5 2; case 2 3; nummod 5 4; nsubj 6 5; ROOT 0 6; case 9 7; nummod 9 8;"
        " nmod 6 9; punct 6 10"),
    "The company has 3 offices.": (
        "(ROOT (S (NP (DT the) (NN company)) (VP (VBZ has) (NP (CD 3) (NNS offices))) (. .)))",
        "det 2 1; nsubj 3 2; ROOT 0 3; nummod 5 4; dobj 3 5; punct 3 6"),
    "Half of the 40 delegates voted for the proposal.": (
        "(ROOT (S (NP (NP (NN half)) (PP (IN of) (NP (DT the) (CD 40) (NNS delegates))))"
        " (VP (VBD voted) (PP (IN for) (NP (DT the) (NN proposal)))) (. .)))",
        "nsubj 6 1; case 5 2; det 5 3; nummod 5 4; nmod 1 5; ROOT 0 6; case 9 7; det 9 8;"
        " nmod 6 9; punct 6 10"),
    "20 delegates voted for the proposal.": (
        "(ROOT (S (NP (CD 20) (NNS delegates)) (VP (VBD voted) (PP (IN for) (NP (DT the)"
        " (NN proposal)))) (. .)))",
        "nummod 2 1; nsubj 3 2; ROOT 0 3; case 6 4; det 6 5; nmod 3 6; punct 3 7"),
    "The storm destroyed 1,200 homes and left 45,000 people without power.": (
        "(ROOT (S (NP (DT the) (NN storm)) (VP (VP (VBD destroyed) (NP (CD 1,200) (NNS homes)))"
        " (CC and) (VP (VBD left) (NP (CD 45,000) (NNS people)) (PP (IN without) (NP (NN power)))))"
        " (. .)))",
        "det 2 1; nsubj 3 2; ROOT 0 3; nummod 5 4; dobj 3 5; cc 3 6; conj 3 7; nummod 9 8;"
        " dobj 7 9; case 11 10; nmod 7 11; punct 3 12"),
    "The storm destroyed more than 1,000 homes.": (
        "(ROOT (S (NP (DT the) (NN storm)) (VP (VBD destroyed) (NP (QP (JJR more) (IN than)"
        " (CD 1,000)) (NNS homes))) (. .)))",
        "det 2 1; nsubj 3 2; ROOT 0 3; advmod 6 4; mwe 4 5; nummod 7 6; dobj 3 7; punct 3 8"),
    "The museum welcomed 2.3 million visitors in its first year.": (
        "(ROOT (S (NP (DT the) (NN museum)) (VP (VBD welcomed) (NP (QP (CD 2.3) (CD million))"
        " (NNS visitors)) (PP (IN in) (NP (PRP$ its) (JJ first) (NN year)))) (. .)))",
        "det 2 1; nsubj 3 2; ROOT 0 3; compound 5 4; nummod 6 5; dobj 3 6; case 10 7;"
        " nmod:poss 10 8; amod 10 9; nmod 3 10; punct 3 11"),
    "The museum had fewer than 2 million visitors in its first year.": (
        "(ROOT (S (NP (DT the) (NN museum)) (VP (VBD had) (NP (QP (JJR fewer) (IN than) (CD 2)"
        " (CD million)) (NNS visitors)) (PP (IN in) (NP (PRP$ its) (JJ first) (NN year))))"
        " (. .)))",
        "det 2 1; nsubj 3 2; ROOT 0 3; advmod 7 4; mwe 4 5; compound 7 6; nummod 8 7; dobj 3 8;"
        " case 12 9; nmod:poss 12 10; amod 12 11; nmod 3 12; punct 3 13"),
    "Greek debt stands at 175% of GDP": (
        "(ROOT (S (NP (JJ greek) (NN debt)) (VP (VBZ stands) (PP (IN at) (NP (NP (CD 175)"
        " (NN %)) (PP (IN of) (NP (NN gdp))))))))",
        "amod 2 1; nsubj 3 2; ROOT 0 3; case 6 4; nummod 6 5; nmod 3 6; case 8 7; nmod 6 8"),
    "Greek debt stands at 120% of GDP": (
        "(ROOT (S (NP (JJ greek) (NN debt)) (VP (VBZ stands) (PP (IN at) (NP (NP (CD 120)"
        " (NN %)) (PP (IN of) (NP (NN gdp))))))))",
        "amod 2 1; nsubj 3 2; ROOT 0 3; case 6 4; nummod 6 5; nmod 3 6; case 8 7; nmod 6 8"),
    "Eurozone inflation turns negative at minus 0.2 percent": (
        "(ROOT (S (NP (NN eurozone) (NN inflation)) (VP (VBZ turns) (ADJP (JJ negative))"
        " (PP (IN at) (NP (QP (RB minus) (CD 0.2)) (NN percent))))))",
        "compound 2 1; nsubj 3 2; ROOT 0 3; xcomp 3 4; case 8 5; advmod 7 6; nummod 8 7;"
        " nmod 3 8"),
    "Eurozone prices rise 1.5 percent": (
        "(ROOT (S (NP (NN eurozone) (NNS prices)) (VP (VBP rise) (NP (CD 1.5) (NN percent)))))",
        "compound 2 1; nsubj 3 2; ROOT 0 3; nummod 5 4; dobj 3 5"),
    "US unemployment rate falls to 5.6 percent": (
        "(ROOT (S (NP (NNP us) (NN unemployment) (NN rate)) (VP (VBZ falls) (PP (TO to)"
        " (NP (CD 5.6) (NN percent))))))",
        "compound 3 1; compound 3 2; nsubj 4 3; ROOT 0 4; case 7 5; nummod 7 6; nmod 4 7"),
    "Unemployment rate drops to 5.6 percent as hiring picks up": (
        "(ROOT (S (NP (NN unemployment) (NN rate)) (VP (VBZ drops) (PP (TO to) (NP (CD 5.6)"
        " (NN percent))) (SBAR (IN as) (S (NP (NN hiring)) (VP (VBZ picks) (PRT (RP up))))))))",
        "compound 2 1; nsubj 3 2; ROOT 0 3; case 6 4; nummod 6 5; nmod 3 6; mark 9 7; nsubj 9 8;"
        " advcl 3 9; compound:prt 9 10"),
}


def annotate(path: Path) -> None:
    """Add the annotations to every row of a jsonl file whose two sentences are listed."""
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
    for row in rows:
        if row["sentence1"] in PARSES and row["sentence2"] in PARSES:
            for side in ("sentence1", "sentence2"):
                for key, value in sentence_fields(*PARSES[row[side]]).items():
                    row[f"{side}_{key}"] = value
                row[f"{side}_binary_parse"] = " ".join(row[f"{side}_tokens"][0])
    path.write_text("".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows),
                    encoding="utf-8")


if __name__ == "__main__":
    for name in ("rte_quant.jsonl", "redditnli.jsonl"):
        annotate(HERE / name)
