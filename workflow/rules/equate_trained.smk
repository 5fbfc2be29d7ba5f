# The trained baselines of Table 6 (ALIGN, CBOW, BiLSTM, CH, InferSent, SSEN, ESIM): one shared
# vocabulary with its pretrained vectors, a training job per row, and Table 7 (included by
# equate.smk; what each reads: reprobe/equate/trained_targets.py).


rule equate_vocabulary:
    input:
        **EQ_TRAINED.vocabulary_inputs(),
    output:
        directory(EQ_VOCABULARY),
    log:
        "logs/equate_vocabulary.log",
    benchmark:
        "logs/equate_vocabulary.benchmark.tsv"
    conda:
        ENVS / "equate.yaml"
    threads: 1
    resources:
        **job_resources("equate_vocabulary"),
    params:
        train=EQ.input_param("nli_train", "train"),
        vectors=EQ.input_param("word_vectors", "vectors"),
    shell:
        "python -m reprobe equate vocabulary --train={params.train:q} "
        "--vectors={params.vectors:q} --output={output:q} 2> {log:q}"


rule equate_train_baseline:
    input:
        unpack(EQ_TRAINED.train_inputs),
    output:
        directory(f"{EQ_MODELS}/trained/{{model}}"),
    log:
        "logs/equate_train_baseline/{model}.log",
    benchmark:
        "logs/equate_train_baseline/{model}.benchmark.tsv"
    wildcard_constraints:
        model=EQ_TRAINED.model_pattern(),
    conda:
        ENVS / "equate.yaml"
    threads: EQ_TRAINED.threads
    resources:
        mem_mb=EQ_TRAINED.train_mem_mb,
        runtime=EQ_TRAINED.train_runtime,
        gpu=EQ_TRAINED.gpus,
    params:
        train=EQ.input_param("nli_train", "train"),
        dev=EQ.input_param("nli_dev", "dev"),
        seed=config["seed"],
        settings=EQ_TRAINED.row_settings,
    shell:
        "python -m reprobe equate train-baseline --train={params.train:q} --dev={params.dev:q} "
        "--vocabulary={input.vocabulary:q} --output-dir={output:q} --seed={params.seed:q} "
        "--threads={threads:q} {params.settings:q} 2> {log:q}"


rule equate_table7:
    input:
        scores=EQ_TRAINED.table7_scores(),
        reference=REFERENCE / "equate/table7.csv",
    output:
        csv=f"{EQ_TABLES}/table7.csv",
        md=f"{EQ_TABLES}/table7.md",
    log:
        "logs/equate_table7.log",
    benchmark:
        "logs/equate_table7.benchmark.tsv"
    # A table from small files: seconds of work, run where Snakemake runs, not queued.
    localrule: True
    conda:
        ENVS / "equate.yaml"
    threads: 1
    resources:
        **job_resources("equate_table7"),
    params:
        beyond=EQ.beyond_paper_option(),
    shell:
        "python -m reprobe equate table7 --reference={input.reference:q} --csv={output.csv:q} "
        "--md={output.md:q} {params.beyond:q} {input.scores:q} 2> {log:q}"
