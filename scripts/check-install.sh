#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Installs a build tree into a temporary prefix and checks the installed layout works on its own:
# lib/libirf.so, lib/libirf_entry.so (irf run --fast-intercept), lib/libirf_metrics_host.so
# (irf-report metrics),
# bin/{irf,irf-report,irf-calibrate,irf-plot,irf-demo}, share/irf/gpus/*.yaml, the Python module
# `irf` (irf.load) in share/irf/irf_plot, and the HTML report's assets (share/irf/html).
set -euo pipefail
build=${1:?usage: check-install.sh BUILD_DIR}
prefix=$(mktemp -d "${TMPDIR:-/tmp}/irf-install-XXXXXX")
trap 'rm -rf "$prefix"' EXIT
cmake --install "$build" --prefix "$prefix" >/dev/null
missing=0
for f in lib/libirf.so lib/libirf_entry.so lib/libirf_metrics_host.so bin/irf bin/irf-report bin/irf-calibrate bin/irf-plot bin/irf-demo \
         share/irf/html/report.html share/irf/html/plotly.min.js share/irf/html/plotly.LICENSE; do
    [[ -e "$prefix/$f" ]] || { echo "missing after install: $f"; missing=1; }
done
ls "$prefix"/share/irf/gpus/*.yaml >/dev/null 2>&1 || { echo "missing: share/irf/gpus/*.yaml"; missing=1; }
((missing == 0)) || exit 1
# The installed tools must find the installed database, not the source tree's.
# Each output is kept whole before it is searched: `grep -q` stops reading at the first match,
# and under pipefail the writer's SIGPIPE (37 GPUs are more than a pipe takes at once) failed
# the check.
IRF_GPUS_DIR= "$prefix/bin/irf-report" ceilings >"$prefix/ceilings.txt"
grep -q h100-sxm5 "$prefix/ceilings.txt" ||
    { echo "installed irf-report does not list the installed database"; exit 1; }
"$prefix/bin/irf-report" version >"$prefix/version.txt"
grep -q "profile schema: irf.profile/v1" "$prefix/version.txt"
# irf-report loads CUPTI's host API from <prefix>/lib only for `metrics` (no GPU needed).
"$prefix/bin/irf-report" metrics --chip GH100 >"$prefix/metrics.txt" &&
    grep -q "^default passes: [0-9]" "$prefix/metrics.txt" ||
    { echo "installed irf-report metrics cannot load lib/libirf_metrics_host.so"; exit 1; }
# irf.load from the installed package only (docs/tools.md: PYTHONPATH=<prefix>/share/irf/irf_plot).
if [[ -x /usr/bin/python3 ]]; then
    src=$(cd "$(dirname "$0")/.." && pwd)
    (cd "$prefix" && PYTHONPATH="$prefix/share/irf/irf_plot" /usr/bin/python3 -c         "import irf, sys; assert irf.__file__.startswith(sys.argv[2]); print(len(irf.load(sys.argv[1]).kernels))"         "$src/tests/data/golden/tools_profile_before.json" "$prefix") >/dev/null ||
        { echo "installed python module irf cannot load a profile"; exit 1; }
fi
echo "install layout ok: $prefix"
