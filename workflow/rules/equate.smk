# EQUATE (Ravichander et al. 2019): the targets every EQUATE rule reads and the wildcards'
# constraints; the rules themselves, by concern, in the files included below (beside this one).

from reprobe.equate.export_targets import EXPORTS as EQ_EXPORTS_DIR, EquateExports
from reprobe.equate.targets import (
    DATA as EQ_DATA,
    MODELS as EQ_MODELS,
    RESULTS as EQ_RESULTS,
    TABLES as EQ_TABLES,
    EquateTargets,
)
from reprobe.equate.row_jobs import RowJobs
from reprobe.equate.trained_targets import VOCABULARY as EQ_VOCABULARY, TrainedTargets

# Every input, parameter and target list of these rules: reprobe/equate/targets.py.
EQ = EquateTargets(config, raw_target, raw_file)
STAGE_TABLES["equate"] = EQ.tables
# The trained baselines and Table 7: reprobe/equate/trained_targets.py.
EQ_TRAINED = TrainedTargets(EQ)
# Which job scores which (set, row): reprobe/equate/row_jobs.py.
EQ_ROWS = RowJobs(EQ)
# Each evaluated set as a Hugging Face dataset folder: reprobe/equate/export_targets.py.
EQ_EXPORTS = EquateExports(EQ, config.get("sources", {}))
STAGE_EXPORTS["equate"] = EQ_EXPORTS.cards


wildcard_constraints:
    variant="|".join(EQ.sets),
    test_set="|".join(s for sets in EQ.sets.values() for s in sets) or "no-sets",
    model="|".join(re.escape(m) for m in EQ.rows),
    version="conll|arxiv",


# The sets (rebuilt from raw sources, perturbed), the trained baselines, then Table 6's rows,
# then tables and exports.
include: "equate_sets.smk"
include: "equate_trained.smk"
include: "equate_rows.smk"
include: "equate_tables.smk"
