#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Fails when libirf.so's thread-local block outgrows what a library loaded late may take.

libirf has an initial-exec thread-local (common/inside_irf.hpp), so its whole TLS block must fit
in the static TLS glibc keeps spare for libraries dlopen'ed after start-up (CUDA loads libirf
that way): a few kilobytes of thread-locals made every injected run fail with "cannot allocate
memory in static TLS block" (2026-11-28). Per-thread caches belong on the heap.

    tls_size.py LIBIRF [MAX_BYTES]
"""
import subprocess
import sys

DEFAULT_MAX = 1024


def tls_bytes(library):
    """MemSiz of the PT_TLS segment (0 without one), from readelf."""
    out = subprocess.run(["readelf", "-lW", library], check=True, capture_output=True,
                         text=True).stdout
    for line in out.splitlines():
        fields = line.split()
        if fields and fields[0] == "TLS":
            return int(fields[5], 16)
    return 0


def main(argv):
    if len(argv) not in (2, 3):
        print(__doc__.strip().splitlines()[-1].strip(), file=sys.stderr)
        return 2
    limit = int(argv[2]) if len(argv) == 3 else DEFAULT_MAX
    size = tls_bytes(argv[1])
    if size > limit:
        print(f"[irf] error: {argv[1]}: {size} bytes of thread-locals (static TLS), over "
              f"{limit}: move per-thread state to the heap (tests/integration/tls_size.py)",
              file=sys.stderr)
        return 1
    print(f"{argv[1]}: {size} bytes of thread-locals (limit {limit})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
