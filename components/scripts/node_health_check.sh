#!/usr/bin/env bash
# Boot-time health check of an InfiniBand GPU node (Azure ND-series scale set instance).
#
# 1. Readiness, retried until WAIT_SECONDS have passed (drivers installed by VM extensions and
#    InfiniBand links come up minutes after boot):
#    - GPUs: `nvidia-smi` answers, sees EXPECTED_GPUS GPUs, all on one driver version;
#    - InfiniBand, only when EXPECTED_IB_PORTS > 0 (with none expected, `ibstat` is not needed):
#      `ibstat` shows EXPECTED_IB_PORTS InfiniBand ports (Ethernet ports, such as the
#      accelerated-networking NIC, are not counted), every one Active at EXPECTED_IB_RATE Gb/s
#      (EXPECTED_IB_RATE is needed only then);
# 2. Faults, once (waiting does not clear them), one verdict line per GPU and fault, naming the GPU
#    index and bus id:
#    - ECC mode not Enabled; volatile uncorrectable ECC errors;
#    - row remapping pending or failed; retired pages pending (H100 reports [N/A]: row remapping
#      replaced page retirement there, so [N/A] is not a fault);
#    - PCIe link generation or width below the link's maximum;
#    - clock-event reasons HW Slowdown, HW Thermal Slowdown, HW Power Brake Slowdown, SW Thermal
#      Slowdown (SW Power Cap is what a busy healthy GPU shows, so it is not a fault);
#    - Xid errors in the kernel log since boot (`dmesg`); those in DRAIN_XIDS make the node
#      unhealthy, others are printed as notes (usually an application's fault).
#    Everything is read from `nvidia-smi --query-gpu=... --format=csv,noheader` and
#    `--query-remapped-rows`, never from the human-readable table.
# 3. When steps 1 and 2 pass: a single-node NCCL all-reduce (nccl-tests `all_reduce_perf` over all
#    GPUs, one process) held to NCCL_BUSBW_FLOOR GB/s at NCCL_MESSAGE_SIZE, when a floor is set and
#    the image carries all_reduce_perf; then Azure's node health checks when the image carries them
#    (the Azure HPC images do): /opt/azurehpc/test/azurehpc-health-checks/run-health-checks.sh.
#
# Bounded time: every command runs under a limit (COMMAND_TIMEOUT seconds for nvidia-smi, ibstat and
# dmesg; NCCL_TIMEOUT for the all-reduce; AZURE_NHC_TIMEOUT for Azure's checks), killed when it
# passes it, so a wedged nvidia-smi cannot hang the check. The whole check ends within
#   WAIT_SECONDS + RETRY_SECONDS + 4 x COMMAND_TIMEOUT + NCCL_TIMEOUT + AZURE_NHC_TIMEOUT (+ 1 s per command),
# printed at the start; components/node_health.py gives systemd the same bound.
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
COMMAND_TIMEOUT="${COMMAND_TIMEOUT:-60}"
VERDICT_FILE="${VERDICT_FILE:-/var/log/node-health-check/verdict}"
NCCL_BUSBW_FLOOR="${NCCL_BUSBW_FLOOR:-}"
NCCL_MESSAGE_SIZE="${NCCL_MESSAGE_SIZE:-8G}"
NCCL_TIMEOUT="${NCCL_TIMEOUT:-300}"
ALL_REDUCE_PERF="${ALL_REDUCE_PERF:-}"
RUN_AZURE_NHC="${RUN_AZURE_NHC:-true}"
AZURE_NHC="${AZURE_NHC:-/opt/azurehpc/test/azurehpc-health-checks/run-health-checks.sh}"
AZURE_NHC_LOG="${AZURE_NHC_LOG:-$(dirname "$VERDICT_FILE")/azurehpc-health-checks.log}"
AZURE_NHC_TIMEOUT="${AZURE_NHC_TIMEOUT:-1800}"

