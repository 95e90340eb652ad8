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

// y = min(peak, x * rate) across the x range (a ceiling with its ridge point), and its label,
// which IRF.placeLabels puts along the slanted part once the figure is laid out.
IRF.bandwidthCeiling = (peak, rate, label, xRange, annotations) => {
  const x0 = 10 ** xRange[0], x1 = 10 ** xRange[1];
  const ridge = Math.min(Math.max(peak / rate, x0), x1);
  const xs = [x0, ridge, x1];
  const line = { type: "scatter", mode: "lines", x: xs, y: xs.map((x) => Math.min(peak, x * rate)),
    line: IRF.CEILING_LINE, hoverinfo: "skip", showlegend: false };
  const labelX = Math.max(peak / rate / 30, x0 * 1.5);
  annotations.push({ x: Math.log10(labelX), y: Math.log10(labelX * rate), text: label,
    showarrow: false, xanchor: "left", yanchor: "bottom", font: { size: 10, color: "#444" },
    irf: { kind: "slope", peak, rate, line } });
  return line;
};

// A horizontal peak across the x range, labelled above it (IRF.placeLabels: right end first).
IRF.peakLine = (peak, label, xRange, annotations, dash = "solid") => {
  const line = { type: "scatter", mode: "lines", x: [10 ** xRange[0], 10 ** xRange[1]], y: [peak, peak],
    line: Object.assign({ dash }, IRF.CEILING_LINE), hoverinfo: "skip", showlegend: false };
  annotations.push({ x: xRange[1], y: Math.log10(peak), text: label, showarrow: false,
    xanchor: "right", yanchor: "bottom", font: { size: 10, color: "#444" },
    irf: { kind: "peak", peak, line } });
  return line;
};

// A trace of kernel points: `points` are {k, x, y, extra}; customdata holds the kernel row so a
// click selects it. `type` switches to WebGL when the figure holds many points.
IRF.pointTrace = (name, points, marker, type) => ({
  type, mode: "markers", name, showlegend: false, x: points.map((p) => p.x), y: points.map((p) => p.y),
  customdata: points.map((p) => p.k.row), marker,
  hovertext: points.map((p) => IRF.kernelHover(p.k, p.extra || [])),
  hovertemplate: "%{hovertext}<extra></extra>",
});

// The kernel traces of `points`: the kernels without a colour of their own in one grey trace
// (a single colour: a 10,000-entry colour array cost WebGL about a second), then the coloured
// ones over them, each point in its kernel's colour. Empty traces are left out.
IRF.pointTraces = (name, points, marker, type) => {
  const coloured = points.filter((p) => p.k.row < IRF.KERNEL_COLORS.length);
  const others = points.filter((p) => !(p.k.row < IRF.KERNEL_COLORS.length));
  const out = [];
  if (others.length) out.push(IRF.pointTrace(name, others, Object.assign({}, marker, { color: IRF.OTHER_COLOR }), type));
  if (coloured.length) out.push(IRF.pointTrace(name, coloured, Object.assign({}, marker,
    { color: coloured.map((p) => IRF.kernelColor(p.k)) }), type));
  return out;
};

// Draws a figure: `traces` (kernel traces have customdata rows), `pointsOf(row)` -> the [x, y]
// pairs of that kernel (the selection ring), `count` kernel points for the tests and readers.
IRF.plot = (div, traces, layout, pointsOf, count) => {
  traces.push({ type: "scatter", mode: "markers", name: "selected", x: [], y: [],
    marker: { size: 20, color: "rgba(0,0,0,0)", line: { color: "#000", width: 2.5 } },
    hoverinfo: "skip", showlegend: false });
  div.dataset.points = String(count);
  const figure = { div, ring: traces.length - 1, pointsOf };
  IRF.figures.push(figure);
  const narrow = IRF.narrow();
  // Room for the axis title and a two-row legend: margins that fit draw once (automargin
  // draws a figure again when it must grow them).
  const fullLayout = Object.assign({ margin: { l: narrow ? 50 : 70, r: 12, t: 40, b: narrow ? 20 : 110 },
    hovermode: "closest", plot_bgcolor: "#fff", font: { size: narrow ? 11 : 12 },
    // Below the axis title, in the container's frame: a long legend never covers the title.
    legend: { orientation: "h", yref: "container", y: 0, yanchor: "bottom", x: 0 } }, layout);
  IRF.fitTitles(div, fullLayout);
  if (IRF.plotFrame(div, fullLayout)) IRF.reserveMargins(fullLayout, traces, fullLayout.width || div.clientWidth);
  // The labels are placed before the one draw: moving them afterwards (Plotly.relayout) drew a
  // WebGL figure of 10,000 kernels a second time (docs/performance.md, "HTML report").
  const expected = IRF.plotFrame(div, fullLayout);
  if (expected) IRF.placeLabels(fullLayout, traces, expected);
  const start = performance.now();
  return Plotly.newPlot(div, traces, fullLayout, { displaylogo: false, responsive: true,
    displayModeBar: narrow ? false : "hover" })
    .then(() => IRF.replaceLabels(div, expected))
    .then(() => {
      IRF.timings[div.id] = [Math.round(start), Math.round(performance.now())];
      if (IRF.selected !== null) IRF.ring(figure, IRF.selected);
      div.on("plotly_click", (event) => {
        const hit = event.points.find((p) => p.customdata !== undefined && p.customdata !== null);
        if (hit) IRF.select(hit.customdata);
      });
    });
};

