# Wikipedia: plan shards, read each shard (one job each), gather.
WIKI = config["wikipedia"]
WIKI_DIR = "data/processed/wikipedia"
WIKI_SHARDS = [f"{k:04d}" for k in range(WIKI["shards"])]
SHARD_TABLES = ["pages.parquet", "sentences.parquet", "links.parquet", "stats.json"]


rule wikipedia_plan:
    output:
        f"{WIKI_DIR}/plan.json",
    input:
        dump=raw_file(WIKI["dump"]),
        index=[raw_file(WIKI["index"])] if WIKI["index"] else [],
    params:
        index=lambda wildcards, input: f"--index {input.index}" if input.index else "",
        shards=WIKI["shards"],
        block_pages=WIKI["block_pages"],
    log:
        "logs/wikipedia_plan.log",
    threads: 1
    resources:
        mem_mb=2048,
        runtime=60,
    conda:
        ENVS / "wikipedia.yaml"
    shell:
        "{REPROBE} wikipedia plan --dump {input.dump} {params.index} "
        "--shards {params.shards} --block-pages {params.block_pages} "
        "--output {output} 2> {log}"


rule wikipedia_shard:
    output:
        pages=f"{WIKI_DIR}/shards/{{shard}}/pages.parquet",
        sentences=f"{WIKI_DIR}/shards/{{shard}}/sentences.parquet",
        links=f"{WIKI_DIR}/shards/{{shard}}/links.parquet",
        stats=f"{WIKI_DIR}/shards/{{shard}}/stats.json",
    input:
        plan=rules.wikipedia_plan.output[0],
        dump=raw_file(WIKI["dump"]),
    params:
        shard=lambda wildcards: int(wildcards.shard),
        folder=lambda wildcards: f"{WIKI_DIR}/shards/{wildcards.shard}",
    log:
        "logs/wikipedia_shard/{shard}.log",
    wildcard_constraints:
        shard=r"\d{4}",
    threads: 1
    resources:
        mem_mb=2048,
        runtime=240,
    conda:
        ENVS / "wikipedia.yaml"
    shell:
        "{REPROBE} wikipedia shard --plan {input.plan} --shard {params.shard} "
        "--output-dir {params.folder} 2> {log}"


rule wikipedia_gather:
    output:
        pages=f"{WIKI_DIR}/pages.parquet",
        links=f"{WIKI_DIR}/links.parquet",
        redirects=f"{WIKI_DIR}/redirects.parquet",
        stats=f"{WIKI_DIR}/stats.json",
    input:
        expand(f"{WIKI_DIR}/shards/{{shard}}/{{table}}", shard=WIKI_SHARDS, table=SHARD_TABLES),
    params:
        folders=[f"{WIKI_DIR}/shards/{shard}" for shard in WIKI_SHARDS],
    log:
        "logs/wikipedia_gather.log",
    threads: 1
    resources:
        mem_mb=4096,
        runtime=240,
    conda:
        ENVS / "wikipedia.yaml"
    shell:
        "{REPROBE} wikipedia gather --output-dir {WIKI_DIR} {params.folders} 2> {log}"


rule wikipedia:
    input:
        rules.wikipedia_gather.output,
