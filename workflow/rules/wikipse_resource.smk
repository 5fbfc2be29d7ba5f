# WIKI-PSE part 1, the dataset: link targets typed with S-classes, the word and word/S-class
# corpora (one job per Wikipedia shard), the dataset, its comparison with the release and
# its export. Included by wikipse.smk, whose WP and WP_EXPORTS these rules read.


rule wikipse_freebase:
    input:
        **WP.freebase_inputs(),
    output:
        types=f"{WP_DATA}/freebase/types.parquet",
        titles=f"{WP_DATA}/freebase/titles.parquet",
    log:
        "logs/wikipse_freebase.log",
    benchmark:
        "logs/wikipse_freebase.benchmark.tsv"
    conda:
        ENVS / "wikipse.yaml"
    threads: 1
    resources:
        **WP.resources("wikipse_freebase"),
    params:
        files=WP.freebase_arguments(),
    shell:
        "python -m reprobe wikipse freebase {params.files:q} --types-out={output.types:q} "
        "--titles-out={output.titles:q} 2> {log:q}"


rule wikipse_typing:
    input:
        **WP.typing_inputs(),
    output:
        typed=f"{WP_DATA}/typed_targets.parquet",
        counts=f"{WP_DATA}/typing.json",
        fold_csv=f"{WP_TABLES}/fold.csv",
        fold_md=f"{WP_TABLES}/fold.md",
        typing_csv=f"{WP_TABLES}/typing.csv",
        typing_md=f"{WP_TABLES}/typing.md",
    log:
        "logs/wikipse_typing.log",
    benchmark:
        "logs/wikipse_typing.benchmark.tsv"
    conda:
        ENVS / "wikipse.yaml"
    threads: 1
    resources:
        **WP.resources("wikipse_typing"),
    params:
        memory_mb=WP.gather_memory_mb(),
        files=WP.typing_arguments(),
    shell:
        "python -m reprobe wikipse typing {params.files:q} --output={output.typed:q} "
        "--counts={output.counts:q} --fold-csv={output.fold_csv:q} --fold-md={output.fold_md:q} "
        "--typing-csv={output.typing_csv:q} --typing-md={output.typing_md:q} "
        "--memory-mb={params.memory_mb:q} 2> {log:q}"


rule wikipse_corpus_shard:
    input:
        sentences=f"{WIKI_DIR}/shards/{{shard}}/sentences.parquet",
        links=f"{WIKI_DIR}/shards/{{shard}}/links.parquet",
        redirects=f"{WIKI_DIR}/redirects.parquet",
        typed=rules.wikipse_typing.output.typed,
        classes=WP.class_order_file(),
    output:
        word=f"{WP_DATA}/shards/{{shard}}/word.txt",
        sclass=f"{WP_DATA}/shards/{{shard}}/sclass.txt",
        mentions=f"{WP_DATA}/shards/{{shard}}/mentions.parquet",
        tokens=f"{WP_DATA}/shards/{{shard}}/tokens.parquet",
        stats=f"{WP_DATA}/shards/{{shard}}/stats.json",
    log:
        "logs/wikipse_corpus_shard/{shard}.log",
    benchmark:
        "logs/wikipse_corpus_shard/{shard}.benchmark.tsv"
    wildcard_constraints:
        shard=r"\d{4}",
    # Killed for memory: once more with twice as much (resources.grows_with_attempt).
    retries: 1
    conda:
        ENVS / "wikipse.yaml"
    threads: 1
    resources:
        **WP.resources("wikipse_corpus_shard"),
    params:
        folder=lambda wildcards, output: Path(output.stats).parent,
        classes=WP.class_order_option(),
    shell:
        "python -m reprobe wikipse corpus-shard --sentences={input.sentences:q} "
        "--links={input.links:q} --redirects={input.redirects:q} --typed={input.typed:q} "
        "{params.classes:q} --output-dir={params.folder:q} 2> {log:q}"


