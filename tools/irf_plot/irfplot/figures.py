# SPDX-License-Identifier: Apache-2.0
"""Instruction Roofline and memory-wall figures (docs/model.md: IRM Fig. 2-4)."""
import textwrap
from irfplot import marks, placement
from irfplot.clock import roof_clock
from irfplot import regions as reg
from irfplot.profile import LEVELS, get, number, plain_label, rank_note

LEVEL_MARKERS = {"l1": "o", "l2": "s", "hbm": "^"}
LEVEL_NAMES = {"l1": "L1", "l2": "L2", "hbm": "HBM", "shared": "Shared"}
CEILING_STYLE = {"color": "#444444", "linewidth": 1.4, "zorder": 1}


def log_range(values, pad=4.0, floor=None, ceil=None):
    """(low, high) covering the positive `values` with `pad` times margin on each side."""
    vals = [v for v in values if v]
    low, high = (min(vals), max(vals)) if vals else (0.01, 100.0)
    low, high = low / pad, high * pad
    if floor is not None:
        low = min(low, floor)
    if ceil is not None:
        high = max(high, ceil)
    return low, high


def bounded(lim, low_anchor, high_anchor, decades=4.0):
    """`lim` cut to `decades` decades beyond the anchors (ridge points, peaks), so that one
    absurd point is drawn at the edge with an arrow instead of squashing every other one."""
    return (max(lim[0], low_anchor / 10 ** decades), min(lim[1], high_anchor * 10 ** decades))


def draw_bandwidth(ax, peak, rate, name, xlim, unit):
    """A bandwidth ceiling y = min(peak, x * rate); its label is placed by finish() once the
    axes limits are known (placement.place_slope_labels), along the slanted part."""
    x0, x1 = xlim
    ridge = peak / rate
    xs = [x0, min(max(ridge, x0), x1), x1]
    (line,) = ax.plot(xs, [min(peak, x * rate) for x in xs], **CEILING_STYLE)
    if not hasattr(ax, "irf_slope_labels"):
        ax.irf_slope_labels = []
    ax.irf_slope_labels.append((peak, rate, f"{name} {rate:,.1f} {unit}", line))


def draw_peak(ax, peak, label, xlim, style="-"):
    (line,) = ax.plot(list(xlim), [peak, peak], linestyle=style, **CEILING_STYLE)
    text = ax.text(xlim[1] / 1.3, peak * 1.06, label, fontsize=8, color="#444444", ha="right",
                   va="bottom")
    text.irf_line = line


def draw_point(ax, item, before_xy, after_xy, marker, filled=True, size=70):
    """A kernel's point; in compare mode the before point is faded with an arrow to after.
    Drawn by marks.render() once the limits are known."""
    before = after = None
    if before_xy and after_xy:
        before = marks.add_point(ax, item, before_xy, marker, "white", size, "before")
    if after_xy:
        after = marks.add_point(ax, item, after_xy, marker, item.color if filled else "white",
                                size, "after" if before_xy else "point")
    if before and after:
        marks.add_arrow(ax, item, before, after)


def finish(ax, fig, title, xlabel, ylabel, items, extra_handles=()):
    from matplotlib.lines import Line2D
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=11)
    ax.grid(True, which="major", color="#dddddd", linewidth=0.6)
    handles = [Line2D([], [], marker="o", linestyle="", color=i.color, markersize=8,
                      label=f"{i.number}  {i.label}{rank_note(i.after)}") for i in items]
    if any(i.before for i in items):
        extra_handles = list(extra_handles) + [
            Line2D([], [], marker="o", linestyle="-", color="#555555", markerfacecolor="white",
                   label="faded = before, arrow to after")]
    legend = ax.legend(handles=handles, title="kernel", loc="upper left",
                       bbox_to_anchor=(1.01, 1.0), fontsize=8, title_fontsize=9, frameon=False)
    fig.irf_extra_artists = getattr(fig, "irf_extra_artists", []) + [legend]
    if extra_handles:
        ax.add_artist(legend)
        fig.irf_extra_artists.append(
            ax.legend(handles=list(extra_handles), loc="lower left", bbox_to_anchor=(1.01, 0.0),
                      fontsize=8, frameon=False))
    # Leave room for a figure title (multi-panel figures) above the panel titles.
    fig.tight_layout(rect=(0, 0, 1, 0.95) if fig._suptitle else None)
    renderer = fig.canvas.get_renderer()
    for axes in fig.axes:
        marks.render(axes)
        placement.place_labels(axes, renderer)
    placement.draw_footnotes(fig, renderer)


