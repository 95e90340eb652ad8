# SPDX-License-Identifier: Apache-2.0
"""Hierarchical FLOP roofline per precision with the FMA-mix ceiling
(docs/model.md: HRM Fig. 2-3) and projection intervals per target
(docs/model.md: PROJ Eq. 9)."""
from irfplot.clock import roof_clock
from irfplot.figures import (LEVEL_MARKERS, LEVEL_NAMES, at_mhz, bounded, draw_bandwidth,
                             draw_peak, draw_point, finish, fmt_gflops, log_range)
import textwrap
from irfplot import placement
from irfplot import regions as reg
from irfplot.targets import by_relevance
from irfplot.units import speedup_ticks
from irfplot.profile import LEVELS, PALETTE, PlotError, get, number, plain_label

PRECISION_TITLES = {"fp64": "FP64", "fp32": "FP32", "fp16": "FP16", "tensor": "Tensor Core"}


def precision_of(kernel):
    """The precision panel a kernel belongs to: tensor when it runs tensor FLOPs, else the
    model's dominant CUDA-core precision; None without FLOPs."""
    flops = get(kernel, "analysis", "flops")
    if not isinstance(flops, dict) or not number(flops.get("gflops")):
        return None
    if number(flops.get("tensor")):
        return "tensor"
    precision = flops.get("precision")
    if isinstance(precision, str) and precision in PRECISION_TITLES:
        return precision
    counts = {p: number(flops.get(p)) or 0 for p in ("fp64", "fp32", "fp16")}
    best = max(counts, key=counts.get)
    return best if counts[best] else None


def tensor_uncounted(kernel):
    """True for a kernel that ran tensor instructions whose FLOPs were not counted (the
    tensor_types group was off): its CUDA-core FLOPs are only its epilogue, so drawing it on
    that precision's panel would misplace a tensor-core kernel."""
    inst_tensor = number(get(kernel, "counters", "inst_tensor"))
    # Register moves (HFMA2.MMA) counted by the tensor pipe are no tensor work: the analysis says
    # so in flops.tensor_register_moves (docs/model.md, "Tensor register moves").
    moves = number(get(kernel, "analysis", "flops", "tensor_register_moves"))
    return bool(inst_tensor) and not moves and not number(get(kernel, "analysis", "flops", "tensor"))


def flop_points(kernel):
    flops = get(kernel, "analysis", "flops")
    if not isinstance(flops, dict) or not number(flops.get("gflops")):
        return {}
    points = {lv: (number(get(flops, "ai", lv)), number(flops["gflops"])) for lv in LEVELS}
    return {lv: p for lv, p in points.items() if p[0]}


def precision_peaks(gflops, precision, mhz=None):
    """[(value, label, style)] of the ceilings drawn in a precision's panel."""
    peaks = []
    if precision == "tensor":
        for key, value in sorted(gflops.items()):
            if key.startswith("tensor_") and number(value):
                name, value = plain_label(key[7:].upper(), 12), number(value)
                peaks.append((value, f"tensor {name} {fmt_gflops(value)}", "-"))
        return peaks
    for suffix, name, style in (("_fma", "FMA", "-"), ("_nofma", "no-FMA", "--")):
        value = number(gflops.get(precision + suffix))
        if value:
            peaks.append((value, f"{PRECISION_TITLES[precision]} {name} {fmt_gflops(value)}"
                                 f"{at_mhz(mhz)}", style))
    return peaks


