# The offline report: one self-contained page per paper (every table beside the paper's numbers,
# figures, dataset cards, sources, config), gathered by `snakemake --report results/report.html`.


from reprobe.report.targets import PAGES as REPORT_DIR, ReportTargets
from reprobe.stages import titles

# Every input, parameter and label of these rules: reprobe/report/targets.py.
RP = ReportTargets(
    config,
    [*TABLES, *(table for tables in STAGE_TABLES.values() for table in tables)],
    titles(),
)
REPORT_PAGES = RP.pages


rule report_page:
    input:
        RP.table_files,
    output:
        page=report(
            f"{REPORT_DIR}/{{paper}}.html",
            caption="../report/paper.rst",
            category=RP.category,
            labels=RP.labels,
        ),
        summary=f"{REPORT_DIR}/{{paper}}.json",
    log:
        "logs/report_page/{paper}.log",
    benchmark:
        "logs/report_page/{paper}.benchmark.tsv"
    wildcard_constraints:
        paper="|".join(RP.papers) or "no-papers",
    # Under a cluster profile: a second's work, not worth a queue wait.
    localrule: True
    conda:
        ENVS / "core.yaml"
    threads: 1
    resources:
        **job_resources("report_page"),
    params:
        arguments=RP.arguments,
    shell:
        "python -m reprobe report page {params.arguments:q} --output={output.page:q} "
        "--summary={output.summary:q} {input:q} 2> {log:q}"
