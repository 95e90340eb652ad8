# SPDX-License-Identifier: Apache-2.0
"""NVTX regions on the Instruction Roofline and the FLOP roofline (docs/regions.md): one
diamond per region at its rolled-up point, its area growing with the region's share of the
longest region's time, numbered R1, R2, ... (R1 = longest) in the legend and beside the mark."""
from irfplot import marks
from irfplot.profile import Item, get, number, plain_label
from irfplot.units import format_time

MAX_REGIONS = 8
# Greys, apart from the kernels' palette (profile.PALETTE): a region never takes a kernel's
# colour, and its hollow diamond never hides the kernel markers under it.
REGION_COLORS = ["#262626", "#4d4d4d", "#666666", "#a6a6a6", "#bdbdbd", "#383838", "#595959",
                 "#b3b3b3"]
REGION_FACE = "none"
MIN_SIZE, MAX_SIZE = 70.0, 520.0
MARKER = "D"


def region_items(doc, top=MAX_REGIONS):
    """The `top` longest regions that have a point on the Instruction Roofline or the FLOP
    roofline, as drawable items numbered R1, R2, ... without gaps (a region that no figure
    can draw takes no number)."""
    regions = [r for r in doc.get("regions") or []
               if isinstance(r, dict) and isinstance(r.get("analysis"), dict)
               and isinstance(r.get("path"), str) and number(r.get("time_ns"))
               and (irm_point(r) or flop_point(r))]
    regions.sort(key=lambda r: -number(r["time_ns"]))
    return [Item(plain_label(r["path"], 40), REGION_COLORS[i % len(REGION_COLORS)], r,
                 number=f"R{i + 1}") for i, r in enumerate(regions[:top])]


def drawn_level(analysis, intensity="ii"):
    """The level a region is drawn at, among those with an `intensity` (ii or ai): the memory
    level holding the largest share of its time when one does, else HBM, L2, L1 in that order
    (DRAM first, as in the classic roofline)."""
    shares = analysis.get("bound_shares") if isinstance(analysis.get("bound_shares"), dict) else {}
    measured = [lv for lv in ("hbm", "l2", "l1") if number(get(analysis, intensity, lv))]
    bound = [(number(shares.get(lv)) or 0.0, lv) for lv in measured]
    if bound and max(bound)[0] > 0:
        return max(bound)[1]
    return measured[0] if measured else None


def marker_size(region, items):
    """Marker area: MIN_SIZE plus the region's time relative to the longest drawn region."""
    longest = max(number(it.after["time_ns"]) for it in items)
    return MIN_SIZE + (MAX_SIZE - MIN_SIZE) * number(region["time_ns"]) / longest


def irm_point(region):
    """(instruction intensity, warp GIPS) of a region at its drawn level, or None."""
    analysis = region["analysis"]
    level = drawn_level(analysis)
    gips = number(analysis.get("gips_warp"))
    return (number(get(analysis, "ii", level)), gips) if level and gips else None


def flop_point(region):
    """(precision, (arithmetic intensity, GFLOP/s)) of a region at its drawn level, or None.
    The precision is the one with the most FLOPs (tensor when any tensor FLOPs ran)."""
    analysis = region["analysis"]
    flops = analysis.get("flops") if isinstance(analysis.get("flops"), dict) else {}
    counts = {p: number(flops.get(p)) or 0.0 for p in ("fp64", "fp32", "fp16", "tensor")}
    gflops = number(analysis.get("gflops"))
    if not gflops or not any(counts.values()):
        return None
    precision = "tensor" if counts["tensor"] else max(counts, key=counts.get)
    level = drawn_level(analysis, "ai")
    return (precision, (number(get(analysis, "ai", level)), gflops)) if level else None


def draw(ax, placed, items):
    """Records a diamond per (item, xy) in `placed`, sized among all drawn `items`
    (marks.render draws them once the limits are set)."""
    for it, xy in placed:
        marks.add_point(ax, it, xy, MARKER, REGION_FACE, marker_size(it.after, items), "region")


def irm_placed(items):
    """[(item, xy)] of the regions that have an Instruction Roofline point."""
    return [(it, xy) for it, xy in ((it, irm_point(it.after)) for it in items)
            if xy and xy[0] and xy[1]]


def flop_placed(items):
    """{precision: [(item, xy)]} of the regions that have a FLOP roofline point."""
    by_precision = {}
    for it in items:
        found = flop_point(it.after)
        if found and found[1][0] and found[1][1]:
            by_precision.setdefault(found[0], []).append((it, found[1]))
    return by_precision


def legend_handles(items):
    """Legend rows for the drawn regions, R1 first: number, path and time."""
    from matplotlib.lines import Line2D
    items = sorted(items, key=lambda it: int(it.number[1:]))
    return [Line2D([], [], marker=MARKER, linestyle="", color=it.color, markersize=7,
                   label=f"{it.number}  region {it.label} "
                         f"({format_time(number(it.after['time_ns']))})")
            for it in items]
