# SPDX-License-Identifier: Apache-2.0
"""Reads irf.profile/v1 JSON, checks what the figures need and picks the kernels to draw."""
import bisect
import json
import re

import irf
from irf import ProfileError as PlotError  # noqa: F401 (bad input: one line, exit 2)
from irf.reader import printable
from irfplot.large import LightKernel, load_large

try:
    import re._parser as _sre_parse  # Python 3.11+
except ImportError:  # pragma: no cover - older Pythons
    import sre_parse as _sre_parse

SCHEMA = "irf.profile/v1"
LEVELS = ("l1", "l2", "hbm")
# Colour-blind-safe Okabe-Ito colours first, then the darker and lighter tab20 colours that
# differ from them: 20 distinct series, as many as --top allows; each dot also carries its
# kernel's number, so series stay tellable apart in grey print too.
PALETTE = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000",
           "#F0E442", "#8c564b", "#7f7f7f", "#bcbd22", "#9467bd", "#17becf", "#d62728",
           "#2ca02c", "#ff9896", "#c5b0d5", "#c49c94", "#aec7e8", "#98df8a"]
MAX_TOP = len(PALETTE)


def load(path, large=True):
    """The analysed profile at `path` as a dict; PlotError names the file and what is wrong.
    With `large`, a large file's kernels may be LightKernel records (irfplot.large): pass those
    drawn through drawn()."""
    doc = load_large(path) if large else None
    if doc is None:
        doc = irf.load(path)
    shown = printable(path)
    kernels = doc.get("kernels")
    if not kernels:
        raise PlotError(f"{shown}: kernels: the profile has no kernel")
    for i, k in enumerate(kernels):
        if isinstance(k, LightKernel):
            break  # made by load_large: a name each; drawn() checks those it draws
        if not isinstance(k, dict) or not isinstance(k.get("name"), str):
            raise PlotError(f"{shown}: kernels[{i}].name: expected a string")
    ceilings = doc.get("ceilings_used")
    if not isinstance(ceilings, dict) or not number(ceilings.get("warp_gips")):
        raise PlotError(f"{shown}: ceilings_used: absent; analyse the profile first "
                        "(irf-report analyze PROFILE.json --json OUT)")
    problem = shape_problem(doc)
    if problem:
        raise PlotError(f"{shown}: {problem}")
    return doc


# The containers the figures read, and their JSON type when present and not null.
DOC_SHAPE = {("gpu",): dict, ("ceilings_used", "gtxn_per_s"): dict,
             ("ceilings_used", "gflops"): dict}
KERNEL_SHAPE = {("launch",): dict, ("counters",): dict, ("time_ns",): dict, ("analysis",): dict,
                ("analysis", "irm"): dict, ("analysis", "irm", "ii"): dict,
                ("analysis", "flops"): dict, ("analysis", "flops", "ai"): dict,
                ("analysis", "walls"): dict, ("analysis", "walls", "global"): dict,
                ("analysis", "walls", "shared"): dict, ("analysis", "projection"): list}
PROJECTION_SHAPE = {("time_ns",): dict}
JSON_TYPES = {dict: "an object", list: "an array"}


def first_misfit(record, shape, where):
    """"<where>.<path>: expected an object" for the first container of the wrong type."""
    for path, kind in shape.items():
        value = get(record, *path)
        if value is not None and not isinstance(value, kind):
            return f"{where}{'.'.join(path)}: expected {JSON_TYPES[kind]}"
    return None


def kernel_problem(kernel, i):
    """What is wrong with the containers of kernels[i] that the figures read, or None."""
    problem = first_misfit(kernel, KERNEL_SHAPE, f"kernels[{i}].")
    if problem:
        return problem
    for j, p in enumerate(get(kernel, "analysis", "projection") or []):
        where = f"kernels[{i}].analysis.projection[{j}]"
        if not isinstance(p, dict):
            return f"{where}: expected an object"
        problem = first_misfit(p, PROJECTION_SHAPE, where + ".")
        if problem:
            return problem
    return None


def drawn(kernel, path):
    """The whole record of a kernel to draw: a LightKernel's, parsed and checked as load()
    checks every kernel of a file it reads whole; any other kernel as it is."""
    if not isinstance(kernel, LightKernel):
        return kernel
    full = kernel.full(printable(path))
    if not isinstance(full.get("name"), str):
        raise PlotError(f"{printable(path)}: kernels[{kernel.index}].name: expected a string")
    problem = kernel_problem(full, kernel.index)
    if problem:
        raise PlotError(f"{printable(path)}: {problem}")
    return full


