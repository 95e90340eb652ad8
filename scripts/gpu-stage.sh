#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# gpu-stage.sh BUILD_DIR DEST [APP...]: copies what scripts/gpu-validate.sh runs on a device
# machine out of a build tree (libirf.so, irf, irf-report with its host-API module,
# irf-calibrate, irf-demo and the named test apps, the collected _libs), stripped, into DEST in the
# build tree's layout, so that one device call can carry it under the 64 MiB limit
# (docs/validation/README.md). Run `gpu-validate.sh --collect-libs BUILD_DIR` first.
set -euo pipefail
[ $# -ge 2 ] || { sed -n '3,7p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
build=$1 dest=$2
shift 2
rm -rf "$dest"
mkdir -p "$dest"/{inject,tools,calibrate,tests/gpu/apps}
copy() { # copy SRC DIR: the file, stripped of symbols (device code stays)
    [ -f "$1" ] || { echo "gpu-stage: missing $1 (build it first)" >&2; exit 1; }
    cp "$1" "$2/"
    strip --strip-unneeded "$2/$(basename "$1")" 2>/dev/null || true
}
copy "$build/inject/libirf.so" "$dest/inject"
if [ -f "$build/intercept/cupti/libirf_entry.so" ]; then # --entry (irf run --fast-intercept)
    mkdir -p "$dest/intercept/cupti"
    copy "$build/intercept/cupti/libirf_entry.so" "$dest/intercept/cupti"
    copy "$build/intercept/cupti/libirf_entry.so" "$dest/inject" # where irf run looks for it

fi
for f in irf irf-report libirf_metrics_host.so; do copy "$build/tools/$f" "$dest/tools"; done
copy "$build/calibrate/irf-calibrate" "$dest/calibrate"
for app in irf-demo "$@"; do copy "$build/tests/gpu/apps/$app" "$dest/tests/gpu/apps"; done
[ -d "$build/_libs" ] && cp -r "$build/_libs" "$dest/"
du -sh "$dest"
