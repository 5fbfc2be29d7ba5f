# WIKI-PSE part 1, the embeddings: SKIP/SSKIP trained here or on the authors' corpora, the
# authors' and extra embeddings imported, unifΣ/wghtΣ. Included by wikipse.smk.


rule wikipse_embed:
    input:
        f"{WP_DATA}/corpus/{{wp_corpus}}.txt",
    output:
        directory(f"{WP_MODELS}/{{wp_model}}-{{wp_corpus}}-{{wp_dim}}"),
    log:
        "logs/wikipse_embed/{wp_model}-{wp_corpus}-{wp_dim}.log",
    benchmark:
        "logs/wikipse_embed/{wp_model}-{wp_corpus}-{wp_dim}.benchmark.tsv"
    # Killed for memory: once more with twice as much (resources.grows_with_attempt).
    retries: 1
    conda:
        ENVS / "wikipse.yaml"
    threads: WP.workers()
    resources:
        **WP.resources("wikipse_embed"),
    params:
        corpus=lambda wildcards, input: input[0],
        settings=WP.embedding_arguments,
        seed=config["seed"],
    shell:
        "python -m reprobe wikipse embed {params.settings:q} --seed={params.seed:q} "
        "--corpus={params.corpus:q} --output={output:q} 2> {log:q}"


# The same training on the authors' own corpora (the bundle's corpus.txt and
# word_sclass/corpus.txt), for the authors_corpus variant.
use rule wikipse_embed as wikipse_embed_authors with:
    input:
        WP.authors_corpus_target,
    output:
        directory(f"{WP_MODELS}/authors_corpus/{{wp_model}}-{{wp_corpus}}-{{wp_dim}}"),
    log:
        "logs/wikipse_embed_authors/{wp_model}-{wp_corpus}-{wp_dim}.log",
    benchmark:
        "logs/wikipse_embed_authors/{wp_model}-{wp_corpus}-{wp_dim}.benchmark.tsv"
    params:
        corpus=WP.authors_corpus_path,
        settings=WP.embedding_arguments,
        seed=config["seed"],


# The authors' trained vectors, each converted once to a vectors folder.
rule wikipse_authors_vectors:
    input:
        WP.authors_embedding_target,
    output:
        directory(
            f"{WP_MODELS}/authors_embeddings/{{wp_model}}-{{wp_corpus}}-{{wp_dim}}"
        ),
    log:
        "logs/wikipse_authors_vectors/{wp_model}-{wp_corpus}-{wp_dim}.log",
    benchmark:
        "logs/wikipse_authors_vectors/{wp_model}-{wp_corpus}-{wp_dim}.benchmark.tsv"
    conda:
        ENVS / "wikipse.yaml"
    threads: 1
    resources:
        **WP.resources("wikipse_authors_vectors"),
    params:
        files=WP.authors_embedding_arguments,
    shell:
        "python -m reprobe wikipse import-vectors {params.files:q} --output={output:q} 2> {log:q}"


# Each embedding beyond the paper (wikipse.extra_vectors), converted once to a vectors folder
# that its probes and Table 6 memory-map: reprobe/wikipse/extra.py.
use rule wikipse_authors_vectors as wikipse_extra_vectors with:
    input:
        WP.extra_target,
    output:
        directory(f"{WP_MODELS}/extra/{{wp_extra}}"),
    log:
        "logs/wikipse_extra_vectors/{wp_extra}.log",
    benchmark:
        "logs/wikipse_extra_vectors/{wp_extra}.benchmark.tsv"
    params:
        files=WP.extra_import_arguments,


rule wikipse_aggregate:
    input:
        words=rules.wikipse_dataset.output.words,
        senses=f"{WP_MODELS}/{{wp_model}}-sclass-{{wp_dim}}",
    output:
        unif=directory(f"{WP_MODELS}/{{wp_model}}-unif-{{wp_dim}}"),
        wght=directory(f"{WP_MODELS}/{{wp_model}}-wght-{{wp_dim}}"),
    log:
        "logs/wikipse_aggregate/{wp_model}-{wp_dim}.log",
    benchmark:
        "logs/wikipse_aggregate/{wp_model}-{wp_dim}.benchmark.tsv"
    # Killed for memory: once more with twice as much (resources.grows_with_attempt).
    retries: 1
    conda:
        ENVS / "wikipse.yaml"
    threads: 1
    resources:
        **WP.resources("wikipse_aggregate"),
    params:
        words=lambda wildcards, input: input.words,
    shell:
        "python -m reprobe wikipse aggregate --words {params.words:q} "
        "--sense-vectors={input.senses:q} --unif={output.unif:q} --wght={output.wght:q} 2> {log:q}"


# unifΣ/wghtΣ of word/S-class vectors trained on the authors' corpus, or of theirs, weighted by
# the released class counts of the released words.
use rule wikipse_aggregate as wikipse_aggregate_authors with:
    input:
        words=WP.released_targets(),
        senses=f"{WP_MODELS}/{{wp_origin}}/{{wp_model}}-sclass-{{wp_dim}}",
    output:
        unif=directory(f"{WP_MODELS}/{{wp_origin}}/{{wp_model}}-unif-{{wp_dim}}"),
        wght=directory(f"{WP_MODELS}/{{wp_origin}}/{{wp_model}}-wght-{{wp_dim}}"),
    log:
        "logs/wikipse_aggregate_authors/{wp_origin}/{wp_model}-{wp_dim}.log",
    benchmark:
        "logs/wikipse_aggregate_authors/{wp_origin}/{wp_model}-{wp_dim}.benchmark.tsv"
    params:
        words=WP.released_words(),
