#!/usr/bin/env bash
# A real single-node Slurm cluster on localhost, for the tests: munged,
# MariaDB with slurmdbd (so sacct works as on a real cluster), slurmctld and
# slurmd, each on its own free port, with every file in DIR.
#
#   tools/slurm/cluster.sh install   # Debian's slurm-wlm parts and munge (root, apt)
#   tools/slurm/cluster.sh up DIR    # start it; then SLURM_CONF=DIR/slurm.conf
#   tools/slurm/cluster.sh down DIR  # stop every daemon it started
#
# Exit codes: 0 done; 3 Slurm cannot run on this machine (the reason is the
# last line of output: not root, not installed); 1 anything else.
set -euo pipefail

packages=(slurm-wlm slurmdbd munge mariadb-server)
tools=(munged mariadbd mariadb-install-db slurmdbd slurmctld slurmd sbatch squeue sacct scontrol)

cannot() { echo "Slurm cannot run here: $*"; exit 3; }

missing_tools() {
  local t missing=()
  for t in "${tools[@]}"; do
    command -v "$t" >/dev/null || [ -x "/usr/sbin/$t" ] || missing+=("$t")
  done
  echo "${missing[*]}"
}

# Waits up to 60 s for a command to succeed, polling (a daemon starting).
wait_for() {
  local what=$1; shift
  for _ in $(seq 300); do
    if "$@" >/dev/null 2>&1; then return 0; fi
    sleep 0.2
  done
  echo "$what did not come up; its log:"; tail -n 20 "$log" 2>/dev/null || true
  return 1
}

free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

install() {
  [ -z "$(missing_tools)" ] && return 0
  [ "$(id -u)" = 0 ] || cannot "Slurm is not installed, and installing it needs root"
  command -v apt-get >/dev/null || cannot "Slurm is not installed, and there is no apt-get"
  export DEBIAN_FRONTEND=noninteractive
  # Debian's packages would start their services; a policy stops that.
  local policy=/usr/sbin/policy-rc.d made=
  [ -e $policy ] || { printf '#!/bin/sh\nexit 101\n' > $policy; chmod +x $policy; made=1; }
  if ! { apt-get install -y -qq --no-install-recommends "${packages[@]}" >/dev/null 2>&1 \
      || { apt-get update -qq >/dev/null 2>&1 \
           && apt-get install -y -qq --no-install-recommends "${packages[@]}" >/dev/null 2>&1; }; }; then
    [ -n "$made" ] && rm -f $policy
    cannot "apt-get could not install ${packages[*]}"
  fi
  [ -n "$made" ] && rm -f $policy
  [ -z "$(missing_tools)" ] || cannot "still missing after install: $(missing_tools)"
}

up() {
  local dir=$1
  [ "$(id -u)" = 0 ] || cannot "slurmd must run as root to start jobs (this is uid $(id -u))"
  [ -z "$(missing_tools)" ] || cannot "not installed: $(missing_tools) (run: $0 install)"
  export PATH="$PATH:/usr/sbin"
  mkdir -p "$dir"/{munge,state,spool,log,run,db}
  chmod 700 "$dir/munge"
  local ctld_port slurmd_port db_port dbd_port
  ctld_port=$(free_port); slurmd_port=$(free_port); db_port=$(free_port); dbd_port=$(free_port)

  log=$dir/log/munged.log
  head -c 1024 /dev/urandom > "$dir/munge/key"; chmod 600 "$dir/munge/key"
  munged -f --socket="$dir/munge/sock" --key-file="$dir/munge/key" --log-file="$log" \
    --pid-file="$dir/run/munged.pid" --seed-file="$dir/munge/seed"
  wait_for munged munge -S "$dir/munge/sock" -n

  log=$dir/log/mariadb.log
  mariadb-install-db --no-defaults --datadir="$dir/db/data" --user=root \
    --auth-root-authentication-method=normal --skip-test-db >"$dir/log/mariadb-init.log" 2>&1
  mariadbd --no-defaults --datadir="$dir/db/data" --socket="$dir/db/sock" --bind-address=127.0.0.1 \
    --port="$db_port" --skip-name-resolve --user=root --pid-file="$dir/run/mariadb.pid" \
    --log-error="$log" >/dev/null 2>&1 &
  wait_for mariadbd mariadb --no-defaults -S "$dir/db/sock" -u root -e 'select 1'
  mariadb --no-defaults -S "$dir/db/sock" -u root -e "
    create user 'slurm'@'127.0.0.1' identified by 'slurm';
    create database slurm_acct_db;
    grant all on slurm_acct_db.* to 'slurm'@'127.0.0.1';"

  cat > "$dir/slurmdbd.conf" <<EOF
AuthType=auth/munge
AuthInfo=socket=$dir/munge/sock
DbdHost=localhost
DbdAddr=127.0.0.1
DbdPort=$dbd_port
SlurmUser=root
LogFile=$dir/log/slurmdbd.log
PidFile=$dir/run/slurmdbd.pid
StorageType=accounting_storage/mysql
StorageHost=127.0.0.1
StoragePort=$db_port
StorageUser=slurm
StoragePass=slurm
StorageLoc=slurm_acct_db
EOF
  chmod 600 "$dir/slurmdbd.conf"
  cat > "$dir/slurm.conf" <<EOF
# A one-node cluster on localhost, written by tools/slurm/cluster.sh.
ClusterName=endodoi
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$dir/munge/sock
CredType=cred/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/run/slurmctld.pid
SlurmdPidFile=$dir/run/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/slurmdbd
AccountingStorageHost=127.0.0.1
AccountingStoragePort=$dbd_port
AccountingStoragePass=$dir/munge/sock
JobCompType=jobcomp/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
MpiDefault=none
ReturnToService=2
MinJobAge=300
KillWait=5
NodeName=node1 NodeHostname=localhost NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
  export SLURM_CONF=$dir/slurm.conf
  log=$dir/log/slurmdbd.log
  slurmdbd
  wait_for slurmdbd sacctmgr -n list cluster
  log=$dir/log/slurmctld.log
  slurmctld
  wait_for slurmctld scontrol ping
  log=$dir/log/slurmd.log
  slurmd -N node1
  wait_for "the node" sh -c 'sinfo -h -o %T | grep -qx idle'
  echo "Slurm is up: SLURM_CONF=$dir/slurm.conf"
}

stop_pid() {
  local file=$1 pid
  [ -f "$file" ] || return 0
  pid=$(cat "$file")
  kill "$pid" 2>/dev/null || return 0
  for _ in $(seq 100); do
    kill -0 "$pid" 2>/dev/null || return 0
    # A zombie has ended; only its parent has not reaped it.
    grep -q '^State:.*Z' "/proc/$pid/status" 2>/dev/null && return 0
    sleep 0.1
  done
  kill -9 "$pid" 2>/dev/null || true
}

down() {
  local dir=$1
  export PATH="$PATH:/usr/sbin" SLURM_CONF=$dir/slurm.conf
  if [ -f "$dir/slurm.conf" ]; then
    scancel --user="$(id -un)" >/dev/null 2>&1 || true
  fi
  for d in slurmd slurmctld slurmdbd mariadb munged; do
    stop_pid "$dir/run/$d.pid"
  done
}

case "${1:-}" in
  install) install ;;
  up) [ -n "${2:-}" ] || { echo "usage: $0 up DIR"; exit 1; }; up "$2" ;;
  down) [ -n "${2:-}" ] || { echo "usage: $0 down DIR"; exit 1; }; down "$2" ;;
  *) echo "usage: $0 install | up DIR | down DIR"; exit 1 ;;
esac
