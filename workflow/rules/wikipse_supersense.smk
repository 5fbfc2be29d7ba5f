# WIKI-PSE Table 8 (Appendix D): UKP's supersense-annotated Wikipedia and embeddings.
# Included by wikipse.smk.


rule wikipse_supersense_dataset:
    input:
        WP.supersense_inputs().get("corpus", []),
    output:
        train=f"{WP_DATA}/supersense/train.tsv",
        test=f"{WP_DATA}/supersense/test.tsv",
        card=f"{WP_DATA}/supersense/card.json",
    log:
        "logs/wikipse_supersense_dataset.log",
    benchmark:
        "logs/wikipse_supersense_dataset.benchmark.tsv"
    # Killed for memory: once more with twice as much (resources.grows_with_attempt).
    retries: 1
    conda:
        ENVS / "wikipse.yaml"
    threads: 1
    resources:
        **WP.resources("wikipse_supersense_dataset"),
    params:
        arguments=WP.supersense_dataset_arguments(),
        folder=lambda wildcards, output: Path(output.card).parent,
        seed=config["seed"],
    shell:
        "python -m reprobe wikipse supersense-dataset {params.arguments:q} "
        "--seed={params.seed:q} --output-dir={params.folder:q} 2> {log:q}"


rule wikipse_supersense_probe:
    input:
        train=rules.wikipse_supersense_dataset.output.train,
        test=rules.wikipse_supersense_dataset.output.test,
        embeddings=WP.supersense_inputs().get("embeddings", []),
    output:
        f"{WP_RESULTS}/probes/supersense/table8.csv",
    log:
        "logs/wikipse_supersense_probe.log",
    benchmark:
        "logs/wikipse_supersense_probe.benchmark.tsv"
    # Killed for memory: once more with twice as much (resources.grows_with_attempt).
    retries: 1
    conda:
        ENVS / "wikipse.yaml"
    threads: WP.probe_threads()
    resources:
        **WP.resources("wikipse_supersense_probe"),
    params:
        arguments=WP.supersense_probe_arguments(),
        seed=config["seed"],
    shell:
        "python -m reprobe wikipse supersense-probe --train={input.train:q} --test={input.test:q} "
        "{params.arguments:q} --seed={params.seed:q} --scores={output:q} 2> {log:q}"


rule wikipse_table8:
    input:
        scores=rules.wikipse_supersense_probe.output,
        reference=REFERENCE / "wikipse/table8.csv",
    output:
        csv=f"{WP_TABLES}/table8.csv",
        md=f"{WP_TABLES}/table8.md",
    log:
        "logs/wikipse_table8.log",
    benchmark:
        "logs/wikipse_table8.benchmark.tsv"
    # A table from small files: seconds of work, run where Snakemake runs, not queued.
    localrule: True
    conda:
        ENVS / "wikipse.yaml"
    threads: 1
    resources:
        **job_resources("wikipse_table8"),
    shell:
        "python -m reprobe wikipse table --table=table8 --variant=supersense "
        "--reference={input.reference:q} --csv={output.csv:q} --md={output.md:q} {input.scores:q} "
        "2> {log:q}"


# The supersense dataset as a Hugging Face dataset folder: reprobe/wikipse/supersense_exports.py.
rule wikipse_supersense_export:
    input:
        train=rules.wikipse_supersense_dataset.output.train,
        test=rules.wikipse_supersense_dataset.output.test,
        card=rules.wikipse_supersense_dataset.output.card,
    output:
        # The card, not the folder: a folder output leaves a Snakemake marker among the data.
        f"{WP_EXPORTS_DIR}/supersense/README.md",
    log:
        "logs/wikipse_supersense_export.log",
    benchmark:
        "logs/wikipse_supersense_export.benchmark.tsv"
    conda:
        ENVS / "wikipse.yaml"
    threads: 1
    resources:
        **job_resources("wikipse_supersense_export"),
    params:
        sources=WP_EXPORTS.supersense_arguments(),
        folder=lambda wildcards, output: Path(output[0]).parent,
    shell:
        "python -m reprobe wikipse supersense-export --train={input.train:q} "
        "--test={input.test:q} --card={input.card:q} {params.sources:q} --output={params.folder:q} "
        "2> {log:q}"
