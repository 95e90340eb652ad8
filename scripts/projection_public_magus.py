# SPDX-License-Identifier: Apache-2.0
"""leimingyu/magus (MIT) as irf profiles for the projection replay (issue 54 item 5;
tests/data/projection-public/magus/README.md): nvprof `--metrics all` of the same applications
on a GTX 950 and a GTX 1080 Ti, one kernel per (application, kernel name) found on both GPUs.

nvprof's metric files hold no duration: each kernel's time is its bytes over nvprof's own
throughput of the same replay pass (README: "Time"), on both GPUs alike. Only the data is read.
"""
import csv
import re
import subprocess

COMMIT = "b9153ef6ab81f876310e7618dd241cdfeee35a19"
SDK_950 = "01_feature_selection/metrics_sdk80/%s_metrics.csv"
SDK_1080 = "00_featSel/metrics/%s_metrics.csv"
# suite: (GTX 950 folder, GTX 1080 Ti folder, file prefix, application renames on the 1080 Ti).
SUITES = {
    "rodinia": ("apps/rodinia30", "apps/devid_rodinia", "rodinia", {"nw": "needle"}),
    "polybench": ("apps/polybench-gpu-1.0", "apps/devid_poly", "poly",
                  {"CORR": "correlation", "COVAR": "covariance", "FDTD-2D": "fdtd2d"}),
    "parboil": ("apps/parboil", "apps/devid_parboil", "parboil", {"mri-q": "mriq"}),
    "shoc": ("apps/shoc-master", "apps/devid_shoc", "shoc",
             {"fft": "lev1fft", "md5hash": "lev1md5hash", "sort": "lev1sort"}),
    "lonestar": ("apps/lonestargpu-2.0", "apps/devid_lonestar", "lonestar", {}),
}
# irf canonical counter <- nvprof metric (per invocation, the file's Avg column).
COUNTERS = {
    "inst_warp": "inst_executed",
    "sectors_global_ld": "gld_transactions",
    "sectors_global_st": "gst_transactions",
    "sectors_global_atom": "atomic_transactions",
    "sectors_local_ld": "local_load_transactions",
    "sectors_local_st": "local_store_transactions",
    "wavefronts_shared_ld": "shared_load_transactions",
    "wavefronts_shared_st": "shared_store_transactions",
    "l2_sectors_read": "l2_read_transactions",
    "l2_sectors_write": "l2_write_transactions",
    "l2_sectors_atom": "l2_atomic_transactions",
    "dram_sectors_read": "dram_read_transactions",
    "dram_sectors_write": "dram_write_transactions",
    "thread_fadd": "flop_count_sp_add",
    "thread_fmul": "flop_count_sp_mul",
    "thread_ffma": "flop_count_sp_fma",
    "thread_dadd": "flop_count_dp_add",
    "thread_dmul": "flop_count_dp_mul",
    "thread_dfma": "flop_count_dp_fma",
    "thread_hadd": "flop_count_hp_add",
    "thread_hmul": "flop_count_hp_mul",
    "thread_hfma": "flop_count_hp_fma",
    "thread_class_fp16": "inst_fp_16",
    "thread_class_fp32": "inst_fp_32",
    "thread_class_fp64": "inst_fp_64",
    "thread_class_integer": "inst_integer",
    "thread_class_conversion": "inst_bit_convert",
    "thread_class_control": "inst_control",
    "thread_class_memory": "inst_compute_ld_st",
    "thread_class_misc": "inst_misc",
    "thread_class_comm": "inst_inter_thread_communication",
}
# The 32-byte transactions whose nvprof throughput gives the pass's duration (README: "Time").
TIMED = ["dram_read", "dram_write", "l2_read", "l2_write"]
UNITS = {"B/s": 1.0, "KB/s": 1e3, "MB/s": 1e6, "GB/s": 1e9, "TB/s": 1e12}
# nvprof GPU traces of the 1080 Ti (README: "Launch configuration"): (suite, folder).
TRACES = [("sdk", "apps/devid_cudasdk80/traces"), ("sdk", "00_featSel/13app_trace")] + [
    (suite, new + "/traces") for suite, (_, new, _, _) in SUITES.items()]
