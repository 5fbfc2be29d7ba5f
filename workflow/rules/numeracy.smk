# Numeracy in word embeddings (Naik et al. 2019): Num/All corpora from the Wikipedia shards,
# retrained and off-the-shelf vectors, contrastive tests, kNN regression, PMI, Tables 1-9.


# Names and paths; what each rule reads is decided in reprobe.numeracy.targets.
from reprobe.numeracy.export_targets import EXPORTS as NUM_EXPORTS_DIR, NumeracyExports
from reprobe.numeracy.targets import (
    DATA as NUM_DATA,
    MODELS as NUM_MODELS,
    RESULTS as NUM_RESULTS,
    NumeracyTargets,
    native_vectors,
    numerals_of,
)

NUMERACY = config["numeracy"]
NUM = NumeracyTargets(
    config,
    {shard: f"{WIKI_DIR}/shards/{shard}/sentences.parquet" for shard in WIKI_SHARDS},
    raw_target,
)
STAGE_TABLES["numeracy"] = NUM.tables
# Each number set's tests as a Hugging Face dataset folder: reprobe/numeracy/export_targets.py.
NUM_EXPORTS = NumeracyExports(NUM, SOURCES, config.get("wikipedia", {}).get("dump"))
STAGE_EXPORTS["numeracy"] = NUM_EXPORTS.cards


wildcard_constraints:
    model="|".join(re.escape(name) for name in NUM.vector_models) or "no-models",


rule numeracy_count:
    input:
        NUM.corpus_part,
    output:
        f"{NUM_DATA}/counts/{{part}}.json",
    log:
        "logs/numeracy_count/{part}.log",
    benchmark:
        "logs/numeracy_count/{part}.benchmark.tsv"
    conda:
        ENVS / "numeracy.yaml"
    threads: 1
    resources:
        **NUM.resources("numeracy_count"),
    shell:
        "python -m reprobe numeracy count --sentences={input:q} --output={output:q} 2> {log:q}"


rule numeracy_select:
    input:
        sentences=NUM.corpus_part,
        counts=expand(f"{NUM_DATA}/counts/{{part}}.json", part=NUM.corpus_parts),
    output:
        num=f"{NUM_DATA}/parts/{{part}}/num.txt",
        all=f"{NUM_DATA}/parts/{{part}}/all.txt",
        stats=f"{NUM_DATA}/parts/{{part}}/stats.json",
    log:
        "logs/numeracy_select/{part}.log",
    benchmark:
        "logs/numeracy_select/{part}.benchmark.tsv"
    conda:
        ENVS / "numeracy.yaml"
    threads: 1
    resources:
        **NUM.resources("numeracy_select"),
    params:
        index=NUM.part_index,
        folder=lambda wildcards, output: Path(output.stats).parent,
        seed=config["seed"],
        settings=NUM.select_options(),
    shell:
        "python -m reprobe numeracy select --sentences={input.sentences:q} "
        "--shard-index={params.index:q} --counts {input.counts:q} --seed={params.seed:q} "
        "{params.settings:q} --output-dir={params.folder:q} 2> {log:q}"


rule numeracy_corpus:
    input:
        expand(
            f"{NUM_DATA}/parts/{{part}}/{{name}}",
            part=NUM.corpus_parts,
            name=["num.txt", "all.txt", "stats.json"],
        ),
    output:
        num=f"{NUM_DATA}/corpus/num.txt",
        all=f"{NUM_DATA}/corpus/all.txt",
        stats=f"{NUM_DATA}/corpus/stats.json",
    log:
        "logs/numeracy_corpus.log",
    benchmark:
        "logs/numeracy_corpus.benchmark.tsv"
    conda:
        ENVS / "numeracy.yaml"
    threads: 1
    resources:
        **NUM.resources("numeracy_corpus"),
    params:
        folders=[f"{NUM_DATA}/parts/{part}" for part in NUM.corpus_parts],
    shell:
        "python -m reprobe numeracy corpus --num={output.num:q} --all={output.all:q} "
        "--stats={output.stats:q} {params.folders:q} 2> {log:q}"


rule numeracy_train:
    input:
        NUM.train_corpus,
    output:
        f"{NUM_MODELS}/trained/{{model}}.txt",
    log:
        "logs/numeracy_train/{model}.log",
    benchmark:
        "logs/numeracy_train/{model}.benchmark.tsv"
    # Killed for memory: once more with twice as much (resources.grows_with_attempt).
    retries: 1
    conda:
        ENVS / "numeracy.yaml"
    # From the config, not the profile: more than one gensim worker is not reproducible.
    threads: NUMERACY["retrain"]["workers"]
    resources:
        **NUM.resources("numeracy_train"),
        # A cluster job asks for as many CPUs as training threads.
        cpus_per_task=lambda wildcards, threads: threads,
    params:
        family=NUM.family,
        settings=NUM.retrain_arguments(),
        seed=config["seed"],
    shell:
        "python -m reprobe numeracy train --family={params.family:q} --corpus={input:q} "
        "--output={output:q} {params.settings:q} --seed={params.seed:q} "
        "--threads={threads:q} 2> {log:q}"


