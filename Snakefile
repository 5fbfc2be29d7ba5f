# reprobe: rebuild probing datasets from raw sources and rerun five papers' experiments.
# Wiring only: every rule calls `python -m reprobe …` (workflow/reprobe); see docs/architecture.md.
import sys
from pathlib import Path

from snakemake.utils import min_version

min_version("9.0")
sys.path.insert(0, str(Path(workflow.basedir) / "workflow"))

from reprobe.config import check_config, check_yaml_syntax, fill_defaults  # noqa: E402
from reprobe.stages import enabled  # noqa: E402

# A --configfile replaces the embedded default instead of being merged into it (Snakemake's
# default): merged, the default's sample sources and stand-in models would join the paper's run.
# Snakemake parses a --configfile before this file runs; the default is checked here first, since
# Snakemake's own message for a YAML syntax error names neither the file nor the line.
if not workflow.overwrite_configfiles:
    check_yaml_syntax("config/config.yaml")

    configfile: "config/config.yaml"


# Before any rule runs: one readable line per problem, naming the key (misspelled keys, wrong
# types, missing sources); then the schema's defaults fill in what the config leaves out.
check_config(config)
fill_defaults(config)


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
