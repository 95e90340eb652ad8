// SPDX-License-Identifier: Apache-2.0
// irf's HTML report, part 5 of 5: the header (GPU, ceilings with provenance, coverage,
// warnings), the regions table, and the start: figures, table, then the page is marked ready.
"use strict";

IRF.definitionList = (pairs) => IRF.el("dl", {}, [].concat(...pairs.filter(([, v]) => v !== "")
  .map(([k, v]) => [IRF.el("dt", { text: k }), IRF.el("dd", { text: v })])));

IRF.describeGpu = (g) => (g ? g.name + " (" + [g.chip, g.cc && "cc " + g.cc, g.sms && g.sms + " SMs",
  g.clock_hz && IRF.formatNumber(g.clock_hz / 1e6, 4) + " MHz", g.driver && "driver " + g.driver]
  .filter((v) => v).join(", ") + ")" : "-");

// Every ceiling in effect with its unit and provenance (measured, published, spec, derived).
IRF.ceilingRows = (c) => {
  const prov = c.provenance || {};
  const rows = [["peak issue", IRF.formatNumber(c.warp_gips, 4) + " warp GIPS", prov.warp_gips]];
  for (const [lv, v] of Object.entries(c.gtxn_per_s || {})) {
    rows.push([(IRF.LEVEL_NAMES[lv] || lv) + " bandwidth", IRF.formatNumber(v * (lv === "shared" ? 128 : 32), 4) +
      " GB/s = " + IRF.formatNumber(v, 4) + " GTXN/s", prov[lv + "_gbs"]]);
  }
  for (const [key, v] of Object.entries(c.gflops || {})) {
    const tensor = key.startsWith("tensor_");
    rows.push([key, IRF.formatNumber(v, 4) + " GFLOP/s", prov[tensor ? "tensor." + key.slice(7) : "gflops." + key]]);
  }
  for (const [key, v] of Object.entries(c.pipe_gips || {})) rows.push([key + " pipe", IRF.formatNumber(v, 4) + " warp GIPS", ""]);
  return rows;
};

IRF.renderHeader = () => {
  const h = IRF.data.header, c = h.ceilings_used || {}, cov = h.coverage || {};
  const gpu = h.gpu || {};
  document.title = "irf report: " + (h.app || "profile") + " on " + (gpu.name || "GPU");
  const when = [h.start_time, h.end_time].filter((v) => v).join(" to ");
  const job = h.job ? h.job.ranks.length + " ranks on " + (h.job.hosts || []).join(", ") : "";
  const discarded = Object.entries(cov.discarded_samples || {}).map(([k, v]) => k + " " + v).join(", ");
  const header = document.getElementById("header");
  header.replaceChildren(
    IRF.el("h1", { text: "irf report: " + (h.app || "profile") }),
    IRF.definitionList([
      ["GPU", IRF.describeGpu(gpu)],
      ["command", (h.argv || []).join(" ")],
      ["host", h.host || ""], ["pid / rank", (h.pid || "") + (h.rank !== undefined ? " / rank " + h.rank : "")],
      ["job", job], ["time", when], ["profile", IRF.data.source + " (" + (h.tool || "irf") + " " + (h.version || "") + ")"],
      ["ceilings", (c.name || "none") + " from " + (c.source || "-")],
      ["coverage", (cov.launches || 0) + " launches of " + (cov.kernels || 0) + " kernels, " +
        (cov.profiled_launches || 0) + " profiled in " + (cov.passes || 0) + " replay passes each" +
        (discarded ? "; samples discarded: " + discarded : "") +
        (cov.invalid_durations ? "; invalid durations " + cov.invalid_durations : "")],
      ["kernel time", IRF.formatTime(IRF.data.total_time_ns)],
    ]),
    IRF.el("details", {}, [IRF.el("summary", { text: "Ceilings in effect (value, provenance)" }),
      IRF.el("table", {}, [IRF.el("tbody", {}, IRF.ceilingRows(c).map((r) =>
        IRF.el("tr", {}, r.map((v) => IRF.el("td", { text: v || "" })))))])]),
    IRF.renderWarnings(h));
};

IRF.renderWarnings = (h) => {
  if (!h.warnings_total) return IRF.el("p", { text: "No warnings." });
  const items = h.warnings.map((w) => IRF.el("li", { text: w }));
  if (h.warnings_total > h.warnings.length) {
    items.push(IRF.el("li", { text: (h.warnings_total - h.warnings.length) + " more in the profile" }));
  }
  return IRF.el("details", { open: "" }, [IRF.el("summary", { text: "Warnings (" + h.warnings_total + ")" }),
    IRF.el("ul", { className: "warnings" }, items)]);
};

IRF.renderRegions = () => {
  const rows = IRF.data.regions;
  if (!rows.length) return;
  const section = document.getElementById("regions");
  const head = ["#", "NVTX region", "time", "launches", "kernels", "warp GIPS", "II L1", "II L2", "II HBM", "time by bound"];
  const body = rows.map(([path, time, launches, kernels, gips, l1, l2, hbm, shares], i) =>
    [(i < 20 ? "R" : "") + (i + 1), path, IRF.formatTime(time), String(launches), String(kernels),
      IRF.formatNumber(gips), IRF.formatNumber(l1), IRF.formatNumber(l2), IRF.formatNumber(hbm),
      Object.entries(shares || {}).map(([b, s]) => b + " " + IRF.formatPercent(s)).join(" ")]);
  section.replaceChildren(IRF.el("h2", { text: "NVTX regions (" + rows.length + " of " + IRF.data.regions_total + ")" }),
    IRF.el("div", { className: "table-wrap" }, [IRF.el("table", { className: "data", id: "region-table" }, [
      IRF.el("thead", {}, [IRF.el("tr", {}, head.map((t, i) => IRF.el("th", { text: t, className: i === 1 ? "text" : "" })))]),
      IRF.el("tbody", {}, body.map((r) => IRF.el("tr", {}, r.map((v, i) => IRF.el("td", { text: v, className: i === 1 || i === 9 ? "text" : "" })))))])]));
  IRF.navLink("regions", "Regions", "nav-page");
};

// The figures after the first, drawn one per task once the page is usable, so that the first
// screen of a profile of 10,000 kernels does not wait for the figures below it.
IRF.laterFigures = () => [() => IRF.drawWalls("global"), () => IRF.drawWalls("shared")]
  .concat(IRF.precisions().map((p) => () => IRF.drawFlopRoofline(p)),
    [IRF.drawProjection, IRF.drawTrajectories, IRF.drawRanks]);

IRF.nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));

// Ready (data-irf-ready) once the header, the Instruction Roofline and the table are there;
// complete (data-irf-complete) once every figure is drawn. The browser tests and the readiness
// benchmark (docs/performance.md, "HTML report") wait on them.
IRF.start = () => {
  IRF.renderHeader();
  const first = IRF.drawInstructionRoofline();
  IRF.renderTable();
  IRF.renderRegions();
  document.getElementById("filter").addEventListener("input", (e) => IRF.setFilter(e.target.value));
  IRF.timings.table = performance.now();
  const mark = (name) => {
    IRF.timings[name] = performance.now();
    document.documentElement.dataset["irf" + name[0].toUpperCase() + name.slice(1)] =
      String(Math.round(IRF.timings[name]));
  };
  return Promise.resolve(first).then(() => {
    mark("ready");
    return IRF.laterFigures().reduce((chain, draw) => chain.then(IRF.nextTask).then(draw),
      Promise.resolve());
  }).then(() => mark("complete"));
};

IRF.start().catch((e) => {
  document.documentElement.dataset.irfError = String(e);
  throw e;
});
