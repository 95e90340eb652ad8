#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Fetches the plotting library of the HTML report (irf-report html): plotly.js-dist-min at the
# version pinned below, from the npm registry, checked against its published sha512 integrity.
# Prints the folder that holds plotly.min.js and its LICENSE (MIT). The tarball is kept in a
# cache, so later runs need no network: $IRF_CACHE_DIR, else $XDG_CACHE_HOME/irf, else ~/.cache/irf.
set -euo pipefail

name=plotly.js-dist-min
version=4.1.2
integrity='sha512-VSmS9KVNun16S8qFYYp9LlL/XBby4ueeGqB+K9AqRCVsup8dSpGULap4UyR1f2mz4pV3qjWp1sR5chwLgIKPoQ=='
url="https://registry.npmjs.org/$name/-/$name-$version.tgz"

cache="${IRF_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/irf}"
dest="$cache/$name-$version"
tarball="$dest.tgz"

fail() {
    echo "[irf] error: fetch-plotly: $*" >&2
    exit 1
}

# The npm integrity string is "sha512-" and the base64 of the tarball's SHA-512 digest.
tarball_integrity() {
    python3 -c 'import base64, hashlib, sys
print("sha512-" + base64.b64encode(hashlib.sha512(open(sys.argv[1], "rb").read()).digest()).decode())' "$1"
}

if [[ -f "$dest/plotly.min.js" && -f "$dest/.verified-$version" ]]; then
    echo "$dest"
    exit 0
fi
command -v python3 >/dev/null || fail "python3 is needed to check the download"
mkdir -p "$cache"
if [[ ! -f "$tarball" ]] || [[ "$(tarball_integrity "$tarball")" != "$integrity" ]]; then
    tmp=$(mktemp "$cache/.download.XXXXXX")
    trap 'rm -f "$tmp"' EXIT
    if command -v curl >/dev/null; then
        curl -fsSL --retry 2 -o "$tmp" "$url" || fail "cannot download $url (no network?)"
    else
        python3 -c 'import sys, urllib.request
urllib.request.urlretrieve(sys.argv[1], sys.argv[2])' "$url" "$tmp" 2>/dev/null ||
            fail "cannot download $url (no network?)"
    fi
    got=$(tarball_integrity "$tmp")
    [[ "$got" == "$integrity" ]] || fail "$url: integrity $got, expected $integrity"
    mv "$tmp" "$tarball"
fi
rm -rf "$dest.tmp"
mkdir -p "$dest.tmp"
tar -xzf "$tarball" -C "$dest.tmp" package/plotly.min.js package/LICENSE package/package.json
mv "$dest.tmp/package/"* "$dest.tmp/"
rmdir "$dest.tmp/package"
touch "$dest.tmp/.verified-$version"
rm -rf "$dest"
mv "$dest.tmp" "$dest"
echo "$dest"
