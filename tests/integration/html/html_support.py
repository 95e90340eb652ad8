# SPDX-License-Identifier: Apache-2.0
"""Shared by the HTML report tests: the profiles they render (the quick start's example, one
with hostile names, a merged job, 10,000 kernels), irf-report html, and the headless browser."""
import copy
import json
import os
import subprocess
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
DATA_DIR = os.environ.get("IRF_TEST_DATA_DIR", os.path.join(ROOT, "tests", "data"))
EXAMPLE = os.path.join(DATA_DIR, "examples", "demo-profile.json")
REPORT = os.environ.get("IRF_REPORT_BIN", os.path.join(ROOT, "build", "ci", "tools", "irf-report"))
TARGETS = "h200-sxm,b200,a100-sxm4-80gb"  # the quick start's

# Script and markup in every place a name from the application reaches the page (issue 35
# item 7): the img's handler would set window.irfPwned, the other one would raise an alert.
HOSTILE = '</script><img src=x onerror="window.irfPwned=1"><script>alert(1)</script>'
HOSTILE_ALERT = "</script><img src=x onerror=alert(1)>"
# Entities must show as typed: Plotly's hover text decodes them unless the page escapes `&`.
ENTITY_NAME = "amp_&lt;b&gt;not_bold&lt;/b&gt;_k"


def load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def save(doc, directory, name):
    path = os.path.join(directory, name)
    with open(path, "w", encoding="utf-8") as f:
        json.dump(doc, f)
    return path


def run_report(*args, check=True):
    """Runs irf-report; returns the CompletedProcess (text)."""
    proc = subprocess.run([REPORT, *args], capture_output=True, text=True, timeout=300)
    if check and proc.returncode != 0:
        raise AssertionError(f"irf-report {' '.join(args)}: exit {proc.returncode}: {proc.stderr}")
    return proc


def html(profile, out, *extra):
    """irf-report html PROFILE -o OUT; returns OUT."""
    run_report("html", profile, "-o", out, *extra)
    return out


def analysed(profile, directory, name, targets=TARGETS):
    """The analysed profile irf-report html draws (the same ceilings and targets)."""
    out = os.path.join(directory, name)
    run_report("analyze", profile, "--targets", targets, "-o", out)
    return load(out)


def hostile_profile(directory):
    """The example with hostile text as app, argv, host, a kernel name, an NVTX region path,
    a warning and a config value."""
    p = load(EXAMPLE)
    p["app"] = HOSTILE
    p["argv"] = [HOSTILE_ALERT, "--name=" + HOSTILE]
    p["host"] = HOSTILE_ALERT
    p["warnings"] = p.get("warnings", []) + [HOSTILE]
    p["config"]["IRF_KERNELS"] = HOSTILE
    k = p["kernels"][0]
    k["name"] = HOSTILE_ALERT + "(float*)"
    k.pop("display_name", None)
    k["call_site"] = HOSTILE
    p["kernels"][1]["name"] = ENTITY_NAME + "(int)"
    p["kernels"][1].pop("display_name", None)
    k["regions"] = [{"path": "step/" + HOSTILE, "launches": k["launches"],
                     "time_ns": k["time_ns"]["total"], "profiled_launches": k["profiled_launches"]}]
    return save(p, directory, "hostile.json")


# A live link and styled text (issue 52 item 3): shown as typed, never a link in a figure.
LINK = '<a href="https://example.com/x">link</a><b>bold</b>'


def hostile_fields(directory):
    """The analysed example with LINK as a pipe name (its busiest pipe and a ceilings pipe) and a
    precision name, and a trajectory of it whose kernel name and verdict reason hold LINK."""
    p = analysed(EXAMPLE, directory, "fields-analysed.json")
    p.pop("regions", None)
    p["ceilings_used"]["pipe_gips"][LINK] = p["ceilings_used"]["warp_gips"] / 4
    for k in p["kernels"]:
        a = k["analysis"]
        by_pipe = a["pipes"]["by_pipe"]
        busiest = max(by_pipe, key=lambda name: by_pipe[name]["pct"] or 0)
        by_pipe[LINK] = by_pipe.pop(busiest)
        by_precision = a["flops"]["by_precision"]
        by_precision[LINK] = by_precision.pop("fp32")
    profile = save(p, directory, "fields.json")
    t = load(trajectory(directory))
    t["kernels"][0]["name"] = LINK
    t["kernels"][0]["verdict"]["reason"] = LINK
    return profile, save(t, directory, "fields.trajectory.json")


def job_profile(directory):
    """A merged job of two ranks of the example, rank 1 twice as slow (irf-report merge)."""
    paths = []
    for rank in (0, 1):
        p = load(EXAMPLE)
        p["rank"] = rank
        for k in p["kernels"]:
            for key in ("total", "min", "mean", "max"):
                k["time_ns"][key] *= 1 + rank
        paths.append(save(p, directory, f"rank{rank}.json"))
    out = os.path.join(directory, "job.json")
    run_report("merge", *paths, "-o", out)
    return out


def trajectory(directory):
    """irf-report trajectory of the example at 132, 66 and 33 SMs (times scaled)."""
    runs = []
    for sms, scale in ((132, 1.0), (66, 1.7), (33, 3.1)):
        p = load(EXAMPLE)
        if sms != 132:
            p["gpu"]["sms_active"] = sms
        for k in p["kernels"]:
            for key in ("total", "min", "mean", "max"):
                k["time_ns"][key] *= scale
        runs.append(save(p, directory, f"traj-sm{sms}.json"))
    out = os.path.join(directory, "traj.trajectory.json")
    run_report("trajectory", *runs, "-o", out)
    return out


def big_profile(directory, kernels=10000):
    """A raw profile of `kernels` distinct kernels with every core counter, varied so the
    points spread over the figures (as bench_model's 10,000 kernels)."""
    p = load(EXAMPLE)
    template = p["kernels"][0]
    p.pop("ceilings_used", None)
    p["kernels"] = []
    for i in range(kernels):
        s = 1.0 + i % 97
        k = {"name": f"namespace_{i % 13}::kernel_{i}<float, {i % 7}>(float*, int)",
             "mangled": f"_Z8kernel_{i}Pfi", "call_site": "main", "launch": template["launch"],
             "launches": 1 + i % 7, "profiled_launches": 1,
             "time_ns": {"total": 1e4 * s * (1 + i % 7), "min": 1e4 * s, "mean": 1e4 * s,
                         "max": 1e4 * s}, "counters": copy.deepcopy(template["counters"])}
        c = k["counters"]
        c["time_ns"] = 1e4 * s
        for name in ("inst_warp", "inst_thread", "dram_sectors_read", "l2_sectors_read"):
            if name in c:
                c[name] = c[name] * (0.2 + (i * 7919 % 1000) / 250.0) * (1 + name.startswith("dram") * (i % 11))
        p["kernels"].append(k)
    p["coverage"]["kernels"] = kernels
    return save(p, directory, "big.json")


def workdir():
    return tempfile.mkdtemp(prefix="irf-html-test-")
