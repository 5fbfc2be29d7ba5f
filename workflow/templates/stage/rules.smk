# STAGE_TITLE: wiring only; what each rule reads is decided in reprobe.STAGE_NAME.targets.
from reprobe.STAGE_NAME.targets import TABLES as STAGE_NAME_TABLES, StageTargets

STAGE_NAME_TARGETS = StageTargets(config, raw_target)
STAGE_TABLES["STAGE_NAME"] = STAGE_NAME_TARGETS.tables


rule STAGE_NAME_counts:
    input:
        STAGE_NAME_TARGETS.input.target,
    output:
        csv=f"{STAGE_NAME_TABLES}/counts.csv",
        md=f"{STAGE_NAME_TABLES}/counts.md",
    log:
        "logs/STAGE_NAME_counts.log",
    benchmark:
        "logs/STAGE_NAME_counts.benchmark.tsv"
    conda:
        ENVS / "core.yaml"
    threads: 1
    # Until measured: then `**job_resources("STAGE_NAME_counts")` with its entry in
    # reprobe/costs.json (benchmarks/default_run.py --json, then benchmarks/rule_costs.py).
    resources:
        mem_mb=512,
        runtime=10,
    params:
        path=STAGE_NAME_TARGETS.input.path,
    shell:
        "python -m reprobe STAGE_NAME counts --input={params.path:q} "
        "--csv={output.csv:q} --md={output.md:q} 2> {log:q}"
