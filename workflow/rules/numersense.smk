# NumerSense (Lin et al. 2020): core probes from OMCS, adversarial probes from ConceptNet, the
# GenericsKB fine-tuning set, masked-LM and GPT-2 probing, fine-tuning, Tables 2-3, Figure 3.

from reprobe.numersense.export_targets import (
    EXPORTS as NS_EXPORTS_DIR,
    HARNESS as NS_HARNESS,
    NumerSenseExports,
)
from reprobe.numersense.targets import (
    DATA as NS_DATA,
    MODELS as NS_MODELS,
    RESULTS as NS_RESULTS,
    TABLES as NS_TABLES,
    NumerSenseTargets,
)

# Every input, parameter and target list of these rules: reprobe/numersense/targets.py.
NS = NumerSenseTargets(config, raw_target)
STAGE_TABLES["numersense"] = NS.tables
# Each dataset as a Hugging Face dataset folder, and the harness tasks: export_targets.py.
NS_EXPORTS = NumerSenseExports(NS, config.get("sources", {}))
STAGE_EXPORTS["numersense"] = NS_EXPORTS.cards


wildcard_constraints:
    ns_variant="rebuilt|released",
    ns_set="core|all|validation",


rule numersense_core:
    input:
        omcs=NS.input_file("omcs").target,
    output:
        txt=f"{NS_DATA}/rebuilt/test.core.masked.txt",
        tsv=f"{NS_DATA}/rebuilt/test.core.masked.tsv",
        card=f"{NS_DATA}/rebuilt/core.card.json",
        categories=f"{NS_DATA}/rebuilt/core.categories.tsv",
        filters=f"{NS_TABLES}/filters.csv",
    log:
        "logs/numersense_core.log",
    benchmark:
        "logs/numersense_core.benchmark.tsv"
    conda:
        ENVS / "numersense.yaml"
    threads: 1
    resources:
        **job_resources("numersense_core"),
    params:
        omcs=NS.input_param("omcs"),
        settings=NS.builder_arguments(),
    shell:
        "python -m reprobe numersense build-core --omcs={params.omcs:q} {params.settings:q} "
        "--txt={output.txt:q} --tsv={output.tsv:q} --card={output.card:q} "
        "--categories={output.categories:q} --filters={output.filters:q} 2> {log:q}"


rule numersense_all:
    input:
        core=rules.numersense_core.output.tsv,
        conceptnet=NS.input_file("conceptnet").target,
    output:
        txt=f"{NS_DATA}/rebuilt/test.all.masked.txt",
        tsv=f"{NS_DATA}/rebuilt/test.all.masked.tsv",
        card=f"{NS_DATA}/rebuilt/all.card.json",
    log:
        "logs/numersense_all.log",
    benchmark:
        "logs/numersense_all.benchmark.tsv"
    conda:
        ENVS / "numersense.yaml"
    threads: 1
    resources:
        **job_resources("numersense_all"),
    params:
        conceptnet=NS.input_param("conceptnet"),
        settings=NS.adversarial_arguments(),
    shell:
        "python -m reprobe numersense build-all --core={input.core:q} "
        "--conceptnet={params.conceptnet:q} {params.settings:q} --txt={output.txt:q} "
        "--tsv={output.tsv:q} --card={output.card:q} 2> {log:q}"


rule numersense_train:
    input:
        generics=NS.input_file("generics").target,
        tests=[rules.numersense_core.output.tsv, rules.numersense_all.output.tsv],
        released=NS.released_test_targets(),
    output:
        tsv=f"{NS_DATA}/rebuilt/train.masked.tsv",
        card=f"{NS_DATA}/rebuilt/train.card.json",
    log:
        "logs/numersense_train.log",
    benchmark:
        "logs/numersense_train.benchmark.tsv"
    conda:
        ENVS / "numersense.yaml"
    threads: 1
    resources:
        **job_resources("numersense_train"),
    params:
        generics=NS.input_param("generics"),
        exclude=NS.test_probe_files(),
    shell:
        "python -m reprobe numersense build-train --generics={params.generics:q} "
        "--tsv={output.tsv:q} --card={output.card:q} {params.exclude:q} 2> {log:q}"


rule numersense_released_labels:
    input:
        core=rules.numersense_core.output.tsv,
        all=rules.numersense_all.output.tsv,
        train=rules.numersense_train.output.tsv,
        released=NS.released_targets(),
        gold=NS.gold_targets(),
    output:
        labelled=NS.labelled_files(),
        csv=f"{NS_TABLES}/overlap.csv",
        md=f"{NS_TABLES}/overlap.md",
    log:
        "logs/numersense_released_labels.log",
    benchmark:
        "logs/numersense_released_labels.benchmark.tsv"
    conda:
        ENVS / "numersense.yaml"
    threads: 1
    resources:
        **job_resources("numersense_released_labels"),
    params:
        released=NS.released_arguments(),
        labelled=NS.labelled_arguments,
    shell:
        "python -m reprobe numersense released-labels --rebuilt-core={input.core:q} "
        "--rebuilt-all={input.all:q} --rebuilt-train={input.train:q} {params.released:q} "
        "{params.labelled:q} --csv={output.csv:q} --md={output.md:q} 2> {log:q}"


