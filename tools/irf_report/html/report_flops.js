// SPDX-License-Identifier: Apache-2.0
// irf's HTML report, part 3 of 5: the hierarchical FLOP roofline per precision (HRM Fig. 1-3),
// the projection per target with its interval (PROJ Eq. 9), NVTX regions, scaling trajectories
// and the per-rank spread of a merged job.
"use strict";

IRF.PRECISION_NAMES = { fp64: "FP64", fp32: "FP32", fp16: "FP16" };

IRF.precisionName = (p) => IRF.PRECISION_NAMES[p] ||
  (p.startsWith("tensor_") ? "Tensor Core " + p.slice(7).toUpperCase() : p);

// The precisions some kernel has FLOPs in, CUDA cores first.
IRF.precisions = () => {
  const seen = new Set();
  for (const k of IRF.kernels) for (const p of Object.keys(k.flops || {})) seen.add(p);
  const order = ["fp64", "fp32", "fp16"];
  return [...seen].sort((a, b) => (order.indexOf(a) + 1 || 9) - (order.indexOf(b) + 1 || 9) ||
    a.localeCompare(b));
};

IRF.drawFlopRoofline = (precision) => {
  const c = IRF.ceilings(), rates = c.gtxn_per_s || {}, gflops = c.gflops || {};
  const name = IRF.precisionName(precision);
  const shown = IRF.plotlyText(name); // the name in Plotly's text; the page's own text takes it raw
  const peaks = precision.startsWith("tensor_") ? [[gflops[precision], "dense peak", "solid"]]
    : [[gflops[precision + "_fma"], "FMA peak", "solid"], [gflops[precision + "_nofma"], "no-FMA peak", "dash"]];
  const points = [];
  for (const k of IRF.kernels) {
    const f = (k.flops || {})[precision];
    if (!f || !(f[0] > 0)) continue;
    IRF.LEVELS.forEach((lv, i) => {
      if (f[1 + i] > 0) points.push({ k, lv, x: f[1 + i], y: f[0], extra: [shown + " " +
        IRF.formatNumber(f[0]) + " GFLOP/s, AI " + IRF.LEVEL_NAMES[lv] + " " +
        IRF.formatNumber(f[1 + i]) + " FLOP/B, kernel ceiling " + IRF.formatNumber(f[4]) + " GFLOP/s"] });
    });
  }
  if (!points.length) return null;
  // The element id and its link: irf's precision names as they are, any other by its position.
  const id = "flops-" + (/^[a-z0-9_]+$/.test(precision) ? precision
    : "p" + IRF.precisions().indexOf(precision));
  const div = IRF.addFigure(id, name + " FLOP roofline", "Hierarchical FLOP roofline (HRM): " +
    "each kernel in its colour at its L1 (circle), L2 (square) and HBM (triangle) arithmetic intensity; " +
    "solid: FMA peak, dashed: no-FMA peak. Click a point to select its kernel.");
  const top = Math.max(...peaks.map(([v]) => v || 0));
  const bw = IRF.LEVELS.filter((lv) => rates[lv] > 0).map((lv) => [lv, rates[lv] * 32]);
  const xRange = IRF.logRange(points.map((p) => p.x).concat(bw.map(([, r]) => top / r).filter((v) => v > 0)));
  const yRange = IRF.logRange(points.map((p) => p.y).concat(top > 0 ? [top] : []), 4);
  const annotations = [], traces = [];
  if (top > 0) {
    for (const [lv, r] of bw) traces.push(IRF.bandwidthCeiling(top, r, IRF.LEVEL_NAMES[lv] + " " +
      IRF.formatNumber(r, 4) + " GB/s", xRange, annotations));
    for (const [v, label, dash] of peaks) if (v > 0) traces.push(IRF.peakLine(v, label + " " +
      IRF.formatNumber(v, 4) + " GFLOP/s" + (/tensor/i.test(label) ? "" : IRF.atClock()), xRange,
      annotations, dash));
  }
  const type = points.length > IRF.WEBGL_POINTS ? "scattergl" : "scatter";
  for (const lv of IRF.LEVELS) {
    traces.push(...IRF.pointTraces(IRF.LEVEL_NAMES[lv], points.filter((p) => p.lv === lv),
      { symbol: IRF.LEVEL_SYMBOLS[lv], size: IRF.LEVEL_SIZES[lv], line: { color: "#fff", width: 0.5 } }, type));
  }
  traces.push(...IRF.kernelLegend(points, IRF.LEVELS.map((lv) => [IRF.LEVEL_NAMES[lv] +
    " intensity", IRF.LEVEL_SYMBOLS[lv]])));
  const layout = { title: { text: shown + " FLOP roofline" },
    xaxis: IRF.logAxis("arithmetic intensity (FLOP per byte)", xRange),
    yaxis: IRF.logAxis("performance (GFLOP/s)", yRange), annotations };
  const pointsOf = (row) => {
    const f = (IRF.kernels[row].flops || {})[precision];
    return f ? IRF.LEVELS.map((lv, i) => [f[1 + i], f[0]]) : [];
  };
  return IRF.plot(div, traces, layout, pointsOf, points.length);
};