def level_handles(with_thread):
    from matplotlib.lines import Line2D
    handles = [Line2D([], [], marker=LEVEL_MARKERS[lv], linestyle="", color="#555555",
                      label=f"{LEVEL_NAMES[lv]} intensity") for lv in LEVELS]
    if with_thread:
        handles.append(Line2D([], [], marker="o", linestyle=":", color="#555555",
                              markerfacecolor="white", label="warp-based (predication)"))
    return handles


def irm_points(kernel):
    """A kernel's Instruction Roofline points: ({level: solid dot}, {level: warp-based point}).
    The solid dots use thread instructions / 32 for intensity and GIPS (instruction-roofline
    section 3.2), so predication moves them diagonally from the warp-based point (Fig. 2b/5b);
    a profile without them has its warp-based points as the dots, and one without warp
    instructions (an nvprof or ncu export with thread instructions only) its thread dots alone."""
    irm = get(kernel, "analysis", "irm")
    if not isinstance(irm, dict):
        return {}, {}
    gips_thread = number(irm.get("gips_thread"))
    thread = {lv: (number(get(irm, "ii_thread", lv)), gips_thread) for lv in LEVELS}
    if not number(irm.get("gips_warp")):
        return ({lv: p for lv, p in thread.items() if p[0]} if gips_thread else {}), {}
    warp = {lv: (number(get(irm, "ii", lv)), number(irm.get("gips_warp"))) for lv in LEVELS}
    warp = {lv: p for lv, p in warp.items() if p[0]}
    return {lv: thread[lv] if thread[lv][0] and gips_thread else p
            for lv, p in warp.items()}, warp


def predicated(solid, warp):
    """True when the thread dot lies clearly below its warp-based point (predication)."""
    return solid[1] < 0.98 * warp[1]


def busiest_pipe(kernel):
    """(pipe, its warp GIPS, its share of the kernel's warp instructions) of the pipe the kernel
    uses most relative to its peak (analysis.pipes), or None without a mix."""
    by_pipe = get(kernel, "analysis", "pipes", "by_pipe")
    gips = number(get(kernel, "analysis", "irm", "gips_warp"))
    if not isinstance(by_pipe, dict) or not by_pipe or not gips:
        return None
    name, use = max(by_pipe.items(), key=lambda kv: number(get(kv[1], "pct")) or 0.0)
    pipe_gips = number(get(use, "gips"))
    return (name, pipe_gips, pipe_gips / gips) if pipe_gips else None


def pipe_point(kernel, warp):
    """The busiest pipe's own instructions per L1 transaction and per ns: the kernel's
    warp-based point scaled by the pipe's share, as SLIDES' LD/ST intensity (docs/model.md) counts one
    instruction class (docs/model.md, "Pipe sub-ceilings")."""
    pipe = busiest_pipe(kernel)
    level = next((lv for lv in LEVELS if lv in warp), None)
    if not pipe or not level:
        return None
    name, gips, share = pipe
    return name, level, (warp[level][0] * share, gips)


