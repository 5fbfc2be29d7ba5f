# WIKI-PSE (Yaghoobzadeh et al. 2019), part 1: link targets typed with S-classes, the word and
# word/S-class corpora (one job per Wikipedia shard), the dataset, SKIP/SSKIP, unifΣ/wghtΣ.


from reprobe.wikipse.export_targets import EXPORTS as WP_EXPORTS_DIR, WikiPseExports
from reprobe.wikipse.targets import (
    DATA as WP_DATA,
    MODELS as WP_MODELS,
    RESULTS as WP_RESULTS,
    TABLES as WP_TABLES,
    WikiPseTargets,
)

# Every input, parameter and target list of these rules: reprobe/wikipse/targets.py.
WP = WikiPseTargets(config, raw_target, WIKI_SHARDS)
STAGE_TABLES["wikipse"] = WP.tables + WP.outputs
# Each dataset variant as a Hugging Face dataset folder: reprobe/wikipse/export_targets.py.
WP_EXPORTS = WikiPseExports(WP, SOURCES, config.get("wikipedia", {}).get("dump"))
STAGE_EXPORTS["wikipse"] = WP_EXPORTS.folders


wildcard_constraints:
    wp_model="skip|sskip",
    wp_corpus="word|sclass",
    wp_dim=r"\d+",
    wp_variant="rebuilt|released|authors_corpus|authors_embeddings",
    wp_kind="word|unif|wght",
    wp_origin="authors_corpus|authors_embeddings",
    wp_dataset="rebuilt|released",
    wp_extra=r"[^/]+",


rule wikipse_freebase:
    input:
        **WP.freebase_inputs(),
    output:
        types=f"{WP_DATA}/freebase/types.parquet",
        titles=f"{WP_DATA}/freebase/titles.parquet",
    log:
        "logs/wikipse_freebase.log",
    conda:
        ENVS / "wikipse.yaml"
    threads: 1
    resources:
        **WP.resources("wikipse_freebase"),
    params:
        files=WP.freebase_arguments(),
    shell:
        "python -m reprobe wikipse freebase {params.files:q} --types-out {output.types:q} "
        "--titles-out {output.titles:q} 2> {log:q}"


rule wikipse_typing:
    input:
        **WP.typing_inputs(),
    output:
        typed=f"{WP_DATA}/typed_targets.parquet",
        counts=f"{WP_DATA}/typing.json",
        fold_csv=f"{WP_TABLES}/fold.csv",
        fold_md=f"{WP_TABLES}/fold.md",
        typing_csv=f"{WP_TABLES}/typing.csv",
        typing_md=f"{WP_TABLES}/typing.md",
    log:
        "logs/wikipse_typing.log",
    conda:
        ENVS / "wikipse.yaml"
    threads: 1
    resources:
        **WP.resources("wikipse_typing"),
    params:
        files=WP.typing_arguments(),
    shell:
        "python -m reprobe wikipse typing {params.files:q} --output {output.typed:q} "
        "--counts {output.counts:q} --fold-csv {output.fold_csv:q} --fold-md {output.fold_md:q} "
        "--typing-csv {output.typing_csv:q} --typing-md {output.typing_md:q} 2> {log:q}"


rule wikipse_corpus_shard:
    input:
        sentences=f"{WIKI_DIR}/shards/{{shard}}/sentences.parquet",
        links=f"{WIKI_DIR}/shards/{{shard}}/links.parquet",
        redirects=f"{WIKI_DIR}/redirects.parquet",
        typed=rules.wikipse_typing.output.typed,
        classes=WP.class_order_file(),
    output:
        word=f"{WP_DATA}/shards/{{shard}}/word.txt",
        sclass=f"{WP_DATA}/shards/{{shard}}/sclass.txt",
        mentions=f"{WP_DATA}/shards/{{shard}}/mentions.parquet",
        tokens=f"{WP_DATA}/shards/{{shard}}/tokens.parquet",
        stats=f"{WP_DATA}/shards/{{shard}}/stats.json",
    log:
        "logs/wikipse_corpus_shard/{shard}.log",
    wildcard_constraints:
        shard=r"\d{4}",
    # Killed for memory: once more with twice as much (resources.grows_with_attempt).
    retries: 1
    conda:
        ENVS / "wikipse.yaml"
    threads: 1
    resources:
        **WP.resources("wikipse_corpus_shard"),
    params:
        folder=lambda wildcards, output: Path(output.stats).parent,
        classes=WP.class_order_option(),
    shell:
        "python -m reprobe wikipse corpus-shard --sentences {input.sentences:q} "
        "--links {input.links:q} --redirects {input.redirects:q} --typed {input.typed:q} "
        "{params.classes:q} --output-dir {params.folder:q} 2> {log:q}"


