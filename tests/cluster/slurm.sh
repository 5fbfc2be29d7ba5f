#!/usr/bin/env bash
# A single-node SLURM for the cluster test, from Debian's packages (Slurm 22.05 on Debian 12).
#   tests/cluster/slurm.sh up     install if needed, configure, start munge, slurmctld, slurmd
#   tests/cluster/slurm.sh down   stop the three daemons by their PIDs
# Exit status 3 means this machine cannot run it (no root, no apt); the reason is on stderr.
set -euo pipefail

STATE=${SLURM_CI_STATE:-/tmp/reprobe-slurm}
CONF=/etc/slurm/slurm.conf  # the plugin's job step drops SLURM_CONF: only this path works
MARK="# Written by tests/cluster/slurm.sh; its 'down' removes it."
PACKAGES=(slurmctld slurmd slurm-client munge)

skip() { echo "SKIP: $*" >&2; exit 3; }

install_packages() {
    local missing=()
    for command in slurmctld slurmd sbatch munged; do
        command -v "$command" >/dev/null 2>&1 || missing+=("$command")
    done
    [[ ${#missing[@]} -eq 0 ]] && return 0
    [[ $(id -u) -eq 0 ]] || skip "SLURM is not installed (${missing[*]}) and this is not root"
    command -v apt-get >/dev/null 2>&1 || skip "SLURM is not installed and there is no apt-get"
    apt-get update -qq >"$STATE/apt.log" 2>&1 || skip "apt-get update failed (see $STATE/apt.log)"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
        "${PACKAGES[@]}" >>"$STATE/apt.log" 2>&1 \
        || skip "apt-get install ${PACKAGES[*]} failed (see $STATE/apt.log)"
}

write_config() {
    local node cpus memory
    node=$(hostname -s)  # NodeName must be the short host name or slurmd will not start
    cpus=$(nproc)
    # Leave a quarter of the memory to the submitting Snakemake and the daemons.
    memory=$(awk '/MemTotal/ {printf "%d", $2 / 1024 * 0.75}' /proc/meminfo)
    mkdir -p /etc/slurm /var/spool/slurmctld /var/spool/slurmd /var/log/slurm
    # No accounting database: squeue is the status command, and finished jobs must stay
    # visible to it for a while (MinJobAge), or the executor never sees them end.
    # Slurm 22.05 rejects CgroupPlugin=disabled: process tracking without cgroups instead.
    # Cores only are consumable (CR_Core): with memory consumable too, every job step (srun) of
    # a group job claims the job's whole memory, so a group's jobs would run one after another.
    cat >"$CONF" <<EOF
$MARK
ClusterName=reprobe-ci
SlurmctldHost=$node
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
MpiDefault=none
ReturnToService=2
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
MinJobAge=600
SlurmctldPidFile=$STATE/slurmctld.pid
SlurmdPidFile=$STATE/slurmd.pid
StateSaveLocation=/var/spool/slurmctld
SlurmdSpoolDir=/var/spool/slurmd
SlurmctldLogFile=/var/log/slurm/slurmctld.log
SlurmdLogFile=/var/log/slurm/slurmd.log
NodeName=$node CPUs=$cpus RealMemory=$memory State=UNKNOWN
PartitionName=ci Nodes=$node Default=YES MaxTime=INFINITE State=UP
EOF
    echo "$node $cpus CPUs ${memory} MB"
}

start_munge() {
    if [[ ! -s /etc/munge/munge.key ]]; then
        if command -v mungekey >/dev/null 2>&1; then mungekey --create --force
        else dd if=/dev/urandom of=/etc/munge/munge.key bs=1024 count=1 status=none; fi
    fi
    chown munge:munge /etc/munge/munge.key && chmod 400 /etc/munge/munge.key
    mkdir -p /run/munge /var/log/munge /var/lib/munge
    chown munge:munge /run/munge /var/log/munge /var/lib/munge
    chmod 711 /run/munge  # munged refuses a socket folder others can write or cannot reach
    su -s /bin/sh munge -c "/usr/sbin/munged --pid-file=/run/munge/munged.pid"
    cp /run/munge/munged.pid "$STATE/munged.pid"
}

wait_for_node() {
    for _ in $(seq 60); do
        if sinfo -h -o "%T" 2>/dev/null | grep -qE "^(idle|mixed|allocated)"; then
            sinfo
            return 0
        fi
        sleep 1
    done
    echo "the node did not become idle; slurmd log:" >&2
    tail -20 /var/log/slurm/slurmd.log /var/log/slurm/slurmctld.log >&2
    return 1
}

ours() { [[ -f $CONF ]] && head -1 "$CONF" | grep -qxF "$MARK"; }

up() {
    mkdir -p "$STATE"
    # A machine with its own SLURM: leave it alone.
    [[ ! -e $CONF ]] || ours || skip "$CONF exists and was not written by this script"
    install_packages
    write_config
    start_munge
    /usr/sbin/slurmctld -c   # -c: a clean state, no jobs left from an earlier run
    /usr/sbin/slurmd
    wait_for_node
}

down() {
    for daemon in slurmd slurmctld munged; do
        local pidfile="$STATE/$daemon.pid"
        [[ -s $pidfile ]] || continue
        kill "$(cat "$pidfile")" 2>/dev/null || true
        rm -f "$pidfile"
    done
    # Without its controller, a config left behind costs every later Snakemake start 10 s: the
    # SLURM plugin asks `scontrol show config` while building its command line, and waits.
    if ours; then rm -f "$CONF"; fi
}

case ${1:-} in
    up) up ;;
    down) down ;;
    *) echo "usage: $0 up|down" >&2; exit 2 ;;
esac
