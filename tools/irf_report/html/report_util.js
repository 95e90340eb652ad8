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

// Peak warp GIPS and per-level GTXN/s of the ceilings the profile was analysed with, the SM-side
// ones (issue, pipes, L1, shared, CUDA-core FLOP/s) at the clock the longest kernel's analysis
// used (header.roof_clock, as irf-plot draws them): the roofs sit where the text's roof% puts
// them. L2 and HBM do not scale; tensor peaks are quoted at their own clock.
IRF.ceilings = () => {
  const c = IRF.data.header.ceilings_used || {}, clock = IRF.data.header.roof_clock;
  const f = clock && clock.fraction > 0 ? clock.fraction : 1;
  if (f === 1) return c;
  const scaled = (m, keep) => Object.fromEntries(Object.entries(m || {}).map(([k, v]) =>
    [k, typeof v === "number" && !keep(k) ? v * f : v]));
  return Object.assign({}, c, { warp_gips: c.warp_gips * f,
    pipe_gips: scaled(c.pipe_gips, () => false),
    gtxn_per_s: scaled(c.gtxn_per_s, (k) => k !== "l1" && k !== "shared"),
    gflops: scaled(c.gflops, (k) => k.startsWith("tensor_")) });
};
// " at N MHz" after an SM-side roof's label when the roofs are drawn at a measured clock.
IRF.atClock = () => {
  const clock = IRF.data.header.roof_clock;
  return clock && clock.mhz > 0 ? " at " + IRF.formatNumber(clock.mhz, 4) + " MHz" : "";
};
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

// Each of the longest-running kernels in its own colour, in irf-plot's order, so a kernel
// keeps its colour between the PNG figures and the page; the others share grey (issue 53).
IRF.KERNEL_COLORS = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000",
  "#F0E442", "#8c564b", "#9467bd"];
IRF.OTHER_COLOR = "#b5b5b5";
IRF.kernelColor = (k) => IRF.KERNEL_COLORS[k.row] || IRF.OTHER_COLOR;

// Legend entries (no points of their own) for the coloured kernels among `points` ({k}), grey
// "other kernels", and the symbols the level traces use (those have no legend entry: their
// points take their kernels' colours).
IRF.kernelLegend = (points, symbols) => {
  const rows = [...new Set(points.map((p) => p.k.row))].sort((a, b) => a - b);
  const entry = (name, color, symbol) => ({ type: "scatter", mode: "markers", x: [null], y: [null],
    name, marker: { color, symbol, size: 9 }, hoverinfo: "skip", showlegend: true });
  const out = rows.filter((r) => r < IRF.KERNEL_COLORS.length).map((r) => {
    const label = IRF.kernels[r].label;
    return entry(String(r + 1) + " " + IRF.plotlyText(label.length > 28 ? label.slice(0, 27) +
      "\u2026" : label), IRF.KERNEL_COLORS[r], "circle");
  });
  if (rows.some((r) => r >= IRF.KERNEL_COLORS.length)) out.push(entry("other kernels", IRF.OTHER_COLOR, "circle"));
  return out.concat(symbols.map(([name, symbol]) => entry(name, "#666", symbol)));
};

// A phone's width: fewer ticks, titles on more lines, no tool bar over the title.
IRF.narrow = () => window.innerWidth < 600;

// A tick label of a power of ten as people write it: 0.01, 1, 100, 10k, 1M; 1e-5 past them.
IRF.tickText = (exponent) => {
  if (exponent >= 0 && exponent < 3) return String(10 ** exponent);
  if (exponent >= 3 && exponent < 15) return 10 ** (exponent % 3) + "kMGT"[Math.floor(exponent / 3) - 1];
  if (exponent < 0 && exponent >= -4) return (10 ** exponent).toFixed(-exponent);
  return "1e" + exponent;
};

// A log axis over `range` (log10 units) ticked at powers of ten only, every one or every few
// decades (at most 8, 4 on a phone), with 2 and 5 between when under two decades show.
IRF.logAxis = (title, range) => {
  const low = Math.ceil(range[0] - 1e-9), high = Math.floor(range[1] + 1e-9);
  const step = Math.max(1, Math.ceil((high - low + 1) / (IRF.narrow() ? 4 : 8)));
  const exponents = [];
  for (let e = low; e <= high; e += step) exponents.push(e);
  const vals = exponents.map((e) => 10 ** e), text = exponents.map(IRF.tickText);
  if (exponents.length < 2) {
    for (let e = low - 1; e <= high; e++) {
      for (const m of [2, 5]) {
        const v = m * 10 ** e;
        if (Math.log10(v) > range[0] && Math.log10(v) < range[1]) {
          vals.push(v);
          text.push(IRF.formatNumber(v));
        }
      }
    }
  }
  return { type: "log", title: { text: title }, range, tickvals: vals, ticktext: text,
    gridcolor: "#e5e5e5", zeroline: false, automargin: true };
};

