# shellcheck shell=bash
# SPDX-License-Identifier: Apache-2.0
# Sourced by scripts/test.sh and scripts/test-sanitizers.sh: times each stage of the test command
# (wall seconds, and CPU seconds of every process the stage ran, which stays meaningful on a
# loaded machine) and prints the table at the end. Stages run in the calling shell (not a
# subshell) so that bash's `times` sees their processes.
#   stage NAME COMMAND [ARGS...]   runs COMMAND, records NAME; returns COMMAND's status
#   note_slowest NAME LOG          keeps the five slowest tests of a ctest output LOG for the table
#   print_stage_times              the table, from $IRF_STAGE_TIMES (shared with nested scripts)

if [[ -z "${IRF_STAGE_TIMES:-}" ]]; then
    IRF_STAGE_TIMES=$(mktemp)
    export IRF_STAGE_TIMES
    irf_stage_times_owner=1
fi

# Sets irf_cpu to the CPU seconds (user + system) of the finished child processes of this shell,
# as bash's `times` reports them (its second line). It must run in this shell, not in `$(...)`:
# a command substitution is a subshell whose `times` sees no children (every stage read 0).
irf_children_cpu() {
    local scratch="$IRF_STAGE_TIMES.cpu" children_line
    times >"$scratch"
    { read -r _; read -r children_line; } <"$scratch"
    # "1m2.345s 0m0.678s" -> seconds; awk's own time is not counted yet when `times` ran.
    awk '{ s = 0; for (i = 1; i <= 2; i++) { split($i, p, /[ms]/); s += p[1] * 60 + p[2] }
           printf "%.0f\n", s }' <<<"$children_line" >"$scratch"
    read -r irf_cpu <"$scratch"
    rm -f "$scratch"
}

stage() {
    local name=$1 start cpu_start status=0 irf_cpu=0
    shift
    start=$(date +%s)
    irf_children_cpu
    cpu_start=$irf_cpu
    "$@" || status=$?
    irf_children_cpu
    printf '%s\t%s\t%s\t%s\n' "$name" "$(($(date +%s) - start))" \
        "$((irf_cpu - cpu_start))" "$status" >>"$IRF_STAGE_TIMES"
    return "$status"
}

# ctest prints "  12/321 Test  #40: unit.Suite.Case ....   Passed   12.34 sec" per test.
# awk, not `head`, keeps the first five: head exits early, and under `set -o pipefail` the
# SIGPIPE that sort then gets ended the whole test command with status 141 (CI, stop 43).
note_slowest() {
    local name=$1 log=$2
    sed -n 's/^ *[0-9]*\/[0-9]* Test *#[0-9]*: \([^ ]*\) .* \([0-9.]*\) sec$/\2 \1/p' "$log" |
        sort -rn | awk -v stage="$name" 'NR <= 5 { printf "  %-14s %7.1f s  %s\n", stage, $1, $2 }' \
        >>"$IRF_STAGE_TIMES.slow"
}

print_stage_times() {
    [[ -s "$IRF_STAGE_TIMES" ]] || return 0
    echo "[irf] stage times (wall s, CPU s of its processes, exit status):"
    awk -F '\t' '{ printf "  %-22s %6d %7d   %s\n", $1, $2, $3, ($4 == 0 ? "ok" : "failed " $4);
                   wall += $2; cpu += $3 }
                 END { printf "  %-22s %6d %7d\n", "total", wall, cpu }' "$IRF_STAGE_TIMES"
    if [[ -s "$IRF_STAGE_TIMES.slow" ]]; then
        echo "[irf] slowest tests:"
        cat "$IRF_STAGE_TIMES.slow"
    fi
    if [[ -n "${irf_stage_times_owner:-}" ]]; then
        rm -f "$IRF_STAGE_TIMES" "$IRF_STAGE_TIMES.slow"
    fi
}