def draw_mix_ceilings(ax, items, xlim):
    """Each kernel's FMA-mix ceiling (HRM Eq. 3); kernels whose ceilings print alike share one
    line and one label, so that fifteen equal ceilings are not fifteen labels in one place."""
    groups = {}
    for it in items:
        mix = number(get(it.after, "analysis", "flops", "fma_mix_ceiling_gflops"))
        if mix and flop_points(it.after):
            groups.setdefault(fmt_gflops(mix), []).append((it, mix))
    for value, members in groups.items():
        first, mix = members[0]
        color = first.color if len(members) == 1 else "#555555"
        (line,) = ax.plot(list(xlim), [mix, mix], color=color, linestyle="-.", linewidth=1.1,
                          zorder=2)
        who = (f"{first.number} {first.label}" if len(members) == 1 else
               f"kernels {', '.join(str(it.number) for it, _ in members)}")
        text = ax.text(xlim[0] * 1.3, mix * 1.04, f"{who}: FMA-mix ceiling {value}", fontsize=7,
                       color=color, va="bottom")
        text.irf_line, text.irf_kind = line, "mix"


def flop_panel(ax, ceilings, items, precision, regions=(), mhz=None):
    gflops = ceilings.get("gflops") or {}
    peaks = precision_peaks(gflops, precision, mhz) or [(max(
        [p[1] for it in items for p in flop_points(it.after).values()] or [1.0]) * 2,
        "no ceiling known", ":")]
    top = max(p[0] for p in peaks)
    rates = ceilings.get("gtxn_per_s") or {}
    xs = [p[0] for it in items for k in (it.before, it.after) for p in flop_points(k).values()]
    ys = [p[1] for it in items for k in (it.before, it.after) for p in flop_points(k).values()]
    xs += [xy[0] for _, xy in regions]
    ys += [xy[1] for _, xy in regions]
    bandwidth = {lv: rates[lv] * 32.0 for lv in LEVELS if number(rates.get(lv))}
    ridges = [top / b for b in bandwidth.values()] or [1.0]
    xlim = bounded(log_range(xs + ridges, floor=0.01), min(ridges), max(ridges))
    for lv, gbs in bandwidth.items():
        draw_bandwidth(ax, top, gbs, LEVEL_NAMES[lv], xlim, "GB/s")
    for value, label, style in peaks:
        draw_peak(ax, value, label, xlim, style)
    for it in items:
        before, after = flop_points(it.before), flop_points(it.after)
        for lv in LEVELS:
            draw_point(ax, it, before.get(lv), after.get(lv), LEVEL_MARKERS[lv])
    draw_mix_ceilings(ax, items, xlim)
    reg.draw(ax, regions, [it for it, _ in regions])
    ax.set_xlim(*xlim)
    ax.set_ylim(max(min(ys + [top / 1000]) / 6, top / 10 ** 6), top * 3)
    ax.set_title(f"{PRECISION_TITLES[precision]}", fontsize=10)


def flop_roofline(fig, ceilings, items, title):
    from matplotlib.lines import Line2D
    groups, uncounted = {}, []
    for it in items:
        if it.after and tensor_uncounted(it.after):
            uncounted.append(it)
            continue
        precision = precision_of(it.after) if it.after else None
        if precision:
            groups.setdefault(precision, []).append(it)
    regions = reg.flop_placed(getattr(fig, "irf_regions", []))
    order = [p for p in PRECISION_TITLES if p in groups or p in regions]
    note = (f"{len(uncounted)} tensor-core kernel(s) not drawn ("
            f"{', '.join(str(it.number) for it in uncounted)}): tensor FLOPs not collected "
            "(IRF_METRICS=tensor_types)") if uncounted else ""
    if not order:
        ax = fig.add_subplot(111)
        ax.text(0.5, 0.5, textwrap.fill(note or "no selected kernel executes floating-point "
                                        "work", 90),
                ha="center", transform=ax.transAxes, fontsize=11, color="#666666")
        ax.set_axis_off()
        ax.set_title(title)
        return
    fig.set_size_inches(max(7.0, 5.2 * len(order)) + 3.2, 6.0)
    axes = fig.subplots(1, len(order), squeeze=False)[0]
    ceilings, clock_note, mhz = roof_clock(fig, ceilings, [it for p in order
                                                           for it in groups.get(p, [])])
    placement.add_footnote(fig, clock_note)
    for ax, precision in zip(axes, order):
        flop_panel(ax, ceilings, groups.get(precision, []), precision, regions.get(precision, []),
                   mhz)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("arithmetic intensity (FLOP per byte)")
        ax.grid(True, which="major", color="#dddddd", linewidth=0.6)
    axes[0].set_ylabel("performance (GFLOP/s)")
    shown = [it for p in order for it in groups.get(p, [])]
    handles = [Line2D([], [], marker=LEVEL_MARKERS[lv], linestyle="", color="#555555",
                      label=f"{LEVEL_NAMES[lv]} intensity") for lv in LEVELS]
    handles.append(Line2D([], [], linestyle="-.", color="#555555", label="kernel FMA-mix ceiling"))
    handles += reg.legend_handles([it for p in order for it, _ in regions.get(p, [])])
    fig.irf_extra_artists = [fig.suptitle(title, fontsize=11, fontweight="bold")]
    placement.add_footnote(fig, note)
    finish(axes[-1], fig, axes[-1].get_title(), axes[-1].get_xlabel(), axes[-1].get_ylabel(),
           shown, handles)
    axes[-1].set_ylabel("" if len(order) > 1 else "performance (GFLOP/s)")


