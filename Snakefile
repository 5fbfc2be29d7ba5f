# reprobe: rebuild probing datasets from raw sources and rerun five papers' experiments.
# Wiring only: every rule calls `reprobe …` (workflow/reprobe); see README.md.
from snakemake.utils import min_version, validate

min_version("9.0")


configfile: "config/config.yaml"


# The schema catches misspelled keys, wrong types and missing sources before any rule runs.
validate(config, "workflow/schemas/config.schema.yaml")


include: "workflow/rules/common.smk"
include: "workflow/rules/download.smk"
include: "workflow/rules/wikipedia.smk"
include: "workflow/rules/tables.smk"


rule all:
    input:
        ALL_SOURCES,
        TABLES,
    default_target: True
