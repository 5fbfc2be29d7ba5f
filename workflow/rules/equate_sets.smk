# EQUATE's five test sets rebuilt from raw sources, their labels and recovery, and §5.1's
# perturbed NewsNLI pairs (included by equate.smk).


rule equate_awpnli:
    input:
        EQ.input_target("arithmetic"),
        folds=EQ.fold_targets(),
    output:
        f"{EQ_DATA}/rebuilt/awpnli.jsonl",
    log:
        "logs/equate_awpnli.log",
    benchmark:
        "logs/equate_awpnli.benchmark.tsv"
    conda:
        ENVS / "equate.yaml"
    threads: 1
    resources:
        **job_resources("equate_awpnli"),
    params:
        problems=EQ.input_param("arithmetic"),
        seed=config["seed"],
    shell:
        "python -m reprobe equate awpnli --problems={params.problems:q} --output={output:q} "
        "--seed={params.seed:q} {input.folds:q} 2> {log:q}"


rule equate_stresstest:
    input:
        EQ.input_target("aqua"),
    output:
        f"{EQ_DATA}/rebuilt/stresstest.jsonl",
    log:
        "logs/equate_stresstest.log",
    benchmark:
        "logs/equate_stresstest.benchmark.tsv"
    conda:
        ENVS / "equate.yaml"
    threads: 1
    resources:
        **job_resources("equate_stresstest"),
    params:
        aqua=EQ.input_param("aqua"),
        seed=config["seed"],
        cap=EQ.stresstest_options(),
    shell:
        "python -m reprobe equate stresstest --aqua={params.aqua:q} --output={output:q} "
        "--seed={params.seed:q} {params.cap:q} 2> {log:q}"


rule equate_newsnli_shard:
    input:
        EQ.input_target("cnn_stories"),
    output:
        parquet=f"{EQ_DATA}/shards/newsnli/{{shard}}.parquet",
        counts=f"{EQ_DATA}/shards/newsnli/{{shard}}.json",
    log:
        "logs/equate_newsnli_shard/{shard}.log",
    benchmark:
        "logs/equate_newsnli_shard/{shard}.benchmark.tsv"
    wildcard_constraints:
        shard=r"\d+",
    conda:
        ENVS / "equate.yaml"
    threads: 1
    resources:
        **job_resources("equate_newsnli_shard"),
    params:
        stories=EQ.input_param("cnn_stories"),
        shards=config["equate"]["newsnli"]["shards"],
    shell:
        "python -m reprobe equate newsnli-shard --stories={params.stories:q} "
        "--shard={wildcards.shard:q} --shards={params.shards:q} --output={output.parquet:q} "
        "2> {log:q}"


rule equate_newsnli:
    input:
        stories=EQ.input_target("cnn_stories"),
        shards=EQ.news_shards,
    output:
        f"{EQ_DATA}/candidates/newsnli.jsonl",
    log:
        "logs/equate_newsnli.log",
    benchmark:
        "logs/equate_newsnli.benchmark.tsv"
    conda:
        ENVS / "equate.yaml"
    threads: 1
    resources:
        **job_resources("equate_newsnli"),
    params:
        stories=EQ.input_param("cnn_stories"),
    shell:
        "python -m reprobe equate newsnli --stories={params.stories:q} --output={output:q} "
        "{input.shards:q} 2> {log:q}"


rule equate_reddit_titles:
    input:
        EQ.reddit_dump,
    output:
        parquet=f"{EQ_DATA}/shards/redditnli/{{dump}}.parquet",
        counts=f"{EQ_DATA}/shards/redditnli/{{dump}}.json",
    log:
        "logs/equate_reddit_titles/{dump}.log",
    benchmark:
        "logs/equate_reddit_titles/{dump}.benchmark.tsv"
    wildcard_constraints:
        dump="|".join(re.escape(d) for d in EQ.reddit_dumps),
    conda:
        ENVS / "equate.yaml"
    threads: 1
    resources:
        # Pushshift compressed with a 2 GiB window: the decoder may need that much.
        **job_resources("equate_reddit_titles"),
    shell:
        "python -m reprobe equate reddit-titles --dump={input:q} --output={output.parquet:q} "
        "2> {log:q}"


rule equate_redditnli:
    input:
        [f"{EQ_DATA}/shards/redditnli/{dump}.parquet" for dump in EQ.reddit_dumps],
    output:
        f"{EQ_DATA}/candidates/redditnli.jsonl",
    log:
        "logs/equate_redditnli.log",
    benchmark:
        "logs/equate_redditnli.benchmark.tsv"
    conda:
        ENVS / "equate.yaml"
    threads: 1
    resources:
        **job_resources("equate_redditnli"),
    params:
        settings=EQ.redditnli_arguments(),
    shell:
        "python -m reprobe equate redditnli {params.settings:q} --output={output:q} {input:q} "
        "2> {log:q}"


rule equate_label:
    input:
        candidates=f"{EQ_DATA}/candidates/{{test_set}}.jsonl",
        released=EQ.released_target,
    output:
        pairs=f"{EQ_DATA}/rebuilt/{{test_set}}.jsonl",
        recovery=f"{EQ_DATA}/recovery/{{test_set}}.json",
    log:
        "logs/equate_label/{test_set}.log",
    benchmark:
        "logs/equate_label/{test_set}.benchmark.tsv"
    wildcard_constraints:
        test_set="|".join(EQ.labelled) or "no-sets",
    conda:
        ENVS / "equate.yaml"
    threads: 1
    resources:
        **job_resources("equate_label"),
    params:
        released=EQ.released_file,
    shell:
        "python -m reprobe equate label --test-set={wildcards.test_set:q} "
        "--candidates={input.candidates:q} --released={params.released:q} "
        "--output={output.pairs:q} --recovery={output.recovery:q} 2> {log:q}"


rule equate_compare:
    input:
        rebuilt=f"{EQ_DATA}/rebuilt/{{test_set}}.jsonl",
        released=EQ.released_target,
    output:
        f"{EQ_DATA}/recovery/{{test_set}}.json",
    log:
        "logs/equate_compare/{test_set}.log",
    benchmark:
        "logs/equate_compare/{test_set}.benchmark.tsv"
    wildcard_constraints:
        test_set="|".join(EQ.compared) or "no-sets",
    conda:
        ENVS / "equate.yaml"
    threads: 1
    resources:
        **job_resources("equate_compare"),
    params:
        released=EQ.released_file,
    shell:
        "python -m reprobe equate recovery --test-set={wildcards.test_set:q} "
        "--rebuilt={input.rebuilt:q} --released={params.released:q} --output={output:q} 2> {log:q}"


rule equate_perturb:
    input:
        EQ.perturbation_source(),
    output:
        unperturbed=f"{EQ_DATA}/perturbation/unperturbed.jsonl",
        perturbed=f"{EQ_DATA}/perturbation/perturbed.jsonl",
    log:
        "logs/equate_perturb.log",
    benchmark:
        "logs/equate_perturb.benchmark.tsv"
    conda:
        ENVS / "equate.yaml"
    threads: 1
    resources:
        **job_resources("equate_perturb"),
    params:
        newsnli=EQ.perturbation_param(),
        seed=config["seed"],
    shell:
        "python -m reprobe equate perturb --newsnli={params.newsnli:q} "
        "--unperturbed={output.unperturbed:q} --perturbed={output.perturbed:q} "
        "--seed={params.seed:q} 2> {log:q}"
