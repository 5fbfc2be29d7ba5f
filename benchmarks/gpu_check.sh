#!/usr/bin/env bash
# NumerSense GPU check (benchmarks/numersense_gpu_check.py): batched against one-at-a-time
# scoring with both protocols' scorers in fp32 and bf16, and one fine-tuning epoch, on a random
# bert-base with a tokenizer built offline; prints a Markdown table. Arguments are passed on:
#   bash benchmarks/gpu_check.sh [--device cuda|cpu] [--limit N] [--out FILE]
# Needs no network (HF_HUB_OFFLINE=1). Exits non-zero when a step fails. $PYTHON picks the
# interpreter (default: python, else python3).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
python="${PYTHON:-$(command -v python || command -v python3)}"
export HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1
exec "$python" "$here/numersense_gpu_check.py" "$@"