rule wikipse_corpus:
    input:
        stats=WP.shard_files("stats.json"),
        words=WP.shard_files("word.txt"),
        sclasses=WP.shard_files("sclass.txt"),
        mentions=WP.shard_files("mentions.parquet"),
        tokens=WP.shard_files("tokens.parquet"),
    output:
        word=f"{WP_DATA}/corpus/word.txt",
        sclass=f"{WP_DATA}/corpus/sclass.txt",
        mentions=f"{WP_DATA}/corpus/mentions.parquet",
        tokens=f"{WP_DATA}/corpus/tokens.parquet",
        stats=f"{WP_DATA}/corpus/stats.json",
    log:
        "logs/wikipse_corpus.log",
    benchmark:
        "logs/wikipse_corpus.benchmark.tsv"
    # Killed for memory: once more with twice as much (resources.grows_with_attempt).
    retries: 1
    conda:
        ENVS / "wikipse.yaml"
    threads: 1
    resources:
        **WP.resources("wikipse_corpus"),
    params:
        folder=lambda wildcards, output: Path(output.stats).parent,
        shards=lambda wildcards, input: [Path(f).parent for f in input.stats],
        memory_mb=WP.gather_memory_mb(),
    shell:
        "python -m reprobe wikipse corpus --output-dir={params.folder:q} "
        "--memory-mb={params.memory_mb:q} {params.shards:q} 2> {log:q}"


rule wikipse_dataset:
    input:
        corpus=rules.wikipse_corpus.output.stats,
        mentions=rules.wikipse_corpus.output.mentions,
        tokens=rules.wikipse_corpus.output.tokens,
        reference=REFERENCE / "wikipse/stats.csv",
    output:
        train=f"{WP_DATA}/dataset/train.tsv",
        test=f"{WP_DATA}/dataset/test.tsv",
        words=f"{WP_DATA}/dataset/words.parquet",
        card=f"{WP_DATA}/dataset/card.json",
        csv=f"{WP_TABLES}/stats.csv",
        md=f"{WP_TABLES}/stats.md",
    log:
        "logs/wikipse_dataset.log",
    benchmark:
        "logs/wikipse_dataset.benchmark.tsv"
    # Killed for memory: once more with twice as much (resources.grows_with_attempt).
    retries: 1
    conda:
        ENVS / "wikipse.yaml"
    threads: 1
    resources:
        **WP.resources("wikipse_dataset"),
    params:
        corpus=lambda wildcards, input: Path(input.corpus).parent,
        folder=lambda wildcards, output: Path(output.card).parent,
        selection=WP.selection_arguments(),
        seed=config["seed"],
        memory_mb=WP.gather_memory_mb(),
    shell:
        "python -m reprobe wikipse dataset --corpus-dir={params.corpus:q} {params.selection:q} "
        "--seed={params.seed:q} --output-dir={params.folder:q} --reference={input.reference:q} "
        "--csv={output.csv:q} --md={output.md:q} --memory-mb={params.memory_mb:q} 2> {log:q}"


rule wikipse_released:
    input:
        words=rules.wikipse_dataset.output.words,
        released=WP.released_targets(),
    output:
        csv=f"{WP_TABLES}/released_vs_rebuilt.csv",
        md=f"{WP_TABLES}/released_vs_rebuilt.md",
    log:
        "logs/wikipse_released.log",
    benchmark:
        "logs/wikipse_released.benchmark.tsv"
    conda:
        ENVS / "wikipse.yaml"
    threads: 1
    resources:
        **job_resources("wikipse_released"),
    params:
        released=WP.released_arguments(),
    shell:
        "python -m reprobe wikipse released --words={input.words:q} {params.released:q} "
        "--csv={output.csv:q} --md={output.md:q} 2> {log:q}"


rule wikipse_export:
    input:
        unpack(WP_EXPORTS.inputs),
    output:
        # The card, not the folder: a folder output leaves a Snakemake marker among the data.
        f"{WP_EXPORTS_DIR}/{{wp_dataset}}/README.md",
    log:
        "logs/wikipse_export/{wp_dataset}.log",
    benchmark:
        "logs/wikipse_export/{wp_dataset}.benchmark.tsv"
    conda:
        ENVS / "wikipse.yaml"
    threads: 1
    resources:
        **job_resources("wikipse_export"),
    params:
        arguments=WP_EXPORTS.arguments,
        folder=lambda wildcards, output: Path(output[0]).parent,
    shell:
        "python -m reprobe wikipse export {params.arguments:q} --output={params.folder:q} "
        "2> {log:q}"
