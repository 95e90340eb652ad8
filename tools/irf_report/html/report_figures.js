// SPDX-License-Identifier: Apache-2.0
// irf's HTML report, part 2 of 5: the figure machinery (one Plotly figure per div, a ring on
// the selected kernel, click to select) and the Instruction Roofline and memory-wall figures of
// IRM Fig. 2-5 (docs/model.md), as irf-plot draws them.
"use strict";

IRF.figures = [];
// Past this many points a figure draws with WebGL, which keeps 10,000 kernels interactive.
IRF.WEBGL_POINTS = 2000;

IRF.CEILING_LINE = { color: "#444444", width: 1.4 };

// A titled figure block in the figures section; returns the div Plotly draws into.
IRF.addFigure = (id, title, caption) => {
  const plot = IRF.el("div", { id: "fig-" + id, className: "plot" });
  const block = IRF.el("div", { className: "figure", id: "figure-" + id }, [
    plot, IRF.el("p", { className: "caption", text: caption })]);
  document.getElementById("figures").appendChild(block);
  IRF.navLink("figure-" + id, title);
  return plot;
};

// Figures' links come first, then the table's and the regions' (figures are drawn later).
IRF.navLink = (anchor, text, group = "nav-figures") => {
  document.getElementById(group).appendChild(IRF.el("a", { href: "#" + anchor, text }));
};

// [low, high] in log10 units around the positive values, `pad` times wider on each side.
IRF.logRange = (values, pad = 3) => {
  const good = values.filter((v) => v > 0 && isFinite(v));
  const low = good.length ? Math.min(...good) : 0.01;
  const high = good.length ? Math.max(...good) : 100;
  return [Math.log10(low / pad), Math.log10(high * pad)];
};

IRF.logAxis = (title, range) => ({ type: "log", title: { text: title }, range,
  gridcolor: "#e5e5e5", zeroline: false, exponentformat: "power" });

// y = min(peak, x * rate) across the x range (a ceiling with its ridge point), and its label.
IRF.bandwidthCeiling = (peak, rate, label, xRange, annotations) => {
  const x0 = 10 ** xRange[0], x1 = 10 ** xRange[1];
  const ridge = Math.min(Math.max(peak / rate, x0), x1);
  const xs = [x0, ridge, x1];
  const labelX = Math.max(peak / rate / 30, x0 * 1.5);
  annotations.push({ x: Math.log10(labelX), y: Math.log10(labelX * rate), text: label,
    showarrow: false, xanchor: "left", yanchor: "bottom", font: { size: 10, color: "#444" } });
  return { type: "scatter", mode: "lines", x: xs, y: xs.map((x) => Math.min(peak, x * rate)),
    line: IRF.CEILING_LINE, hoverinfo: "skip", showlegend: false };
};

// A horizontal peak across the x range, labelled at its right end.
IRF.peakLine = (peak, label, xRange, annotations, dash = "solid") => {
  annotations.push({ x: xRange[1], y: Math.log10(peak), text: label, showarrow: false,
    xanchor: "right", yanchor: "bottom", font: { size: 10, color: "#444" } });
  return { type: "scatter", mode: "lines", x: [10 ** xRange[0], 10 ** xRange[1]], y: [peak, peak],
    line: Object.assign({ dash }, IRF.CEILING_LINE), hoverinfo: "skip", showlegend: false };
};

// A trace of kernel points: `points` are {k, x, y, extra}; customdata holds the kernel row so a
// click selects it. `type` switches to WebGL when the figure holds many points.
IRF.pointTrace = (name, points, marker, type) => ({
  type, mode: "markers", name, x: points.map((p) => p.x), y: points.map((p) => p.y),
  customdata: points.map((p) => p.k.row), marker,
  hovertext: points.map((p) => IRF.kernelHover(p.k, p.extra || [])),
  hovertemplate: "%{hovertext}<extra></extra>",
});

