# SPDX-License-Identifier: Apache-2.0
"""Reads irf.profile/v1 JSON, checks what the figures need and picks the kernels to draw."""
import json
import re

SCHEMA = "irf.profile/v1"
LEVELS = ("l1", "l2", "hbm")
# Colour-blind-safe qualitative palette (Okabe-Ito), then matplotlib's tab10 remainder.
PALETTE = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000",
           "#8c564b", "#7f7f7f", "#bcbd22"]


class PlotError(Exception):
    """Bad input: printed as one line, exit code 2."""


def load(path):
    """The profile at `path` as a dict; PlotError names the file and what is wrong."""
    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
    except OSError as e:
        raise PlotError(f"{path}: cannot read: {e.strerror}") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise PlotError(f"{path}: not valid JSON: {e}") from None
    if not isinstance(doc, dict):
        raise PlotError(f"{path}: expected a JSON object at the top level")
    schema = doc.get("schema")
    if schema != SCHEMA:
        raise PlotError(f"{path}: schema: {json.dumps(schema)} is not \"{SCHEMA}\"")
    kernels = doc.get("kernels")
    if not isinstance(kernels, list):
        raise PlotError(f"{path}: kernels: expected an array")
    if not kernels:
        raise PlotError(f"{path}: kernels: the profile has no kernel")
    for i, k in enumerate(kernels):
        if not isinstance(k, dict) or not isinstance(k.get("name"), str):
            raise PlotError(f"{path}: kernels[{i}].name: expected a string")
    ceilings = doc.get("ceilings_used")
    if not isinstance(ceilings, dict) or not number(ceilings.get("warp_gips")):
        raise PlotError(f"{path}: ceilings_used: absent; analyse the profile first "
                        "(irf-report analyze PROFILE.json --json OUT)")
    return doc


def number(value):
    """`value` when it is a finite positive number, else None."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return value if value > 0 and value != float("inf") else None


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
    return text if len(text) <= limit else text[: limit - 1] + "\u2026"


def launch_key(kernel):
    launch = kernel.get("launch") or {}
    return (kernel["name"], json.dumps(launch.get("grid")), json.dumps(launch.get("block")))


def select(kernels, pattern, top):
    """The `top` longest-running kernels whose name matches `pattern` (Python regex search)."""
    try:
        regex = re.compile(pattern) if pattern else None
    except re.error as e:
        raise PlotError(f"--kernels '{pattern}': not a valid regex ({e})") from None
    chosen = [k for k in kernels if regex is None or regex.search(k["name"])]
    if not chosen:
        raise PlotError(f"--kernels '{pattern}': no kernel matches")
    chosen.sort(key=total_time, reverse=True)
    return chosen[:top]


class Item:
    """One kernel drawn in a figure: its label, colour and analysed record(s).
    `before` is None outside compare mode, `after` None for a kernel that disappeared."""

    def __init__(self, label, color, after, before=None):
        self.label, self.color, self.after, self.before = label, color, after, before


def unique_labels(kernels):
    labels, seen = [], {}
    for k in kernels:
        label = short_name(k["name"])
        seen[label] = seen.get(label, 0) + 1
        labels.append(label if seen[label] == 1 else f"{label} #{seen[label]}")
    return labels


def items_for(kernels):
    return [Item(label, PALETTE[i % len(PALETTE)], k)
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
    return [Item(label, PALETTE[i % len(PALETTE)], a, b)
            for i, (label, (b, a)) in enumerate(zip(labels, pairs))]