// Titles wrapped to the space the figure gives them (a phone's 390 px cut them at the edge).
IRF.fitTitles = (div, layout) => {
  const width = Math.max(120, (div.clientWidth || window.innerWidth) - layout.margin.l - layout.margin.r);
  const height = Math.max(120, (div.clientHeight || 520) - 160);
  if (layout.title) layout.title.text = IRF.wrapText(layout.title.text, width, 17);
  if (layout.xaxis && layout.xaxis.title) layout.xaxis.title.text = IRF.wrapText(layout.xaxis.title.text, width, 14);
  if (layout.yaxis && layout.yaxis.title) layout.yaxis.title.text = IRF.wrapText(layout.yaxis.title.text, height, 14);
};

// The plot area in the div's pixels and the log-log mapping into it, as Plotly will lay out
// `layout` in `div` (its size: the div's, as Plotly takes it; the margins: the layout's), or
// null when the figure has no roof label or is not log-log.
IRF.plotFrame = (div, layout) => {
  const xr = (layout.xaxis || {}).range, yr = (layout.yaxis || {}).range;
  if (!(layout.annotations || []).some((a) => a.irf) || !xr || !yr ||
    layout.xaxis.type !== "log" || layout.yaxis.type !== "log") return null;
  const width = layout.width || div.clientWidth, height = layout.height || div.clientHeight;
  const m = layout.margin;
  return IRF.logFrame(xr, yr, m.l, m.t, width - m.l - m.r, height - m.t - m.b);
};

// The frame Plotly drew: when it differs from the one the labels were placed in (automargin
// grew a margin for long tick labels), the labels are placed again and moved, which draws the
// figure a second time; div.dataset.relaid says so (the browser test checks it stays unset).
IRF.replaceLabels = (gd, expected) => {
  if (!expected) return null;
  const xa = gd._fullLayout.xaxis, ya = gd._fullLayout.yaxis;
  const drawn = IRF.logFrame(expected.xr, expected.yr, xa._offset, ya._offset, xa._length, ya._length);
  if (["left", "top", "w", "h"].every((k) => Math.abs(drawn[k] - expected[k]) < 1)) return null;
  gd.dataset.relaid = [expected.left, expected.top, expected.w, expected.h].map(Math.round).join(",") +
    " -> " + [drawn.left, drawn.top, drawn.w, drawn.h].map(Math.round).join(",");
  const layout = { annotations: gd.layout.annotations.map((a) => Object.assign({}, a)) };
  IRF.placeLabels(layout, gd.data, drawn);
  return Plotly.relayout(gd, layout);
};

// The roof labels (annotations of `layout` with an `irf` note) placed by collision check in
// `frame` (IRF.plotFrame): each at the first candidate place inside the plot that covers no
// label placed before it, no marker and no other line; else the least crowded one (issue 53).
// When one must cover something, the bandwidth labels are tried in the other orders too (on a
// phone the first could take the only free place of the next) and the fewest overlaps win.
IRF.placeLabels = (layout, traces, frame) => {
  const labels = layout.annotations.filter((a) => a.irf);
  const obstacles = IRF.obstacles(traces, frame);
  const slopes = labels.filter((a) => a.irf.kind === "slope"), rest = labels.filter((a) => a.irf.kind !== "slope");
  let best = IRF.placeInOrder(labels, obstacles, frame);
  for (const order of IRF.permutations(slopes)) {
    if (best.hits < 1) break;
    const trial = IRF.placeInOrder(order.concat(rest), obstacles, frame);
    if (trial.hits < best.hits) best = trial;
  }
  for (const [a, c] of best.spots) {
    [a.x, a.y] = frame.unit(c.cx, c.cy);
    Object.assign(a, { xanchor: "center", yanchor: "middle", textangle: c.deg });
  }
};