rule wikipse_corpus:
    input:
        stats=WP.shard_files("stats.json"),
        words=WP.shard_files("word.txt"),
        sclasses=WP.shard_files("sclass.txt"),
        mentions=WP.shard_files("mentions.parquet"),
        tokens=WP.shard_files("tokens.parquet"),
    output:
        word=f"{WP_DATA}/corpus/word.txt",
        sclass=f"{WP_DATA}/corpus/sclass.txt",
        mentions=f"{WP_DATA}/corpus/mentions.parquet",
        tokens=f"{WP_DATA}/corpus/tokens.parquet",
        stats=f"{WP_DATA}/corpus/stats.json",
    log:
        "logs/wikipse_corpus.log",
    # Killed for memory: once more with twice as much (resources.grows_with_attempt).
    retries: 1
    conda:
        ENVS / "wikipse.yaml"
    threads: 1
    resources:
        **WP.resources("wikipse_corpus"),
    params:
        folder=lambda wildcards, output: Path(output.stats).parent,
        shards=lambda wildcards, input: [Path(f).parent for f in input.stats],
    shell:
        "python -m reprobe wikipse corpus --output-dir {params.folder:q} {params.shards:q} 2> {log:q}"


rule wikipse_dataset:
    input:
        corpus=rules.wikipse_corpus.output.stats,
        mentions=rules.wikipse_corpus.output.mentions,
        tokens=rules.wikipse_corpus.output.tokens,
        reference=REFERENCE / "wikipse/stats.csv",
    output:
        train=f"{WP_DATA}/dataset/train.tsv",
        test=f"{WP_DATA}/dataset/test.tsv",
        words=f"{WP_DATA}/dataset/words.parquet",
        card=f"{WP_DATA}/dataset/card.json",
        csv=f"{WP_TABLES}/stats.csv",
        md=f"{WP_TABLES}/stats.md",
    log:
        "logs/wikipse_dataset.log",
    # Killed for memory: once more with twice as much (resources.grows_with_attempt).
    retries: 1
    conda:
        ENVS / "wikipse.yaml"
    threads: 1
    resources:
        **WP.resources("wikipse_dataset"),
    params:
        corpus=lambda wildcards, input: Path(input.corpus).parent,
        folder=lambda wildcards, output: Path(output.card).parent,
        selection=WP.selection_arguments(),
        seed=config["seed"],
    shell:
        "python -m reprobe wikipse dataset --corpus-dir {params.corpus:q} {params.selection:q} "
        "--seed {params.seed:q} --output-dir {params.folder:q} --reference {input.reference:q} "
        "--csv {output.csv:q} --md {output.md:q} 2> {log:q}"


rule wikipse_released:
    input:
        words=rules.wikipse_dataset.output.words,
        released=WP.released_targets(),
    output:
        csv=f"{WP_TABLES}/released_vs_rebuilt.csv",
        md=f"{WP_TABLES}/released_vs_rebuilt.md",
    log:
        "logs/wikipse_released.log",
    conda:
        ENVS / "wikipse.yaml"
    threads: 1
    resources:
        mem_mb=4096,
        runtime=30,
    params:
        released=WP.released_arguments(),
    shell:
        "python -m reprobe wikipse released --words {input.words:q} {params.released:q} "
        "--csv {output.csv:q} --md {output.md:q} 2> {log:q}"


rule wikipse_export:
    input:
        unpack(WP_EXPORTS.inputs),
    output:
        directory(f"{WP_EXPORTS_DIR}/{{wp_dataset}}"),
    log:
        "logs/wikipse_export/{wp_dataset}.log",
    conda:
        ENVS / "wikipse.yaml"
    threads: 1
    resources:
        mem_mb=2048,
        runtime=20,
    params:
        arguments=WP_EXPORTS.arguments,
    shell:
        "python -m reprobe wikipse export {params.arguments:q} --output {output:q} 2> {log:q}"


rule wikipse_embed:
    input:
        f"{WP_DATA}/corpus/{{wp_corpus}}.txt",
    output:
        directory(f"{WP_MODELS}/{{wp_model}}-{{wp_corpus}}-{{wp_dim}}"),
    log:
        "logs/wikipse_embed/{wp_model}-{wp_corpus}-{wp_dim}.log",
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
        "python -m reprobe wikipse embed {params.settings:q} --seed {params.seed:q} "
        "--corpus {params.corpus:q} --output {output:q} 2> {log:q}"