def draw_pipes(ax, ceilings, drawn, xlim):
    """Each drawn kernel's busiest pipe: its peak as a dashed sub-ceiling and its point, dotted
    to the kernel's warp-based point. Returns the pipe points' GIPS (for the y limits)."""
    peaks = ceilings.get("pipe_gips") or {}
    shown, ys = set(), []
    for it in drawn:
        _, warp = irm_points(it.after)
        point = pipe_point(it.after, warp)
        if not point or not number(peaks.get(point[0])):
            continue
        name, level, xy = point
        ys.append(xy[1])
        ax.plot([warp[level][0], xy[0]], [warp[level][1], xy[1]], linestyle=":", color=it.color,
                linewidth=0.9, zorder=2)
        marks.add_point(ax, it, xy, "p", "white", 40, "pipe")
        if name not in shown:
            shown.add(name)
            peak = peaks[name]
            if peak >= 0.999 * ceilings["warp_gips"]:
                continue  # the issue peak already drawn (fp32 on most GPUs)
            (line,) = ax.plot(list(xlim), [peak, peak], linestyle="--", color="#888888",
                              linewidth=1.0, zorder=1)
            # The pipe's name is the profile's: '$' escaped, never mathtext (issue 52 item 8).
            text = ax.text(xlim[0] * 1.3, peak * 1.06,
                           f"{plain_label(name, 40)} pipe {peak:,.1f} warp GIPS", fontsize=7,
                           color="#666666", ha="left", va="bottom")
            text.irf_line = line
    return ys


def pipe_handles(ys):
    from matplotlib.lines import Line2D
    if not ys:
        return []
    return [Line2D([], [], marker="p", linestyle="--", color="#888888", markerfacecolor="white",
                   label="busiest pipe: its instructions, its peak")]


def at_mhz(mhz):
    """A peak label's clock: " at N MHz" when the roofs are drawn at a kernel's clock."""
    return f" at {mhz:.0f} MHz" if mhz else ""


def instruction_roofline(fig, ceilings, items, title):
    ax = fig.add_subplot(111)
    ceilings, clock_note, mhz = roof_clock(
        fig, ceilings, [it for it in items if irm_points(it.after)[0] or irm_points(it.before)[0]])
    placement.add_footnote(fig, clock_note)
    peak, rates = ceilings["warp_gips"], ceilings.get("gtxn_per_s") or {}
    xs, ys = [], [peak]
    for it in items:
        for k in (it.before, it.after):
            for pts in irm_points(k):
                xs += [p[0] for p in pts.values()]
                ys += [p[1] for p in pts.values()]
    regions = reg.irm_placed(getattr(fig, "irf_regions", []))
    xs += [xy[0] for _, xy in regions]
    ys += [xy[1] for _, xy in regions]
    ridges = [peak / r for lv, r in rates.items() if lv in LEVELS and number(r)]
    xlim = bounded(log_range(xs + ridges, floor=0.01), min(ridges or [1.0]), max(ridges or [1.0]))
    for lv in LEVELS:
        if number(rates.get(lv)):
            draw_bandwidth(ax, peak, rates[lv], LEVEL_NAMES[lv], xlim, "GTXN/s")
    draw_peak(ax, peak, f"peak {peak:,.1f} warp GIPS{at_mhz(mhz)}", xlim)
    any_predicated = False
    drawn = [it for it in items if irm_points(it.after)[0] or irm_points(it.before)[0]]
    for it in drawn:
        before, _ = irm_points(it.before)
        after, warp = irm_points(it.after)
        for lv in LEVELS:
            draw_point(ax, it, before.get(lv), after.get(lv), LEVEL_MARKERS[lv])
            if lv in after and lv in warp and predicated(after[lv], warp[lv]):
                # Fig. 2b: the warp-based point, dotted to the dot predication moved diagonally.
                any_predicated = True
                (x0, y0), (x1, y1) = warp[lv], after[lv]
                ax.plot([x0, x1], [y0, y1], linestyle=":", color=it.color, zorder=2)
                marks.add_point(ax, it, warp[lv], LEVEL_MARKERS[lv], "white", 45, "warp")
    note_left_out(ax, left_out(items, drawn, "irm"),
                  None if drawn else "no selected kernel has an Instruction Roofline point")
    pipe_ys = draw_pipes(ax, ceilings, drawn, xlim)
    ys += pipe_ys
    region_items = [it for it, _ in regions]
    reg.draw(ax, regions, region_items)
    ax.set_xlim(*xlim)
    ax.set_ylim(max(min(v for v in ys if v) / 4, peak / 10 ** 6), peak * 3)
    finish(ax, fig, title,
           "instruction intensity ((thread instructions / 32) per 32-byte transaction)",
           "performance (thread instructions / 32, GIPS)", drawn,
           level_handles(any_predicated) + pipe_handles(pipe_ys) +
           reg.legend_handles(region_items))


