# SPDX-License-Identifier: Apache-2.0
"""The SM clock the figures' roofs are drawn at (docs/model.md, "SM clock"): the analysis takes
each kernel's SM-side ceilings (issue, pipes, FP, L1, shared) at the clock it ran at and says so
in a `clock:` note, and its roof% uses them; a roof drawn at the boost clock would sit above the
one the text compares with. The figures draw the roofs at the clock of the longest-running drawn
kernel and name the others' clocks in a footnote."""
import re

from irfplot.profile import get, number

RAN_AT = re.compile(r"^clock: ran at (\d+) MHz, ([0-9.]+) of the boost clock")
STANDS_IN = re.compile(r"^clock: not measured; the source's sustained clock under load, (\d+) MHz")
SAME = 0.005  # clocks within 0.5 % draw the same roof (the text prints roof% to 0.1)


def kernel_clock(kernel, boost_mhz):
    """(MHz, fraction of the boost) the analysis took `kernel`'s ceilings at; None at the boost
    or when the analysis did not say."""
    notes = get(kernel, "analysis", "notes") if kernel else None
    for note in notes if isinstance(notes, list) else []:
        if not isinstance(note, str):
            continue
        m = RAN_AT.match(note)
        if m and float(m.group(2)) > 0:
            mhz, fraction = float(m.group(1)), float(m.group(2))
            boost = round(mhz / fraction)
            if boost_mhz and abs(boost_mhz / boost - 1.0) < 0.01:
                boost = boost_mhz  # the profile's own: the note's fraction is rounded
            measured = number(get(kernel, "counters", "clock_hz"))
            # The note rounds; the counter gives the clock the analysis used to the digit.
            if measured and round(measured / 1e6) == mhz:
                mhz = measured / 1e6
            return mhz, mhz / boost
        m = STANDS_IN.match(note)
        if m and boost_mhz:
            return float(m.group(1)), float(m.group(1)) / boost_mhz
    return None


def at_fraction(ceilings, fraction):
    """A copy of `ceilings` (ceilings_used) with the SM-side values x `fraction`: issue, pipes,
    L1 and shared rates, CUDA-core FLOPs. L2 and HBM keep theirs; tensor peaks are quoted at
    their own clock, below the boost, and are left as quoted."""
    if fraction is None:
        return ceilings
    out = dict(ceilings)
    if number(out.get("warp_gips")):
        out["warp_gips"] = out["warp_gips"] * fraction
    out["pipe_gips"] = {k: v * fraction if number(v) else v
                        for k, v in (ceilings.get("pipe_gips") or {}).items()}
    out["gtxn_per_s"] = {k: v * fraction if number(v) and k in ("l1", "shared") else v
                         for k, v in (ceilings.get("gtxn_per_s") or {}).items()}
    out["gflops"] = {k: v * fraction if number(v) and not k.startswith("tensor_") else v
                     for k, v in (ceilings.get("gflops") or {}).items()}
    return out


def roof_clock(fig, ceilings, items):
    """(`ceilings` at the clock of the first (longest-running) drawn kernel that has one, the
    footnote saying so, that clock in MHz); (ceilings, "", None) when all ran at the boost."""
    boost = getattr(fig, "irf_boost_mhz", None)
    clocks = [(it, kernel_clock(it.after, boost)) for it in items if it.after]
    chosen = next(((it, c) for it, c in clocks if c), None)
    if not chosen:
        return ceilings, "", None
    item, (mhz, fraction) = chosen
    others = [(it, c) for it, c in clocks
              if it is not item and abs((c[1] if c else 1.0) / fraction - 1.0) > SAME]
    note = (f"SM-side roofs (issue, pipes, FP, L1, shared) drawn at {mhz:.0f} MHz, kernel "
            f"{item.number}'s clock, as its roof% in the text; L2 and HBM do not scale")
    if others:
        spans = [c[0] if c else boost for _, c in others]
        span = (f"{min(spans):.0f} MHz" if max(spans) - min(spans) < 1 else
                f"{min(spans):.0f}-{max(spans):.0f} MHz") if all(spans) else "other clocks"
        note += (f"; kernel(s) {', '.join(str(it.number) for it, _ in others)} ran at {span}, "
                 "their roof% at their own clock")
    return at_fraction(ceilings, fraction), note, mhz

