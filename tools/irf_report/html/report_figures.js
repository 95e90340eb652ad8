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

// The kernels' colours of `points` ({k}), for a trace's marker.color.
IRF.colorsOf = (points) => points.map((p) => IRF.kernelColor(p.k));

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
  const start = performance.now();
  return Plotly.newPlot(div, traces, fullLayout, { displaylogo: false, responsive: true,
    displayModeBar: narrow ? false : "hover" })
    .then(() => IRF.placeLabels(div))
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

// The roof labels (annotations with an `irf` note) placed by collision check once Plotly laid
// the figure out: each at the first candidate place inside the plot that covers no label
// placed before it, no marker and no other line; else the least crowded one (issue 53).
IRF.placeLabels = (gd) => {
  const layout = gd._fullLayout, xa = layout.xaxis, ya = layout.yaxis;
  const anns = gd.layout.annotations || [];
  if (!anns.some((a) => a.irf) || xa.type !== "log" || ya.type !== "log") return Promise.resolve();
  const px = (x, y) => [xa._offset + xa.l2p(Math.log10(x)), ya._offset + ya.l2p(Math.log10(y))];
  const frame = [xa._offset, ya._offset, xa._offset + xa._length, ya._offset + ya._length];
  const markers = [], lines = [];
  for (const t of gd.data) {
    if (!t.x || !t.y) continue;
    // Past WebGL's count (10,000 kernels) labels avoid each other and the lines only: a check
    // against every marker would cost seconds before the page is usable.
    if ((t.mode || "").includes("markers") && t.type !== "scattergl") {
      const size = typeof t.marker.size === "number" ? t.marker.size : 8;
      t.x.forEach((x, i) => {
        if (x > 0 && t.y[i] > 0) {
          const [cx, cy] = px(x, t.y[i]);
          markers.push(IRF.box(cx, cy, size, size, 0));
        }
      });
    } else if (t.mode === "lines") {
      for (let i = 1; i < t.x.length; i++) lines.push([t, [px(t.x[i - 1], t.y[i - 1]), px(t.x[i], t.y[i])]]);
    }
  }
  const ctx = (IRF.measure = IRF.measure || document.createElement("canvas").getContext("2d"));
  ctx.font = "10px 'Open Sans', verdana, arial, sans-serif";
  const placed = [], update = {};
  const inside = (poly) => poly.every(([x, y]) => x >= frame[0] && x <= frame[2] && y >= frame[1] && y <= frame[3]);
  anns.forEach((a, index) => {
    if (!a.irf) return;
    const w = ctx.measureText(a.text).width + 4, h = 14;
    const cands = IRF.labelPlaces(a.irf, w, h, px, xa, ya);
    let best = null;
    for (const c of cands) {
      const poly = IRF.box(c.cx, c.cy, w, h, c.deg);
      if (!inside(poly)) continue;
      const hits = placed.concat(markers).filter((o) => IRF.overlap(poly, o)).length +
        0.1 * lines.filter(([t, seg]) => t !== a.irf.line && IRF.overlap(poly, seg)).length;
      if (!best || hits < best.hits) best = { hits, c, poly };
      if (hits === 0) break;
    }
    if (!best) return;
    placed.push(best.poly);
    // Keyed edits: Plotly moves the annotations without drawing the traces again.
    Object.assign(update, { [`annotations[${index}].x`]: xa.p2l(best.c.cx - xa._offset),
      [`annotations[${index}].y`]: ya.p2l(best.c.cy - ya._offset),
      [`annotations[${index}].xanchor`]: "center", [`annotations[${index}].yanchor`]: "middle",
      [`annotations[${index}].textangle`]: best.c.deg });
  });
  return Plotly.relayout(gd, update);
};

// Candidate centres (screen pixels) and angles of a roof label: along a bandwidth line left of
// its ridge, above then below it; along a peak from its right end; up a wall from its foot.
IRF.labelPlaces = (roof, w, h, px, xa, ya) => {
  const [x0, x1] = xa.range.map((v) => 10 ** v), [y0] = ya.range.map((v) => 10 ** v);
  const out = [];
  if (roof.kind === "slope") {
    const low = Math.max(x0, y0 / roof.rate), high = Math.min(roof.peak / roof.rate, x1);
    if (!(low < high)) return out;
    const [ax, ay] = px(low, low * roof.rate), [bx, by] = px(high, high * roof.rate);
    const deg = Math.atan2(by - ay, bx - ax) * 180 / Math.PI;
    const n = [Math.sin(deg * Math.PI / 180), -Math.cos(deg * Math.PI / 180)];
    for (const side of [1, -1]) {
      for (let i = 0; i <= 20; i++) {
        const f = (i + 0.5) / 21, cx = ax + (bx - ax) * f, cy = ay + (by - ay) * f;
        // The label's far end stays left of the ridge.
        if (Math.hypot(bx - cx, by - cy) < w / 2 + 4) continue;
        out.push({ cx: cx + side * n[0] * (h / 2 + 1), cy: cy + side * n[1] * (h / 2 + 1), deg });
      }
    }
    return out;
  }
  if (roof.kind === "wall") {
    const [wx, bottom] = px(roof.x, y0);
    for (let cy = bottom - w / 2 - 4; cy > ya._offset + w / 2; cy -= 30) out.push({ cx: wx + h / 2 + 1, cy, deg: -90 });
    return out;
  }
  const [, py] = px(x0, roof.peak);
  const [left, right] = [xa._offset, xa._offset + xa._length];
  for (const side of [-1, 1]) {
    for (let cx = right - w / 2 - 4; cx > left + w / 2; cx -= 40) out.push({ cx, cy: py + side * (h / 2 + 1), deg: 0 });
  }
  return out;
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
    traces.push(IRF.pointTrace(IRF.LEVEL_NAMES[lv], solid[lv], { symbol: IRF.LEVEL_SYMBOLS[lv],
      size: IRF.LEVEL_SIZES[lv], color: IRF.colorsOf(solid[lv]), line: { color: "#fff", width: 0.5 } }, type));
  }
  for (const lv of IRF.LEVELS) {
    if (warp[lv].length) traces.push(IRF.pointTrace(IRF.LEVEL_NAMES[lv] + " warp-based",
      warp[lv], { symbol: IRF.LEVEL_SYMBOLS[lv] + "-open", size: IRF.LEVEL_SIZES[lv],
        color: IRF.colorsOf(warp[lv]) }, type));
  }
  if (pipes.length) traces.push(IRF.pointTrace("busiest pipe", pipes,
    { symbol: "pentagon-open", size: 9, color: IRF.colorsOf(pipes) }, type));
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
  traces.push(IRF.pointTrace(wall + " ld/st per transaction", open,
    { symbol: "circle-open", size: 10, color: IRF.colorsOf(open), line: { width: 2 } }, type));
  if (filled.length) traces.push(IRF.pointTrace("all instructions, L1 intensity", filled,
    { symbol: "circle", size: 8, color: IRF.colorsOf(filled) }, type));
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