MAX_TARGETS = 8


def projection_rows(items, wanted=None):
    """[(item, [(target, low, point, high, low_confidence)])] for the targets in `wanted`
    (all when None)."""
    rows = []
    for it in items:
        projections = get(it.after, "analysis", "projection") or []
        entries = []
        for p in projections:
            point, low, high = (number(get(p, "time_ns", key)) for key in ("point", "low", "high"))
            speedup = number(p.get("speedup_point"))
            if point and speedup:
                source = speedup * point  # speedup = source time / projected point time
                target = plain_label(p.get("target", "?"), 40)
                if wanted is None or target in wanted:
                    entries.append((target, source / (high or point), speedup,
                                    source / (low or point), p.get("confidence") == "low"))
        if entries:
            rows.append((it, entries))
    return rows


def projection_left_out(items):
    """The kernels of `items` the analysis projected onto no target, by number, with its own
    reasons (analysis.missing's `projection[target]: ...`, the targets' names dropped); "" when
    none says why (an import's kernels without instructions read "IRF_TARGETS=none?")."""
    reasons = {}
    for it in items:
        missing = get(it.after, "analysis", "missing") if it.after else None
        why = []
        for m in missing if isinstance(missing, list) else []:
            if isinstance(m, str) and m.startswith("projection[") and "]: " in m:
                reason = m[m.index("]: ") + 3:]
                if reason not in why:
                    why.append(reason)
        if why:
            reasons.setdefault("; ".join(why), []).append(str(it.number))
    return "; ".join(f"kernel(s) {', '.join(n)} not drawn: {r}" for r, n in reasons.items())


def check_targets(items, wanted):
    """Raises PlotError when --targets names a target that no selected kernel was projected
    onto (a blank figure and exit 0 would hide the typo), with the targets that begin with
    the name ("h200" -> h200-sxm) and the profile's own list."""
    if not wanted or wanted == "all":
        return
    names = sorted({e[0] for _, entries in projection_rows(items) for e in entries})
    unknown = [w for w in wanted if w not in names]
    if not unknown:
        return
    guesses = [n for n in names if any(n.lower().startswith(w.lower()) for w in unknown)]
    hint = f"; did you mean {' or '.join(guesses[:3])}?" if guesses else ""
    raise PlotError(f"--targets {', '.join(plain_label(w, 40) for w in unknown)}: not a "
                    f"projection target of this profile{hint} (its targets: "
                    f"{', '.join(names) or 'none'}; others need irf-report analyze --targets)")