# Kernels whose warp instructions differ by more than this between the GPUs ran different work.
MAX_INST_RATIO = 1.25


def show(repo, path):
    r = subprocess.run(["git", "-C", repo, "show", "%s:%s" % (COMMIT, path)],
                       capture_output=True, text=True)
    return r.stdout if r.returncode == 0 else None


def ls(repo, folder):
    return subprocess.run(["git", "-C", repo, "ls-tree", "--name-only", COMMIT, folder + "/"],
                          check=True, capture_output=True, text=True).stdout.split()


def metrics(text):
    """{kernel: {"device", "invocations", metric: Avg text}} of one nvprof metrics file."""
    kernels = {}
    for row in csv.reader(line for line in text.splitlines() if line.startswith('"')):
        if row[0] == "Device" or len(row) < 8:
            continue
        k = kernels.setdefault(row[1], {"device": row[0].rsplit(" (", 1)[0],
                                        "invocations": int(row[2])})
        k[row[3]] = row[7]
    return kernels


def number(k, metric):
    try:
        value = float(k[metric])
    except (KeyError, ValueError):
        return None
    return value if value == value and value >= 0 else None


def throughput(text):
    m = re.fullmatch(r"([0-9.]+)([KMGT]?B/s)", text or "")
    return float(m.group(1)) * UNITS[m.group(2)] if m else None


def duration_ns(k):
    """Bytes / throughput of the metric with the most transactions, or None."""
    best = None
    for t in TIMED:
        n, rate = number(k, t + "_transactions"), throughput(k.get(t + "_throughput"))
        if n and rate and (best is None or n > best[0]):
            best = (n, n * 32 / rate * 1e9)
    return best[1] if best else None


def app_files(repo):
    """(application, GTX 950 file, GTX 1080 Ti file) for every application with both."""
    for path in ls(repo, SDK_950.rsplit("/", 1)[0]):
        app = path.rsplit("/", 1)[1][:-len("_metrics.csv")]
        yield "sdk/" + app, path, SDK_1080 % app
    for suite, (old, new, prefix, renames) in SUITES.items():
        for path in ls(repo, old):
            if not path.endswith("_metrics.csv"):
                continue
            app = path.rsplit("/", 1)[1][:-len("_metrics.csv")]
            other = renames.get(app, app.lower() if suite == "polybench" else app)
            yield "%s/%s" % (suite, app), path, "%s/metrics/metrics_%s_%s.csv" % (new, prefix,
                                                                                   other)


def traced_launches(repo):
    """{(suite, trace application, kernel name): set of launch configurations} of the traces."""
    found = {}
    for suite, folder in TRACES:
        for path in ls(repo, folder):
            text = show(repo, path) if path.endswith(".csv") else None
            rows = [r for r in csv.reader(line for line in (text or "").splitlines()
                                          if line[:1] in '"0123456789')]
            head = rows[0] if rows and rows[0][:1] == ["Start"] else None
            app = plain(re.sub(r"^traces_[a-z0-9]+_|_trace$", "", path.rsplit("/", 1)[1][:-4]))
            for row in rows[1:] if head else []:
                d = dict(zip(head, row))
                if len(row) == len(head) and d.get("Grid X"):
                    name = re.sub(r" \[[0-9]+\]$", "", d["Name"])
                    found.setdefault((suite, app, name), set()).add(launch_of(d))
    return found


def plain(app):
    """An application's name as trace files spell it: lower case, letters and digits only."""
    return re.sub(r"[^a-z0-9]", "", app.lower())


def launch_of(d):
    dims = [int(d[k]) for k in ("Grid X", "Grid Y", "Grid Z", "Block X", "Block Y", "Block Z")]
    smem = sum(int(float(d[k] or 0)) for k in ("Static SMem", "Dynamic SMem"))
    return (tuple(dims[:3]), tuple(dims[3:]), smem, int(d["Registers Per Thread"]))


def launch(found, name):
    """The one traced configuration of an (application, kernel) on the 1080 Ti, or None."""
    suite, rest = name.split("/", 1)
    app, kname = rest.split(": ", 1)
    _, _, _, renames = SUITES.get(suite, (None, None, None, {}))
    configs = found.get((suite, plain(renames.get(app, app)), kname), set())
    if len(configs) != 1:
        return None
    grid, block, smem, regs = next(iter(configs))
    return {"grid": list(grid), "block": list(block), "smem": smem, "regs": regs}


