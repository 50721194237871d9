#!/usr/bin/env bash
# Boot-time health check of an InfiniBand GPU node (Azure ND-series scale set instance).
#
# Checks, retrying until WAIT_SECONDS have passed (drivers installed by VM extensions and InfiniBand
# links come up minutes after boot):
#   - GPUs: `nvidia-smi` answers, sees EXPECTED_GPUS GPUs, all on one driver version;
#   - InfiniBand: `ibstat` shows EXPECTED_IB_PORTS InfiniBand ports (Ethernet ports, such as the
#     accelerated-networking NIC, are not counted), every one Active at EXPECTED_IB_RATE Gb/s;
# then, once those pass, Azure's node health checks when the image carries them (the Azure HPC
# images do): /opt/azurehpc/test/azurehpc-health-checks/run-health-checks.sh.
#
# The verdict goes to VERDICT_FILE (first line HEALTHY or UNHEALTHY, then one "- problem" per line)
# and, as one line, to standard output, which the systemd unit sends to the journal and the serial
# console (the boot log). Exit status: 0 healthy, 1 unhealthy, 2 misconfigured.
#
# Shipped by components/training_cluster.py through cloud-init; settings come from the environment
# (/etc/default/node-health-check on the node).
set -uo pipefail

EXPECTED_GPUS="${EXPECTED_GPUS:-}"
EXPECTED_IB_PORTS="${EXPECTED_IB_PORTS:-}"
EXPECTED_IB_RATE="${EXPECTED_IB_RATE:-}"
WAIT_SECONDS="${WAIT_SECONDS:-1800}"
RETRY_SECONDS="${RETRY_SECONDS:-30}"
VERDICT_FILE="${VERDICT_FILE:-/var/log/node-health-check/verdict}"
RUN_AZURE_NHC="${RUN_AZURE_NHC:-true}"
AZURE_NHC="${AZURE_NHC:-/opt/azurehpc/test/azurehpc-health-checks/run-health-checks.sh}"
AZURE_NHC_LOG="${AZURE_NHC_LOG:-$(dirname "$VERDICT_FILE")/azurehpc-health-checks.log}"

TAG="node-health-check"
problems=()

say() { echo "$TAG: $*"; }

require_number() {
    local name="$1" value="$2"
    if ! [[ "$value" =~ ^[0-9]+$ ]]; then
        say "misconfigured: $name is '$value'; allowed: a whole number" >&2
        exit 2
    fi
}