def shape_problem(doc):
    """What is wrong with the containers the figures read, or None."""
    problem = first_misfit(doc, DOC_SHAPE, "")
    for i, kernel in enumerate(doc["kernels"]):
        if isinstance(kernel, LightKernel):
            break  # checked by drawn() when drawn
        problem = problem or kernel_problem(kernel, i)
        if problem:
            return problem
    return problem


def number(value):
    """`value` as a float when it is a finite positive number, else None (a JSON integer
    beyond 2^63 would otherwise reach numpy as an object and fail there)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    try:
        value = float(value)
    except OverflowError:
        return None
    return value if 0 < value < float("inf") else None


def get(obj, *keys):
    """obj[k1][k2]... or None when any step is absent or null."""
    for key in keys:
        if isinstance(obj, dict):
            obj = obj.get(key)
        elif isinstance(obj, list) and isinstance(key, int) and -len(obj) <= key < len(obj):
            obj = obj[key]
        else:
            return None
    return obj


def total_time(kernel):
    return number(get(kernel, "time_ns", "total")) or 0.0


def short_name(name, limit=38):
    """A kernel label: no return type, no parameter list, at most `limit` characters."""
    text = re.sub(r"^(void|auto|int|float|double)\s+", "", name.strip())
    depth = 0
    for i, ch in enumerate(text):
        if ch == "<":
            depth += 1
        elif ch == ">":
            depth -= 1
        elif ch == "(" and depth == 0 and i > 0:
            text = text[:i]
            break
    return plain_label(text, limit)


def plain_label(text, limit=38):
    """`text` safe to draw: control characters escaped, at most `limit` characters, and '$'
    escaped so that matplotlib never parses a name as mathtext."""
    return printable(text, limit).replace("$", r"\$")


def launch_key(kernel):
    launch = kernel.get("launch") or {}  # an object or absent (shape_problem)
    return (kernel["name"], json.dumps(launch.get("grid")), json.dumps(launch.get("block")))


# Constructs the launcher's RE2 refuses (look-around, back-references): irf-plot refuses them
# too, so that one --kernels value means the same in irf run, irf-report and irf-plot.
_NOT_RE2 = re.compile(r"\(\?<?[=!]|\\[1-9]")


def _nested_repeat(tree, inside=False):
    """True when a repeat (`+`, `*`, `{n,}`) encloses another repeat or an alternation: the
    shapes on which Python's backtracking `re` takes exponential time (`(a+)+$` ran over 60 s).
    RE2, the launcher's engine, is linear on them; refusing them keeps irf-plot bounded."""
    for op, arg in tree:
        if op in (_sre_parse.MAX_REPEAT, _sre_parse.MIN_REPEAT):
            low, high, sub = arg
            if inside and high != low:
                return True
            if _nested_repeat(sub, inside or high > 1):
                return True
        elif op is _sre_parse.BRANCH:
            if inside:
                return True
            if any(_nested_repeat(b, inside) for b in arg[1]):
                return True
        elif op is _sre_parse.SUBPATTERN:
            if _nested_repeat(arg[-1], inside):
                return True
    return False


def kernel_regex(pattern):
    """--kernels in the launcher's dialect (docs/tools.md, "Kernel regexes"): RE2 syntax, a
    leading `regex:` as in ncu accepted and ignored; None when no pattern was given."""
    if not pattern:
        return None
    body = pattern[len("regex:"):] if pattern.startswith("regex:") else pattern
    if _NOT_RE2.search(body):
        raise PlotError(f"--kernels '{printable(pattern)}': invalid RE2 regex (no look-around "
                        "or back-references)")
    try:
        regex = re.compile(body)
        nested = _nested_repeat(_sre_parse.parse(body))
    except (re.error, RecursionError, OverflowError) as e:
        raise PlotError(f"--kernels '{printable(pattern)}': not a valid regex "
                        f"({printable(e, 80)})") from None
    if nested:
        raise PlotError(f"--kernels '{printable(pattern)}': nested repetition such as (a+)+ or "
                        "(a|b)* takes exponential time in Python's re; write it without")
    return regex


def matching(kernels, pattern):
    """The kernels whose name matches --kernels (searched in its first 4096 characters, as the
    launcher does)."""
    regex = kernel_regex(pattern)
    chosen = [k for k in kernels if regex is None or regex.search(k["name"][:4096])]
    if not chosen:
        raise PlotError(f"--kernels '{printable(pattern)}': no kernel matches")
    return chosen