# Xids after which Azure's node health checks fail the node (customTests/azure_gpu_xid.nhc in
# github.com/Azure/azurehpc-health-checks, observed 2026-11-22; meanings in NVIDIA's Xid catalog,
# https://docs.nvidia.com/deploy/xid-errors/). 79: GPU has fallen off the bus; 48, 63, 64, 92, 94,
# 95: ECC and row-remapping events; 74: NVLink error; 119, 120: GSP errors.
DRAIN_XIDS="48 56 57 58 62 63 64 65 68 69 73 74 79 80 81 92 119 120"
# clocks_event_reasons.active bits that mean a fault (nvmlClocksEventReason* in NVIDIA's NVML API
# reference, https://docs.nvidia.com/deploy/nvml-api/group__nvmlClocksEventReasons.html). Not
# faults: 0x1 GPU idle, 0x2 applications clocks setting, 0x4 SW power cap (a busy GPU at its power
# limit), 0x10 sync boost, 0x100 display clock setting.
CLOCK_FAULTS=(0x8 "HW Slowdown" 0x40 "HW Thermal Slowdown" 0x80 "HW Power Brake Slowdown" 0x20 "SW Thermal Slowdown")
GPU_FIELDS="index,pci.bus_id,driver_version,ecc.mode.current,ecc.errors.uncorrected.volatile.total,retired_pages.pending,pcie.link.gen.current,pcie.link.gen.max,pcie.link.width.current,pcie.link.width.max,clocks_event_reasons.active"
REMAP_FIELDS="gpu_bus_id,remapped_rows.pending,remapped_rows.failure"

TAG="node-health-check"
problems=()
gpu_csv=""
WORK=""

say() { echo "$TAG: $*"; }

require_number() {
    local name="$1" value="$2"
    if ! [[ "$value" =~ ^[0-9]+$ ]]; then
        say "misconfigured: $name is '$value'; allowed: a whole number" >&2
        exit 2
    fi
}

# run_bounded SECONDS OUTFILE COMMAND...: runs COMMAND with its output in OUTFILE; returns its exit
# status, or 124 after killing it (and what it started: its own session) when it runs past SECONDS.
# Output goes to a file, not a pipe, and the check does not wait for a killed process to die: one
# stuck in the kernel cannot hold it up. It looks after 2 ms, then after twice as long each time up to
# every 50 ms (most queries end within a few milliseconds); `waited` counts milliseconds slept.
run_bounded() {
    local limit="$1" out="$2" pid waited=0 step=2 session=""
    shift 2
    command -v setsid >/dev/null 2>&1 && session=setsid
    $session "$@" >"$out" 2>&1 &
    pid=$!
    while kill -0 "$pid" 2>/dev/null; do
        if ((waited >= limit * 1000)); then
            disown "$pid" 2>/dev/null
            kill -KILL -- "-$pid" 2>/dev/null || kill -KILL "$pid" 2>/dev/null
            return 124
        fi
        sleep "$(printf '0.%03d' "$step")"
        waited=$((waited + step))
        step=$((step < 25 ? step * 2 : 50))
    done
    wait "$pid"
}

# query NAME LABEL LIMIT COMMAND...: runs a tool, its output in $WORK/NAME; returns its status, 127
# when the tool is not installed (no problem added), else adds a problem named LABEL when it fails.
query() {
    local name="$1" label="$2" limit="$3" rc=0
    shift 3
    if ! command -v "$1" >/dev/null 2>&1; then
        return 127
    fi
    run_bounded "$limit" "$WORK/$name" "$@" || rc=$?
    if ((rc == 124)); then
        problems+=("$label: $1 did not answer within $limit s")
    elif ((rc != 0)); then
        problems+=("$label: $1 failed: $(head -n 1 "$WORK/$name")")
    fi
    return "$rc"
}