check_gpus() {
    if ! command -v nvidia-smi >/dev/null 2>&1; then
        problems+=("GPU: nvidia-smi not found; the NVIDIA driver is not installed")
        return
    fi
    local out
    if ! out="$(nvidia-smi --query-gpu=index,name,driver_version --format=csv,noheader 2>&1)"; then
        problems+=("GPU: nvidia-smi failed: $(head -n 1 <<<"$out")")
        return
    fi
    local count=0 drivers=() index name driver
    while IFS=, read -r index name driver; do
        [[ -z "${index// /}" ]] && continue
        count=$((count + 1))
        driver="${driver// /}"
        [[ " ${drivers[*]-} " == *" $driver "* ]] || drivers+=("$driver")
    done <<<"$out"
    if ((count != EXPECTED_GPUS)); then
        problems+=("GPU: nvidia-smi sees $count GPUs, expected $EXPECTED_GPUS")
    fi
    if ((${#drivers[@]} > 1)); then
        problems+=("GPU: more than one driver version loaded: ${drivers[*]}")
    elif ((count > 0)) && [[ -z "${drivers[0]}" ]]; then
        problems+=("GPU: nvidia-smi reports no driver version")
    fi
}

# One line per port: CA port state rate link-layer.
ibstat_ports() {
    awk '
        /^CA \047/ { ca = $2; gsub(/\047/, "", ca) }
        /^[ \t]+Port [0-9]+:/ { port = $2; sub(/:/, "", port) }
        /^[ \t]+State:/ { state = $2 }
        /^[ \t]+Rate:/ { rate = $2 }
        /^[ \t]+Link layer:/ { print ca, port, state, rate, $3 }
    '
}

check_infiniband() {
    if ! command -v ibstat >/dev/null 2>&1; then
        problems+=("InfiniBand: ibstat not found; the InfiniBand driver (Mellanox OFED) is not installed")
        return
    fi
    local out
    if ! out="$(ibstat 2>&1)"; then
        problems+=("InfiniBand: ibstat failed: $(head -n 1 <<<"$out")")
        return
    fi
    local count=0 ca port state rate layer
    while read -r ca port state rate layer; do
        [[ "$layer" == "InfiniBand" ]] || continue
        count=$((count + 1))
        if [[ "$state" != "Active" ]]; then
            problems+=("InfiniBand: $ca port $port is $state, expected Active")
        elif [[ "$rate" != "$EXPECTED_IB_RATE" ]]; then
            problems+=("InfiniBand: $ca port $port runs at $rate Gb/s, expected $EXPECTED_IB_RATE")
        fi
    done < <(ibstat_ports <<<"$out")
    if ((count != EXPECTED_IB_PORTS)); then
        problems+=("InfiniBand: ibstat shows $count InfiniBand ports, expected $EXPECTED_IB_PORTS")
    fi
}

run_azure_nhc() {
    [[ "$RUN_AZURE_NHC" == "true" && -x "$AZURE_NHC" ]] || return 0
    say "running Azure's node health checks ($AZURE_NHC); output in $AZURE_NHC_LOG"
    local rc=0
    (cd "$(dirname "$AZURE_NHC")" && "$AZURE_NHC") >"$AZURE_NHC_LOG" 2>&1 || rc=$?
    if ((rc != 0)); then
        problems+=("Azure node health checks failed (exit $rc): $(tail -n 1 "$AZURE_NHC_LOG"); see $AZURE_NHC_LOG")
    fi
}

write_verdict() {
    local verdict="$1" tmp
    mkdir -p "$(dirname "$VERDICT_FILE")"
    tmp="$(mktemp "$VERDICT_FILE.XXXXXX")"
    {
        echo "$verdict"
        for problem in "${problems[@]}"; do echo "- $problem"; done
    } >"$tmp"
    chmod 0644 "$tmp"
    mv -f "$tmp" "$VERDICT_FILE"
}

main() {
    require_number EXPECTED_GPUS "$EXPECTED_GPUS"
    require_number EXPECTED_IB_PORTS "$EXPECTED_IB_PORTS"
    require_number EXPECTED_IB_RATE "$EXPECTED_IB_RATE"
    require_number WAIT_SECONDS "$WAIT_SECONDS"
    require_number RETRY_SECONDS "$RETRY_SECONDS"

    problems=("check in progress")
    write_verdict CHECKING
    say "checking $EXPECTED_GPUS GPUs and $EXPECTED_IB_PORTS InfiniBand ports at $EXPECTED_IB_RATE Gb/s (waiting up to $WAIT_SECONDS s)"
    local deadline=$((SECONDS + WAIT_SECONDS))
    while :; do
        problems=()
        check_gpus
        check_infiniband
        ((${#problems[@]} == 0)) && break
        ((SECONDS >= deadline)) && break
        say "not ready yet (${problems[0]}); retrying in $RETRY_SECONDS s"
        sleep "$RETRY_SECONDS"
    done
    ((${#problems[@]} == 0)) && run_azure_nhc

    if ((${#problems[@]} == 0)); then
        write_verdict HEALTHY
        say "HEALTHY: $EXPECTED_GPUS GPUs and $EXPECTED_IB_PORTS InfiniBand ports at $EXPECTED_IB_RATE Gb/s; verdict in $VERDICT_FILE"
        return 0
    fi
    write_verdict UNHEALTHY
    local joined
    joined="$(printf '%s; ' "${problems[@]}")"
    say "UNHEALTHY: do not run jobs on this node: ${joined%; }; verdict in $VERDICT_FILE"
    return 1
}

main "$@"
