# SPDX-License-Identifier: Apache-2.0
"""Shared by the irf-plot Python tests: paths, profile builders, running irf-plot."""
import contextlib
import copy
import io
import json
import os
import signal
import subprocess
import sys
import time
from unittest import mock

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
PLOT_DIR = os.path.join(ROOT, "tools", "irf_plot")
DATA_DIR = os.environ.get("IRF_TEST_DATA_DIR", os.path.join(ROOT, "tests", "data"))
GOLDEN = os.path.join(DATA_DIR, "golden", "tools_profile_before.json")
sys.path.insert(0, PLOT_DIR)


def have_matplotlib():
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    return True


def golden():
    with open(GOLDEN, encoding="utf-8") as f:
        return json.load(f)


def kernel_at(template, name, ii, gips, time_ns):
    """A copy of `template` named `name` whose Instruction Roofline point is (ii, gips) at every
    level and whose total time is `time_ns` (ranks it for --top)."""
    k = copy.deepcopy(template)
    k["name"] = name
    k.pop("display_name", None)  # derived from the old name; irf-plot falls back to `name`
    k["time_ns"]["total"] = time_ns
    irm = k["analysis"]["irm"]
    irm["gips_warp"] = gips
    irm["gips_thread"] = gips
    irm["ii"] = {"l1": ii, "l2": ii, "hbm": ii}
    irm["ii_thread"] = {"l1": ii, "l2": ii, "hbm": ii}
    return k


def write_json(path, doc):
    with open(path, "w", encoding="utf-8") as f:
        json.dump(doc, f)
    return path


def run_plot(args, timeout=300):
    """Runs irf-plot (the built wrapper when IRF_PLOT is set) -> (exit code, stderr, seconds)."""
    wrapper = os.environ.get("IRF_PLOT")
    argv = [wrapper] if wrapper else [sys.executable, os.path.join(PLOT_DIR, "irf_plot.py")]
    start = time.monotonic()
    r = subprocess.run(argv + list(args), capture_output=True, text=True, timeout=timeout)
    return r.returncode, r.stderr, time.monotonic() - start


def plot_data(doc, directory, fmt="png", extra=(), save_figures=False, figures=None):
    """Writes the profile `doc` into `directory`, runs irf-plot on it with --dump-data (and
    --figures when `figures`, a list of names, is given) and returns (exit code, stderr, the
    figure data or None when irf-plot failed).

    Without `save_figures`, irf-plot's main runs in this process and writes no figure file: the
    data is taken from the drawn figure before it is saved, and saving (half of a run's time,
    with the import of matplotlib a quarter) is what the tests that run irf-plot whole check
    (docs/reliability.md, "Where CI's time goes"). test_in_process_data.py holds the two ways
    equal."""
    profile = write_json(os.path.join(directory, "p.json"), doc)
    dump = os.path.join(directory, "data.json")
    args = [profile, "-o", os.path.join(directory, "out"), "--format", fmt,
            "--dump-data", dump] + list(extra)
    if figures:
        args += ["--figures", ",".join(figures)]
    code, err = run_plot(args)[:2] if save_figures else run_plot_in_process(args)
    if code != 0:
        return code, err, None
    with open(dump, encoding="utf-8") as f:
        return code, err, json.load(f)


def run_plot_in_process(args):
    """irf-plot's main on `args` in this process, each figure closed instead of saved ->
    (exit code, stderr). The signal handlers main installs are put back."""
    import irf_plot

    def close_unsaved(plt, fig, _directory, _name, _formats):
        plt.close(fig)
        return []

    handlers = {s: signal.getsignal(s) for s in (signal.SIGTERM, signal.SIGHUP)}
    err = io.StringIO()
    try:
        with mock.patch.object(irf_plot, "save", close_unsaved), \
                contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            code = irf_plot.main(list(args))
    except SystemExit as e:  # argparse's usage errors
        code = e.code if isinstance(e.code, int) else 2
    finally:
        for signum, handler in handlers.items():
            signal.signal(signum, handler)
    return code, err.getvalue()


def figure_texts(data, figure):
    """The texts of a figure's panels and its footnotes, a wrapped footnote as one line."""
    content = data[figure]
    return ([t["text"] for ax in content["axes"] for t in ax["texts"]] +
            [t["text"].replace("\n", " ") for t in content.get("footnotes", [])])


def shapes_overlap(a, b):
    """True when two convex outlines ([[x, y], ...] in pixels, as --dump-data writes a text's
    shape) share interior points: no edge normal of either separates their projections."""
    for poly in (a, b):
        for i in range(len(poly)):
            (x0, y0), (x1, y1) = poly[i], poly[(i + 1) % len(poly)]
            nx, ny = y0 - y1, x1 - x0
            pa = [x * nx + y * ny for x, y in a]
            pb = [x * nx + y * ny for x, y in b]
            if max(pa) <= min(pb) + 1e-6 or max(pb) <= min(pa) + 1e-6:
                return False
    return True
