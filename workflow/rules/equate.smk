# EQUATE (Ravichander et al. 2019): the five test sets rebuilt from raw sources, MAJ, HYP,
# neural NLI rows and Q-REAS on released and rebuilt sets, Table 6, §5.1's perturbation study.

from reprobe.equate.export_targets import EXPORTS as EQ_EXPORTS_DIR, EquateExports
from reprobe.equate.targets import (
    DATA as EQ_DATA,
    MODELS as EQ_MODELS,
    RESULTS as EQ_RESULTS,
    TABLES as EQ_TABLES,
    EquateTargets,
)

# Every input, parameter and target list of these rules: reprobe/equate/targets.py.
EQ = EquateTargets(config, raw_target, raw_file)
STAGE_TABLES["equate"] = EQ.tables
# Each evaluated set as a Hugging Face dataset folder: reprobe/equate/export_targets.py.
EQ_EXPORTS = EquateExports(EQ, config.get("sources", {}))
STAGE_EXPORTS["equate"] = [*EQ_EXPORTS.folders, f"{EQ_EXPORTS_DIR}/lm_eval"]


wildcard_constraints:
    variant="|".join(EQ.sets),
    test_set="|".join(s for sets in EQ.sets.values() for s in sets) or "no-sets",
    model="|".join(re.escape(m) for m in EQ.rows),
    version="conll|arxiv",


rule equate_awpnli:
    input:
        EQ.input_target("arithmetic"),
        folds=EQ.fold_targets(),
    output:
        f"{EQ_DATA}/rebuilt/awpnli.jsonl",
    log:
        "logs/equate_awpnli.log",
    conda:
        ENVS / "equate.yaml"
    threads: 1
    resources:
        mem_mb=1024,
        runtime=30,
    params:
        problems=EQ.input_param("arithmetic"),
        seed=config["seed"],
    shell:
        "python -m reprobe equate awpnli --problems {params.problems:q} --output {output:q} "
        "--seed {params.seed:q} {input.folds:q} 2> {log:q}"


rule equate_stresstest:
    input:
        EQ.input_target("aqua"),
    output:
        f"{EQ_DATA}/rebuilt/stresstest.jsonl",
    log:
        "logs/equate_stresstest.log",
    conda:
        ENVS / "equate.yaml"
    threads: 1
    resources:
        mem_mb=2048,
        runtime=60,
    params:
        aqua=EQ.input_param("aqua"),
        seed=config["seed"],
        cap=EQ.stresstest_options(),
    shell:
        "python -m reprobe equate stresstest --aqua {params.aqua:q} --output {output:q} "
        "--seed {params.seed:q} {params.cap:q} 2> {log:q}"


rule equate_newsnli_shard:
    input:
        EQ.input_target("cnn_stories"),
    output:
        parquet=f"{EQ_DATA}/shards/newsnli/{{shard}}.parquet",
        counts=f"{EQ_DATA}/shards/newsnli/{{shard}}.json",
    log:
        "logs/equate_newsnli_shard/{shard}.log",
    wildcard_constraints:
        shard=r"\d+",
    conda:
        ENVS / "equate.yaml"
    threads: 1
    resources:
        mem_mb=2048,
        runtime=120,
    params:
        stories=EQ.input_param("cnn_stories"),
        shards=config["equate"]["newsnli"]["shards"],
    shell:
        "python -m reprobe equate newsnli-shard --stories {params.stories:q} "
        "--shard {wildcards.shard:q} --shards {params.shards:q} --output {output.parquet:q} "
        "2> {log:q}"


rule equate_newsnli:
    input:
        stories=EQ.input_target("cnn_stories"),
        shards=EQ.news_shards,
    output:
        f"{EQ_DATA}/candidates/newsnli.jsonl",
    log:
        "logs/equate_newsnli.log",
    conda:
        ENVS / "equate.yaml"
    threads: 1
    resources:
        mem_mb=4096,
        runtime=60,
    params:
        stories=EQ.input_param("cnn_stories"),
    shell:
        "python -m reprobe equate newsnli --stories {params.stories:q} --output {output:q} "
        "{input.shards:q} 2> {log:q}"


rule equate_reddit_titles:
    input:
        EQ.reddit_dump,
    output:
        parquet=f"{EQ_DATA}/shards/redditnli/{{dump}}.parquet",
        counts=f"{EQ_DATA}/shards/redditnli/{{dump}}.json",
    log:
        "logs/equate_reddit_titles/{dump}.log",
    wildcard_constraints:
        dump="|".join(re.escape(d) for d in EQ.reddit_dumps),
    conda:
        ENVS / "equate.yaml"
    threads: 1
    resources:
        # Pushshift compressed with a 2 GiB window: the decoder may need that much.
        mem_mb=4096,
        runtime=240,
    shell:
        "python -m reprobe equate reddit-titles --dump {input:q} --output {output.parquet:q} "
        "2> {log:q}"


