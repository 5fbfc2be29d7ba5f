# Tables: views of computed statistics and scores, one target per table.
TABLES += [
    "results/tables/corpus/wikipedia_stats.csv",
    "results/tables/corpus/wikipedia_stats.md",
]


rule table_wikipedia_stats:
    input:
        rules.wikipedia_gather.output.stats,
    output:
        csv="results/tables/corpus/wikipedia_stats.csv",
        md="results/tables/corpus/wikipedia_stats.md",
    log:
        "logs/table_wikipedia_stats.log",
    benchmark:
        "logs/table_wikipedia_stats.benchmark.tsv"
    # A table from small files: seconds of work, run where Snakemake runs, not queued.
    localrule: True
    conda:
        ENVS / "core.yaml"
    threads: 1
    resources:
        **job_resources("table_wikipedia_stats"),
    shell:
        "python -m reprobe table wikipedia-stats --stats={input:q} --csv={output.csv:q} "
        "--md={output.md:q} 2> {log:q}"