rule numeracy_vectors:
    input:
        NUM.vectors_input,
    output:
        kv=f"{NUM_MODELS}/{{model}}.kv",
        npy=f"{NUM_MODELS}/{{model}}.kv.vectors.npy",
    log:
        "logs/numeracy_vectors/{model}.log",
    benchmark:
        "logs/numeracy_vectors/{model}.benchmark.tsv"
    conda:
        ENVS / "numeracy.yaml"
    threads: 1
    resources:
        **NUM.resources("numeracy_vectors"),
    params:
        file=NUM.vectors_file,
        format=NUM.vectors_format,
    shell:
        "python -m reprobe numeracy vectors --input={params.file:q} --format={params.format:q} "
        "--output={output.kv:q} 2> {log:q}"


rule numeracy_numerals:
    input:
        native_vectors("{model}"),
    output:
        numerals=f"{NUM_RESULTS}/numerals/{{model}}.tsv",
        scores=f"{NUM_RESULTS}/scores/table1/{{model}}.csv",
    log:
        "logs/numeracy_numerals/{model}.log",
    benchmark:
        "logs/numeracy_numerals/{model}.benchmark.tsv"
    # Killed for memory: once more with twice as much (resources.grows_with_attempt).
    retries: 1
    conda:
        ENVS / "numeracy.yaml"
    threads: 1
    resources:
        **NUM.resources("numeracy_numerals"),
    shell:
        "python -m reprobe numeracy numerals --vectors={input:q} --model={wildcards.model:q} "
        "--output={output.numerals:q} --scores={output.scores:q} 2> {log:q}"


rule numeracy_shared_tests:
    input:
        NUM.role_numerals,
    output:
        directory(f"{NUM_RESULTS}/tests/{{role}}-{{kind}}"),
    log:
        "logs/numeracy_shared_tests/{role}-{kind}.log",
    benchmark:
        "logs/numeracy_shared_tests/{role}-{kind}.benchmark.tsv"
    wildcard_constraints:
        role="retrained|off_the_shelf",
        kind="mag|num",
    # Killed for memory: once more with twice as much (resources.grows_with_attempt).
    retries: 1
    conda:
        ENVS / "numeracy.yaml"
    threads: 1
    resources:
        **NUM.resources("numeracy_shared_tests"),
    params:
        rules=NUM.test_rules,
    shell:
        "python -m reprobe numeracy tests --kind={wildcards.kind:q} --output-dir={output:q} "
        "{params.rules:q} {input:q} 2> {log:q}"


rule numeracy_model_tests:
    input:
        numerals_of(["{model}"]),
    output:
        directory(f"{NUM_RESULTS}/tests/num-{{model}}"),
    log:
        "logs/numeracy_model_tests/num-{model}.log",
    benchmark:
        "logs/numeracy_model_tests/num-{model}.benchmark.tsv"
    conda:
        ENVS / "numeracy.yaml"
    threads: 1
    resources:
        **job_resources("numeracy_model_tests"),
    params:
        rules=NUM.test_rules,
    shell:
        "python -m reprobe numeracy tests --kind=num --output-dir={output:q} {params.rules:q} "
        "{input:q} 2> {log:q}"


rule numeracy_probe:
    input:
        vectors=native_vectors("{model}"),
        mag=NUM.mag_tests,
        num=NUM.num_tests,
    output:
        f"{NUM_RESULTS}/scores/probes/{{model}}.csv",
    log:
        "logs/numeracy_probe/{model}.log",
    benchmark:
        "logs/numeracy_probe/{model}.benchmark.tsv"
    # Killed for memory: once more with twice as much (resources.grows_with_attempt).
    retries: 1
    conda:
        ENVS / "numeracy.yaml"
    threads: 1
    resources:
        **NUM.resources("numeracy_probe"),
    params:
        role=NUM.role,
        seed=config["seed"],
    shell:
        "python -m reprobe numeracy probe --vectors={input.vectors:q} --model={wildcards.model:q} "
        "--role={params.role:q} --mag={input.mag:q} --num={input.num:q} --seed={params.seed:q} "
        "--output={output:q} 2> {log:q}"


rule numeracy_random:
    input:
        mag=f"{NUM_RESULTS}/tests/{{role}}-mag",
        num=NUM.random_num_tests,
    output:
        f"{NUM_RESULTS}/scores/random/{{role}}.csv",
    log:
        "logs/numeracy_random/{role}.log",
    benchmark:
        "logs/numeracy_random/{role}.benchmark.tsv"
    wildcard_constraints:
        role="retrained|off_the_shelf",
    # Killed for memory: once more with twice as much (resources.grows_with_attempt).
    retries: 1
    conda:
        ENVS / "numeracy.yaml"
    threads: 1
    resources:
        **NUM.resources("numeracy_random"),
    params:
        num=NUM.random_num_option,
        name=NUM.random_row,
        dim=NUM.random_dim,
        seed=config["seed"],
    shell:
        "python -m reprobe numeracy random --model={params.name:q} --role={wildcards.role:q} "
        "--mag={input.mag:q} {params.num:q} --dim={params.dim:q} --seed={params.seed:q} "
        "--output={output:q} 2> {log:q}"


