# The offline report: one self-contained page per paper (every table beside the paper's numbers,
# figures, dataset cards, sources, config), gathered by `snakemake --report results/report.html`
# (the pages written; after a partial run `snakemake --report results/report.html
# results/report/*.html` gathers them without a warning for each file not built yet).


from reprobe.estimate.targets_list import UnknownResult, written_pages
from reprobe.report.targets import PAGES as REPORT_DIR, ReportTargets
from reprobe.stages import titles

RESULT_TABLES = [
    *TABLES,
    *(table for tables in STAGE_TABLES.values() for table in tables),
]
# Every input, parameter and label of these rules: reprobe/report/targets.py.
RP = ReportTargets(config, RESULT_TABLES, titles())
REPORT_PAGES = RP.pages
# `--report` lists the pages on disk when the workflow is read (report_page_listed), so after a
# partial run it reports what exists; a page still to write is made by report_page, unlisted.
RP_WRITTEN = written_pages(RP.papers)


rule report_page:
    input:
        RP.table_files,
    output:
        page=f"{REPORT_DIR}/{{paper}}.html",
        summary=f"{REPORT_DIR}/{{paper}}.json",
    log:
        "logs/report_page/{paper}.log",
    benchmark:
        "logs/report_page/{paper}.benchmark.tsv"
    wildcard_constraints:
        paper="|".join(p for p in RP.papers if p not in RP_WRITTEN) or "no-papers",
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


use rule report_page as report_page_listed with:
    output:
        page=report(
            f"{REPORT_DIR}/{{paper}}.html",
            caption="../report/paper.rst",
            category=RP.category,
            labels=RP.labels,
        ),
        summary=f"{REPORT_DIR}/{{paper}}.json",
    wildcard_constraints:
        paper="|".join(RP_WRITTEN) or "no-papers",


# Last resort: a name under results/tables/ or results/report/ that no rule of this config
# makes fails as the DAG is built (dry runs too), naming the closest names
# (reprobe/estimate/targets_list.py), instead of with a bare MissingRuleException.
UNKNOWN_RESULT = UnknownResult([*RESULT_TABLES, *REPORT_PAGES])


rule unknown_result:
    input:
        UNKNOWN_RESULT.refuse,
    output:
        "results/{result}",
    wildcard_constraints:
        result=UNKNOWN_RESULT.constraint(),
    localrule: True
