# SPDX-License-Identifier: Apache-2.0
"""Which projection targets a figure shows first when it cannot show them all: the profiled
GPU's peers and successors (same or next compute capability) before older GPUs, read from the
shipped ceilings database (config/gpus, installed as share/irf/gpus)."""
import os

HERE = os.path.dirname(os.path.abspath(__file__))
GPUS_DIRS = (os.path.join(HERE, "..", "..", "gpus"),                  # <prefix>/share/irf/gpus
             os.path.join(HERE, "..", "..", "..", "config", "gpus"))  # the source tree


def gpu_field(yaml_text, field):
    """The scalar `field:` under the top-level `gpu:` mapping of a ceilings file, or None
    (block style, as irf-calibrate and config/gpus write it; no YAML library is needed for one
    scalar)."""
    in_gpu = False
    for line in yaml_text.splitlines():
        if line and not line[0].isspace() and not line.startswith("#"):
            in_gpu = line.split("#")[0].strip() == "gpu:"
        elif in_gpu and line.strip().startswith(field + ":"):
            return line.split(":", 1)[1].split("#")[0].strip().strip("\"'") or None
    return None


def shipped_cc(key, dirs=GPUS_DIRS):
    """The compute capability of shipped entry `key` as a number (9.0), or None."""
    if not key or "/" in key or key.startswith("."):
        return None
    for directory in dirs:
        try:
            with open(os.path.join(directory, key + ".yaml"), encoding="utf-8",
                      errors="replace") as f:
                text = f.read(1 << 20)
        except OSError:
            continue
        try:
            return float(gpu_field(text, "cc") or "")
        except ValueError:
            return None
    return None


def by_relevance(names, source_cc, cc_of=shipped_cc):
    """`names` ordered for a reader of a profile recorded on a GPU of `source_cc`: peers and
    successors first (compute capability at or above the source's, nearest first), then older
    GPUs (newest first), then targets of unknown capability; ties by name."""
    def key(name):
        cc = cc_of(name)
        if cc is None or source_cc is None:
            return (2, 0.0, name)
        return (0, cc - source_cc, name) if cc >= source_cc else (1, source_cc - cc, name)
    return sorted(names, key=key)
