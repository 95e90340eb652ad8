// SPDX-License-Identifier: Apache-2.0
// irf's HTML report, part 4 of 5: the kernel table (sortable, filtered by a regex of the
// launcher's dialect, a time-share bar) and the selected kernel in full, as irf-report show
// prints it.
"use strict";

// Rows drawn at once: the filter narrows a larger profile (the selected row is always drawn).
IRF.TABLE_ROWS = 500;

// [key, header, text column?, cell(k) -> string or node]
IRF.COLUMNS = [
  ["row", "#", false, (k) => String(k.row + 1)],
  ["label", "kernel", true, (k) => k.label],
  ["time", "total time", true, (k) => IRF.el("span", {}, [
    IRF.el("span", { className: "bar", style: "width:" + Math.round(120 * (k.share || 0)) + "px" }),
    IRF.el("span", { text: k.time === null ? "not in the file" : IRF.formatTime(k.time) })])],
  ["share", "time %", false, (k) => IRF.formatPercent(k.share)],
  ["launches", "launches", false, (k) => String(k.launches)],
  ["mean", "mean", false, (k) => IRF.formatTime(k.mean)],
  ["bound", "bound", true, (k) => k.bound || "-"],
  ["roof_pct", "roof %", false, (k) => (k.roof_pct === null ? "-" : IRF.formatNumber(k.roof_pct) + "%")],
  ["gips_warp", "warp GIPS", false, (k) => IRF.formatNumber(k.gips_warp)],
  ["ii_l1", "II L1", false, (k) => IRF.formatNumber(k.ii_l1)],
  ["ii_l2", "II L2", false, (k) => IRF.formatNumber(k.ii_l2)],
  ["ii_hbm", "II HBM", false, (k) => IRF.formatNumber(k.ii_hbm)],
  ["gw_pattern", "global", true, (k) => (k.gw_pattern ? k.gw_pattern +
    (k.gw_bytes ? " " + IRF.formatNumber(k.gw_bytes, 2) + "B" : "") : "-")],
  ["sw_ways", "shared conflicts", false, (k) => (k.sw_ways ? IRF.formatNumber(k.sw_ways, 2) + "-way" : "-")],
  ["predication", "active %", false, (k) => IRF.formatPercent(k.predication)],
  ["imbalance", "rank imbalance", false, (k) => IRF.formatNumber(k.imbalance)],
];

IRF.table = { sortKey: "time", descending: true, regex: null };

IRF.compare = (a, b, key) => {
  const x = a[key], y = b[key];
  if (x === y) return a.row - b.row;
  if (x === null || x === undefined) return 1;
  if (y === null || y === undefined) return -1;
  return typeof x === "string" ? x.localeCompare(y) : x - y;
};

IRF.visibleColumns = () => IRF.COLUMNS.filter(([key]) => key !== "imbalance" ||
  IRF.kernels.some((k) => k.imbalance !== null && k.imbalance !== undefined));

IRF.renderHead = () => {
  const cells = IRF.visibleColumns().map(([key, title, text]) => {
    const th = IRF.el("th", { text: title, className: text ? "text" : "", dataset: { key } });
    if (key === IRF.table.sortKey) th.setAttribute("aria-sort", IRF.table.descending ? "descending" : "ascending");
    th.addEventListener("click", () => {
      IRF.table.descending = key === IRF.table.sortKey ? !IRF.table.descending : !text;
      IRF.table.sortKey = key;
      IRF.renderTable();
    });
    return th;
  });
  return IRF.el("thead", {}, [IRF.el("tr", {}, cells)]);
};

IRF.renderRow = (k) => {
  const tr = IRF.el("tr", { dataset: { row: String(k.row) } });
  if (k.row === IRF.selected) tr.className = "selected";
  for (const [key, , text, cell] of IRF.visibleColumns()) {
    const value = cell(k);
    const td = IRF.el("td", { className: (text ? "text " : "") + (key === "label" ? "name" :
      key === "time" ? "barcell" : "") });
    if (typeof value === "string") td.textContent = value; else td.appendChild(value);
    if (key === "label") td.title = k.name;
    tr.appendChild(td);
  }
  tr.addEventListener("click", () => IRF.select(k.row));
  return tr;
};