// Draws a figure: `traces` (kernel traces have customdata rows), `pointsOf(row)` -> the [x, y]
// pairs of that kernel (the selection ring), `count` kernel points for the tests and readers.
IRF.plot = (div, traces, layout, pointsOf, count) => {
  traces.push({ type: "scatter", mode: "markers", name: "selected", x: [], y: [],
    marker: { size: 20, color: "rgba(0,0,0,0)", line: { color: "#000", width: 2.5 } },
    hoverinfo: "skip", showlegend: false });
  div.dataset.points = String(count);
  const figure = { div, ring: traces.length - 1, pointsOf };
  IRF.figures.push(figure);
  const fullLayout = Object.assign({ margin: { l: 70, r: 20, t: 40, b: 60 }, hovermode: "closest",
    legend: { orientation: "h", y: -0.16 }, plot_bgcolor: "#fff" }, layout);
  const start = performance.now();
  return Plotly.newPlot(div, traces, fullLayout, { displaylogo: false, responsive: true })
    .then(() => {
      IRF.timings[div.id] = [Math.round(start), Math.round(performance.now())];
      if (IRF.selected !== null) IRF.ring(figure, IRF.selected);
      div.on("plotly_click", (event) => {
        const hit = event.points.find((p) => p.customdata !== undefined && p.customdata !== null);
        if (hit) IRF.select(hit.customdata);
      });
    });
};

// A point the ring can be drawn on: both coordinates present, numbers positive (log axes).
IRF.drawable = (p) => p.every((v) => (typeof v === "number" ? v > 0 : v !== null && v !== undefined));

// The ring around the selected kernel's points in `figure`.
IRF.ring = (figure, row) => {
  const pts = figure.pointsOf(row).filter(IRF.drawable);
  Plotly.restyle(figure.div, { x: [pts.map((p) => p[0])], y: [pts.map((p) => p[1])] }, [figure.ring]);
};

IRF.onSelect((row) => {
  for (const f of IRF.figures) IRF.ring(f, row);
});

// A kernel's Instruction Roofline dot at `level`: thread instructions / 32 for intensity and
// GIPS (IRM 3.2), else the warp-based point; null when the level has no intensity.
IRF.irmPoint = (k, level) => {
  if (k["iit_" + level] > 0 && k.gips_thread > 0) return [k["iit_" + level], k.gips_thread];
  if (k["ii_" + level] > 0 && k.gips_warp > 0) return [k["ii_" + level], k.gips_warp];
  return null;
};

// The busiest pipe's own point: the warp-based L1 point scaled by the pipe's share of the
// kernel's instructions (docs/model.md, "Pipe sub-ceilings"), or null.
IRF.pipePoint = (k) => {
  if (!k.pipe || !(k.gips_warp > 0)) return null;
  const level = IRF.LEVELS.find((lv) => k["ii_" + lv] > 0);
  if (!level) return null;
  const share = k.pipe[1] / k.gips_warp;
  return [k["ii_" + level] * share, k.pipe[1]];
};