# The instructions each wall's intensity counts (model/roofline/walls.cpp): the shared wall includes
# LDSM and STSM, whose wavefronts are in the shared ld/st ones.
WALL_INSTRUCTIONS = {"global": ("inst_global_ld", "inst_global_st"),
                     "shared": ("inst_shared_ld", "inst_shared_st", "inst_ldsm", "inst_stsm")}


def ldst_gips(kernel, wall):
    """The wall's warp load/store instructions per nanosecond of the profiled launches."""
    counters = kernel.get("counters") or {}
    time = number(counters.get("time_ns"))
    total = sum(number(counters.get(name)) or 0 for name in WALL_INSTRUCTIONS[wall])
    return total / time if time and total > 0 else None


def lsu_bypass(kernel):
    """True when the model noted that the kernel's L2 traffic clearly exceeds its L1 sectors:
    traffic the LSU counters do not see (TMA from cc 9.0; LDGSTS, texture or L2 partition
    crossings before; model/analyze.cpp note_lsu_bypass)."""
    notes = get(kernel, "analysis", "notes") if kernel else None
    return isinstance(notes, list) and any(
        isinstance(n, str) and n.startswith("irm.ii.l1: L2 sectors") for n in notes)


def wall_points(kernel, wall):
    """The open dot: ld/st instructions per transaction and per ns, counting the same
    instructions on both axes (global ld/st for the global wall, as the wall's intensity)."""
    intensity = number(get(kernel, "analysis", "walls", wall, "intensity"))
    gips = ldst_gips(kernel, wall)
    return (intensity, gips) if intensity and gips else None


WALLS = {
    "global": [(1.0, "stride-0"), (1 / 4, "unit stride (4-byte)"), (1 / 8, "unit stride (8-byte)"),
               (1 / 32, "stride \u2265 8 / gather")],
    "shared": [(1.0, "no bank conflict"), (1 / 32, "32-way bank conflict")],
}


def kernel_walls(items, wall):
    """The walls of the shown kernels' own access widths (issue #18 item 5): a float4 copy's
    unit-stride wall at 1/16, a conflict-free 128-bit shared access at 1/4, unless a fixed wall
    already stands within 2 %."""
    key = "unit_intensity" if wall == "global" else "conflict_free_intensity"
    text = "unit stride" if wall == "global" else "no bank conflict"
    out = []
    for it in items:
        for k in (it.before, it.after):
            w = get(k, "analysis", "walls", wall) if k else None
            x = number(w.get(key)) if isinstance(w, dict) else None
            width = number(w.get("access_bytes")) if isinstance(w, dict) else None
            if not x or not width:
                continue
            if all(abs(x / other - 1) > 0.02 for other, _ in WALLS[wall] + out):
                out.append((x, f"{text} ({width:.2g}-byte)"))
    return out


def left_out(items, drawn, prefix):
    """Why kernels of `items` not in `drawn` have no point: "" when each issues none of what the
    figure shows, else their numbers with the reason, so a figure never says a kernel issues
    none when its counters or its time were simply not in the file. `prefix` picks the
    analysis's own reason ("irm", "walls.global:")."""
    ids = {id(it) for it in drawn}
    reasons = {}
    for it in items:
        if id(it) in ids or not it.after:
            continue
        if get(it.after, "time_ns", "total") is None and isinstance(it.after.get("time_ns"), dict):
            reasons.setdefault("no time in the file, so no GIPS", []).append(str(it.number))
            continue
        missing = get(it.after, "analysis", "missing")
        reason = next((m for m in missing if isinstance(m, str) and m.startswith(prefix)),
                      None) if isinstance(missing, list) else None
        if reason and "counters absent" in reason:
            reasons.setdefault(reason[reason.index("counters absent"):], []).append(str(it.number))
    return "; ".join(f"kernel(s) {', '.join(n)} not drawn: {r}" for r, n in reasons.items())