rule numeracy_knn:
    input:
        vectors=[native_vectors(model) for model in NUM.models],
        numerals=numerals_of(NUM.models),
        set_numerals=NUM.knn_set_numerals(),
    output:
        f"{NUM_RESULTS}/scores/knn.csv",
    log:
        "logs/numeracy_knn.log",
    benchmark:
        "logs/numeracy_knn.benchmark.tsv"
    # Killed for memory: once more with twice as much (resources.grows_with_attempt).
    retries: 1
    conda:
        ENVS / "numeracy.yaml"
    threads: 1
    resources:
        **NUM.resources("numeracy_knn"),
    params:
        models=NUM.knn_models(),
        settings=NUM.knn_arguments(),
        seed=config["seed"],
    shell:
        "python -m reprobe numeracy knn {params.models:q} --vectors {input.vectors:q} "
        "--numerals {input.numerals:q} --set-numerals {input.set_numerals:q} "
        "{params.settings:q} --seed={params.seed:q} --output={output:q} 2> {log:q}"


# A person's embedding (numeracy.extra_vectors): every table's rows from its own numbers, by
# the command a person runs without config (reprobe/numeracy/vector_probe.py).
rule numeracy_extra:
    input:
        native_vectors("{model}"),
    output:
        f"{NUM_RESULTS}/scores/extra/{{model}}.csv",
    log:
        "logs/numeracy_extra/{model}.log",
    benchmark:
        "logs/numeracy_extra/{model}.benchmark.tsv"
    # Killed for memory: once more with twice as much (resources.grows_with_attempt).
    retries: 1
    conda:
        ENVS / "numeracy.yaml"
    threads: 1
    resources:
        **NUM.resources("numeracy_extra"),
    params:
        settings=NUM.extra_probe_arguments(),
        seed=config["seed"],
    shell:
        "python -m reprobe numeracy probe --vectors={input:q} --format=kv "
        "--model={wildcards.model:q} {params.settings:q} --seed={params.seed:q} "
        "--output={output:q} 2> {log:q}"


rule numeracy_pmi:
    input:
        list(NUM.corpus_parts.values()),
    output:
        f"{NUM_RESULTS}/scores/pmi.csv",
    log:
        "logs/numeracy_pmi.log",
    benchmark:
        "logs/numeracy_pmi.benchmark.tsv"
    # Killed for memory: once more with twice as much (resources.grows_with_attempt).
    retries: 1
    conda:
        ENVS / "numeracy.yaml"
    threads: 1
    resources:
        **NUM.resources("numeracy_pmi"),
    params:
        sentences=NUM.pmi_sentences,
        settings=NUM.pmi_arguments(),
        seed=config["seed"],
    shell:
        "python -m reprobe numeracy pmi {params.sentences:q} {params.settings:q} "
        "--seed={params.seed:q} --output={output:q} 2> {log:q}"


rule numeracy_table:
    input:
        scores=NUM.table_scores,
        reference=str(REFERENCE / "numeracy/table{n}.csv"),
    output:
        csv="results/tables/numeracy/table{n}.csv",
        md="results/tables/numeracy/table{n}.md",
    log:
        "logs/numeracy_table/table{n}.log",
    benchmark:
        "logs/numeracy_table/table{n}.benchmark.tsv"
    wildcard_constraints:
        n="[1-9]",
    # A table from small files: seconds of work, run where Snakemake runs, not queued.
    localrule: True
    conda:
        ENVS / "core.yaml"
    threads: 1
    resources:
        **job_resources("numeracy_table"),
    params:
        rules=NUM.test_rules,
        beyond=NUM.beyond_paper_option(),
    shell:
        "python -m reprobe numeracy table {params.beyond:q} --table=table{wildcards.n:q} "
        "--reference={input.reference:q} --csv={output.csv:q} --md={output.md:q} "
        "{params.rules:q} {input.scores:q} 2> {log:q}"


rule numeracy_export:
    input:
        NUM_EXPORTS.inputs,
    output:
        # The card, not the folder: a folder output leaves a Snakemake marker among the data.
        f"{NUM_EXPORTS_DIR}/{{number_set}}/README.md",
    log:
        "logs/numeracy_export/{number_set}.log",
    benchmark:
        "logs/numeracy_export/{number_set}.benchmark.tsv"
    wildcard_constraints:
        number_set="|".join(re.escape(name) for name in NUM_EXPORTS.sets) or "no-sets",
    conda:
        ENVS / "numeracy.yaml"
    threads: 1
    resources:
        **job_resources("numeracy_export"),
    params:
        arguments=NUM_EXPORTS.arguments,
        folder=lambda wildcards, output: Path(output[0]).parent,
    shell:
        "python -m reprobe numeracy export {params.arguments:q} --output={params.folder:q} "
        "2> {log:q}"
