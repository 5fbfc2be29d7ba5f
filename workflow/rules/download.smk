# One generic rule fetches any source into data/raw/<source>/; another unpacks archives.
# Under a cluster profile both run on the submitting host: compute nodes rarely reach the
# internet, and unpacking is one pass over a file that just arrived there (no queue wait).


localrules:
    fetch_source,
    extract_source,


rule fetch_source:
    input:
        fetch_input,
    output:
        "data/raw/{source}/{filename}",
    log:
        "logs/fetch_source/{source}/{filename}.log",
    benchmark:
        "logs/fetch_source/{source}/{filename}.benchmark.tsv"
    wildcard_constraints:
        source="|".join(SOURCES) or "no-sources",
        filename=r"(?!extracted$)[^/]+",
    # No rule-level retry: `reprobe fetch` retries network errors itself (download.retries,
    # resuming, with backoff), and a checksum mismatch is reported once, not fetched three times.
    conda:
        ENVS / "core.yaml"
    threads: 1
    resources:
        mem_mb=job_memory("fetch_source"),
        runtime=lambda wildcards: fetch_runtime_minutes(SOURCES[wildcards.source]),
    params:
        arguments=fetch_command_arguments,
    shell:
        "python -m reprobe fetch --source={wildcards.source:q} {params.arguments:q} "
        "--output={output:q} 2> {log:q}"


rule extract_source:
    input:
        lambda wildcards: raw_file(wildcards.source),
    output:
        directory("data/raw/{source}/extracted"),
    log:
        "logs/extract_source/{source}.log",
    benchmark:
        "logs/extract_source/{source}.benchmark.tsv"
    wildcard_constraints:
        source="|".join(SOURCES) or "no-sources",
    conda:
        ENVS / "core.yaml"
    threads: 1
    resources:
        mem_mb=job_memory("extract_source"),
        runtime=lambda wildcards: fetch_runtime_minutes(SOURCES[wildcards.source]),
    shell:
        "python -m reprobe extract --source={wildcards.source:q} --archive={input:q} "
        "--output={output:q} 2> {log:q}"