// The kernels that pass the filter, in the table's order.
IRF.tableKernels = () => {
  const { regex, sortKey, descending } = IRF.table;
  const rows = regex ? IRF.kernels.filter((k) => IRF.nameMatches(regex, k)) : IRF.kernels.slice();
  rows.sort((a, b) => (descending ? -1 : 1) * IRF.compare(a, b, sortKey));
  return rows;
};

IRF.renderTable = () => {
  const table = document.getElementById("kernel-table");
  table.className = "data";
  const rows = IRF.tableKernels();
  const shown = rows.slice(0, IRF.TABLE_ROWS);
  const selected = IRF.kernels[IRF.selected];
  if (selected && rows.includes(selected) && !shown.includes(selected)) shown.push(selected);
  const body = IRF.el("tbody", {}, shown.map(IRF.renderRow));
  table.replaceChildren(IRF.renderHead(), body);
  document.getElementById("table-note").textContent = rows.length > shown.length
    ? "Showing " + shown.length + " of " + rows.length + " matching kernels; filter to narrow."
    : rows.length + " of " + IRF.kernels.length + " kernels.";
};

IRF.setFilter = (text) => {
  const status = document.getElementById("filter-status");
  const parsed = text ? IRF.kernelRegex(text) : { regex: null };
  status.className = parsed.error ? "error" : "";
  status.textContent = parsed.error ? "--kernels '" + text + "': " + parsed.error : "";
  if (parsed.error) return;
  IRF.table.regex = parsed.regex;
  IRF.renderTable();
};

// One section of irf-report show: a title, a table (or a two-column list) and lines under it.
IRF.renderSection = ([title, header, rows, lines]) => {
  const parts = [IRF.el("h3", { text: title })];
  if (rows.length) {
    const head = header.length ? [IRF.el("thead", {}, [IRF.el("tr", {},
      header.map((h) => IRF.el("th", { text: h })))])] : [];
    const body = IRF.el("tbody", {}, rows.map((r) => IRF.el("tr", {},
      r.map((cell, i) => IRF.el(i === 0 && !header.length ? "th" : "td", { text: cell })))));
    parts.push(IRF.el("table", {}, head.concat([body])));
  }
  if (lines.length) parts.push(IRF.el("ul", {}, lines.map((l) => IRF.el("li", { text: l }))));
  return IRF.el("section", {}, parts);
};

IRF.renderDetails = (row) => {
  const k = IRF.kernels[row];
  const body = document.getElementById("detail-body");
  const sections = IRF.data.details[row];
  if (sections) {
    body.replaceChildren(...sections.map(IRF.renderSection));
    return;
  }
  const shown = IRF.data.details.filter((d) => d).length;
  body.replaceChildren(
    IRF.el("p", { text: k.label + ": " + (k.time === null ? "time not in the file" :
      IRF.formatTime(k.time) + " (" + IRF.formatPercent(k.share) + ")") + ", bound " + (k.bound || "undecided") + ", warp GIPS " + IRF.formatNumber(k.gips_warp) + "." }),
    IRF.el("p", { text: "This page keeps irf-report show's full view of the " + shown +
      " longest-running kernels only (a page of many kernels stays small). For this one run:" }),
    IRF.el("pre", { className: "mono", text: "irf-report show -- " + IRF.shellQuote(IRF.data.source) +
      " " + IRF.shellQuote(k.label) }));
};

IRF.onSelect((row) => {
  IRF.renderTable();
  IRF.renderDetails(row);
  // Scroll the table's own box to the row, never the page (the click may come from a figure).
  const tr = document.querySelector('#kernel-table tr[data-row="' + row + '"]');
  const wrap = tr && tr.closest(".table-wrap");
  if (wrap && (tr.offsetTop < wrap.scrollTop || tr.offsetTop > wrap.scrollTop + wrap.clientHeight - 40)) {
    wrap.scrollTop = tr.offsetTop - wrap.clientHeight / 2;
  }
});
