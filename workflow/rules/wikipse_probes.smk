# WIKI-PSE part 2, the probes: Tables 2-4, their baselines and the released splits'
# statistics. Included by wikipse.smk.


rule wikipse_probe:
    input:
        splits=WP.split_inputs,
        vectors=WP.probe_vectors,
    output:
        scores=f"{WP_RESULTS}/probes/{{wp_variant}}/{{wp_model}}-{{wp_kind}}-{{wp_dim}}.csv",
        predictions=f"{WP_RESULTS}/probes/{{wp_variant}}/{{wp_model}}-{{wp_kind}}-{{wp_dim}}.npz",
    log:
        "logs/wikipse_probe/{wp_variant}/{wp_model}-{wp_kind}-{wp_dim}.log",
    benchmark:
        "logs/wikipse_probe/{wp_variant}/{wp_model}-{wp_kind}-{wp_dim}.benchmark.tsv"
    # Killed for memory: once more with twice as much (resources.grows_with_attempt).
    retries: 1
    conda:
        ENVS / "wikipse.yaml"
    threads: WP.probe_threads()
    resources:
        **WP.resources("wikipse_probe"),
    params:
        splits=WP.split_arguments,
        settings=WP.probe_arguments,
        seed=config["seed"],
    shell:
        "python -m reprobe wikipse probe {params.splits:q} "
        "--vectors={input.vectors:q} {params.settings:q} --seed={params.seed:q} "
        "--scores={output.scores:q} --predictions={output.predictions:q} 2> {log:q}"


# The same probes of an embedding beyond the paper, its words looked up plain (@x@, x, X).
use rule wikipse_probe as wikipse_extra_probe with:
    input:
        splits=WP.split_inputs,
        vectors=f"{WP_MODELS}/extra/{{wp_extra}}",
    output:
        scores=f"{WP_RESULTS}/probes/{{wp_variant}}/extra/{{wp_extra}}.csv",
        predictions=f"{WP_RESULTS}/probes/{{wp_variant}}/extra/{{wp_extra}}.npz",
    log:
        "logs/wikipse_extra_probe/{wp_variant}/{wp_extra}.log",
    benchmark:
        "logs/wikipse_extra_probe/{wp_variant}/{wp_extra}.benchmark.tsv"
    params:
        splits=WP.split_arguments,
        settings=WP.extra_probe_arguments,
        seed=config["seed"],


rule wikipse_released_stats:
    input:
        splits=WP.released_stats_inputs(),
        reference=REFERENCE / "wikipse/stats.csv",
    output:
        csv=f"{WP_TABLES}/stats_released.csv",
        md=f"{WP_TABLES}/stats_released.md",
    log:
        "logs/wikipse_released_stats.log",
    benchmark:
        "logs/wikipse_released_stats.benchmark.tsv"
    # A table from two small files: seconds of work, run where Snakemake runs, not queued.
    localrule: True
    conda:
        ENVS / "wikipse.yaml"
    threads: 1
    resources:
        **job_resources("wikipse_released_stats"),
    params:
        splits=WP.released_stats_arguments(),
        ambiguity=WP.ambiguity_argument(),
    shell:
        "python -m reprobe wikipse released-stats {params.splits:q} {params.ambiguity:q} "
        "--reference={input.reference:q} --csv={output.csv:q} --md={output.md:q} 2> {log:q}"


rule wikipse_baselines:
    input:
        WP.split_inputs,
    output:
        f"{WP_RESULTS}/probes/{{wp_variant}}/baselines.csv",
    log:
        "logs/wikipse_baselines/{wp_variant}.log",
    benchmark:
        "logs/wikipse_baselines/{wp_variant}.benchmark.tsv"
    conda:
        ENVS / "wikipse.yaml"
    threads: 1
    resources:
        **job_resources("wikipse_baselines"),
    params:
        splits=WP.split_arguments,
        ambiguity=WP.ambiguity_argument(),
        seed=config["seed"],
    shell:
        "python -m reprobe wikipse baselines {params.splits:q} {params.ambiguity:q} "
        "--seed={params.seed:q} "
        "--scores={output:q} 2> {log:q}"


rule wikipse_table:
    input:
        scores=WP.probe_scores,
        reference=REFERENCE / "wikipse/{wp_table}.csv",
    output:
        csv=f"{WP_TABLES}/{{wp_table}}_{{wp_variant}}.csv",
        md=f"{WP_TABLES}/{{wp_table}}_{{wp_variant}}.md",
    log:
        "logs/wikipse_table/{wp_table}_{wp_variant}.log",
    benchmark:
        "logs/wikipse_table/{wp_table}_{wp_variant}.benchmark.tsv"
    wildcard_constraints:
        wp_table="table2|table3|table4",
    # A table from small files: seconds of work, run where Snakemake runs, not queued.
    localrule: True
    conda:
        ENVS / "wikipse.yaml"
    threads: 1
    resources:
        **job_resources("wikipse_table"),
    params:
        ambiguity=WP.ambiguity_argument(),
    shell:
        "python -m reprobe wikipse table --table={wildcards.wp_table:q} {params.ambiguity:q} "
        "--variant={wildcards.wp_variant:q} --reference={input.reference:q} --csv={output.csv:q} "
        "--md={output.md:q} {input.scores:q} 2> {log:q}"


rule wikipse_variants_table:
    input:
        scores=WP.variants_scores,
        reference=REFERENCE / "wikipse/{wp_table}.csv",
    output:
        csv=f"{WP_TABLES}/{{wp_table}}_variants.csv",
        md=f"{WP_TABLES}/{{wp_table}}_variants.md",
    log:
        "logs/wikipse_variants_table/{wp_table}.log",
    benchmark:
        "logs/wikipse_variants_table/{wp_table}.benchmark.tsv"
    wildcard_constraints:
        wp_table="table2|table4",
    # A table from small files: seconds of work, run where Snakemake runs, not queued.
    localrule: True
    conda:
        ENVS / "wikipse.yaml"
    threads: 1
    resources:
        **job_resources("wikipse_variants_table"),
    params:
        ambiguity=WP.ambiguity_argument(),
        scores=WP.variants_arguments,
    shell:
        "python -m reprobe wikipse variants --table={wildcards.wp_table:q} {params.ambiguity:q} "
        "--reference={input.reference:q} --csv={output.csv:q} --md={output.md:q} {params.scores:q} "
        "2> {log:q}"


rule wikipse_public:
    input:
        WP.public_inputs,
    output:
        f"{WP_RESULTS}/probes/{{wp_variant}}/public.csv",
    log:
        "logs/wikipse_public/{wp_variant}.log",
    benchmark:
        "logs/wikipse_public/{wp_variant}.benchmark.tsv"
    conda:
        ENVS / "wikipse.yaml"
    threads: WP.probe_threads()
    resources:
        **WP.resources("wikipse_public"),
    params:
        arguments=WP.public_arguments,
        seed=config["seed"],
    shell:
        "python -m reprobe wikipse public {params.arguments:q} --seed={params.seed:q} "
        "--scores={output:q} 2> {log:q}"