IRF.drawInstructionRoofline = () => {
  const c = IRF.ceilings();
  const peak = c.warp_gips, rates = c.gtxn_per_s || {};
  if (!(peak > 0)) return null;
  const div = IRF.addFigure("irm", "Instruction Roofline",
    "Each kernel at its L1 (circle), L2 (square) and HBM (triangle) instruction intensity; " +
    "hollow: the warp-based point of a predicated kernel; pentagon: its busiest pipe with that " +
    "pipe's peak dashed; diamonds: NVTX regions. Hover for the kernel, click to select it.");
  const solid = { l1: [], l2: [], hbm: [] }, warp = { l1: [], l2: [], hbm: [] }, pipes = [];
  for (const k of IRF.kernels) {
    for (const lv of IRF.LEVELS) {
      const p = IRF.irmPoint(k, lv);
      if (!p) continue;
      solid[lv].push({ k, x: p[0], y: p[1], extra: [IRF.LEVEL_NAMES[lv] + " point"] });
      const w = [k["ii_" + lv], k.gips_warp];
      if (w[0] > 0 && p[1] < 0.98 * w[1]) {
        warp[lv].push({ k, x: w[0], y: w[1], extra: ["warp-based " + IRF.LEVEL_NAMES[lv] +
          " point (active threads " + IRF.formatPercent(k.predication) + ")"] });
      }
    }
    const pp = IRF.pipePoint(k);
    if (pp) pipes.push({ k, x: pp[0], y: pp[1], extra: ["busiest pipe " + IRF.plotlyText(k.pipe[0]) + ": " +
      IRF.formatNumber(k.pipe[2]) + "% of its peak"] });
  }
  const all = [].concat(...IRF.LEVELS.map((lv) => solid[lv]));
  const count = all.length;
  const type = count > IRF.WEBGL_POINTS ? "scattergl" : "scatter";
  const ridges = IRF.LEVELS.filter((lv) => rates[lv] > 0).map((lv) => peak / rates[lv]);
  const regions = IRF.regionPoints();
  const xRange = IRF.logRange(all.map((p) => p.x).concat(ridges, regions.map((r) => r.x)));
  const yRange = IRF.logRange(all.map((p) => p.y).concat([peak], pipes.map((p) => p.y)), 4);
  yRange[1] = Math.max(yRange[1], Math.log10(peak * 3));
  // Kernels with intensities but no GIPS have counters and no time (an import without a
  // duration): that is what the page says, not "timing-only".
  const untimed = IRF.kernels.filter((k) => k.time === null &&
    IRF.LEVELS.some((lv) => k["ii_" + lv] > 0 || k["iit_" + lv] > 0)).length;
  const left = untimed ? untimed + " kernel(s) with counters but no time in the file, so no " +
    "GIPS: not drawn" : "";
  const annotations = count && !left ? [] : [{ xref: "paper", yref: "paper", x: 0.5,
    y: count ? 0.02 : 0.3, showarrow: false, font: { size: 13, color: "#666" },
    text: count ? left : left || IRF.noPointsReason() }];
  const traces = IRF.LEVELS.filter((lv) => rates[lv] > 0).map((lv) => IRF.bandwidthCeiling(peak,
    rates[lv], IRF.LEVEL_NAMES[lv] + " " + IRF.formatNumber(rates[lv], 4) + " GTXN/s", xRange,
    annotations));
  traces.push(IRF.peakLine(peak, "peak " + IRF.formatNumber(peak, 4) + " warp GIPS", xRange,
    annotations));
  // Pipes of one peak share one dashed line (int32 and fp64 on an H100).
  const pipesByPeak = {};
  for (const [name, gips] of Object.entries(c.pipe_gips || {})) {
    if (gips < 0.999 * peak) (pipesByPeak[gips] = pipesByPeak[gips] || []).push(name);
  }
  for (const [gips, names] of Object.entries(pipesByPeak)) {
    traces.push(IRF.peakLine(Number(gips), IRF.plotlyText(names.join(", ")) + (names.length > 1 ? " pipes " : " pipe ") +
      IRF.formatNumber(Number(gips), 4) + " warp GIPS", xRange, annotations, "dash"));
  }
  for (const lv of IRF.LEVELS) {
    traces.push(IRF.pointTrace(IRF.LEVEL_NAMES[lv], solid[lv], { symbol: IRF.LEVEL_SYMBOLS[lv],
      size: IRF.LEVEL_SIZES[lv], color: IRF.LEVEL_COLORS[lv], line: { color: "#fff", width: 0.5 } }, type));
  }
  for (const lv of IRF.LEVELS) {
    if (warp[lv].length) traces.push(IRF.pointTrace(IRF.LEVEL_NAMES[lv] + " warp-based",
      warp[lv], { symbol: IRF.LEVEL_SYMBOLS[lv] + "-open", size: IRF.LEVEL_SIZES[lv], color: IRF.LEVEL_COLORS[lv] },
      type));
  }
  if (pipes.length) traces.push(IRF.pointTrace("busiest pipe", pipes,
    { symbol: "pentagon-open", size: 9, color: "#555" }, type));
  if (regions.length) traces.push(IRF.regionTrace(regions));
  const layout = { title: { text: "Instruction Roofline (" + IRF.plotlyText(c.name || "") + ")" },
    xaxis: IRF.logAxis("instruction intensity ((thread instructions / 32) per 32-byte " +
      "transaction)", xRange),
    yaxis: IRF.logAxis("performance (thread instructions / 32, GIPS)", yRange), annotations };
  const pointsOf = (row) => {
    const k = IRF.kernels[row];
    return IRF.LEVELS.map((lv) => IRF.irmPoint(k, lv)).filter((p) => p);
  };
  return IRF.plot(div, traces, layout, pointsOf, count);
};

// The walls of IRM Fig. 3-4: a pattern per intensity, drawn as vertical dashed lines.
IRF.WALLS = {
  global: [[1, "stride-0"], [1 / 4, "unit stride (4-byte)"], [1 / 8, "unit stride (8-byte)"],
    [1 / 32, "stride \u2265 8 / gather"]],
  shared: [[1, "no bank conflict"], [1 / 32, "32-way bank conflict"]],
};