def chosen_targets(items, wanted, source_cc=None):
    """The targets drawn: `wanted` (--targets names, or "all"), else the first MAX_TARGETS by
    relevance to the profiled GPU (targets.by_relevance: its peers and successors first), and a
    note on those left out (thousands of targets would take minutes to draw and be
    unreadable)."""
    names = sorted({e[0] for _, entries in projection_rows(items) for e in entries})
    if wanted == "all":
        return names, ""
    if wanted:
        return [n for n in names if n in wanted], ""
    if len(names) <= MAX_TARGETS:
        return names, ""
    chosen = set(by_relevance(names, source_cc)[:MAX_TARGETS])
    return [n for n in names if n in chosen], (
        f"{len(names) - MAX_TARGETS} more targets not shown: the profiled GPU's peers and "
        "successors come first (choose with --targets)")


def projection(fig, ceilings, items, title, wanted=None):
    """Speedup intervals [source/high, source/low] with the point estimate, one row per kernel
    and one colour per target; hollow points have low confidence."""
    from matplotlib.lines import Line2D
    ax = fig.add_subplot(111)
    targets, note = chosen_targets(items, wanted, getattr(fig, "irf_source_cc", None))
    rows = projection_rows(items, set(targets))
    if not rows:
        ax.text(0.5, 0.5, textwrap.fill(projection_left_out(items) or "no projection in the "
                                        "selected kernels (IRF_TARGETS=none?)", 90),
                ha="center", transform=ax.transAxes, fontsize=11, color="#666666")
        ax.set_axis_off()
        ax.set_title(title)
        return
    colors = PALETTE
    height = 0.8 / max(1, len(targets))
    fig.set_size_inches(11.0, max(3.5, 1.0 + 0.45 * len(rows) * max(1, len(targets)) ** 0.5))
    values = []
    for row, (it, entries) in enumerate(rows):
        for target, low, point, high, low_conf in entries:
            j = targets.index(target)
            y = row - 0.4 + height * (j + 0.5)
            color = colors[j % len(colors)]
            ax.plot([low, high], [y, y], color=color, linewidth=5, alpha=0.45,
                    solid_capstyle="butt")
            ax.scatter(point, y, color="white" if low_conf else color, edgecolors=color, s=45,
                       linewidths=1.4, zorder=3)
            values += [low, high]
            fig.irf_rows = getattr(fig, "irf_rows", []) + [
                {"kernel": it.label, "number": it.number, "target": target, "low": low,
                 "point": point, "high": high, "low_confidence": low_conf}]
    ax.axvline(1.0, color="#444444", linewidth=1.2)
    ax.set_xscale("log")
    low, high = min(values + [1.0]) / 1.6, max(values + [1.0]) * 1.6
    ax.set_xlim(low, high)
    ticks = speedup_ticks(low, high)
    ax.set_xticks(ticks, [f"{t:g}\u00d7" for t in ticks])
    ax.minorticks_off()
    ax.set_yticks(range(len(rows)))
    ax.set_yticklabels([f"{it.number}  {it.label}" for it, _ in rows], fontsize=9)
    ax.invert_yaxis()
    source = plain_label(ceilings.get("name", "the source GPU"))
    ax.set_xlabel(f"projected speedup over {source} "
                  "(>1 = faster; bar = interval, dot = point estimate)")
    ax.set_title(title + (f"\n{note}" if note else ""), fontsize=11)
    ax.grid(True, axis="x", which="both", color="#eeeeee")
    handles = [Line2D([], [], color=colors[j % len(colors)], linewidth=5, alpha=0.6, label=t)
               for j, t in enumerate(targets)]
    handles.append(Line2D([], [], marker="o", linestyle="", color="#555555",
                          markerfacecolor="white", label="low confidence"))
    ax.legend(handles=handles, title="target", loc="upper left", bbox_to_anchor=(1.01, 1.0),
              fontsize=8, title_fontsize=9, frameon=False)
    fig.tight_layout()
    # The kernels without a row, with the analysis's reason, when others have one (issue 53
    # item 7): the figure said so only when it drew none.
    shown = {id(it) for it, _ in rows}
    placement.add_footnote(fig, projection_left_out([it for it in items if id(it) not in shown]))
    placement.draw_footnotes(fig, fig.canvas.get_renderer())
