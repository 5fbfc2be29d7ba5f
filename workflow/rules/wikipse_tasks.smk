# WIKI-PSE part 2, beyond the probes: Table 5's NLP tasks, Table 6's similarity sets, the
# analyses (Figures 3-6, Table 7), and all of them for the authors' corpus. Included by
# wikipse.smk.


rule wikipse_nlp:
    input:
        WP.nlp_inputs(),
    output:
        f"{WP_RESULTS}/nlp.csv",
    log:
        "logs/wikipse_nlp.log",
    benchmark:
        "logs/wikipse_nlp.benchmark.tsv"
    conda:
        ENVS / "wikipse.yaml"
    threads: 1
    resources:
        **WP.resources("wikipse_nlp"),
    params:
        arguments=WP.nlp_arguments(),
        seed=config["seed"],
    shell:
        "python -m reprobe wikipse nlp {params.arguments:q} --seed={params.seed:q} "
        "--scores={output:q} 2> {log:q}"


rule wikipse_mc:
    input:
        WP.mc_inputs(),
    output:
        f"{WP_RESULTS}/mc.csv",
    log:
        "logs/wikipse_mc.log",
    benchmark:
        "logs/wikipse_mc.benchmark.tsv"
    conda:
        ENVS / "wikipse.yaml"
    threads: 1
    resources:
        **WP.resources("wikipse_mc"),
        gpu=WP.mc_gpus(),
    params:
        arguments=WP.mc_arguments(),
        seed=config["seed"],
    shell:
        "python -m reprobe wikipse mc {params.arguments:q} --seed={params.seed:q} "
        "--scores={output:q} 2> {log:q}"


rule wikipse_table5:
    input:
        scores=WP.table5_scores(),
        reference=REFERENCE / "wikipse/table5.csv",
    output:
        csv=f"{WP_TABLES}/table5.csv",
        md=f"{WP_TABLES}/table5.md",
    log:
        "logs/wikipse_table5.log",
    benchmark:
        "logs/wikipse_table5.benchmark.tsv"
    # A table from small files: seconds of work, run where Snakemake runs, not queued.
    localrule: True
    conda:
        ENVS / "wikipse.yaml"
    threads: 1
    resources:
        **job_resources("wikipse_table5"),
    params:
        variant="rebuilt",
    shell:
        "python -m reprobe wikipse table --table=table5 --variant={params.variant:q} "
        "--reference={input.reference:q} --csv={output.csv:q} --md={output.md:q} {input.scores:q} "
        "2> {log:q}"


rule wikipse_similarity:
    input:
        WP.similarity_inputs(),
        reference=REFERENCE / "wikipse/table6.csv",
    output:
        csv=f"{WP_TABLES}/table6.csv",
        md=f"{WP_TABLES}/table6.md",
    log:
        "logs/wikipse_similarity.log",
    benchmark:
        "logs/wikipse_similarity.benchmark.tsv"
    conda:
        ENVS / "wikipse.yaml"
    threads: 1
    resources:
        **WP.resources("wikipse_similarity"),
    params:
        arguments=WP.similarity_arguments(),
    shell:
        "python -m reprobe wikipse similarity --reference={input.reference:q} "
        "--csv={output.csv:q} --md={output.md:q} {params.arguments:q} 2> {log:q}"


rule wikipse_analyses:
    input:
        **WP.analysis_inputs(),
    output:
        WP.analysis_outputs(),
    log:
        "logs/wikipse_analyses.log",
    benchmark:
        "logs/wikipse_analyses.benchmark.tsv"
    # Killed for memory: once more with twice as much (resources.grows_with_attempt).
    retries: 1
    conda:
        ENVS / "wikipse.yaml"
    threads: 1
    resources:
        **WP.resources("wikipse_analyses"),
    params:
        arguments=WP.analysis_arguments(),
        out=lambda wildcards, output: Path(output[0]).parent,
    shell:
        "python -m reprobe wikipse analyses --word-vectors={input.vectors:q} "
        "--output-dir={params.out:q} {params.arguments:q} 2> {log:q}"


# Tables 5-7 and Figures 3-6 once more for embeddings trained on the authors' corpus, on the
# released words (files named `…_authors_corpus`).
use rule wikipse_nlp as wikipse_nlp_authors with:
    input:
        WP.nlp_inputs("authors_corpus"),
    output:
        f"{WP_RESULTS}/nlp_authors_corpus.csv",
    log:
        "logs/wikipse_nlp_authors.log",
    benchmark:
        "logs/wikipse_nlp_authors.benchmark.tsv"
    params:
        arguments=WP.nlp_arguments("authors_corpus"),
        seed=config["seed"],


use rule wikipse_mc as wikipse_mc_authors with:
    input:
        WP.mc_inputs("authors_corpus"),
    output:
        f"{WP_RESULTS}/mc_authors_corpus.csv",
    log:
        "logs/wikipse_mc_authors.log",
    benchmark:
        "logs/wikipse_mc_authors.benchmark.tsv"
    params:
        arguments=WP.mc_arguments("authors_corpus"),
        seed=config["seed"],


use rule wikipse_table5 as wikipse_table5_authors with:
    input:
        scores=WP.table5_scores("authors_corpus"),
        reference=REFERENCE / "wikipse/table5.csv",
    output:
        csv=f"{WP_TABLES}/table5_authors_corpus.csv",
        md=f"{WP_TABLES}/table5_authors_corpus.md",
    log:
        "logs/wikipse_table5_authors.log",
    benchmark:
        "logs/wikipse_table5_authors.benchmark.tsv"
    params:
        variant="authors_corpus",


use rule wikipse_similarity as wikipse_similarity_authors with:
    input:
        WP.similarity_inputs("authors_corpus"),
        reference=REFERENCE / "wikipse/table6.csv",
    output:
        csv=f"{WP_TABLES}/table6_authors_corpus.csv",
        md=f"{WP_TABLES}/table6_authors_corpus.md",
    log:
        "logs/wikipse_similarity_authors.log",
    benchmark:
        "logs/wikipse_similarity_authors.benchmark.tsv"
    params:
        arguments=WP.similarity_arguments("authors_corpus"),


use rule wikipse_analyses as wikipse_analyses_authors with:
    input:
        **WP.analysis_inputs("authors_corpus"),
    output:
        WP.analysis_outputs("authors_corpus"),
    log:
        "logs/wikipse_analyses_authors.log",
    benchmark:
        "logs/wikipse_analyses_authors.benchmark.tsv"
    params:
        arguments=WP.analysis_arguments("authors_corpus"),
        out=lambda wildcards, output: Path(output[0]).parent,
