# Wikipedia: plan shards, read each shard (one job each), gather.
from reprobe.resources import wikipedia_resources

WIKI = config["wikipedia"]
SHARD_TABLES = ["pages.parquet", "sentences.parquet", "links.parquet", "stats.json"]


rule wikipedia_plan:
    input:
        dump=raw_file(WIKI["dump"]),
        index=[raw_file(WIKI["index"])] if WIKI["index"] else [],
    output:
        f"{WIKI_DIR}/plan.json",
    log:
        "logs/wikipedia_plan.log",
    benchmark:
        "logs/wikipedia_plan.benchmark.tsv"
    conda:
        ENVS / "wikipedia.yaml"
    threads: 1
    resources:
        **job_resources("wikipedia_plan"),
    params:
        index=lambda wildcards, input: [f"--index={path}" for path in input.index],
        shards=WIKI["shards"],
        block_pages=WIKI["block_pages"],
    shell:
        "python -m reprobe wikipedia plan --dump={input.dump:q} {params.index:q} "
        "--shards={params.shards:q} --block-pages={params.block_pages:q} "
        "--output={output:q} 2> {log:q}"


rule wikipedia_shard:
    input:
        plan=rules.wikipedia_plan.output[0],
        dump=raw_file(WIKI["dump"]),
    output:
        pages=f"{WIKI_DIR}/shards/{{shard}}/pages.parquet",
        sentences=f"{WIKI_DIR}/shards/{{shard}}/sentences.parquet",
        links=f"{WIKI_DIR}/shards/{{shard}}/links.parquet",
        stats=f"{WIKI_DIR}/shards/{{shard}}/stats.json",
    log:
        "logs/wikipedia_shard/{shard}.log",
    benchmark:
        "logs/wikipedia_shard/{shard}.benchmark.tsv"
    wildcard_constraints:
        shard=r"\d{4}",
    conda:
        ENVS / "wikipedia.yaml"
    threads: 1
    resources:
        **wikipedia_resources(WIKI, "wikipedia_shard"),
    params:
        shard=lambda wildcards: int(wildcards.shard),
        folder=lambda wildcards, output: Path(output.stats).parent,
    shell:
        "python -m reprobe wikipedia shard --plan={input.plan:q} --dump={input.dump:q} "
        "--shard={params.shard:q} --output-dir={params.folder:q} 2> {log:q}"


rule wikipedia_gather:
    input:
        expand(
            f"{WIKI_DIR}/shards/{{shard}}/{{table}}",
            shard=WIKI_SHARDS,
            table=SHARD_TABLES,
        ),
    output:
        pages=f"{WIKI_DIR}/pages.parquet",
        links=f"{WIKI_DIR}/links.parquet",
        redirects=f"{WIKI_DIR}/redirects.parquet",
        stats=f"{WIKI_DIR}/stats.json",
    log:
        "logs/wikipedia_gather.log",
    benchmark:
        "logs/wikipedia_gather.benchmark.tsv"
    # Killed for memory: once more with twice as much (resources.grows_with_attempt).
    retries: 1
    conda:
        ENVS / "wikipedia.yaml"
    threads: 1
    resources:
        **wikipedia_resources(WIKI, "wikipedia_gather"),
    params:
        folders=[f"{WIKI_DIR}/shards/{shard}" for shard in WIKI_SHARDS],
        output_dir=lambda wildcards, output: Path(output.stats).parent,
        memory_mb=WIKI["gather_memory_mb"],
    shell:
        "python -m reprobe wikipedia gather --output-dir={params.output_dir:q} "
        "--memory-mb={params.memory_mb:q} {params.folders:q} 2> {log:q}"


rule wikipedia:
    input:
        rules.wikipedia_gather.output,