rule numersense_tiny:
    input:
        omcs=NS.input_file("omcs").target,
        generics=NS.input_file("generics").target,
    output:
        directory(f"{NS_MODELS}/{{ns_model}}"),
    log:
        "logs/numersense_tiny/{ns_model}.log",
    benchmark:
        "logs/numersense_tiny/{ns_model}.benchmark.tsv"
    wildcard_constraints:
        ns_model="|".join(NS.tiny) or "no-tiny-models",
    conda:
        ENVS / "numersense.yaml"
    threads: 1
    resources:
        **job_resources("numersense_tiny"),
    params:
        omcs=NS.input_param("omcs"),
        generics=NS.input_param("generics"),
        settings=NS.tiny_options,
        seed=config["seed"],
    shell:
        "python -m reprobe numersense tiny {params.settings:q} --omcs={params.omcs:q} "
        "--generics={params.generics:q} --seed={params.seed:q} --output={output:q} 2> {log:q}"


rule numersense_finetune:
    input:
        base=NS.base_input,
        train=NS.train_file(),
    output:
        directory(f"{NS_MODELS}/{{ns_model}}"),
    log:
        "logs/numersense_finetune/{ns_model}.log",
    benchmark:
        "logs/numersense_finetune/{ns_model}.benchmark.tsv"
    wildcard_constraints:
        ns_model="|".join(re.escape(m) for m in NS.finetuned) or "no-finetuned-models",
    # Killed for memory: once more with twice as much (resources.grows_with_attempt).
    retries: 1
    conda:
        ENVS / "numersense.yaml"
    threads: 1
    resources:
        **NS.resources("numersense_finetune"),
        gpu=NS.gpus,
    params:
        base=NS.base_model,
        settings=NS.finetune_arguments(),
    shell:
        "python -m reprobe numersense finetune --base={params.base:q} --train={input.train:q} "
        "--output={output:q} {params.settings:q} 2> {log:q}"


rule numersense_probe:
    input:
        unpack(NS.probe_inputs),
    output:
        predictions=NS.prediction_outputs(),
        scores=NS.score_outputs(),
    log:
        "logs/numersense_probe/{ns_row}.log",
    benchmark:
        "logs/numersense_probe/{ns_row}.benchmark.tsv"
    wildcard_constraints:
        ns_row="|".join(re.escape(m) for m in NS.probe_rows),
    # Killed for memory: once more with twice as much (resources.grows_with_attempt).
    retries: 1
    conda:
        ENVS / "numersense.yaml"
    threads: NS.job_threads
    resources:
        **NS.resources("numersense_probe"),
        gpu=NS.gpus,
    params:
        sets=NS.probe_arguments,
        settings=NS.probe_options(),
        out=NS.probe_folder,
    shell:
        "python -m reprobe numersense score {params.sets:q} {params.settings:q} "
        "--out={params.out:q} 2> {log:q}"


rule numersense_score_released:
    input:
        predictions=NS.released_prediction,
        gold=NS.released_prediction_gold,
    output:
        f"{NS_RESULTS}/scores/released_predictions/{{ns_set}}/{{ns_model}}.csv",
    log:
        "logs/numersense_score_released/{ns_set}/{ns_model}.log",
    benchmark:
        "logs/numersense_score_released/{ns_set}/{ns_model}.benchmark.tsv"
    wildcard_constraints:
        ns_model="|".join(map(re.escape, NS.prediction_slugs())) or "no-predictions",
    conda:
        ENVS / "numersense.yaml"
    threads: 1
    resources:
        **job_resources("numersense_score_released"),
    params:
        row=NS.released_prediction_arguments,
    shell:
        "python -m reprobe numersense score-released {params.row:q} --scores={output:q} "
        "2> {log:q}"


rule numersense_templates:
    input:
        NS.model_input,
    output:
        f"{NS_RESULTS}/templates/{{ns_model}}.csv",
    log:
        "logs/numersense_templates/{ns_model}.log",
    benchmark:
        "logs/numersense_templates/{ns_model}.benchmark.tsv"
    wildcard_constraints:
        ns_model="|".join(re.escape(m) for m in NS.template_rows) or "no-template-rows",
    # Killed for memory: once more with twice as much (resources.grows_with_attempt).
    retries: 1
    conda:
        ENVS / "numersense.yaml"
    threads: NS.job_threads
    resources:
        **NS.resources("numersense_templates"),
        gpu=NS.gpus,
    params:
        row=NS.template_arguments,
        settings=NS.run_options(),
        seed=config["seed"],
    shell:
        "python -m reprobe numersense templates {params.row:q} --seed={params.seed:q} "
        "{params.settings:q} --output={output:q} 2> {log:q}"


