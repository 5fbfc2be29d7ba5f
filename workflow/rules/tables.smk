# Tables: views of computed statistics and scores, one target per table.
TABLES = [
    "results/tables/corpus/wikipedia_stats.csv",
    "results/tables/corpus/wikipedia_stats.md",
]


rule table_wikipedia_stats:
    output:
        csv="results/tables/corpus/wikipedia_stats.csv",
        md="results/tables/corpus/wikipedia_stats.md",
    input:
        rules.wikipedia_gather.output.stats,
    log:
        "logs/table_wikipedia_stats.log",
    threads: 1
    resources:
        mem_mb=512,
        runtime=10,
    conda:
        ENVS / "core.yaml"
    shell:
        "{REPROBE} table wikipedia-stats --stats {input} --csv {output.csv} "
        "--md {output.md} 2> {log}"