# The same training on the authors' own corpora (the bundle's corpus.txt and
# word_sclass/corpus.txt), for the authors_corpus variant.
use rule wikipse_embed as wikipse_embed_authors with:
    input:
        WP.authors_corpus_target,
    output:
        directory(f"{WP_MODELS}/authors_corpus/{{wp_model}}-{{wp_corpus}}-{{wp_dim}}"),
    log:
        "logs/wikipse_embed/authors_corpus/{wp_model}-{wp_corpus}-{wp_dim}.log",
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
    conda:
        ENVS / "wikipse.yaml"
    threads: 1
    resources:
        **WP.resources("wikipse_aggregate"),
    params:
        files=WP.authors_embedding_arguments,
    shell:
        "python -m reprobe wikipse import-vectors {params.files:q} --output {output:q} 2> {log:q}"


# Each embedding beyond the paper (wikipse.extra_vectors), converted once to a vectors folder
# that its probes and Table 6 memory-map: reprobe/wikipse/extra.py.
use rule wikipse_authors_vectors as wikipse_extra_vectors with:
    input:
        WP.extra_target,
    output:
        directory(f"{WP_MODELS}/extra/{{wp_extra}}"),
    log:
        "logs/wikipse_extra_vectors/{wp_extra}.log",
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
        "--sense-vectors {input.senses:q} --unif {output.unif:q} --wght {output.wght:q} 2> {log:q}"


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
        "logs/wikipse_aggregate/{wp_origin}/{wp_model}-{wp_dim}.log",
    params:
        words=WP.released_words(),


# Part 2: the probes (Tables 2 and 4), Table 6, the analyses (Figures 3-6, Table 7).


rule wikipse_probe:
    input:
        splits=WP.split_inputs,
        vectors=WP.probe_vectors,
    output:
        scores=f"{WP_RESULTS}/probes/{{wp_variant}}/{{wp_model}}-{{wp_kind}}-{{wp_dim}}.csv",
        predictions=f"{WP_RESULTS}/probes/{{wp_variant}}/{{wp_model}}-{{wp_kind}}-{{wp_dim}}.npz",
    log:
        "logs/wikipse_probe/{wp_variant}/{wp_model}-{wp_kind}-{wp_dim}.log",
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
        "--vectors {input.vectors:q} {params.settings:q} --seed {params.seed:q} "
        "--scores {output.scores:q} --predictions {output.predictions:q} 2> {log:q}"


# The same probes of an embedding beyond the paper, its words looked up plain (@x@, x, X).
use rule wikipse_probe as wikipse_extra_probe with:
    input:
        splits=WP.split_inputs,
        vectors=f"{WP_MODELS}/extra/{{wp_extra}}",
    output:
        scores=f"{WP_RESULTS}/probes/{{wp_variant}}/extra/{{wp_extra}}.csv",
        predictions=f"{WP_RESULTS}/probes/{{wp_variant}}/extra/{{wp_extra}}.npz",
    log:
        "logs/wikipse_probe/{wp_variant}/extra/{wp_extra}.log",
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
    # A table from two small files: seconds of work, run where Snakemake runs, not queued.
    localrule: True
    conda:
        ENVS / "wikipse.yaml"
    threads: 1
    resources:
        mem_mb=2048,
        runtime=10,
    params:
        splits=WP.released_stats_arguments(),
        ambiguity=WP.ambiguity_argument(),
    shell:
        "python -m reprobe wikipse released-stats {params.splits:q} {params.ambiguity:q} "
        "--reference {input.reference:q} --csv {output.csv:q} --md {output.md:q} 2> {log:q}"


rule wikipse_baselines:
    input:
        WP.split_inputs,
    output:
        f"{WP_RESULTS}/probes/{{wp_variant}}/baselines.csv",
    log:
        "logs/wikipse_baselines/{wp_variant}.log",
    conda:
        ENVS / "wikipse.yaml"
    threads: 1
    resources:
        mem_mb=4096,
        runtime=30,
    params:
        splits=WP.split_arguments,
        ambiguity=WP.ambiguity_argument(),
        seed=config["seed"],
    shell:
        "python -m reprobe wikipse baselines {params.splits:q} {params.ambiguity:q} "
        "--seed {params.seed:q} "
        "--scores {output:q} 2> {log:q}"


