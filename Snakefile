# reprobe: rebuild probing datasets from raw sources and rerun five papers' experiments.
# Wiring only: every rule calls `python -m reprobe …` (workflow/reprobe); see docs/architecture.md.
import sys
from pathlib import Path

from snakemake.utils import min_version

min_version("9.0")
sys.path.insert(0, str(Path(workflow.basedir) / "workflow"))

from reprobe.config import loaded_config  # noqa: E402
from reprobe.errors import ReprobeError  # noqa: E402
from reprobe.estimate.profile_check import profile_problem  # noqa: E402
from reprobe.stages import enabled  # noqa: E402

# The config is assembled here rather than by Snakemake's merge (docs/configuration.md): each
# --configfile is laid over the config its `extends` names (absent: the embedded default,
# config/config.yaml, so a three-line file changes only what it names; null: it stands alone,
# as the tiers' files do, so the default's samples never join the paper's run); --config values
# come last, typed by the schema. Then, before any rule runs, one readable line per problem
# names the key, and the schema's defaults fill in what the config leaves out.
config.clear()
config.update(
    loaded_config(workflow.config_settings.configfiles, workflow.config_settings.config)
)
# A cluster profile's `$REPROBE_SLURM_…` left unset is refused here, in one line, not by sbatch.
PROFILE_PROBLEM = profile_problem(workflow.resource_settings.default_resources)
if PROFILE_PROBLEM:
    raise ReprobeError(PROFILE_PROBLEM)


include: "workflow/rules/common.smk"
include: "workflow/rules/download.smk"


# The Wikipedia corpus, when the config names a dump (the released-data tier names none).
if "wikipedia" in config:

    include: "workflow/rules/wikipedia.smk"
    include: "workflow/rules/tables.smk"


# A paper's stage is part of the run when the config has its section (reprobe.stages lists
# them); its rules file adds its tables to STAGE_TABLES.
for stage in enabled(config):

    include: stage.rules


# After the stages: the report's pages gather the tables they list.
include: "workflow/rules/report.smk"


report: "workflow/report/workflow.rst"


# Sources are fetched as the jobs that read them need them: one a config names but no job reads
# (an alternative such as the monthly Reddit dumps) is not downloaded. `reprobe sources fetch`
# mirrors them all.
rule all:
    default_target: True
    input:
        TABLES,
        STAGE_TABLES.values(),
        STAGE_EXPORTS.values(),
        REPORT_PAGES,


# Every dataset the run builds, as a folder `datasets.load_dataset` reads (exports/).
rule exports:
    input:
        STAGE_EXPORTS.values(),
    localrule: True


# One target per paper: `snakemake --cores all numersense` builds that paper's tables.
for stage in enabled(config):

    rule:
        name:
            stage.shortcut
        input:
            STAGE_TABLES[stage.name],
        localrule: True


# A run that failed ends with the list of its failed jobs and their logs (reprobe.failures):
# with keep-going the errors themselves may be hundreds of lines up.
onerror:
    from reprobe.failures import summarize_log

    print(summarize_log(log), file=sys.stderr)