def note_left_out(ax, note, empty_text):
    """The note inside the axes, centred and wrapped, when nothing is drawn (placed clear of
    the roof labels by placement.place_notes); else a footnote below the panel
    (placement.draw_footnotes)."""
    if empty_text is not None:
        text = ax.text(0.5, 0.2, textwrap.fill(note or empty_text, 90), transform=ax.transAxes,
                       ha="center", fontsize=10, color="#666666", zorder=5,
                       bbox={"facecolor": "white", "edgecolor": "none", "alpha": 0.85,
                             "pad": 1.0})
        text.irf_kind = "note"
    else:
        placement.add_footnote(ax.figure, note)


def memory_walls(fig, ceilings, items, title, wall):
    """Walls figure: the level's ceiling, the pattern walls, each kernel's ld/st point (open)
    and, for global, its total-instruction L1 point (filled), as in IRM Fig. 3-4 (docs/model.md)."""
    ax = fig.add_subplot(111)
    level = "l1" if wall == "global" else "shared"
    points = [(it, wall_points(it.before, wall) if it.before else None,
               wall_points(it.after, wall) if it.after else None) for it in items]
    shown = [p for p in points if p[1] or p[2]]
    ceilings, clock_note, mhz = roof_clock(fig, ceilings, [p[0] for p in shown])
    placement.add_footnote(fig, clock_note)
    peak, rates = ceilings["warp_gips"], ceilings.get("gtxn_per_s") or {}
    walls = sorted(WALLS[wall] + kernel_walls([p[0] for p in shown], wall), reverse=True)
    xs = [w for w, _ in walls]
    ys = [peak]
    for _, b, a in shown:
        for p in (b, a):
            if p:
                xs.append(p[0])
                ys.append(p[1])
    xlim = bounded(log_range(xs, pad=3.0), WALLS[wall][-1][0], WALLS[wall][0][0])
    if number(rates.get(level)):
        draw_bandwidth(ax, peak, rates[level], LEVEL_NAMES[level], xlim, "GTXN/s")
    draw_peak(ax, peak, f"peak {peak:,.1f} warp GIPS{at_mhz(mhz)}", xlim)
    ylim = (max(min(ys) / 6, peak / 10 ** 6), peak * 3)
    for x, label in walls:
        (line,) = ax.plot([x, x], list(ylim), color="#B22222", linestyle="--", linewidth=1.1,
                          zorder=1)
        text = ax.text(x * 1.08, ylim[0] * 1.5, label, rotation=90, fontsize=8, color="#B22222",
                       va="bottom", ha="left")
        text.irf_line = line
    for it, b, a in shown:
        draw_point(ax, it, b, a, "o", filled=False, size=80)
    if wall == "global":
        for it in items:
            before, _ = irm_points(it.before)
            after, _ = irm_points(it.after)
            draw_point(ax, it, before.get("l1"), after.get("l1"), "o")
    bypass = [it for it, _, _ in shown if wall == "global" and lsu_bypass(it.after)]
    if bypass:
        placement.add_footnote(fig, f"kernel(s) {', '.join(str(it.number) for it in bypass)}: "
                               "most of their traffic is not in the LSU counters (TMA copies, or "
                               "LDGSTS before Hopper), so their ld/st point (often at the edge) "
                               "shows only the rest")
    note_left_out(ax, left_out(items, [p[0] for p in shown], f"walls.{wall}:"),
                  None if shown else f"no selected kernel issues {wall}-memory instructions")
    ax.set_xlim(*xlim)
    ax.set_ylim(*ylim)
    from matplotlib.lines import Line2D
    kind = "global" if wall == "global" else "shared"
    extra = [Line2D([], [], marker="o", linestyle="", color="#555555", markerfacecolor="white",
                    label=f"{kind} ld/st per transaction")]
    if wall == "global":
        extra.append(Line2D([], [], marker="o", linestyle="", color="#555555",
                            label="all instructions, L1 intensity"))
    finish(ax, fig, title, f"{kind} load/store instructions per transaction",
           "performance (GIPS; filled: thread instructions / 32)", [p[0] for p in shown] or items,
           extra)


def fmt_gflops(value):
    return f"{value / 1000:,.1f} TFLOP/s" if value >= 1000 else f"{value:,.0f} GFLOP/s"