rule wikipse_table:
    input:
        scores=WP.probe_scores,
        reference=REFERENCE / "wikipse/{wp_table}.csv",
    output:
        csv=f"{WP_TABLES}/{{wp_table}}_{{wp_variant}}.csv",
        md=f"{WP_TABLES}/{{wp_table}}_{{wp_variant}}.md",
    log:
        "logs/wikipse_table/{wp_table}_{wp_variant}.log",
    wildcard_constraints:
        wp_table="table2|table3|table4",
    # A table from small files: seconds of work, run where Snakemake runs, not queued.
    localrule: True
    conda:
        ENVS / "wikipse.yaml"
    threads: 1
    resources:
        mem_mb=2048,
        runtime=10,
    params:
        ambiguity=WP.ambiguity_argument(),
    shell:
        "python -m reprobe wikipse table --table {wildcards.wp_table:q} {params.ambiguity:q} "
        "--variant {wildcards.wp_variant:q} --reference {input.reference:q} --csv {output.csv:q} "
        "--md {output.md:q} {input.scores:q} 2> {log:q}"


rule wikipse_variants_table:
    input:
        scores=WP.variants_scores,
        reference=REFERENCE / "wikipse/{wp_table}.csv",
    output:
        csv=f"{WP_TABLES}/{{wp_table}}_variants.csv",
        md=f"{WP_TABLES}/{{wp_table}}_variants.md",
    log:
        "logs/wikipse_table/{wp_table}_variants.log",
    wildcard_constraints:
        wp_table="table2|table4",
    # A table from small files: seconds of work, run where Snakemake runs, not queued.
    localrule: True
    conda:
        ENVS / "wikipse.yaml"
    threads: 1
    resources:
        mem_mb=2048,
        runtime=10,
    params:
        ambiguity=WP.ambiguity_argument(),
        scores=WP.variants_arguments,
    shell:
        "python -m reprobe wikipse variants --table {wildcards.wp_table:q} {params.ambiguity:q} "
        "--reference {input.reference:q} --csv {output.csv:q} --md {output.md:q} {params.scores:q} "
        "2> {log:q}"


rule wikipse_public:
    input:
        WP.public_inputs,
    output:
        f"{WP_RESULTS}/probes/{{wp_variant}}/public.csv",
    log:
        "logs/wikipse_public/{wp_variant}.log",
    conda:
        ENVS / "wikipse.yaml"
    threads: WP.probe_threads()
    resources:
        **WP.resources("wikipse_public"),
    params:
        arguments=WP.public_arguments,
        seed=config["seed"],
    shell:
        "python -m reprobe wikipse public {params.arguments:q} --seed {params.seed:q} "
        "--scores {output:q} 2> {log:q}"


rule wikipse_nlp:
    input:
        WP.nlp_inputs(),
    output:
        f"{WP_RESULTS}/nlp.csv",
    log:
        "logs/wikipse_nlp.log",
    conda:
        ENVS / "wikipse.yaml"
    threads: 1
    resources:
        **WP.resources("wikipse_nlp"),
    params:
        arguments=WP.nlp_arguments(),
        seed=config["seed"],
    shell:
        "python -m reprobe wikipse nlp {params.arguments:q} --seed {params.seed:q} "
        "--scores {output:q} 2> {log:q}"


rule wikipse_mc:
    input:
        WP.mc_inputs(),
    output:
        f"{WP_RESULTS}/mc.csv",
    log:
        "logs/wikipse_mc.log",
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
        "python -m reprobe wikipse mc {params.arguments:q} --seed {params.seed:q} "
        "--scores {output:q} 2> {log:q}"


rule wikipse_table5:
    input:
        scores=WP.table5_scores(),
        reference=REFERENCE / "wikipse/table5.csv",
    output:
        csv=f"{WP_TABLES}/table5.csv",
        md=f"{WP_TABLES}/table5.md",
    log:
        "logs/wikipse_table5.log",
    # A table from small files: seconds of work, run where Snakemake runs, not queued.
    localrule: True
    conda:
        ENVS / "wikipse.yaml"
    threads: 1
    resources:
        mem_mb=2048,
        runtime=10,
    params:
        variant="rebuilt",
    shell:
        "python -m reprobe wikipse table --table table5 --variant {params.variant:q} "
        "--reference {input.reference:q} --csv {output.csv:q} --md {output.md:q} {input.scores:q} "
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
    conda:
        ENVS / "wikipse.yaml"
    threads: 1
    resources:
        **WP.resources("wikipse_similarity"),
    params:
        arguments=WP.similarity_arguments(),
    shell:
        "python -m reprobe wikipse similarity --reference {input.reference:q} "
        "--csv {output.csv:q} --md {output.md:q} {params.arguments:q} 2> {log:q}"


