#!/usr/bin/env bash
# The GPU check, two parts one after the other, each printing a Markdown table:
# 1. NumerSense (benchmarks/numersense_gpu_check.py): batched against one-at-a-time scoring
#    with both protocols' scorers in fp32 and bf16, and one fine-tuning epoch, on a random
#    bert-base with a tokenizer built offline;
# 2. EQUATE's trained baselines (benchmarks/equate_gpu_check.py): one epoch of each of the
#    seven at the paper's width on 50,000 generated pairs: pairs/s and peak GPU memory.
#   bash benchmarks/gpu_check.sh [--device cuda|cpu] [--limit N] [--batch-size N] [--seed N]
#       [--out FILE] [--equate-pairs N] [--equate-precision none|bf16|fp16]
#       [--equate-width W] [--equate-json PATH] [--equate-OPTION VALUE ...]
#       [--skip-numersense] [--skip-equate]
# --device goes to both; --out FILE to both (the EQUATE table appended after NumerSense's);
# --equate-OPTION VALUE (or --equate-OPTION=VALUE) goes to equate_gpu_check.py as --OPTION
# VALUE (--pairs, --precision, --width, --architectures, --vocabulary-words, --threads,
# --seed, --json: see its --help). --equate-json PATH writes the EQUATE figures as JSON, which
# `python benchmarks/rule_costs.py --equate-gpu PATH --write` turns into the trained baselines'
# run times in workflow/reprobe/costs.json. Every other argument goes to numersense_gpu_check.py
# as before (--limit, --batch-size, --seed, ...). Needs no network (HF_HUB_OFFLINE=1). Exits
# non-zero when a step of either part fails (the EQUATE part does not run when NumerSense's
# fails).
# $PYTHON picks the interpreter (default: python, else python3).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
python="${PYTHON:-$(command -v python || command -v python3)}"
export HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1
numersense=() equate=() skip_numersense="" skip_equate="" out=""
while (($#)); do
    case "$1" in
        --device|--out)
            (($# >= 2)) || { echo "gpu_check.sh: $1 needs a value" >&2; exit 2; }
            numersense+=("$1" "$2") equate+=("$1" "$2")
            [[ "$1" == --out ]] && out=1
            shift 2 ;;
        --device=*|--out=*)
            numersense+=("$1") equate+=("$1")
            [[ "$1" == --out=* ]] && out=1
            shift ;;
        --equate-*=*) equate+=("--${1#--equate-}"); shift ;;
        --equate-*)
            (($# >= 2)) || { echo "gpu_check.sh: $1 needs a value" >&2; exit 2; }
            equate+=("--${1#--equate-}" "$2"); shift 2 ;;
        --skip-numersense) skip_numersense=1; shift ;;
        --skip-equate) skip_equate=1; shift ;;
        *) numersense+=("$1"); shift ;;
    esac
done
if [[ -z "$skip_numersense" ]]; then
    "$python" "$here/numersense_gpu_check.py" ${numersense[@]+"${numersense[@]}"}
fi
if [[ -z "$skip_equate" ]]; then
    # After NumerSense's table, --out FILE gets the EQUATE table appended.
    [[ -n "$out" && -z "$skip_numersense" ]] && equate+=(--append)
    "$python" "$here/equate_gpu_check.py" ${equate[@]+"${equate[@]}"}
fi