trim() { local v="$1"; v="${v#"${v%%[! ]*}"}"; echo "${v%"${v##*[! ]}"}"; }

check_gpus() {
    gpu_csv=""
    if ! command -v nvidia-smi >/dev/null 2>&1; then
        problems+=("GPU: nvidia-smi not found; the NVIDIA driver is not installed")
        return
    fi
    query gpus GPU "$COMMAND_TIMEOUT" nvidia-smi "--query-gpu=$GPU_FIELDS" --format=csv,noheader || return
    gpu_csv="$(cat "$WORK/gpus")"
    local count=0 drivers=() index bus driver rest
    while IFS=, read -r index bus driver rest; do
        [[ -z "${index// /}" ]] && continue
        count=$((count + 1))
        driver="${driver// /}"
        [[ " ${drivers[*]-} " == *" $driver "* ]] || drivers+=("$driver")
    done <<<"$gpu_csv"
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
    ((EXPECTED_IB_PORTS == 0)) && return
    if ! command -v ibstat >/dev/null 2>&1; then
        problems+=("InfiniBand: ibstat not found; the InfiniBand driver (Mellanox OFED) is not installed")
        return
    fi
    query ibstat InfiniBand "$COMMAND_TIMEOUT" ibstat || return
    local count=0 ca port state rate layer
    while read -r ca port state rate layer; do
        [[ "$layer" == "InfiniBand" ]] || continue
        count=$((count + 1))
        if [[ "$state" != "Active" ]]; then
            problems+=("InfiniBand: $ca port $port is $state, expected Active")
        elif [[ "$rate" != "$EXPECTED_IB_RATE" ]]; then
            problems+=("InfiniBand: $ca port $port runs at $rate Gb/s, expected $EXPECTED_IB_RATE")
        fi
    done < <(ibstat_ports <"$WORK/ibstat")
    if ((count != EXPECTED_IB_PORTS)); then
        problems+=("InfiniBand: ibstat shows $count InfiniBand ports, expected $EXPECTED_IB_PORTS")
    fi
}

# Per-GPU faults from the --query-gpu CSV read by check_gpus.
check_gpu_faults() {
    local index bus driver ecc uncorrected retired gen gen_max width width_max reasons gpu bit name i
    while IFS=, read -r index bus driver ecc uncorrected retired gen gen_max width width_max reasons; do
        [[ -z "${index// /}" ]] && continue
        gpu="GPU $(trim "$index") ($(trim "$bus"))"
        ecc="$(trim "$ecc")" uncorrected="$(trim "$uncorrected")" retired="$(trim "$retired")"
        gen="$(trim "$gen")" gen_max="$(trim "$gen_max")" width="$(trim "$width")" width_max="$(trim "$width_max")"
        reasons="$(trim "$reasons")"
        [[ "$ecc" == "Disabled" ]] && problems+=("$gpu: ECC is disabled, expected Enabled")
        if [[ "$uncorrected" =~ ^[0-9]+$ ]] && ((uncorrected > 0)); then
            problems+=("$gpu: $uncorrected volatile uncorrectable ECC errors")
        fi
        [[ "$retired" == "Yes" ]] && problems+=("$gpu: retired pages pending; reset the GPU or reboot the node")
        if [[ "$gen$gen_max$width$width_max" =~ ^[0-9]+$ ]] && ((gen < gen_max || width < width_max)); then
            problems+=("$gpu: PCIe link at Gen$gen x$width, below its maximum Gen$gen_max x$width_max")
        fi
        if [[ "$reasons" =~ ^0x[0-9a-fA-F]+$ ]]; then
            name=()
            for ((i = 0; i < ${#CLOCK_FAULTS[@]}; i += 2)); do
                bit="${CLOCK_FAULTS[i]}"
                ((reasons & bit)) && name+=("${CLOCK_FAULTS[i + 1]}")
            done
            if ((${#name[@]} > 0)); then
                local joined
                joined="$(printf '%s, ' "${name[@]}")"
                problems+=("$gpu: clocks held down by ${joined%, } ($reasons)")
            fi
        fi
    done <<<"$gpu_csv"
}

# domain:bus:device with the domain as a number: nvidia-smi writes 00000001:00:00.0, the kernel log
# 0001:00:00.
bus_key() {
    local domain bus device
    IFS=: read -r domain bus device <<<"${1%.*}"
    echo "$((16#${domain:-0})):${bus,,}:${device,,}"
}

# "GPU <index> (<bus id>)" for the GPU at bus id $1, or "GPU at <bus id>" when nvidia-smi did not list it.
gpu_name() {
    local want index bus rest
    want="$(bus_key "$1")"
    while IFS=, read -r index bus rest; do
        bus="$(trim "$bus")"
        if [[ "$(bus_key "$bus")" == "$want" ]]; then
            echo "GPU $(trim "$index") ($bus)"
            return
        fi
    done <<<"$gpu_csv"
    echo "GPU at $1"
}

check_remapped_rows() {
    command -v nvidia-smi >/dev/null 2>&1 || return
    local rc=0 bus pending failed gpu
    run_bounded "$COMMAND_TIMEOUT" "$WORK/remap" nvidia-smi "--query-remapped-rows=$REMAP_FIELDS" --format=csv,noheader || rc=$?
    if ((rc == 124)); then
        problems+=("GPU: nvidia-smi --query-remapped-rows did not answer within $COMMAND_TIMEOUT s")
        return
    elif ((rc != 0)); then
        # GPUs before A100 have no row remapper; they retire pages instead (checked above).
        say "note: row remapping not reported: $(head -n 1 "$WORK/remap")"
        return
    fi
    while IFS=, read -r bus pending failed; do
        [[ -z "${bus// /}" ]] && continue
        gpu="$(gpu_name "$(trim "$bus")")"
        [[ "$(trim "$pending")" == "Yes" ]] && problems+=("$gpu: row remapping pending; reset the GPU or reboot the node")
        [[ "$(trim "$failed")" == "Yes" ]] && problems+=("$gpu: row remapping failed; the GPU needs replacing")
    done <"$WORK/remap"
}

check_xids() {
    local rc=0 seen=" " bus xid message gpu
    query dmesg "Kernel log" "$COMMAND_TIMEOUT" dmesg || rc=$?
    ((rc == 127)) && problems+=("Kernel log: dmesg not found; Xid errors cannot be checked")
    ((rc != 0)) && return
    # NVRM: Xid (PCI:0000:00:06): 79, pid='<unknown>', name=<unknown>, GPU has fallen off the bus.
    while IFS='|' read -r bus xid message; do
        [[ "$seen" == *" $bus/$xid "* ]] && continue
        seen+="$bus/$xid "
        gpu="$(gpu_name "$bus")"
        if [[ " $DRAIN_XIDS " == *" $xid "* ]]; then
            problems+=("$gpu: Xid $xid in the kernel log since boot ($message); drain this node")
        else
            say "note: $gpu: Xid $xid in the kernel log since boot ($message); not one that drains a node"
        fi
    done < <(sed -n -E 's/.*NVRM: Xid \((PCI:)?([0-9a-fA-F:.]+)\): ([0-9]+), (.*)$/\2|\3|\4/p' "$WORK/dmesg" | tac)
}

find_all_reduce_perf() {
    local candidate
    for candidate in "$ALL_REDUCE_PERF" "$(command -v all_reduce_perf 2>/dev/null)" /opt/nccl-tests/build/all_reduce_perf; do
        [[ -n "$candidate" && -x "$candidate" ]] && { echo "$candidate"; return 0; }
    done
    return 1
}

# One process drives every GPU (-g): no MPI needed. nccl-tests prints "# Avg bus bandwidth : <GB/s>"
# and "# Out of bounds values : 0 OK" (github.com/NVIDIA/nccl-tests, src/common.cu).
check_nccl() {
    [[ -n "$NCCL_BUSBW_FLOOR" ]] || return 0
    local perf rc=0 busbw wrong
    if ! perf="$(find_all_reduce_perf)"; then
        say "note: all_reduce_perf (nccl-tests) not on this image; NCCL all-reduce not checked"
        return 0
    fi
    say "running a single-node NCCL all-reduce ($perf, $EXPECTED_GPUS GPUs, $NCCL_MESSAGE_SIZE messages, floor $NCCL_BUSBW_FLOOR GB/s)"
    run_bounded "$NCCL_TIMEOUT" "$WORK/nccl" "$perf" -b "$NCCL_MESSAGE_SIZE" -e "$NCCL_MESSAGE_SIZE" -f 2 -g "$EXPECTED_GPUS" -c 1 || rc=$?
    if ((rc == 124)); then
        problems+=("NCCL: all_reduce_perf did not finish within $NCCL_TIMEOUT s")
        return
    elif ((rc != 0)); then
        problems+=("NCCL: all_reduce_perf failed (exit $rc): $(tail -n 1 "$WORK/nccl")")
        return
    fi
    busbw="$(sed -n -E 's/^# Avg bus bandwidth *: *([0-9.]+).*/\1/p' "$WORK/nccl")"
    wrong="$(sed -n -E 's/^# Out of bounds values *: *([0-9]+).*/\1/p' "$WORK/nccl")"
    if [[ -z "$busbw" ]]; then
        problems+=("NCCL: all_reduce_perf printed no average bus bandwidth: $(tail -n 1 "$WORK/nccl")")
    elif [[ -n "$wrong" && "$wrong" != 0 ]]; then
        problems+=("NCCL: all_reduce_perf found $wrong wrong values")
    elif awk -v got="$busbw" -v floor="$NCCL_BUSBW_FLOOR" 'BEGIN { exit !(got < floor) }'; then
        problems+=("NCCL: all-reduce bus bandwidth $busbw GB/s, below the floor of $NCCL_BUSBW_FLOOR GB/s for this size")
    else
        say "NCCL all-reduce bus bandwidth $busbw GB/s (floor $NCCL_BUSBW_FLOOR GB/s)"
    fi
}

run_azure_nhc() {
    [[ "$RUN_AZURE_NHC" == "true" && -x "$AZURE_NHC" ]] || return 0
    say "running Azure's node health checks ($AZURE_NHC); output in $AZURE_NHC_LOG"
    local rc=0
    mkdir -p "$(dirname "$AZURE_NHC_LOG")"
    (cd "$(dirname "$AZURE_NHC")" && run_bounded "$AZURE_NHC_TIMEOUT" "$AZURE_NHC_LOG" "$AZURE_NHC") || rc=$?
    if ((rc == 124)); then
        problems+=("Azure node health checks did not finish within $AZURE_NHC_TIMEOUT s; see $AZURE_NHC_LOG")
    elif ((rc != 0)); then
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
    # A node without InfiniBand (NC-series) has no link rate to hold its ports to.
    ((EXPECTED_IB_PORTS > 0)) && require_number EXPECTED_IB_RATE "$EXPECTED_IB_RATE"
    require_number WAIT_SECONDS "$WAIT_SECONDS"
    require_number RETRY_SECONDS "$RETRY_SECONDS"
    require_number COMMAND_TIMEOUT "$COMMAND_TIMEOUT"
    require_number NCCL_TIMEOUT "$NCCL_TIMEOUT"
    require_number AZURE_NHC_TIMEOUT "$AZURE_NHC_TIMEOUT"
    if [[ -n "$NCCL_BUSBW_FLOOR" && ! "$NCCL_BUSBW_FLOOR" =~ ^[0-9]+(\.[0-9]+)?$ ]]; then
        say "misconfigured: NCCL_BUSBW_FLOOR is '$NCCL_BUSBW_FLOOR'; allowed: GB/s as a number, or empty to skip" >&2
        exit 2
    fi
    if ! [[ "$NCCL_MESSAGE_SIZE" =~ ^[1-9][0-9]*[KMG]?$ ]]; then
        say "misconfigured: NCCL_MESSAGE_SIZE is '$NCCL_MESSAGE_SIZE'; allowed: a size such as 8G" >&2
        exit 2
    fi
    WORK="$(mktemp -d)"
    trap 'rm -rf "$WORK"' EXIT

    problems=("check in progress")
    write_verdict CHECKING
    local bound=$((WAIT_SECONDS + RETRY_SECONDS + 4 * (COMMAND_TIMEOUT + 1) + NCCL_TIMEOUT + AZURE_NHC_TIMEOUT + 2))
    local expected="$EXPECTED_GPUS GPUs and $EXPECTED_IB_PORTS InfiniBand ports at $EXPECTED_IB_RATE Gb/s"
    ((EXPECTED_IB_PORTS == 0)) && expected="$EXPECTED_GPUS GPUs, no InfiniBand"
    say "checking $expected (waiting up to $WAIT_SECONDS s; done within $bound s)"
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
    if [[ -n "$gpu_csv" ]]; then
        check_gpu_faults
        check_remapped_rows
        check_xids
    fi
    ((${#problems[@]} == 0)) && check_nccl
    ((${#problems[@]} == 0)) && run_azure_nhc

    if ((${#problems[@]} == 0)); then
        write_verdict HEALTHY
        say "HEALTHY: $expected; verdict in $VERDICT_FILE"
        return 0
    fi
    write_verdict UNHEALTHY
    local joined
    joined="$(printf '%s; ' "${problems[@]}")"
    say "UNHEALTHY: do not run jobs on this node: ${joined%; }; verdict in $VERDICT_FILE"
    return 1
}

main "$@"