rule equate_redditnli:
    input:
        [f"{EQ_DATA}/shards/redditnli/{dump}.parquet" for dump in EQ.reddit_dumps],
    output:
        f"{EQ_DATA}/candidates/redditnli.jsonl",
    log:
        "logs/equate_redditnli.log",
    conda:
        ENVS / "equate.yaml"
    threads: 1
    resources:
        mem_mb=4096,
        runtime=60,
    params:
        settings=EQ.redditnli_arguments(),
    shell:
        "python -m reprobe equate redditnli {params.settings:q} --output {output:q} {input:q} "
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
    wildcard_constraints:
        test_set="|".join(EQ.labelled) or "no-sets",
    conda:
        ENVS / "equate.yaml"
    threads: 1
    resources:
        mem_mb=1024,
        runtime=30,
    params:
        released=EQ.released_file,
    shell:
        "python -m reprobe equate label --test-set {wildcards.test_set:q} "
        "--candidates {input.candidates:q} --released {params.released:q} "
        "--output {output.pairs:q} --recovery {output.recovery:q} 2> {log:q}"


rule equate_compare:
    input:
        rebuilt=f"{EQ_DATA}/rebuilt/{{test_set}}.jsonl",
        released=EQ.released_target,
    output:
        f"{EQ_DATA}/recovery/{{test_set}}.json",
    log:
        "logs/equate_compare/{test_set}.log",
    wildcard_constraints:
        test_set="|".join(EQ.compared) or "no-sets",
    conda:
        ENVS / "equate.yaml"
    threads: 1
    resources:
        mem_mb=2048,
        runtime=30,
    params:
        released=EQ.released_file,
    shell:
        "python -m reprobe equate recovery --test-set {wildcards.test_set:q} "
        "--rebuilt {input.rebuilt:q} --released {params.released:q} --output {output:q} 2> {log:q}"


rule equate_perturb:
    input:
        EQ.perturbation_source(),
    output:
        unperturbed=f"{EQ_DATA}/perturbation/unperturbed.jsonl",
        perturbed=f"{EQ_DATA}/perturbation/perturbed.jsonl",
    log:
        "logs/equate_perturb.log",
    conda:
        ENVS / "equate.yaml"
    threads: 1
    resources:
        mem_mb=2048,
        runtime=30,
    params:
        newsnli=EQ.perturbation_param(),
        seed=config["seed"],
    shell:
        "python -m reprobe equate perturb --newsnli {params.newsnli:q} "
        "--unperturbed {output.unperturbed:q} --perturbed {output.perturbed:q} "
        "--seed {params.seed:q} 2> {log:q}"


rule equate_train_hyp:
    input:
        EQ.input_target("nli_train"),
    output:
        f"{EQ_MODELS}/hyp.bin",
    log:
        "logs/equate_train_hyp.log",
    conda:
        ENVS / "equate.yaml"
    threads: 1
    resources:
        mem_mb=8000,
        runtime=120,
    params:
        train=EQ.input_param("nli_train"),
        seed=config["seed"],
        settings=EQ.hyp_arguments(),
    shell:
        "python -m reprobe equate train-hyp --train {params.train:q} --output {output:q} "
        "--seed {params.seed:q} {params.settings:q} 2> {log:q}"


rule equate_tiny_model:
    input:
        EQ.input_target("nli_train"),
    output:
        directory(f"{EQ_MODELS}/neural/{{model}}"),
    log:
        "logs/equate_tiny_model/{model}.log",
    wildcard_constraints:
        model="|".join(re.escape(m) for m in EQ.tiny) or "no-models",
    conda:
        ENVS / "equate.yaml"
    threads: 1
    resources:
        mem_mb=2048,
        runtime=30,
    params:
        train=EQ.input_param("nli_train"),
        seed=config["seed"],
        settings=EQ.tiny_arguments,
    shell:
        "python -m reprobe equate tiny-model --train {params.train:q} --output-dir {output:q} "
        "--seed {params.seed:q} {params.settings:q} 2> {log:q}"


rule equate_checkpoint:
    input:
        unpack(EQ.checkpoint_files),
    output:
        directory(f"{EQ_MODELS}/neural/{{model}}"),
    log:
        "logs/equate_checkpoint/{model}.log",
    wildcard_constraints:
        model="|".join(re.escape(m) for m in EQ.fetched) or "no-models",
    conda:
        ENVS / "equate.yaml"
    threads: 1
    resources:
        mem_mb=1024,
        runtime=30,
    params:
        files=EQ.checkpoint_arguments,
    shell:
        "python -m reprobe equate checkpoint --output-dir {output:q} {params.files:q} 2> {log:q}"


