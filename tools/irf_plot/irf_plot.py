#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""irf-plot: draws the figures of an irf profile (or a before/after pair) as PNG, SVG and PDF.

  irf-plot PROFILE.json -o DIR [--kernels RE] [--top N] [--targets LIST] [--format png,svg,pdf]
  irf-plot --compare BEFORE.json AFTER.json -o DIR [...]
  irf-plot --trajectory TRAJ.json -o DIR [--kernels RE] [--top N]  (irf-report trajectory -o)

Bad input: one line on stderr, exit code 2."""
import argparse
import json
import os
import signal
import stat
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from irf.reader import ProfileError, printable, read_bytes  # noqa: E402
from irfplot.profile import (MAX_TOP, PlotError, compare_items, drawn, items_for,  # noqa: E402
                             load, matching, plain_label, select, select_shared)
from irfplot.regions import region_items  # noqa: E402
from irfplot.targets import gpu_field  # noqa: E402

FORMATS = ("png", "svg", "pdf")
FIGURES = ("instruction_roofline", "global_walls", "shared_walls", "flop_roofline", "projection")
# Reproducible files: no dates or software versions inside.
METADATA = {"svg": {"Date": None}, "png": {"Software": None},
            "pdf": {"CreationDate": None, "Producer": None}}


class ArgumentParser(argparse.ArgumentParser):
    """argparse that reports a usage error as one line and exit code 2."""

    def error(self, message):
        sys.stderr.write(f"irf-plot: error: {printable(message)} (see irf-plot --help)\n")
        sys.exit(2)


def parse_args(argv):
    parser = ArgumentParser(prog="irf-plot", description=__doc__.split("\n")[0])
    parser.add_argument("profile", nargs="?", help="analysed profile JSON")
    parser.add_argument("--compare", nargs=2, metavar=("BEFORE", "AFTER"),
                        help="draw how kernels moved from BEFORE to AFTER")
    parser.add_argument("--trajectory", metavar="TRAJ",
                        help="draw roofline scaling trajectories (irf.trajectory/v1 JSON)")
    parser.add_argument("-o", "--output", required=True, metavar="DIR", help="output directory")
    parser.add_argument("-k", "--kernels", metavar="RE",
                        help="only kernels whose name matches RE (Python re syntax)")
    parser.add_argument("--top", default="10", metavar="N",
                        help=f"the N longest-running kernels, 1 to {MAX_TOP} (default 10, as irf-report)")
    parser.add_argument("--targets", metavar="LIST",
                        help="comma list of projection targets to draw: shipped names, ceilings "
                             "YAML files or all (default: the first 8)")
    parser.add_argument("--format", default="png,svg", help="comma list of png, svg, pdf")
    parser.add_argument("--figures", metavar="LIST",
                        help="comma list of the figures to draw: " + ", ".join(FIGURES) +
                             " (default: all; not with --trajectory)")
    parser.add_argument("--dump-data", metavar="FILE",
                        help="also write what each figure shows (points, labels) as JSON")
    args = parser.parse_args(argv)
    if sum(x is not None for x in (args.profile, args.compare, args.trajectory)) != 1:
        parser.error("give one of PROFILE.json, --compare BEFORE.json AFTER.json or "
                     "--trajectory TRAJ.json")
    top = args.top.strip()
    if not top.isdigit() or not 1 <= int(top) <= MAX_TOP:
        parser.error(f"--top '{args.top}': must be a whole number between 1 and {MAX_TOP}")
    args.top = int(top)
    args.formats = [f for f in args.format.split(",") if f]
    bad = [f for f in args.formats if f not in FORMATS]
    if bad or not args.formats:
        parser.error(f"--format '{args.format}': expected a comma list of png, svg, pdf")
    args.target_list = target_names(args.targets, parser)
    args.figure_list = figure_names(args, parser)
    return args


def figure_names(args, parser):
    """--figures as a set of FIGURES names; None: every figure of the mode."""
    if args.figures is None:
        return None
    if args.trajectory:
        parser.error("--figures: the trajectory figures are drawn together; leave it out")
    names = {f.strip() for f in args.figures.split(",") if f.strip()}
    bad = sorted(names - set(FIGURES))
    if bad or not names:
        parser.error(f"--figures '{args.figures}': expected a comma list of "
                     + ", ".join(FIGURES))
    if args.compare and names == {"projection"}:
        parser.error("--figures projection: --compare draws no projection figure")
    return names


def target_names(spec, parser):
    """--targets as the names the profile's projections carry: a shipped name as it is, a
    ceilings YAML file (a path, or a name ending in .yaml/.yml) as its gpu.key (the name irf
    projected onto, config/ceilings.hpp), "all" as every target. None: the default choice."""
    items = [t.strip() for t in (spec or "").split(",") if t.strip()]
    if items == ["all"]:
        return "all"
    names = []
    for item in items:
        if "/" not in item and not item.endswith((".yaml", ".yml")):
            names.append(item)
            continue
        try:  # read_bytes opens without blocking: a FIFO hung here before
            text = read_bytes(item, 4 << 20).decode("utf-8", errors="replace")
        except ProfileError as e:  # "FILE: cannot read: why" -> "--targets 'FILE': cannot read..."
            reason = str(e).removeprefix(f"{printable(item)}: ")
            parser.error(f"--targets '{item}': {reason}")
        names.append(gpu_key(text) or os.path.splitext(os.path.basename(item))[0])
    return names or None


def gpu_key(yaml_text):
    """The `key:` of a ceilings file's `gpu:` mapping (the name irf projected onto), or None."""
    return gpu_field(yaml_text, "key")


