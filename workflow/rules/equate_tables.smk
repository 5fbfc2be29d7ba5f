# EQUATE's tables (Table 6, §5.1, recovery), its dataset folders and lm-evaluation-harness
# tasks (included by equate.smk).


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
    benchmark:
        "logs/equate_table6/{variant}_{version}.benchmark.tsv"
    wildcard_constraints:
        variant="released|rebuilt",
    # A table from small files: seconds of work, run where Snakemake runs, not queued.
    localrule: True
    conda:
        ENVS / "equate.yaml"
    threads: 1
    resources:
        **job_resources("equate_table6"),
    params:
        predictions=EQ.table_options,
    shell:
        "python -m reprobe equate table6 --reference={input.reference:q} --csv={output.csv:q} "
        "--md={output.md:q} {params.predictions:q} {input.scores:q} 2> {log:q}"


rule equate_perturbation_table:
    input:
        scores=EQ.variant_scores("perturbation"),
        reference=REFERENCE / f"equate/table6_{EQ.reference_version}.csv",
    output:
        csv=f"{EQ_TABLES}/perturbation.csv",
        md=f"{EQ_TABLES}/perturbation.md",
    log:
        "logs/equate_perturbation_table.log",
    benchmark:
        "logs/equate_perturbation_table.benchmark.tsv"
    # A table from small files: seconds of work, run where Snakemake runs, not queued.
    localrule: True
    conda:
        ENVS / "equate.yaml"
    threads: 1
    resources:
        **job_resources("equate_perturbation_table"),
    params:
        beyond=EQ.beyond_paper_option(),
    shell:
        "python -m reprobe equate perturbation-table --reference={input.reference:q} "
        "--csv={output.csv:q} --md={output.md:q} {params.beyond:q} {input.scores:q} 2> {log:q}"


rule equate_recovery_table:
    input:
        EQ.recovery_files,
    output:
        csv=f"{EQ_TABLES}/recovery.csv",
        md=f"{EQ_TABLES}/recovery.md",
    log:
        "logs/equate_recovery_table.log",
    benchmark:
        "logs/equate_recovery_table.benchmark.tsv"
    # A table from small files: seconds of work, run where Snakemake runs, not queued.
    localrule: True
    conda:
        ENVS / "equate.yaml"
    threads: 1
    resources:
        **job_resources("equate_recovery_table"),
    shell:
        "python -m reprobe equate recovery-table --csv={output.csv:q} --md={output.md:q} "
        "{input:q} 2> {log:q}"


rule equate_export:
    input:
        unpack(EQ_EXPORTS.inputs),
    output:
        # The card, not the folder: a folder output leaves a Snakemake marker among the data.
        f"{EQ_EXPORTS_DIR}/{{dataset}}/README.md",
    log:
        "logs/equate_export/{dataset}.log",
    benchmark:
        "logs/equate_export/{dataset}.benchmark.tsv"
    wildcard_constraints:
        dataset="|".join(EQ_EXPORTS.sets) or "no-sets",
    conda:
        ENVS / "equate.yaml"
    threads: 1
    resources:
        **job_resources("equate_export"),
    params:
        arguments=EQ_EXPORTS.arguments,
        folder=lambda wildcards, output: Path(output[0]).parent,
    shell:
        "python -m reprobe equate export {params.arguments:q} --output={params.folder:q} "
        "2> {log:q}"


rule equate_harness_tasks:
    input:
        EQ_EXPORTS.set_cards,
    output:
        f"{EQ_EXPORTS_DIR}/lm_eval/README.md",
    log:
        "logs/equate_harness_tasks.log",
    benchmark:
        "logs/equate_harness_tasks.benchmark.tsv"
    conda:
        ENVS / "equate.yaml"
    threads: 1
    resources:
        **job_resources("equate_harness_tasks"),
    params:
        folder=lambda wildcards, output: Path(output[0]).parent,
        datasets=EQ_EXPORTS.folders,
    shell:
        "python -m reprobe equate harness-tasks --output={params.folder:q} "
        "{params.datasets:q} 2> {log:q}"