IRF.TARGET_COLORS = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442",
  "#000000", "#999999", "#882255", "#44AA99", "#117733"];

IRF.drawProjection = () => {
  const rows = IRF.data.projection.map(([row, target, low, point, high, confidence, here, there]) =>
    ({ k: IRF.kernels[row], target, low, point, high, confidence, here, there }));
  if (!rows.length) return null;
  const div = IRF.addFigure("projection", "Projection", "Projected speedup of the " +
    "longest-running kernels on each target GPU: dot = point estimate, bar = interval (PROJ " +
    "Eq. 9), hollow = low confidence. Click a dot to select its kernel.");
  const targets = [...new Set(rows.map((r) => r.target))].sort();
  const traces = targets.map((target, i) => {
    const mine = rows.filter((r) => r.target === target);
    const trace = IRF.pointTrace(IRF.plotlyText(target), mine.map((r) => ({ k: r.k, x: r.point,
      y: IRF.plotlyText(r.k.label), extra: [IRF.plotlyText(target) + ": " + IRF.formatNumber(r.point) +
        "x [" + IRF.formatNumber(r.low) + "x, " + IRF.formatNumber(r.high) + "x], confidence " +
        IRF.plotlyText(r.confidence) + ", bound " + IRF.plotlyText(r.here || "-") + " here, " +
        IRF.plotlyText(r.there || "-") + " there"] })),
      { color: IRF.TARGET_COLORS[i % IRF.TARGET_COLORS.length], size: 9,
        symbol: mine.map((r) => (r.confidence === "high" ? "circle" : "circle-open")) }, "scatter");
    trace.error_x = { type: "data", symmetric: false, array: mine.map((r) => r.high - r.point),
      arrayminus: mine.map((r) => r.point - r.low), thickness: 1.2, width: 3 };
    trace.showlegend = true; // one entry per target
    return trace;
  });
  const labels = [...new Set(rows.map((r) => IRF.plotlyText(r.k.label)))];
  const xs = rows.map((r) => r.low).concat(rows.map((r) => r.high), [1]);
  const layout = { title: { text: "Projected speedup per target" },
    xaxis: IRF.logAxis("speedup over the profiled GPU", IRF.logRange(xs, 1.5)),
    yaxis: { type: "category", autorange: "reversed", categoryarray: labels, automargin: true },
    shapes: [{ type: "line", x0: 1, x1: 1, yref: "paper", y0: 0, y1: 1, line: { color: "#888", dash: "dot" } }],
    // A phone stacks the targets' legend one per line below the figure.
    height: Math.max(400, 80 + 28 * labels.length) + (IRF.narrow() ? 19 * targets.length + 40 : 0) };
  div.style.height = layout.height + "px";
  const pointsOf = (row) => rows.filter((r) => r.k.row === row).map((r) => [r.point, IRF.plotlyText(r.k.label)]);
  return IRF.plot(div, traces, layout, pointsOf, rows.length);
};

// The level a region is drawn at: the memory level holding most of its time, else HBM, L2, L1
// (irf-plot's regions, docs/regions.md).
IRF.regionPoints = () => IRF.data.regions.slice(0, 20).map(([path, time, , , gips, l1, l2, hbm, shares], i) => {
  const ii = { l1, l2, hbm };
  const measured = ["hbm", "l2", "l1"].filter((lv) => ii[lv] > 0);
  const bound = measured.filter((lv) => (shares || {})[lv] > 0)
    .sort((a, b) => shares[b] - shares[a])[0];
  const level = bound || measured[0];
  return level && gips > 0 ? { x: ii[level], y: gips, path, time, level, number: "R" + (i + 1) } : null;
}).filter((r) => r);

