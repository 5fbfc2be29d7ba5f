#!/usr/bin/env bash
# The default workflow through a real one-node SLURM (tests/cluster/slurm.sh), checked against
# a local run of the same workflow:
#   1. the local run: the suite's (REPROBE_DEFAULT_RUN, which .ci/run names and the suite made
#      with benchmarks/default_run.py), or, run by hand without one, made here the same way;
#   2. the same run through profiles/slurm-ci, timed, from a mirror with the network off: every
#      source copied into a mirror (`reprobe sources fetch --to`), the config's sources turned
#      into URLs nothing can reach, offline mode on, proxies pointing nowhere; results/tables/**
#      must equal the local run's byte for byte, in at most REPROBE_CLUSTER_MAX_RATIO (2.5) × the
#      local time, and the lock beside the mirrored config must hold every source; the local
#      run, finished before, must still be finished after it (nothing to do there);
#   3. a bad input arrives (one FIGER line): the run must fail, naming the failed rule and
#      showing its log with the file and line;
#   4. the input fixed, a rerun: it must finish the rest without redoing finished jobs (every
#      output that existed keeps its modification time).
# Called from .ci/run after the main suite; runnable by hand as root:  tests/cluster/run.sh
# Where SLURM cannot be brought up (no root, no apt) it prints SKIP and the reason, exit 0.
set -euo pipefail

REPO=$(cd "$(dirname "$0")/../.." && pwd)
WORK=${REPROBE_CLUSTER_WORK:-/tmp/reprobe-cluster}
# Each SLURM submission pays its queueing and a Snakemake start of its own, which a local job
# does not; the shorter the local run, the more that fixed cost weighs (docs/benchmarks.md has
# both runs' times). The limit catches a regression, not that cost.
MAX_RATIO=${REPROBE_CLUSTER_MAX_RATIO:-2.5}
CORES=$(nproc)
cd "$REPO"

say() { echo "[cluster] $*"; }
fail() { echo "[cluster] FAILED: $*" >&2; exit 1; }

status=0
bash tests/cluster/slurm.sh up || status=$?
if [[ $status -eq 3 ]]; then
    say "SKIP: SLURM could not be brought up on this machine (reason above); nothing was tested"
    exit 0
elif [[ $status -ne 0 ]]; then
    fail "tests/cluster/slurm.sh up exited $status"
fi
trap 'bash "$REPO/tests/cluster/slurm.sh" down' EXIT

rm -rf "$WORK" && mkdir -p "$WORK/slurm" "$WORK/inputs"

# 1. The local run: the suite's when CI names it, else made here (README's command in a fresh
#    copy, timed by benchmarks/default_run.py, which writes its figures beside the folder).
LOCAL=${REPROBE_DEFAULT_RUN:-$WORK/local}
if [[ ! -f "$LOCAL.json" ]]; then
    python benchmarks/default_run.py --cores "$CORES" --workdir "$LOCAL" --json "$LOCAL.json" \
        >"$WORK/local.md" 2>"$WORK/local.log" || { tail -50 "$WORK/local.log"; fail "local run"; }
fi
local_seconds=$(python -c "import json, sys; print(round(json.load(open(sys.argv[1]))['wall_s']))" "$LOCAL.json")
say "local run ($LOCAL): ${local_seconds}s"

# 2. The same run through SLURM from a mirror, the network off, timed, compared with the local run.
python -m reprobe sources fetch --configfile config/config.yaml --to "$WORK/mirror" --quiet \
    || fail "filling the mirror"
python - "$WORK/mirror" "$WORK/mirrored.yaml" <<'PYTHON'
import sys, yaml
sys.path.insert(0, "workflow")
from reprobe.config import source_filename
config = yaml.safe_load(open("config/config.yaml", encoding="utf-8"))
for name, spec in config["sources"].items():
    if "path" in spec:
        # The same file name, at an address no machine can reach: only the mirror has it.
        spec["url"] = f"https://mirror.invalid/{name}/{source_filename(spec)}"
        del spec["path"]
        spec.pop("package", None)
config["download"] = {"mirror": sys.argv[1], "offline": True}
yaml.safe_dump(config, open(sys.argv[2], "w", encoding="utf-8"), allow_unicode=True, sort_keys=False)
PYTHON
nowhere=http://127.0.0.1:9
started=$(date +%s)
http_proxy=$nowhere https_proxy=$nowhere HTTP_PROXY=$nowhere HTTPS_PROXY=$nowhere no_proxy= NO_PROXY= \
    python -m snakemake all --profile profiles/slurm-ci -s Snakefile -d "$WORK/slurm" \
    --configfile "$WORK/mirrored.yaml" >"$WORK/slurm.log" 2>&1 || { tail -80 "$WORK/slurm.log"; fail "cluster run"; }
slurm_seconds=$(( $(date +%s) - started ))
python - "$WORK/mirrored.yaml" "$WORK/mirrored.lock.yaml" <<'PYTHON' || fail "the lock does not hold every source"
import sys, yaml
sys.path.insert(0, "workflow")
from reprobe.config import expand_sources
# Every source the config does not pin itself (gensim's files carry their sha256).
expected = {name for name, spec in expand_sources(yaml.safe_load(open(sys.argv[1], encoding="utf-8"))).items()
            if not spec.get("sha256")}
locked = set(yaml.safe_load(open(sys.argv[2], encoding="utf-8"))["sources"])
sys.exit(f"not locked: {sorted(expected - locked)}" if expected - locked else 0)
PYTHON
say "the SLURM run took every source from the mirror, offline, and locked all $(grep -c '^  [a-z0-9_]*:$' "$WORK/mirrored.lock.yaml")"
diff -r "$LOCAL/results/tables" "$WORK/slurm/results/tables" >"$WORK/diff.txt" \
    || { head -40 "$WORK/diff.txt"; fail "results/tables differ between the local and the cluster run"; }