def source_cc(doc):
    """The profiled GPU's compute capability as a number (9.0), or None."""
    try:
        return float((doc.get("gpu") or {}).get("cc") or "")
    except (TypeError, ValueError):
        return None


def boost_mhz(doc):
    """The profiled GPU's boost clock in MHz (gpu.clock_hz), or None."""
    try:
        hz = float((doc.get("gpu") or {}).get("clock_hz") or "")
    except (TypeError, ValueError):
        return None
    return hz / 1e6 if hz > 0 else None


def import_pyplot():
    try:
        import matplotlib
    except ImportError:
        raise PlotError(f"matplotlib is not available to {sys.executable} "
                        "(install python3-matplotlib, or run with /usr/bin/python3)") from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    # Text stays text in SVG (searchable kernel names); fixed ids make the SVG reproducible.
    plt.rcParams.update({"svg.fonttype": "none", "svg.hashsalt": "irf-plot",
                         "font.size": 9, "axes.titleweight": "bold", "pdf.fonttype": 42})
    return plt


def current_umask():
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def special_target(path):
    """How an existing `path` that is not a regular file is written (the rule of irf's C++
    writer, common/file_io.hpp): "through" for a FIFO or character device (/dev/stdout,
    /dev/null, also behind a symlink), an error text for anything else that is not a regular
    file or directory, None when it may be replaced by rename."""
    try:
        link = os.lstat(path)
    except OSError:
        return None
    if stat.S_ISREG(link.st_mode) or stat.S_ISDIR(link.st_mode):
        return None
    try:
        target = os.stat(path)
        if stat.S_ISCHR(target.st_mode) or stat.S_ISFIFO(target.st_mode):
            return "through"
    except OSError:
        pass
    if stat.S_ISLNK(link.st_mode):
        return "it is a symbolic link; not replaced and not followed (name its target)"
    return "not a regular file (a socket or block device); left alone"


def own_descriptor(path):
    """The descriptor /dev/stdout, /dev/stderr, /dev/fd/N or /proc/self/fd/N names, else None:
    written there as the shell redirected it (`> file`, `| less`)."""
    named = {"/dev/stdout": 1, "/dev/stderr": 2}
    if path in named:
        return named[path]
    for prefix in ("/dev/fd/", "/proc/self/fd/"):
        rest = path[len(prefix):]
        if path.startswith(prefix) and rest.isdigit() and len(rest) <= 6:
            return int(rest)
    return None