// The walls of the kernels' own access widths (a float4 copy's unit wall at 1/16) unless a
// fixed wall stands within 2%; at most 6, longest kernels first.
IRF.kernelWalls = (wall, fixed) => {
  const key = wall === "global" ? "gw_unit" : "sw_free";
  const text = wall === "global" ? "unit stride" : "no bank conflict";
  const out = [];
  for (const k of IRF.kernels) {
    const x = k[key], width = k[wall === "global" ? "gw_bytes" : null];
    if (!(x > 0) || out.length >= 6) continue;
    if (fixed.concat(out).every(([w]) => Math.abs(x / w - 1) > 0.02)) {
      out.push([x, text + (width ? " (" + IRF.formatNumber(width, 2) + "-byte)" : "")]);
    }
  }
  return out;
};

IRF.drawWalls = (wall) => {
  const c = IRF.ceilings();
  const peak = c.warp_gips, rate = (c.gtxn_per_s || {})[wall === "global" ? "l1" : "shared"];
  const ii = wall === "global" ? "gw_ii" : "sw_ii", gips = wall === "global" ? "gw_gips" : "sw_gips";
  const open = IRF.kernels.filter((k) => k[ii] > 0 && k[gips] > 0).map((k) => ({ k, x: k[ii],
    y: k[gips], extra: [wall + " ld/st per transaction " + IRF.formatNumber(k[ii]) + ": " +
      (wall === "global" ? IRF.plotlyText(k.gw_pattern || "-") : IRF.formatNumber(k.sw_ways) + "-way")] }));
  if (!(peak > 0) || !open.length) return null;
  const div = IRF.addFigure(wall + "-walls", wall === "global" ? "Global walls" : "Shared walls",
    (wall === "global" ? "Global load/store instructions per L1 sector against the stride walls" +
      "; filled: all instructions at L1 intensity (IRM Fig. 3)."
      : "Shared load/store instructions per wavefront against the bank-conflict walls (IRM " +
      "Fig. 4).") + " Open dot per kernel; click to select.");
  const walls = IRF.WALLS[wall].concat(IRF.kernelWalls(wall, IRF.WALLS[wall]));
  const filled = wall === "global" ? IRF.kernels.filter((k) => k.ii_l1 > 0 && k.gips_warp > 0)
    .map((k) => ({ k, x: k.ii_l1, y: k.gips_warp, extra: ["all instructions, L1 intensity"] })) : [];
  const type = open.length + filled.length > IRF.WEBGL_POINTS ? "scattergl" : "scatter";
  const xRange = IRF.logRange(open.map((p) => p.x).concat(walls.map(([w]) => w), filled.map((p) => p.x)));
  const yRange = IRF.logRange(open.map((p) => p.y).concat([peak], filled.map((p) => p.y)), 6);
  yRange[1] = Math.max(yRange[1], Math.log10(peak * 3));
  const annotations = [], traces = [];
  if (rate > 0) traces.push(IRF.bandwidthCeiling(peak, rate, IRF.LEVEL_NAMES[wall === "global" ?
    "l1" : "shared"] + " " + IRF.formatNumber(rate, 4) + " GTXN/s", xRange, annotations));
  traces.push(IRF.peakLine(peak, "peak " + IRF.formatNumber(peak, 4) + " warp GIPS", xRange, annotations));
  for (const [x, label] of walls) {
    traces.push({ type: "scatter", mode: "lines", x: [x, x], y: [10 ** yRange[0], 10 ** yRange[1]],
      line: { color: "#B22222", dash: "dash", width: 1.1 }, hoverinfo: "skip", showlegend: false });
    annotations.push({ x: Math.log10(x), y: yRange[0], text: label, textangle: -90,
      showarrow: false, xanchor: "left", yanchor: "bottom", font: { size: 10, color: "#B22222" } });
  }
  traces.push(IRF.pointTrace(wall + " ld/st per transaction", open,
    { symbol: "circle-open", size: 10, color: "#0072B2", line: { width: 2 } }, type));
  if (filled.length) traces.push(IRF.pointTrace("all instructions, L1 intensity", filled,
    { symbol: "circle", size: 8, color: "#0072B2" }, type));
  const layout = { title: { text: wall === "global" ? "Global-memory walls" : "Shared-memory walls" },
    xaxis: IRF.logAxis(wall + " load/store instructions per transaction", xRange),
    yaxis: IRF.logAxis("performance (GIPS)", yRange), annotations };
  const pointsOf = (row) => {
    const k = IRF.kernels[row];
    return [[k[ii], k[gips]]].concat(wall === "global" ? [[k.ii_l1, k.gips_warp]] : []);
  };
  return IRF.plot(div, traces, layout, pointsOf, open.length);
};