ratio=$(python -c "print(round($slurm_seconds / $local_seconds, 2))")
say "results/tables/** equal byte for byte; SLURM ${slurm_seconds}s vs local ${local_seconds}s (ratio $ratio)"
# Another run of the same workflow, made after the local one finished, left it finished.
(cd "$LOCAL" && python -m snakemake all -n --cores 1) >"$WORK/local-after.txt" 2>&1 \
    || { tail -40 "$WORK/local-after.txt"; fail "planning the finished local run again"; }
grep -q "Nothing to be done" "$WORK/local-after.txt" \
    || { grep -m5 "reason:" "$WORK/local-after.txt"; fail "the SLURM run left the local run with something to do"; }
say "the local run, finished before the SLURM run, has nothing to do after it"

# 3. A bad input arrives (a FIGER line whose mention lies outside its sentence): the run must
#    fail, name the failed rule and show its log (file and line), the rest being done already.
broken="$WORK/inputs/figer_test.txt"
good="$REPO/data/samples/wikipse/figer/test.txt"
{ cat "$good"; printf '7\t9\ttoo short\t/person\tHEAD_x\n'; } >"$broken"
bad_line=$(wc -l <"$broken")
python - "$broken" "$WORK/config.yaml" "$WORK/mirrored.yaml" <<'PYTHON'
import sys, yaml
config = yaml.safe_load(open(sys.argv[3], encoding="utf-8"))
# The bad file arrives as a local file (a mirror file differing from the lock would be refused).
config["sources"]["wikipse_figer_test_sample"] = {"path": sys.argv[1]}
yaml.safe_dump(config, open(sys.argv[2], "w", encoding="utf-8"), allow_unicode=True, sort_keys=False)
PYTHON
if python -m snakemake all --profile profiles/slurm-ci -s Snakefile -d "$WORK/slurm" \
    --configfile "$WORK/config.yaml" >"$WORK/slurm-broken.log" 2>&1; then
    fail "the cluster run with a broken input succeeded"
fi
grep -q "job(s) failed:" "$WORK/slurm-broken.log" && grep -q "  - wikipse_mc" "$WORK/slurm-broken.log" || { tail -80 "$WORK/slurm-broken.log"; fail "the run does not end with the failed job named"; }
grep -q "figer_test.txt.*line $bad_line" "$WORK/slurm-broken.log" || { tail -80 "$WORK/slurm-broken.log"; fail "the failed rule's log (file and line) is not shown"; }
say "the run with a bad input failed, naming wikipse_mc and showing its log (line $bad_line)"

# 4. Fix the input, rerun: it finishes the rest, and nothing that was finished is redone.
#    What the rerun may (re)write is what the failure left undone: the plan says which jobs.
find "$WORK/slurm/results" "$WORK/slurm/data" -type f -printf '%p %T@\n' | sort >"$WORK/before.txt"
cp "$good" "$broken"
python -m snakemake all -n --profile profiles/slurm-ci -s Snakefile -d "$WORK/slurm" \
    --configfile "$WORK/config.yaml" >"$WORK/plan.txt" 2>&1 || { tail -40 "$WORK/plan.txt"; fail "planning the rerun"; }
# A page already on disk is rewritten by report_page_listed (the rule `--report` lists), one
# not yet written by report_page: the same job either way.
planned=$(awk '/^ *(local)?rule /{print $NF}' "$WORK/plan.txt" | tr -d ':' \
    | sed 's/^report_page_listed$/report_page/' | sort -u | tr '\n' ' ')
# The authors-corpus variant probes the same FIGER test set, so its MC and Table 5 wait too.
[[ $planned == "all fetch_source report_page wikipse_mc wikipse_mc_authors wikipse_table5 wikipse_table5_authors " ]] \
    || fail "the rerun plans more than what the failure left undone: $planned"
started=$(date +%s)
python -m snakemake all --profile profiles/slurm-ci -s Snakefile -d "$WORK/slurm" \
    --configfile "$WORK/config.yaml" >"$WORK/slurm-rerun.log" 2>&1 || { tail -80 "$WORK/slurm-rerun.log"; fail "the rerun after the fix"; }
rerun_seconds=$(( $(date +%s) - started ))
changed=$(python - "$WORK/before.txt" "$WORK/plan.txt" "$WORK/slurm" <<'PYTHON'
import os, re, sys
before, plan, root = sys.argv[1:]
# Outputs of the planned jobs: the fixed input, MC and Table 5 (both variants), the report pages.
planned = {os.path.join(root, path.strip()) for line in open(plan, encoding="utf-8")
           if line.strip().startswith("output:")
           for path in line.split(":", 1)[1].split(",")}
# A copied source's `.NAME.origin` (the configured file it came from) is part of its output.
planned |= {os.path.join(os.path.dirname(p), f".{os.path.basename(p)}.origin") for p in planned}
for line in open(before, encoding="utf-8"):
    path, mtime = line.rsplit(" ", 1)
    if path not in planned and os.path.getmtime(path) != float(mtime):
        print(path)
PYTHON
)
[[ -z $changed ]] || fail "the rerun redid finished outputs: $changed"
cmp -s "$LOCAL/results/tables/wikipse/table5.csv" "$WORK/slurm/results/tables/wikipse/table5.csv" \
    || fail "Table 5 after the fix differs from the local run's"
say "rerun after the fix: ${rerun_seconds}s, no finished output redone, Table 5 as the local run's"

python -c "import sys; sys.exit($slurm_seconds > $MAX_RATIO * $local_seconds)" \
    || fail "the cluster run took $ratio × the local run (at most $MAX_RATIO)"
say "PASSED"
