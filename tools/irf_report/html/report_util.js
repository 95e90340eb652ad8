// SPDX-License-Identifier: Apache-2.0
// irf's HTML report, part 1 of 5: the page's data, formatting as irf's tools print it, safe DOM
// building, the kernel regex of the launcher's dialect, and the selection every part follows.
"use strict";

const IRF = {};

// When each step finished (ms since navigation start), for the readiness benchmark
// (docs/performance.md, "HTML report"): the library parsed, the data read, figures, table.
IRF.timings = { scripts: performance.now() };

// The data block is JSON, never script: names in it are data whatever they contain.
IRF.data = JSON.parse(document.getElementById("irf-data").textContent);

// One object per kernel row (longest first), keys from the column list the C++ side wrote.
IRF.kernels = IRF.data.kernels.map((values, row) => {
  const kernel = { row };
  IRF.data.columns.forEach((name, i) => { kernel[name] = values[i]; });
  return kernel;
});

IRF.LEVELS = ["l1", "l2", "hbm"];
IRF.LEVEL_NAMES = { l1: "L1", l2: "L2", hbm: "HBM", shared: "Shared" };
IRF.LEVEL_SYMBOLS = { l1: "circle", l2: "square", hbm: "triangle-up" };
IRF.LEVEL_COLORS = { l1: "#0072B2", l2: "#009E73", hbm: "#D55E00" };
// Levels of one kernel often share a spot: the larger marker behind shows as a ring around the
// smaller one in front (irf-plot nests them the same way).
IRF.LEVEL_SIZES = { l1: 15, l2: 11, hbm: 8 };

// Durations as every irf tool prints them (docs/tools.md "Units"): three significant digits in
// the largest of ns, us, ms, s that keeps the value at 1 or more once rounded.
IRF.formatTime = (ns) => {
  if (ns === null || ns === undefined || !isFinite(ns)) return "-";
  const units = [["s", 1e9], ["ms", 1e6], ["us", 1e3], ["ns", 1]];
  for (const [name, scale] of units) {
    const value = Number((ns / scale).toPrecision(3));
    if (Math.abs(value) >= 1 || name === "ns") return IRF.formatNumber(value) + " " + name;
  }
  return "-";
};

// A number with 3 significant digits (as %g), or "-" when absent.
IRF.formatNumber = (v, digits = 3) => {
  if (v === null || v === undefined || !isFinite(v)) return "-";
  if (v === 0) return "0";
  const abs = Math.abs(v);
  if (abs >= 1e6 || abs < 1e-3) return v.toExponential(digits - 1);
  return String(Number(v.toPrecision(digits)));
};

IRF.formatPercent = (share) => (share === null || share === undefined ? "-"
  : IRF.formatNumber(100 * share) + "%");

// Plotly reads hover text, tick labels and titles as a small HTML dialect, so text from the
// profile is entity-escaped before it goes there (Plotly shows &amp; &lt; &gt; as characters;
// quotes need no escape once no tag can open, and Plotly would show &quot; as typed).
IRF.plotlyText = (text) => String(text).replace(/&/g, "&amp;").replace(/</g, "&lt;")
  .replace(/>/g, "&gt;");

// A word for a POSIX shell: single-quoted, each ' written '\'' (a path or name from the profile
// pasted into a terminal stays one argument and runs nothing).
IRF.shellQuote = (text) => "'" + String(text).replace(/'/g, "'\\''") + "'";

// Elements are built with textContent only: nothing from the profile is ever parsed as HTML.
IRF.el = (tag, props = {}, children = []) => {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (key === "text") node.textContent = value;
    else if (key === "className") node.className = value;
    else if (key === "dataset") Object.assign(node.dataset, value);
    else node.setAttribute(key, value);
  }
  for (const child of children) if (child) node.appendChild(child);
  return node;
};

// The launcher's dialect (RE2, as irf run -k and irf-plot -k): a leading "regex:" is ignored;
// look-around and back-references, which RE2 refuses, are refused here too. Returns
// {regex} or {error}.
IRF.kernelRegex = (text) => {
  const pattern = text.startsWith("regex:") ? text.slice(6) : text;
  if (/\(\?<?[=!]/.test(pattern)) return { error: "look-around is not RE2 syntax" };
  if (/\\[1-9]|\\k</.test(pattern)) return { error: "back-references are not RE2 syntax" };
  try {
    return { regex: new RegExp(pattern) };
  } catch (e) {
    return { error: "invalid regex: " + e.message };
  }
};

// Names are matched on their first 4096 characters, as in every irf tool.
IRF.nameMatches = (regex, kernel) => regex.test(kernel.name.slice(0, 4096));

// Selection: a kernel row chosen in a figure or the table; every part registers a listener.
IRF.selected = null;
IRF.listeners = [];
IRF.onSelect = (listener) => IRF.listeners.push(listener);
IRF.select = (row) => {
  if (row === null || row === undefined || !IRF.kernels[row]) return;
  IRF.selected = row;
  for (const listener of IRF.listeners) listener(row);
};

// The hover text of a kernel: its readable name (as the tables show it), time share, GIPS,
// intensities and bound, made once per kernel; `extra` lines (the point's own) come last.
IRF.kernelHover = (k, extra = []) => {
  if (k.hover === undefined) {
    k.hover = ["<b>" + IRF.plotlyText(k.label) + "</b>",
      k.time === null ? "time not in the file" :
        "time " + IRF.formatTime(k.time) + " (" + IRF.formatPercent(k.share) + " of kernel time)",
      "warp GIPS " + IRF.formatNumber(k.gips_warp) + ", thread GIPS " + IRF.formatNumber(k.gips_thread),
      "II (warp inst / 32-B txn) L1 " + IRF.formatNumber(k.ii_l1) + ", L2 " +
        IRF.formatNumber(k.ii_l2) + ", HBM " + IRF.formatNumber(k.ii_hbm),
      "bound " + IRF.plotlyText(k.bound || "undecided") +
        (k.roof_pct === null ? "" : " at " + IRF.formatNumber(k.roof_pct) + "% of roofline"),
    ].join("<br>");
  }
  return extra.length ? k.hover + "<br>" + extra.join("<br>") : k.hover;
};

IRF.timings.data = performance.now();

// Peak warp GIPS and per-level GTXN/s of the ceilings the profile was analysed with.
IRF.ceilings = () => (IRF.data.header.ceilings_used || {});
// Why the Instruction Roofline has no point, as the profile says: kernels with counters give
// the analysis's reason; "timing-only" (--samples 0) only for a run of irf, an import whose
// files had no counters says so (issue 53 item 7).
IRF.noPointsReason = () => {
  const why = {};
  for (const k of IRF.kernels) if (k.irm_missing) (why[k.irm_missing] = why[k.irm_missing] || []).push(k.label);
  const reasons = Object.entries(why).map(([r, labels]) => "kernel(s) " +
    IRF.plotlyText(labels.slice(0, 3).join(", ")) + (labels.length > 3 ? " and " +
    (labels.length - 3) + " more" : "") + ": " + IRF.plotlyText(r));
  if (reasons.length) return "no Instruction Roofline point: " + reasons.join("; ");
  return IRF.data.header.import ? "no kernel has Instruction Roofline counters: the imported " +
    "files have none (durations only)" :
    "no kernel has Instruction Roofline counters (a timing-only profile: --samples 0)";
};
