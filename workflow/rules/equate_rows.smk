# Table 6's rows: the HYP model, the neural checkpoints (tiny or fetched) and each row's
# predictions and scores on every set (included by equate.smk).


rule equate_train_hyp:
    input:
        EQ.input_target("nli_train"),
    output:
        f"{EQ_MODELS}/hyp.bin",
    log:
        "logs/equate_train_hyp.log",
    benchmark:
        "logs/equate_train_hyp.benchmark.tsv"
    conda:
        ENVS / "equate.yaml"
    threads: 1
    resources:
        **job_resources("equate_train_hyp"),
    params:
        train=EQ.input_param("nli_train"),
        seed=config["seed"],
        settings=EQ.hyp_arguments(),
    shell:
        "python -m reprobe equate train-hyp --train={params.train:q} --output={output:q} "
        "--seed={params.seed:q} {params.settings:q} 2> {log:q}"


rule equate_tiny_model:
    input:
        EQ.input_target("nli_train"),
    output:
        directory(f"{EQ_MODELS}/neural/{{model}}"),
    log:
        "logs/equate_tiny_model/{model}.log",
    benchmark:
        "logs/equate_tiny_model/{model}.benchmark.tsv"
    wildcard_constraints:
        model="|".join(re.escape(m) for m in EQ.tiny) or "no-models",
    conda:
        ENVS / "equate.yaml"
    threads: 1
    resources:
        **job_resources("equate_tiny_model"),
    params:
        train=EQ.input_param("nli_train"),
        seed=config["seed"],
        settings=EQ.tiny_arguments,
    shell:
        "python -m reprobe equate tiny-model --train={params.train:q} --output-dir={output:q} "
        "--seed={params.seed:q} {params.settings:q} 2> {log:q}"


rule equate_checkpoint:
    input:
        unpack(EQ.checkpoint_files),
    output:
        directory(f"{EQ_MODELS}/neural/{{model}}"),
    log:
        "logs/equate_checkpoint/{model}.log",
    benchmark:
        "logs/equate_checkpoint/{model}.benchmark.tsv"
    wildcard_constraints:
        model="|".join(re.escape(m) for m in EQ.fetched) or "no-models",
    conda:
        ENVS / "equate.yaml"
    threads: 1
    resources:
        **job_resources("equate_checkpoint"),
    params:
        files=EQ.checkpoint_arguments,
    shell:
        # NAME=PATH pairs last, after `--`: a hub file name from the config may begin with -.
        "python -m reprobe equate checkpoint --output-dir={output:q} -- {params.files:q} "
        "2> {log:q}"


# A row on every set of a variant that is scored whole: its model loads once (row_jobs.py).
for eq_variant in EQ_ROWS.variants():

    rule:
        name:
            f"equate_score_{eq_variant}"
        input:
            unpack(EQ_ROWS.inputs(eq_variant)),
        output:
            scores=EQ_ROWS.outputs(eq_variant, "scores"),
            predictions=EQ_ROWS.outputs(eq_variant, "predictions"),
        log:
            f"logs/equate_score_{eq_variant}/{{model}}.log",
        benchmark:
            f"logs/equate_score_{eq_variant}/{{model}}.benchmark.tsv"
        wildcard_constraints:
            model=EQ_ROWS.model_pattern(eq_variant),
        conda:
            ENVS / "equate.yaml"
        threads: 1
        resources:
            mem_mb=EQ.score_mem_mb,
            runtime=EQ.score_runtime,
        params:
            arguments=EQ_ROWS.arguments(eq_variant),
        shell:
            "python -m reprobe equate score {params.arguments:q} --threads={threads:q} "
            "--scores {output.scores:q} --predictions {output.predictions:q} 2> {log:q}"


# A set spread over shards (equate.score_shards): a job per shard, and one that gathers them.
rule equate_score_shard:
    input:
        unpack(EQ.score_inputs),
    output:
        f"{EQ_RESULTS}/shards/{{variant}}/{{test_set}}/{{model}}/{{shard}}of{{shards}}.jsonl",
    log:
        "logs/equate_score_shard/{variant}/{test_set}/{model}/{shard}of{shards}.log",
    benchmark:
        "logs/equate_score_shard/{variant}/{test_set}/{model}/{shard}of{shards}.benchmark.tsv"
    wildcard_constraints:
        shard=r"\d+",
        shards=r"\d+",
    conda:
        ENVS / "equate.yaml"
    threads: 1
    resources:
        mem_mb=EQ.score_mem_mb,
        runtime=EQ.score_runtime,
    params:
        arguments=EQ.score_arguments,
    shell:
        "python -m reprobe equate score {params.arguments:q} --test-set={wildcards.test_set:q} "
        "--variant={wildcards.variant:q} --threads={threads:q} --shard={wildcards.shard:q} "
        "--shards={wildcards.shards:q} --predictions={output:q} 2> {log:q}"


rule equate_score:
    input:
        unpack(EQ.score_inputs),
        shards=EQ.score_shards,
    output:
        scores=f"{EQ_RESULTS}/scores/{{variant}}/{{test_set}}/{{model}}.csv",
        predictions=f"{EQ_RESULTS}/predictions/{{variant}}/{{test_set}}/{{model}}.jsonl",
    log:
        "logs/equate_score/{variant}/{test_set}/{model}.log",
    benchmark:
        "logs/equate_score/{variant}/{test_set}/{model}.benchmark.tsv"
    wildcard_constraints:
        test_set=EQ_ROWS.sharded_pattern(),
    conda:
        ENVS / "equate.yaml"
    threads: 1
    resources:
        mem_mb=EQ.score_mem_mb,
        runtime=EQ.score_runtime,
    params:
        arguments=EQ.score_arguments,
        gather=EQ.gather_options,
    shell:
        "python -m reprobe equate score {params.arguments:q} --test-set={wildcards.test_set:q} "
        "--variant={wildcards.variant:q} --threads={threads:q} --scores={output.scores:q} "
        "--predictions={output.predictions:q} {params.gather:q} 2> {log:q}"
