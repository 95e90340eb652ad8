# SPDX-License-Identifier: Apache-2.0
"""Roofline scaling trajectories (docs/model.md: SLIDES "Roofline Scaling Trajectory"):
each kernel's points at increasing SM counts joined by arrows on the Instruction Roofline and on
the FLOP roofline, with the ceilings of every SM count drawn faint (docs/trajectories.md)."""
from irf.reader import ProfileError, printable, read_json
from irfplot.profile import PALETTE, number, plain_label

SCHEMA = "irf.trajectory/v1"
LEVEL_ORDER = ("hbm", "l2", "l1")
FAINT = {"color": "#999999", "linewidth": 0.8, "linestyle": ":", "zorder": 1}
FULL = {"color": "#444444", "linewidth": 1.4, "zorder": 1}


def load_trajectory(path):
    """The irf.trajectory/v1 document at `path`; ProfileError names what is wrong."""
    doc = read_json(path)
    shown = printable(path)
    if not isinstance(doc, dict) or doc.get("schema") != SCHEMA:
        raise ProfileError(f"{shown}: schema: expected \"{SCHEMA}\" (irf-report trajectory -o)")
    ceilings, kernels = doc.get("ceilings"), doc.get("kernels")
    if not isinstance(ceilings, dict) or not number(ceilings.get("warp_gips")):
        raise ProfileError(f"{shown}: ceilings.warp_gips: expected a positive number")
    if not isinstance(ceilings.get("gtxn_per_s", {}), dict) or not isinstance(
            ceilings.get("gflops", {}), dict):
        raise ProfileError(f"{shown}: ceilings: gtxn_per_s and gflops must be objects")
    if not number(doc.get("sms")):
        raise ProfileError(f"{shown}: sms: expected the whole GPU's SM count")
    if not isinstance(kernels, list) or not kernels:
        raise ProfileError(f"{shown}: kernels: no kernel has a trajectory")
    for i, k in enumerate(kernels):
        if not isinstance(k, dict) or not isinstance(k.get("name"), str) or not isinstance(
                k.get("points"), list) or not all(isinstance(p, dict) for p in k["points"]):
            raise ProfileError(f"{shown}: kernels[{i}]: expected name and a list of points")
        # A verdict is an object with a string kind, or absent (issue 52 item 8).
        verdict = k.get("verdict")
        if verdict is not None and (not isinstance(verdict, dict) or not isinstance(
                verdict.get("kind", ""), str)):
            raise ProfileError(f"{shown}: kernels[{i}].verdict: expected an object with a "
                               "string kind")
    return doc


def level_of(kernel, key):
    """The deepest level whose `key` (ii or ai) is known at every point, or None."""
    for level in LEVEL_ORDER:
        if all(isinstance(p.get(key), dict) and number(p[key].get(level))
               for p in kernel["points"]):
            return level
    return None


def series(kernel, key, y_key):
    """[(x, y, sms)] of a kernel's points at its level, and the level."""
    level = level_of(kernel, key)
    if level is None:
        return [], None
    pts = [(p[key][level], number(p.get(y_key)), number(p.get("sms"))) for p in kernel["points"]]
    return [p for p in pts if p[1] and p[2]], level


def draw_ceilings(ax, peak, rates, share_list, xlim):
    """Full-GPU rooflines solid and named, each SM share's faint:
    y = min(share x peak, x x share x rate), rates as (name, rate)."""
    for share in share_list:
        style = FULL if share >= 1.0 else FAINT
        for name, rate in rates:
            ridge = peak / rate
            xs = [xlim[0], min(max(ridge, xlim[0]), xlim[1]), xlim[1]]
            ax.plot(xs, [share * min(peak, x * rate) for x in xs], **style)
            if share >= 1.0 and xlim[0] * 1.5 * rate < peak:
                ax.text(xlim[0] * 1.5, xlim[0] * 1.5 * rate * 1.15, name, fontsize=8,
                        color="#444444")
        top = share * min([peak] + [xlim[1] * rate for _, rate in rates])
        ax.text(xlim[1] / 1.2, top * 1.04, f"{share:.0%}", fontsize=7,
                color="#444444", ha="right", va="bottom")


