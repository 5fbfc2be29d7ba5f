#!/usr/bin/env bash
# Debian packages two tests need beyond pip: Chromium (the report's browser test) and SLURM
# with munge (tests/cluster/). Installed only where this is root on apt; elsewhere it says
# which tests will skip and why, and exits 0 (those tests then report their skip reasons).
set -uo pipefail

PACKAGES=(chromium slurmctld slurmd slurm-client munge)
missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
for command in slurmctld slurmd sbatch munged; do
    command -v "$command" >/dev/null 2>&1 || { missing+=(slurm); break; }
done
if [[ ${#missing[@]} -eq 0 ]]; then
    echo "[system] chromium and SLURM are installed"
    exit 0
fi
if [[ $(id -u) -ne 0 ]] || ! command -v apt-get >/dev/null 2>&1; then
    echo "[system] SKIP: ${missing[*]} missing and this is not root on apt: the report's browser" \
         "test and tests/cluster/ will skip"
    exit 0
fi
echo "[system] installing ${PACKAGES[*]}"
apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
    --no-install-recommends "${PACKAGES[@]}" >/tmp/reprobe-apt.log 2>&1 \
    || echo "[system] SKIP: apt-get install failed (see /tmp/reprobe-apt.log)"
exit 0