rule equate_score_shard:
    input:
        unpack(EQ.score_inputs),
    output:
        f"{EQ_RESULTS}/shards/{{variant}}/{{test_set}}/{{model}}/{{shard}}of{{shards}}.jsonl",
    log:
        "logs/equate_score_shard/{variant}/{test_set}/{model}/{shard}of{shards}.log",
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
        "python -m reprobe equate score {params.arguments:q} --test-set {wildcards.test_set:q} "
        "--variant {wildcards.variant:q} --threads {threads:q} --shard {wildcards.shard:q} "
        "--shards {wildcards.shards:q} --predictions {output:q} 2> {log:q}"


rule equate_score:
    input:
        unpack(EQ.score_inputs),
        shards=EQ.score_shards,
    output:
        scores=f"{EQ_RESULTS}/scores/{{variant}}/{{test_set}}/{{model}}.csv",
        predictions=f"{EQ_RESULTS}/predictions/{{variant}}/{{test_set}}/{{model}}.jsonl",
    log:
        "logs/equate_score/{variant}/{test_set}/{model}.log",
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
        "python -m reprobe equate score {params.arguments:q} --test-set {wildcards.test_set:q} "
        "--variant {wildcards.variant:q} --threads {threads:q} --scores {output.scores:q} "
        "--predictions {output.predictions:q} {params.gather:q} 2> {log:q}"


rule equate_table6:
    input:
        scores=EQ.table_scores,
        predictions=EQ.table_predictions,
        reference=REFERENCE / "equate/table6_{version}.csv",
    output:
        csv=f"{EQ_TABLES}/table6_{{variant}}_{{version}}.csv",
        md=f"{EQ_TABLES}/table6_{{variant}}_{{version}}.md",
    log:
        "logs/equate_table6/{variant}_{version}.log",
    wildcard_constraints:
        variant="released|rebuilt",
    # A table from small files: seconds of work, run where Snakemake runs, not queued.
    localrule: True
    conda:
        ENVS / "equate.yaml"
    threads: 1
    resources:
        mem_mb=1024,
        runtime=10,
    params:
        predictions=EQ.table_options,
    shell:
        "python -m reprobe equate table6 --reference {input.reference:q} --csv {output.csv:q} "
        "--md {output.md:q} {params.predictions:q} {input.scores:q} 2> {log:q}"


rule equate_perturbation_table:
    input:
        scores=EQ.variant_scores("perturbation"),
        reference=REFERENCE / f"equate/table6_{EQ.reference_version}.csv",
    output:
        csv=f"{EQ_TABLES}/perturbation.csv",
        md=f"{EQ_TABLES}/perturbation.md",
    log:
        "logs/equate_perturbation_table.log",
    # A table from small files: seconds of work, run where Snakemake runs, not queued.
    localrule: True
    conda:
        ENVS / "equate.yaml"
    threads: 1
    resources:
        mem_mb=1024,
        runtime=10,
    params:
        beyond=EQ.beyond_paper_option(),
    shell:
        "python -m reprobe equate perturbation-table --reference {input.reference:q} "
        "--csv {output.csv:q} --md {output.md:q} {params.beyond:q} {input.scores:q} 2> {log:q}"


rule equate_recovery_table:
    input:
        EQ.recovery_files,
    output:
        csv=f"{EQ_TABLES}/recovery.csv",
        md=f"{EQ_TABLES}/recovery.md",
    log:
        "logs/equate_recovery_table.log",
    # A table from small files: seconds of work, run where Snakemake runs, not queued.
    localrule: True
    conda:
        ENVS / "equate.yaml"
    threads: 1
    resources:
        mem_mb=1024,
        runtime=10,
    shell:
        "python -m reprobe equate recovery-table --csv {output.csv:q} --md {output.md:q} "
        "{input:q} 2> {log:q}"


rule equate_export:
    input:
        unpack(EQ_EXPORTS.inputs),
    output:
        directory(f"{EQ_EXPORTS_DIR}/{{dataset}}"),
    log:
        "logs/equate_export/{dataset}.log",
    wildcard_constraints:
        dataset="|".join(EQ_EXPORTS.sets) or "no-sets",
    conda:
        ENVS / "equate.yaml"
    threads: 1
    resources:
        mem_mb=1024,
        runtime=20,
    params:
        arguments=EQ_EXPORTS.arguments,
    shell:
        "python -m reprobe equate export {params.arguments:q} --output {output:q} 2> {log:q}"


rule equate_harness_tasks:
    input:
        EQ_EXPORTS.folders,
    output:
        directory(f"{EQ_EXPORTS_DIR}/lm_eval"),
    log:
        "logs/equate_harness_tasks.log",
    conda:
        ENVS / "equate.yaml"
    threads: 1
    resources:
        mem_mb=512,
        runtime=10,
    shell:
        "python -m reprobe equate harness-tasks --output {output:q} {input:q} 2> {log:q}"