def write_to_descriptor(path, fd, write):
    """Calls write(file) on a duplicate of descriptor `fd` (the caller's stays open)."""
    try:
        sys.stdout.flush()
        with os.fdopen(os.dup(fd), "wb") as f:
            write(f)
    except OSError as e:
        raise PlotError(f"{printable(path)}: cannot write: {e.strerror or e}") from None


def write_through(path, write):
    """Writes into an existing FIFO or character device, opened without blocking (a FIFO without
    a reader is an error, not a hang)."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC)
        os.set_blocking(fd, True)
        with os.fdopen(fd, "wb") as f:
            write(f)
    except OSError as e:
        raise PlotError(f"{printable(path)}: cannot write: {e.strerror or e}") from None


def write_atomically(path, write):
    """Calls write(file) on a temporary made by mkstemp (O_CREAT|O_EXCL, a random name, so a
    planted symlink is never followed) in the directory of `path`, then renames it to `path`.
    The temporary is removed on every failure path, signals included (main turns them into
    exceptions). What exists and is not a regular file is never replaced (special_target)."""
    own = own_descriptor(path)
    if own is not None:
        return write_to_descriptor(path, own, write)
    special = special_target(path)
    if special == "through":
        return write_through(path, write)
    if special:
        raise PlotError(f"{printable(path)}: cannot write: {special}")
    fd, temp = tempfile.mkstemp(prefix=f".{os.path.basename(path)}.", suffix=".tmp",
                                dir=os.path.dirname(path) or ".")
    try:
        with os.fdopen(fd, "wb") as f:
            os.fchmod(f.fileno(), 0o666 & ~current_umask())
            write(f)
        os.replace(temp, path)
    except BaseException as e:
        try:
            os.unlink(temp)
        except OSError:
            pass
        if isinstance(e, OSError):
            raise PlotError(f"{printable(path)}: cannot write: {e.strerror or e}") from None
        raise


def save(plt, fig, directory, name, formats):
    """Writes DIR/name.<fmt> for each format; returns the paths written."""
    written = []
    try:
        for fmt in formats:
            path = os.path.join(directory, f"{name}.{fmt}")
            write_atomically(path, lambda f, fmt=fmt: fig.savefig(
                f, format=fmt, dpi=150, bbox_inches="tight", metadata=METADATA[fmt],
                bbox_extra_artists=getattr(fig, "irf_extra_artists", None)))
            written.append(path)
    finally:
        plt.close(fig)
    return written


def figures(args):
    from irfplot import figures as f
    from irfplot import figures_flops as ff
    kinds = [("instruction_roofline", "Instruction Roofline", f.instruction_roofline),
             ("global_walls", "Global-memory walls",
              lambda fig, c, i, t: f.memory_walls(fig, c, i, t, "global")),
             ("shared_walls", "Shared-memory walls",
              lambda fig, c, i, t: f.memory_walls(fig, c, getattr(args, "shared_items", None)
                                                  or i, t, "shared")),
             ("flop_roofline", "Hierarchical FLOP roofline", ff.flop_roofline)]
    if not args.compare:
        kinds.append(("projection", "Projected speedup per target",
                      lambda fig, c, i, t: ff.projection(fig, c, i, t, args.target_list)))
    chosen = getattr(args, "figure_list", None)
    return [kind for kind in kinds if chosen is None or kind[0] in chosen]


def make_output_dir(path):
    try:
        os.makedirs(path, exist_ok=True)
    except OSError as e:
        raise PlotError(f"{printable(path)}: cannot create the directory: {e.strerror}") from None


def run_trajectory(args):
    """The two trajectory figures of an irf.trajectory/v1 file (docs/trajectories.md)."""
    from irfplot import figures_trajectory as ft
    doc = ft.load_trajectory(args.trajectory)
    kernels = matching(doc["kernels"], args.kernels)[:args.top]
    plt = import_pyplot()
    make_output_dir(args.output)
    dump = {}
    for name, title, draw in (("trajectory_instruction_roofline", "Instruction Roofline "
                               "scaling trajectories", ft.instruction_roofline),
                              ("trajectory_flop_roofline", "FLOP roofline scaling trajectories",
                               ft.flop_roofline)):
        fig = plt.figure(figsize=(11, 6.5))
        if draw(fig, doc, kernels, title) == 0:
            plt.close(fig)
            sys.stderr.write(f"irf-plot: {name}: no kernel has two points with this data\n")
            continue
        dump[name] = getattr(fig, "irf_trajectory", [])
        for path in save(plt, fig, args.output, name, args.formats):
            print(path)
    if args.dump_data:
        text = json.dumps(dump, indent=1)
        write_atomically(args.dump_data, lambda f: f.write(text.encode("utf-8")))


def run(args):
    from irfplot.figure_data import figure_data
    if args.trajectory:
        return run_trajectory(args)
    if args.compare:
        # Matched by launch configuration too: every kernel is read whole.
        before, after = (load(p, large=False) for p in args.compare)
        items = compare_items(before, after, args.kernels, args.top)
        doc, prefix, suffix = after, "compare_", " (before \u2192 after)"
        regions = []
    else:
        doc = load(args.profile)
        items = items_for(select(doc["kernels"], args.kernels, args.top), doc["kernels"])
        say_left_out(len(items), len(matching(doc["kernels"], args.kernels)))
        args.shared_items = items_for(select_shared(doc["kernels"], args.kernels, args.top),
                                      doc["kernels"])
        for item in items + args.shared_items:  # chosen from a large file's light records
            item.after = drawn(item.after, args.profile)
        prefix, suffix = "", ""
        regions = region_items(doc)
        from irfplot import figures_flops
        figures_flops.check_targets(items, args.target_list)
    plt = import_pyplot()
    make_output_dir(args.output)
    ceilings = doc["ceilings_used"]
    gpu = plain_label((doc.get("gpu") or {}).get("name") or ceilings.get("name", ""), 60)
    dump = {}
    for name, title, draw in figures(args):
        fig = plt.figure(figsize=(11, 6.5))
        fig.irf_regions = regions
        fig.irf_source_cc = source_cc(doc)
        fig.irf_boost_mhz = boost_mhz(doc)
        draw(fig, ceilings, items,
             f"{title}{suffix} \u2014 {plain_label(doc.get('app', ''), 60)} on {gpu}")
        fig.canvas.draw()
        dump[prefix + name] = figure_data(fig)
        for path in save(plt, fig, args.output, prefix + name, args.formats):
            print(path)
    if args.dump_data:
        text = json.dumps(dump, indent=1)
        write_atomically(args.dump_data, lambda f: f.write(text.encode("utf-8")))


def say_left_out(drawn, kernels):
    """One stderr line when the figures show fewer kernels than the profile has."""
    if kernels > drawn:
        sys.stderr.write(f"irf-plot: drew the {drawn} longest-running of {kernels} kernels; "
                         f"{kernels - drawn} left out (--top N, at most {MAX_TOP}; "
                         "--kernels RE for others)\n")


def exit_on_signal(signum, _frame):
    """SIGTERM/SIGHUP become SystemExit so that the temporaries are removed on the way out."""
    raise SystemExit(128 + signum)


def main(argv=None):
    for signum in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, exit_on_signal)
    args = parse_args(sys.argv[1:] if argv is None else argv)
    try:
        run(args)
    except PlotError as e:
        sys.stderr.write(f"irf-plot: error: {e}\n")
        return 2
    except MemoryError:
        sys.stderr.write("irf-plot: error: out of memory (input too large)\n")
        return 2
    except KeyboardInterrupt:
        sys.stderr.write("irf-plot: interrupted; nothing half-written was left\n")
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