IRF.regionTrace = (regions) => {
  const longest = Math.max(...regions.map((r) => r.time));
  return { type: "scatter", mode: "markers+text", name: "NVTX regions", x: regions.map((r) => r.x),
    y: regions.map((r) => r.y), text: regions.map((r) => r.number), textposition: "top right",
    marker: { symbol: "diamond", color: "rgba(120,60,140,0.35)", line: { color: "#7f3c8d", width: 1.5 },
      size: regions.map((r) => 12 + 22 * Math.sqrt(r.time / longest)) },
    hovertext: regions.map((r) => r.number + " " + IRF.plotlyText(r.path) + "<br>time " +
      IRF.formatTime(r.time) + ", " + IRF.LEVEL_NAMES[r.level] + " II " + IRF.formatNumber(r.x) +
      ", warp GIPS " + IRF.formatNumber(r.y)),
    hovertemplate: "%{hovertext}<extra></extra>" };
};

// A trajectory verdict (docs/trajectories.md) in words: its kind and its reason (which gives
// the speedup and efficiency).
IRF.verdictText = (v) => (v && typeof v === "object"
  ? IRF.plotlyText((v.kind || "-") + (v.reason ? ": " + v.reason : "")) : "-");

IRF.drawTrajectories = () => {
  const list = (IRF.data.trajectory || []).slice(0, 20);
  const points = list.reduce((n, t) => n + t.points.length, 0);
  if (!points) return null;
  const div = IRF.addFigure("trajectory", "Trajectories", "Each kernel's Instruction Roofline " +
    "point (HBM intensity, warp GIPS) at every SM count of irf trajectory, labelled with the " +
    "SMs; the verdict is in the hover (docs/trajectories.md).");
  const traces = list.map((t, i) => {
    const k = t.row === null ? null : IRF.kernels[t.row];
    const label = IRF.plotlyText(k ? k.label : t.name);
    const ii = (p) => (p.ii || {}).hbm || (p.ii || {}).l2 || (p.ii || {}).l1;
    return { type: "scatter", mode: "lines+markers+text", name: label,
      x: t.points.map(ii), y: t.points.map((p) => p.gips_warp),
      text: t.points.map((p) => IRF.plotlyText(p.sms)),
      textposition: "top center", customdata: t.points.map(() => t.row),
      marker: { color: IRF.TARGET_COLORS[i % IRF.TARGET_COLORS.length], size: 8 },
      hovertext: t.points.map((p) => "<b>" + label + "</b><br>" + IRF.plotlyText(p.sms) + " SMs, " +
        IRF.formatTime(p.time_ns) + ", warp GIPS " + IRF.formatNumber(p.gips_warp) + "<br>verdict " +
        IRF.verdictText(t.verdict)),
      hovertemplate: "%{hovertext}<extra></extra>" };
  });
  const all = [].concat(...list.map((t) => t.points));
  const layout = { title: { text: "Scaling trajectories" },
    xaxis: IRF.logAxis("HBM instruction intensity (warp instructions per 32-byte transaction)",
      IRF.logRange(all.map((p) => (p.ii || {}).hbm || (p.ii || {}).l2 || (p.ii || {}).l1))),
    yaxis: IRF.logAxis("warp GIPS", IRF.logRange(all.map((p) => p.gips_warp))) };
  const pointsOf = (row) => [].concat(...list.filter((t) => t.row === row).map((t) =>
    t.points.map((p) => [(p.ii || {}).hbm || (p.ii || {}).l2 || (p.ii || {}).l1, p.gips_warp])));
  return IRF.plot(div, traces, layout, pointsOf, points);
};

IRF.drawRanks = () => {
  const rows = IRF.data.ranks;
  if (!rows.length) return null;
  const div = IRF.addFigure("ranks", "Per-rank spread", "Time of each rank for the " +
    "longest-running kernels of the merged job (irf-report merge); imbalance = max / mean.");
  const points = [];
  for (const [row, imbalance, slowest, perRank] of rows) {
    const k = IRF.kernels[row];
    for (const [rank, time] of perRank) points.push({ k, x: IRF.plotlyText(k.label), y: time,
      extra: ["rank " + IRF.plotlyText(rank) + ": " + IRF.formatTime(time) + (rank === slowest ? " (slowest)" : ""),
        "imbalance " + IRF.formatNumber(imbalance)] });
  }
  const trace = IRF.pointTrace("rank time", points, { size: 8, color: "#0072B2", opacity: 0.7 }, "scatter");
  const layout = { title: { text: "Per-rank time of each kernel" },
    xaxis: { type: "category", automargin: true },
    yaxis: { title: { text: "time per rank (ns)" }, rangemode: "tozero" } };
  const pointsOf = (row) => points.filter((p) => p.k.row === row).map((p) => [p.x, p.y]);
  return IRF.plot(div, [trace], layout, pointsOf, points.length);
};