// `text` with <br> between words so that no line is wider than `width` pixels at `size` px
// (Plotly does not wrap titles; a phone cut them at the edge).
IRF.wrapText = (text, width, size) => {
  const ctx = (IRF.measure = IRF.measure || document.createElement("canvas").getContext("2d"));
  ctx.font = size + "px 'Open Sans', verdana, arial, sans-serif";
  const lines = [];
  let line = "";
  for (const word of String(text).split(" ")) {
    const trial = line ? line + " " + word : word;
    if (line && ctx.measureText(trial).width > width) {
      lines.push(line);
      line = word;
    } else {
      line = trial;
    }
  }
  return lines.concat([line]).join("<br>");
};

// The corners of a w x h box centred at (cx, cy), turned by `deg` (screen pixels, y down).
IRF.box = (cx, cy, w, h, deg) => {
  const c = Math.cos(deg * Math.PI / 180), s = Math.sin(deg * Math.PI / 180);
  return [[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]]
    .map(([x, y]) => [cx + x * c - y * s, cy + x * s + y * c]);
};

// True when two convex outlines (or an outline and a segment) share interior points.
IRF.overlap = (a, b) => {
  const span = (p, i) => [Math.min(...p.map((v) => v[i])), Math.max(...p.map((v) => v[i]))];
  for (const i of [0, 1]) {
    const [a0, a1] = span(a, i), [b0, b1] = span(b, i);
    if (a1 <= b0 || b1 <= a0) return false;
  }
  for (const poly of [a, b]) {
    for (let i = 0; i < (poly.length > 2 ? poly.length : 1); i++) {
      const [x0, y0] = poly[i], [x1, y1] = poly[(i + 1) % poly.length];
      const n = [y0 - y1, x1 - x0];
      const pa = a.map(([x, y]) => x * n[0] + y * n[1]), pb = b.map(([x, y]) => x * n[0] + y * n[1]);
      if (Math.max(...pa) <= Math.min(...pb) || Math.max(...pb) <= Math.min(...pa)) return false;
    }
  }
  return true;
};

// A log-log frame: the plot area `left`, `top`, `w` x `h` pixels over the ranges (log10 units).
IRF.logFrame = (xr, yr, left, top, w, h) => ({ xr, yr, left, top, w, h,
  px: (x, y) => [left + (Math.log10(x) - xr[0]) / (xr[1] - xr[0]) * w,
    top + (yr[1] - Math.log10(y)) / (yr[1] - yr[0]) * h],
  // Pixels back to the axes' log10 units (an annotation's x and y on a log axis).
  unit: (cx, cy) => [xr[0] + (cx - left) / w * (xr[1] - xr[0]), yr[1] - (cy - top) / h * (yr[1] - yr[0])] });

