# One generic rule fetches any source into data/raw/<source>/; another unpacks archives.
# Downloads run on the submitting host under a cluster profile (compute nodes rarely reach
# the internet).


localrules:
    fetch_source,


def fetch_input(wildcards):
    """A local source's file, so a changed sample triggers a refetch."""
    spec = SOURCES[wildcards.source]
    if wildcards.filename != source_filename(spec):
        raise ValueError(
            f"source {wildcards.source} is stored as {source_filename(spec)}, "
            f"not {wildcards.filename}"
        )
    return [str(local_source_path(spec, wildcards.source))] if "path" in spec else []


def fetch_arguments(wildcards):
    """Command-line arguments describing the source to `reprobe fetch`."""
    spec = SOURCES[wildcards.source]
    download = config["download"]
    if "url" in spec:
        args = ["--url", spec["url"], "--retries", download["retries"]]
        args += ["--backoff", download["backoff"], "--timeout", download["timeout"]]
    else:
        args = ["--path", local_source_path(spec, wildcards.source)]
    for key in ("sha256", "size"):
        if spec.get(key) is not None:
            args += [f"--{key}", spec[key]]
    return " ".join(shlex.quote(str(arg)) for arg in args)


rule fetch_source:
    output:
        "data/raw/{source}/{filename}",
    input:
        fetch_input,
    params:
        arguments=fetch_arguments,
    log:
        "logs/fetch_source/{source}/{filename}.log",
    wildcard_constraints:
        source="|".join(SOURCES) or "no-sources",
        filename=r"(?!extracted$)[^/]+",
    threads: 1
    resources:
        mem_mb=512,
        runtime=lambda wildcards: fetch_runtime_minutes(SOURCES[wildcards.source]),
    conda:
        ENVS / "core.yaml"
    shell:
        "{REPROBE} fetch --source {wildcards.source} {params.arguments} "
        "--output {output} 2> {log}"


rule extract_source:
    output:
        directory("data/raw/{source}/extracted"),
    input:
        lambda wildcards: raw_file(wildcards.source),
    log:
        "logs/extract_source/{source}.log",
    wildcard_constraints:
        source="|".join(SOURCES) or "no-sources",
    threads: 1
    resources:
        mem_mb=1024,
        runtime=lambda wildcards: fetch_runtime_minutes(SOURCES[wildcards.source]),
    conda:
        ENVS / "core.yaml"
    shell:
        "{REPROBE} extract --source {wildcards.source} --archive {input} "
        "--output {output} 2> {log}"
