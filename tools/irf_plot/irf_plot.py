#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""irf-plot: draws the figures of an irf profile (or a before/after pair) as PNG and SVG.

  irf-plot PROFILE.json -o DIR [--kernels RE] [--top N] [--format png,svg]
  irf-plot --compare BEFORE.json AFTER.json -o DIR [...]

Bad input: one line on stderr, exit code 2."""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from irfplot.profile import PlotError, compare_items, items_for, load, select  # noqa: E402

FORMATS = ("png", "svg")


class ArgumentParser(argparse.ArgumentParser):
    """argparse that reports a usage error as one line and exit code 2."""

    def error(self, message):
        sys.stderr.write(f"irf-plot: error: {message} (see irf-plot --help)\n")
        sys.exit(2)


def parse_args(argv):
    parser = ArgumentParser(prog="irf-plot", description=__doc__.split("\n")[0])
    parser.add_argument("profile", nargs="?", help="analysed profile JSON")
    parser.add_argument("--compare", nargs=2, metavar=("BEFORE", "AFTER"),
                        help="draw how kernels moved from BEFORE to AFTER")
    parser.add_argument("-o", "--output", required=True, metavar="DIR", help="output directory")
    parser.add_argument("--kernels", metavar="RE", help="only kernels whose name matches RE")
    parser.add_argument("--top", type=int, default=8, metavar="N",
                        help="the N longest-running kernels (default 8)")
    parser.add_argument("--format", default="png,svg", help="comma list of png, svg")
    args = parser.parse_args(argv)
    if (args.profile is None) == (args.compare is None):
        parser.error("give either PROFILE.json or --compare BEFORE.json AFTER.json")
    if args.top < 1:
        parser.error(f"--top {args.top}: expected an integer >= 1")
    args.formats = [f for f in args.format.split(",") if f]
    bad = [f for f in args.formats if f not in FORMATS]
    if bad or not args.formats:
        parser.error(f"--format '{args.format}': expected a comma list of png, svg")
    return args


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
                         "font.size": 9, "axes.titleweight": "bold"})
    return plt


def save(plt, fig, directory, name, formats):
    """Writes DIR/name.<fmt> for each format through a temporary file and a rename."""
    written = []
    for fmt in formats:
        path = os.path.join(directory, f"{name}.{fmt}")
        temp = os.path.join(directory, f".{name}.{os.getpid()}.tmp")
        metadata = {"Date": None} if fmt == "svg" else {"Software": None}
        fig.savefig(temp, format=fmt, dpi=150, bbox_inches="tight", metadata=metadata,
                    bbox_extra_artists=getattr(fig, "irf_extra_artists", None))
        os.replace(temp, path)
        written.append(path)
    plt.close(fig)
    return written


def figures(compare):
    from irfplot import figures as f
    from irfplot import figures_flops as ff
    kinds = [("instruction_roofline", "Instruction Roofline", f.instruction_roofline),
             ("global_walls", "Global-memory walls",
              lambda fig, c, i, t: f.memory_walls(fig, c, i, t, "global")),
             ("shared_walls", "Shared-memory walls",
              lambda fig, c, i, t: f.memory_walls(fig, c, i, t, "shared")),
             ("flop_roofline", "Hierarchical FLOP roofline", ff.flop_roofline)]
    if not compare:
        kinds.append(("projection", "Projected speedup per target", ff.projection))
    return kinds


def run(args):
    if args.compare:
        before, after = (load(p) for p in args.compare)
        items = compare_items(before, after, args.kernels, args.top)
        doc, prefix, suffix = after, "compare_", " (before \u2192 after)"
    else:
        doc = load(args.profile)
        items = items_for(select(doc["kernels"], args.kernels, args.top))
        prefix, suffix = "", ""
    plt = import_pyplot()
    try:
        os.makedirs(args.output, exist_ok=True)
    except OSError as e:
        raise PlotError(f"{args.output}: cannot create the directory: {e.strerror}") from None
    gpu = (doc.get("gpu") or {}).get("name") or doc["ceilings_used"].get("name", "")
    ceilings = doc["ceilings_used"]
    for name, title, draw in figures(bool(args.compare)):
        fig = plt.figure(figsize=(11, 6.5))
        draw(fig, ceilings, items, f"{title}{suffix} \u2014 {doc.get('app', '')} on {gpu}")
        for path in save(plt, fig, args.output, prefix + name, args.formats):
            print(path)


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    try:
        run(args)
    except PlotError as e:
        sys.stderr.write(f"irf-plot: error: {e}\n")
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