def trajectory_axes(fig, doc, kernels, key, y_key, peak, rates, labels, title):
    ax = fig.add_subplot(111)
    total = number(doc["sms"])
    shares = sorted({min(1.0, number(p.get("sms")) / total) for k in kernels for p in k["points"]
                     if number(p.get("sms"))} | {1.0})
    drawn = []
    for i, kernel in enumerate(kernels):
        pts, level = series(kernel, key, y_key)
        if len(pts) < 2:
            continue
        color = PALETTE[i % len(PALETTE)]
        xs, ys = [p[0] for p in pts], [p[1] for p in pts]
        ax.plot(xs, ys, color=color, linewidth=1.2, zorder=3)
        ax.scatter(xs, ys, s=[20 + 60 * p[2] / total for p in pts], color=color, zorder=4,
                   edgecolors="white", linewidths=0.6)
        ax.annotate("", xy=(xs[-1], ys[-1]), xytext=(xs[-2], ys[-2]), zorder=5,
                    arrowprops={"arrowstyle": "-|>", "color": color, "lw": 1.2})
        verdict = (kernel.get("verdict") or {}).get("kind") or ""
        fig.irf_trajectory = getattr(fig, "irf_trajectory", []) + [
            {"kernel": kernel["name"], "level": level, "color": color,
             "x": xs, "y": ys, "sms": [p[2] for p in pts]}]
        drawn.append((color, f"{i + 1}  {plain_label(kernel['name'])} [{level.upper()}; "
                             f"{plain_label(verdict, 24)}]"))
    xs = [x for k in kernels for x, _, _ in series(k, key, y_key)[0]] or [1.0]
    ridges = [peak / rate for _, rate in rates]
    xlim = (min(xs) / 10, max([max(xs) * 10] + [2 * r for r in ridges]))
    draw_ceilings(ax, peak, rates, shares, xlim)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlim(*xlim)
    ax.set_xlabel(labels[0])
    ax.set_ylabel(labels[1])
    ax.set_title(title, fontsize=11)
    ax.grid(True, which="major", color="#dddddd", linewidth=0.6)
    from matplotlib.lines import Line2D
    handles = [Line2D([], [], marker="o", color=c, label=text) for c, text in drawn]
    handles += [Line2D([], [], **FULL, label="ceilings, whole GPU"),
                Line2D([], [], **FAINT, label="ceilings at each SM share\n(L2, HBM: lower bounds)")]
    legend = ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.01, 1.0),
                       fontsize=8, frameon=False, title="kernel (marker size = SMs)")
    fig.irf_extra_artists = [legend]
    fig.tight_layout()
    return len(drawn)


def instruction_roofline(fig, doc, kernels, title):
    """Warp GIPS against instruction intensity at each kernel's deepest known level."""
    c = doc["ceilings"]
    rates = [(f"{lv.upper()} {number(r):,.1f} GTXN/s", number(r))
             for lv, r in (c.get("gtxn_per_s") or {}).items() if lv in LEVEL_ORDER and number(r)]
    return trajectory_axes(fig, doc, kernels, "ii", "gips_warp", c["warp_gips"], rates,
                           ("Instruction intensity (warp instructions per transaction)",
                            "Performance (warp GIPS)"), title)


def flop_roofline(fig, doc, kernels, title):
    """GFLOP/s against FLOPs per byte; ceilings: the highest CUDA-core GFLOP/s and HBM GB/s."""
    c = doc["ceilings"]
    peaks = [number(v) for k, v in (c.get("gflops") or {}).items()
             if not k.startswith("tensor") and number(v)]
    hbm = number((c.get("gtxn_per_s") or {}).get("hbm"))
    rates = [(f"HBM {32.0 * hbm:,.0f} GB/s", 32.0 * hbm)] if hbm else []
    return trajectory_axes(fig, doc, kernels, "ai", "gflops", max(peaks or [c["warp_gips"]]),
                           rates, ("Arithmetic intensity (FLOPs per byte)",
                                   "Performance (GFLOP/s)"), title)