rule numersense_table2:
    input:
        scores=NS.table_scores,
        reference=REFERENCE / "numersense/table2.csv",
    output:
        csv=f"{NS_TABLES}/table2_{{ns_variant}}.csv",
        md=f"{NS_TABLES}/table2_{{ns_variant}}.md",
    log:
        "logs/numersense_table2/{ns_variant}.log",
    benchmark:
        "logs/numersense_table2/{ns_variant}.benchmark.tsv"
    # A table from small files: seconds of work, run where Snakemake runs, not queued.
    localrule: True
    conda:
        ENVS / "numersense.yaml"
    threads: 1
    resources:
        **job_resources("numersense_table2"),
    params:
        settings=NS.table2_arguments,
    shell:
        "python -m reprobe numersense table2 --variant={wildcards.ns_variant:q} "
        "{params.settings:q} --reference={input.reference:q} --csv={output.csv:q} "
        "--md={output.md:q} {input.scores:q} 2> {log:q}"


rule numersense_table2_conventions:
    input:
        scores=NS.all_scores(),
    output:
        csv=f"{NS_TABLES}/table2_conventions.csv",
        md=f"{NS_TABLES}/table2_conventions.md",
    log:
        "logs/numersense_table2_conventions.log",
    benchmark:
        "logs/numersense_table2_conventions.benchmark.tsv"
    # A table from small files: seconds of work, run where Snakemake runs, not queued.
    localrule: True
    conda:
        ENVS / "numersense.yaml"
    threads: 1
    resources:
        **job_resources("numersense_table2_conventions"),
    params:
        beyond=NS.beyond_paper_option(),
    shell:
        "python -m reprobe numersense table2-conventions {params.beyond:q} "
        "--csv={output.csv:q} --md={output.md:q} {input.scores:q} 2> {log:q}"


rule numersense_table3:
    input:
        results=NS.template_files(),
        reference=REFERENCE / "numersense/table3.csv",
    output:
        csv=f"{NS_TABLES}/table3.csv",
        md=f"{NS_TABLES}/table3.md",
    log:
        "logs/numersense_table3.log",
    benchmark:
        "logs/numersense_table3.benchmark.tsv"
    # A table from small files: seconds of work, run where Snakemake runs, not queued.
    localrule: True
    conda:
        ENVS / "numersense.yaml"
    threads: 1
    resources:
        **job_resources("numersense_table3"),
    params:
        beyond=NS.beyond_paper_option(),
    shell:
        "python -m reprobe numersense table3 {params.beyond:q} --reference={input.reference:q} "
        "--csv={output.csv:q} --md={output.md:q} {input.results:q} 2> {log:q}"


rule numersense_figure3:
    input:
        categories=rules.numersense_core.output.categories,
        predictions=list(NS.figure_predictions().values()),
        reference=REFERENCE / "numersense/figure3.csv",
    output:
        csv=f"{NS_TABLES}/figure3.csv",
        md=f"{NS_TABLES}/figure3.md",
        png=f"{NS_TABLES}/figure3.png",
    log:
        "logs/numersense_figure3.log",
    benchmark:
        "logs/numersense_figure3.benchmark.tsv"
    # A table from small files: seconds of work, run where Snakemake runs, not queued.
    localrule: True
    conda:
        ENVS / "numersense.yaml"
    threads: 1
    resources:
        **job_resources("numersense_figure3"),
    params:
        arguments=NS.figure_arguments(),
    shell:
        "python -m reprobe numersense figure3 --categories={input.categories:q} "
        "--reference={input.reference:q} --csv={output.csv:q} --png={output.png:q} "
        "{params.arguments:q} 2> {log:q}"


rule numersense_export:
    input:
        NS_EXPORTS.inputs,
    output:
        # The card, not the folder: a folder output leaves a Snakemake marker among the data.
        f"{NS_EXPORTS_DIR}/{{ns_export}}/README.md",
    log:
        "logs/numersense_export/{ns_export}.log",
    benchmark:
        "logs/numersense_export/{ns_export}.benchmark.tsv"
    wildcard_constraints:
        ns_export="|".join(NS_EXPORTS.datasets) or "no-datasets",
    # A few small files: seconds of work, run where Snakemake runs, not queued.
    localrule: True
    conda:
        ENVS / "numersense.yaml"
    threads: 1
    resources:
        **job_resources("numersense_export"),
    params:
        arguments=NS_EXPORTS.arguments,
        folder=lambda wildcards, output: Path(output[0]).parent,
    shell:
        "python -m reprobe numersense export {params.arguments:q} --output={params.folder:q} "
        "2> {log:q}"


rule numersense_harness_tasks:
    input:
        NS_EXPORTS.task_cards(),
    output:
        f"{NS_HARNESS}/README.md",
    log:
        "logs/numersense_harness_tasks.log",
    benchmark:
        "logs/numersense_harness_tasks.benchmark.tsv"
    # Small text files: seconds of work, run where Snakemake runs, not queued.
    localrule: True
    conda:
        ENVS / "numersense.yaml"
    threads: 1
    resources:
        **job_resources("numersense_harness_tasks"),
    params:
        folder=lambda wildcards, output: Path(output[0]).parent,
        datasets=NS_EXPORTS.task_folders(),
    shell:
        "python -m reprobe numersense harness-tasks --output={params.folder:q} "
        "{params.datasets:q} 2> {log:q}"