// Places `labels` one after the other (IRF.placeLabels); returns the places and their overlaps.
IRF.placeInOrder = (labels, { markers, lines }, frame) => {
  const box = [frame.left, frame.top, frame.left + frame.w, frame.top + frame.h];
  const inside = (poly) => poly.every(([x, y]) => x >= box[0] && x <= box[2] && y >= box[1] && y <= box[3]);
  const ctx = (IRF.measure = IRF.measure || document.createElement("canvas").getContext("2d"));
  ctx.font = "10px 'Open Sans', verdana, arial, sans-serif";
  const placed = [], spots = [];
  let total = 0;
  for (const a of labels) {
    const w = ctx.measureText(a.text).width + 4, h = 14;
    let best = null;
    for (const c of IRF.labelPlaces(a.irf, w, h, frame)) {
      const poly = IRF.box(c.cx, c.cy, w, h, c.deg);
      if (!inside(poly)) continue;
      const hits = placed.concat(markers).filter((o) => IRF.overlap(poly, o)).length +
        0.1 * lines.filter(([t, seg]) => t !== a.irf.line && IRF.overlap(poly, seg)).length;
      if (!best || hits < best.hits) best = { hits, c, poly };
      if (hits === 0) break;
    }
    if (!best) continue;
    placed.push(best.poly);
    spots.push([a, best.c]);
    total += best.hits;
  }
  return { hits: total, spots };
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
    "Each kernel in its colour at its L1 (circle), L2 (square) and HBM (triangle) instruction intensity; " +
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
  traces.push(IRF.peakLine(peak, "peak " + IRF.formatNumber(peak, 4) + " warp GIPS" + IRF.atClock(), xRange,
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
    traces.push(...IRF.pointTraces(IRF.LEVEL_NAMES[lv], solid[lv], { symbol: IRF.LEVEL_SYMBOLS[lv],
      size: IRF.LEVEL_SIZES[lv], line: { color: "#fff", width: 0.5 } }, type));
  }
  for (const lv of IRF.LEVELS) {
    traces.push(...IRF.pointTraces(IRF.LEVEL_NAMES[lv] + " warp-based", warp[lv],
      { symbol: IRF.LEVEL_SYMBOLS[lv] + "-open", size: IRF.LEVEL_SIZES[lv] }, type));
  }
  traces.push(...IRF.pointTraces("busiest pipe", pipes, { symbol: "pentagon-open", size: 9 }, type));
  if (regions.length) traces.push(IRF.regionTrace(regions));
  traces.push(...IRF.kernelLegend(all, IRF.LEVELS.map((lv) => [IRF.LEVEL_NAMES[lv] + " intensity",
    IRF.LEVEL_SYMBOLS[lv]]).concat(pipes.length ? [["busiest pipe", "pentagon-open"]] : [])));
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
  traces.push(IRF.peakLine(peak, "peak " + IRF.formatNumber(peak, 4) + " warp GIPS" + IRF.atClock(), xRange, annotations));
  for (const [x, label] of walls) {
    const line = { type: "scatter", mode: "lines", x: [x, x], y: [10 ** yRange[0], 10 ** yRange[1]],
      line: { color: "#B22222", dash: "dash", width: 1.1 }, hoverinfo: "skip", showlegend: false };
    traces.push(line);
    annotations.push({ x: Math.log10(x), y: yRange[0], text: label, textangle: -90,
      showarrow: false, xanchor: "left", yanchor: "bottom", font: { size: 10, color: "#B22222" },
      irf: { kind: "wall", x, line } });
  }
  traces.push(...IRF.pointTraces(wall + " ld/st per transaction", open,
    { symbol: "circle-open", size: 10, line: { width: 2 } }, type));
  traces.push(...IRF.pointTraces("all instructions, L1 intensity", filled, { symbol: "circle", size: 8 }, type));
  traces.push(...IRF.kernelLegend(open.concat(filled), [[wall + " ld/st per transaction",
    "circle-open"]].concat(filled.length ? [["all instructions, L1 intensity", "circle"]] : [])));
  const layout = { title: { text: wall === "global" ? "Global-memory walls" : "Shared-memory walls" },
    xaxis: IRF.logAxis(wall + " load/store instructions per transaction", xRange),
    yaxis: IRF.logAxis("performance (GIPS)", yRange), annotations };
  const pointsOf = (row) => {
    const k = IRF.kernels[row];
    return [[k[ii], k[gips]]].concat(wall === "global" ? [[k.ii_l1, k.gips_warp]] : []);
  };
  return IRF.plot(div, traces, layout, pointsOf, open.length);
};