// Candidate centres (screen pixels) and angles of a roof label: along a bandwidth line left of
// its ridge, above then below it; along a peak from its right end; up a wall from its foot.
IRF.labelPlaces = (roof, w, h, frame) => {
  const px = frame.px, [x0, x1] = frame.xr.map((v) => 10 ** v), y0 = 10 ** frame.yr[0];
  const out = [];
  if (roof.kind === "slope") {
    const low = Math.max(x0, y0 / roof.rate), high = Math.min(roof.peak / roof.rate, x1);
    if (!(low < high)) return out;
    const [ax, ay] = px(low, low * roof.rate), [bx, by] = px(high, high * roof.rate);
    const deg = Math.atan2(by - ay, bx - ax) * 180 / Math.PI;
    const n = [Math.sin(deg * Math.PI / 180), -Math.cos(deg * Math.PI / 180)];
    // Beside the line first, then one label's height further out (steep, close bandwidth
    // lines on a phone leave no room beside each).
    for (const away of [h / 2 + 1, 1.5 * h + 2]) {
      for (const side of [1, -1]) {
        for (let i = 0; i <= 20; i++) {
          const f = (i + 0.5) / 21, cx = ax + (bx - ax) * f, cy = ay + (by - ay) * f;
          // The label's far end stays left of the ridge.
          if (Math.hypot(bx - cx, by - cy) < w / 2 + 4) continue;
          out.push({ cx: cx + side * n[0] * away, cy: cy + side * n[1] * away, deg });
        }
      }
    }
    return out;
  }
  if (roof.kind === "wall") {
    const [wx, bottom] = px(roof.x, y0);
    for (let cy = bottom - w / 2 - 4; cy > frame.top + w / 2; cy -= 30) out.push({ cx: wx + h / 2 + 1, cy, deg: -90 });
    return out;
  }
  const [, py] = px(x0, roof.peak);
  const [left, right] = [frame.left, frame.left + frame.w];
  for (const side of [-1, 1]) {
    for (let cx = right - w / 2 - 4; cx > left + w / 2; cx -= 40) out.push({ cx, cy: py + side * (h / 2 + 1), deg: 0 });
  }
  return out;
};

// Margins that hold what Plotly's automargin would push out (the y tick labels and title at the
// left; the x tick labels, title and the horizontal legend below), so that the plot area is
// known before the draw and Plotly draws once: it grows a margin that is too small and draws
// again, and the labels placed beforehand would no longer fit (IRF.replaceLabels). Pixel
// constants as Plotly 3 lays them out: tick labels 1.3 lines of the font, titles 1.3 lines of
// 14 px, legend entries 40 px before their text, 5 px apart, rows of 19 px plus 10 px.
IRF.reserveMargins = (layout, traces, width) => {
  const size = layout.font.size, m = layout.margin;
  const ctx = (IRF.measure = IRF.measure || document.createElement("canvas").getContext("2d"));
  ctx.font = size + "px 'Open Sans', verdana, arial, sans-serif";
  const textWidth = (t) => ctx.measureText(String(t).replace(/&lt;/g, "<").replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&")).width + 2;
  const lines = (axis) => (axis.title && axis.title.text ? axis.title.text.split("<br>").length : 0);
  const ticks = Math.max(0, ...(layout.yaxis.ticktext || []).map(textWidth));
  m.l = Math.max(m.l, Math.ceil(ticks + 18.2 * lines(layout.yaxis) + 10));
  const names = traces.filter((t) => t.showlegend !== false && t.name).map((t) => textWidth(t.name) + 40);
  let legend = 0;
  if (names.length) {
    const span = Math.max(80, width - m.l - m.r), widest = Math.max(...names);
    const oneRow = names.reduce((a, b) => a + b, 0) + 5 * (names.length - 1) < span;
    const perRow = Math.max(1, Math.floor((span + 5) / (widest + 5) - 1e-9));
    legend = 19 * (oneRow ? 1 : Math.ceil(names.length / perRow)) + 10;
  }
  m.b = Math.max(m.b, Math.ceil(legend + 18.2 * lines(layout.xaxis) + 30));
};

// What a roof label must not cover, in `frame`'s pixels: the markers' boxes and the lines'
// segments (each with its trace, so a label may lie on its own line).
IRF.obstacles = (traces, frame) => {
  const markers = [], lines = [];
  for (const t of traces) {
    if (!t.x || !t.y) continue;
    // Past WebGL's count (10,000 kernels) labels avoid each other and the lines only: a check
    // against every marker would cost seconds before the page is usable.
    if ((t.mode || "").includes("markers") && t.type !== "scattergl") {
      const size = typeof t.marker.size === "number" ? t.marker.size : 8;
      t.x.forEach((x, i) => {
        if (x > 0 && t.y[i] > 0) markers.push(IRF.box(...frame.px(x, t.y[i]), size, size, 0));
      });
    } else if (t.mode === "lines") {
      for (let i = 1; i < t.x.length; i++) lines.push([t, [frame.px(t.x[i - 1], t.y[i - 1]), frame.px(t.x[i], t.y[i])]]);
    }
  }
  return { markers, lines };
};

// Every order of `items` (a handful: the bandwidth labels of one figure).
IRF.permutations = (items) => (items.length < 2 ? [items] : [].concat(...items.map((x, i) =>
  IRF.permutations(items.slice(0, i).concat(items.slice(i + 1))).map((p) => [x].concat(p)))));