def kernel(name, k, ns):
    counters = {}
    for irf, nvprof in COUNTERS.items():
        value = number(k, nvprof)
        if value is not None:
            counters[irf] = value
    # nvprof's warp_execution_efficiency is thread_inst_executed / (inst_executed x 32).
    efficiency = (k.get("warp_execution_efficiency") or "").rstrip("%")
    if "inst_warp" in counters and re.fullmatch(r"[0-9.]+", efficiency):
        counters["inst_thread"] = counters["inst_warp"] * 32 * float(efficiency) / 100
    # nvprof's sm_efficiency (cc 5.x) / sm_activity (cc 6.x): the share of the kernel's time an
    # SM had a warp resident, averaged over the SMs.
    active = (k.get("sm_efficiency") or k.get("sm_activity") or "").rstrip("%")
    if re.fullmatch(r"[0-9.]+", active):
        counters["sm_active_share"] = min(1.0, float(active) / 100)
    counters["time_ns"] = ns
    n = k["invocations"]
    return {"name": name, "mangled": "", "call_site": "", "launches": n, "profiled_launches": 1,
            "time_ns": {"total": ns * n, "min": ns, "mean": ns, "max": ns},
            "notes": ["counters and time: one launch's average over the %d of the nvprof "
                      "metrics run" % n], "counters": counters}


def paired(repo):
    """[(name, GTX 950 kernel, GTX 1080 Ti kernel)] and the left-out counts by reason."""
    pairs, left = [], {}
    for app, f950, f1080 in app_files(repo):
        a, b = show(repo, f950), show(repo, f1080)
        if not a or not b:
            left["application not on both GPUs"] = left.get("application not on both GPUs",
                                                            0) + 1
            continue
        m950, m1080 = metrics(a), metrics(b)
        for name, k in m950.items():
            reason = why_left_out(k, m1080.get(name))
            if reason:
                left[reason] = left.get(reason, 0) + 1
            else:
                pairs.append(("%s: %s" % (app, name), k, m1080[name]))
    return pairs, left


def why_left_out(k, other):
    if other is None:
        return "kernel not on both GPUs"
    if k["invocations"] != other["invocations"]:
        return "different launch counts"
    i, j = number(k, "inst_executed"), number(other, "inst_executed")
    if not i or not j or max(i, j) / min(i, j) > MAX_INST_RATIO:
        return "warp instructions differ by more than %gx" % MAX_INST_RATIO
    if duration_ns(k) is None or duration_ns(other) is None:
        return "no DRAM or L2 throughput to time it"
    return ""


def profile(kernels, device, cc):
    return {"schema": "irf.profile/v1", "tool": "projection_public.py", "version": "0.1.0",
            "app": "magus@" + COMMIT[:8], "argv": [], "pid": 0, "host": "", "start_time": "",
            "end_time": "", "config": {},
            "gpu": {"name": device, "chip": "", "cc": cc, "sms": 0, "clock_hz": 0,
                    "l2_bytes": 0, "memory_bytes": 0, "driver": ""},
            "coverage": {"launches": sum(k["launches"] for k in kernels),
                         "kernels": len(kernels), "profiled_launches": len(kernels),
                         "passes": 1},
            "kernels": kernels, "warnings": []}


def profiles(repo):
    """{"gtx-950": profile, "gtx-1080-ti": profile}, and the left-out counts."""
    pairs, left = paired(repo)
    k950 = [kernel(n, a, duration_ns(a)) for n, a, _ in pairs]
    k1080 = [kernel(n, b, duration_ns(b)) for n, _, b in pairs]
    found = traced_launches(repo)
    for a, b in zip(k950, k1080):
        config = launch(found, a["name"])
        if config:  # the same grid on both GPUs (README: "Launch configuration")
            a["launch"], b["launch"] = config, dict(config)
    return {"gtx-950": profile(k950, pairs[0][1]["device"], "5.2"),
            "gtx-1080-ti": profile(k1080, pairs[0][2]["device"], "6.1")}, left