rule wikipse_analyses:
    input:
        **WP.analysis_inputs(),
    output:
        WP.analysis_outputs(),
    log:
        "logs/wikipse_analyses.log",
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
        "python -m reprobe wikipse analyses --word-vectors {input.vectors:q} "
        "--output-dir {params.out:q} {params.arguments:q} 2> {log:q}"


# Tables 5-7 and Figures 3-6 once more for embeddings trained on the authors' corpus, on the
# released words (files named `…_authors_corpus`).
use rule wikipse_nlp as wikipse_nlp_authors with:
    input:
        WP.nlp_inputs("authors_corpus"),
    output:
        f"{WP_RESULTS}/nlp_authors_corpus.csv",
    log:
        "logs/wikipse_nlp_authors_corpus.log",
    params:
        arguments=WP.nlp_arguments("authors_corpus"),
        seed=config["seed"],


use rule wikipse_mc as wikipse_mc_authors with:
    input:
        WP.mc_inputs("authors_corpus"),
    output:
        f"{WP_RESULTS}/mc_authors_corpus.csv",
    log:
        "logs/wikipse_mc_authors_corpus.log",
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
        "logs/wikipse_table5_authors_corpus.log",
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
        "logs/wikipse_similarity_authors_corpus.log",
    params:
        arguments=WP.similarity_arguments("authors_corpus"),


use rule wikipse_analyses as wikipse_analyses_authors with:
    input:
        **WP.analysis_inputs("authors_corpus"),
    output:
        WP.analysis_outputs("authors_corpus"),
    log:
        "logs/wikipse_analyses_authors_corpus.log",
    params:
        arguments=WP.analysis_arguments("authors_corpus"),
        out=lambda wildcards, output: Path(output[0]).parent,


# Table 8 (Appendix D): UKP's supersense-annotated Wikipedia and embeddings.


rule wikipse_supersense_dataset:
    input:
        WP.supersense_inputs().get("corpus", []),
    output:
        train=f"{WP_DATA}/supersense/train.tsv",
        test=f"{WP_DATA}/supersense/test.tsv",
        card=f"{WP_DATA}/supersense/card.json",
    log:
        "logs/wikipse_supersense_dataset.log",
    # Killed for memory: once more with twice as much (resources.grows_with_attempt).
    retries: 1
    conda:
        ENVS / "wikipse.yaml"
    threads: 1
    resources:
        **WP.resources("wikipse_dataset"),
    params:
        arguments=WP.supersense_dataset_arguments(),
        folder=lambda wildcards, output: Path(output.card).parent,
        seed=config["seed"],
    shell:
        "python -m reprobe wikipse supersense-dataset {params.arguments:q} "
        "--seed {params.seed:q} --output-dir {params.folder:q} 2> {log:q}"


rule wikipse_supersense_probe:
    input:
        train=rules.wikipse_supersense_dataset.output.train,
        test=rules.wikipse_supersense_dataset.output.test,
        embeddings=WP.supersense_inputs().get("embeddings", []),
    output:
        f"{WP_RESULTS}/probes/supersense/table8.csv",
    log:
        "logs/wikipse_supersense_probe.log",
    # Killed for memory: once more with twice as much (resources.grows_with_attempt).
    retries: 1
    conda:
        ENVS / "wikipse.yaml"
    threads: WP.probe_threads()
    resources:
        **WP.resources("wikipse_public"),
    params:
        arguments=WP.supersense_probe_arguments(),
        seed=config["seed"],
    shell:
        "python -m reprobe wikipse supersense-probe --train {input.train:q} --test {input.test:q} "
        "{params.arguments:q} --seed {params.seed:q} --scores {output:q} 2> {log:q}"


rule wikipse_table8:
    input:
        scores=rules.wikipse_supersense_probe.output,
        reference=REFERENCE / "wikipse/table8.csv",
    output:
        csv=f"{WP_TABLES}/table8.csv",
        md=f"{WP_TABLES}/table8.md",
    log:
        "logs/wikipse_table8.log",
    # A table from small files: seconds of work, run where Snakemake runs, not queued.
    localrule: True
    conda:
        ENVS / "wikipse.yaml"
    threads: 1
    resources:
        mem_mb=2048,
        runtime=10,
    shell:
        "python -m reprobe wikipse table --table table8 --variant supersense "
        "--reference {input.reference:q} --csv {output.csv:q} --md {output.md:q} {input.scores:q} "
        "2> {log:q}"