def select(kernels, pattern, top):
    """The `top` longest-running kernels whose name matches `pattern`."""
    chosen = matching(kernels, pattern)
    chosen.sort(key=total_time, reverse=True)
    return chosen[:top]


def conflict_rank(kernel):
    """How much a kernel's bank conflicts matter, to rank kernels for the shared-memory walls:
    total time x (1 - 1/ways), the share of its shared wavefronts that conflicts add (0 without
    conflicts). A ranking only, not a time the kernel would save."""
    ways = number(get(kernel, "analysis", "walls", "shared", "conflict_ways"))
    return total_time(kernel) * (1.0 - 1.0 / ways) if ways and ways > 1.0 else 0.0


def select_shared(kernels, pattern, top):
    """The `top` kernels the shared-memory walls show: those with shared accesses, the worst
    bank conflicts (conflict_rank) first, then by time, so a conflicted kernel outside the top
    by time is not left out."""
    chosen = [k for k in matching(kernels, pattern) if get(k, "analysis", "walls", "shared")]
    chosen.sort(key=lambda k: (-conflict_rank(k), -total_time(k)))
    return chosen[:top]


class Item:
    """One kernel drawn in a figure: its label, colour and analysed record(s).
    `before` is None outside compare mode, `after` None for a kernel that disappeared."""

    def __init__(self, label, color, after, before=None, number=0):
        self.label, self.color, self.after, self.before = label, color, after, before
        self.number = number  # drawn beside each point and in the legend (1 = longest)


def unique_labels(kernels):
    """The kernels' display names: `display_name` as irf-report computed it over the whole
    profile (common/kernel_name.hpp: distinct kernels never share one), so the figures name
    kernels as the tables do; profiles written before it existed fall back to short_name."""
    labels, seen = [], {}
    for k in kernels:
        shown = k.get("display_name")
        label = plain_label(shown, 40) if isinstance(shown, str) and shown else short_name(k["name"])
        seen[label] = seen.get(label, 0) + 1
        labels.append(label if seen[label] == 1 else f"{label} #{seen[label]}")
    return labels


def rank_note(kernel):
    """'  (ranks: max/mean 2.00)' for a kernel of a merged job profile (irf-report merge) that
    its ranks ran unevenly, so the legend shows the imbalance; '' otherwise."""
    ranks = kernel.get("ranks") if isinstance(kernel, dict) else None
    imbalance = number(ranks.get("imbalance")) if isinstance(ranks, dict) else None
    return f"  (ranks: max/mean {imbalance:.2f})" if imbalance is not None else ""


def items_for(kernels, all_kernels=None):
    """Drawable items of `kernels`, each numbered by its rank by total time among
    `all_kernels` (the whole profile, as the summary's table numbers it; ties keep file
    order), so a kernel keeps its number under --kernels and --top."""
    everything = kernels if all_kernels is None else all_kernels
    times = [total_time(k) for k in everything]
    ascending = sorted(times)
    where = {id(k): i for i, k in enumerate(everything)}

    def rank(k, fallback):
        # 1 + the kernels ahead of it: longer ones, and as long ones earlier in the file (a
        # stable sort by time, without sorting a profile of 100,000 kernels by a Python key).
        i = where.get(id(k))
        if i is None:
            return fallback
        t = times[i]
        return 1 + len(times) - bisect.bisect_right(ascending, t) + times[:i].count(t)
    return [Item(label, PALETTE[i % len(PALETTE)], k, number=rank(k, i + 1))
            for i, (label, k) in enumerate(zip(unique_labels(kernels), kernels))]


def compare_items(before_doc, after_doc, pattern, top):
    """Kernels matched by name and launch configuration (by name alone when that is unique),
    the longest-running (after) first."""
    after = select(after_doc["kernels"], pattern, len(after_doc["kernels"]))
    before = before_doc["kernels"]
    by_key = {launch_key(k): k for k in before}
    by_name = {}
    for k in before:
        by_name.setdefault(k["name"], []).append(k)
    pairs = []
    for k in after:
        match = by_key.get(launch_key(k))
        if match is None and len(by_name.get(k["name"], [])) == 1:
            match = by_name[k["name"]][0]
        if match is not None:
            pairs.append((match, k))
    if not pairs:
        raise PlotError("no kernel appears in both profiles (matched by name)")
    pairs = pairs[:top]
    labels = unique_labels([a for _, a in pairs])
    return [Item(label, PALETTE[i % len(PALETTE)], a, b, number=i + 1)
            for i, (label, (b, a)) in enumerate(zip(labels, pairs))]
