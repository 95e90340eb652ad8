# SPDX-License-Identifier: Apache-2.0
"""The HTML report in a real browser (issue 35 item 6): no console error, every figure drawn
with the right number of points, hover names the kernel, the table sorts and filters, a click
on a point selects its row, and hostile names never run. One headless Chromium serves every check
(test_html_ready.py times 10,000 kernels)."""
import os
import shlex
import shutil
import time
import unittest

import browser_support as bs
import html_support as hs

DRIVER = None
DIR = None


def setUpModule():
    global DRIVER, DIR
    DIR = hs.workdir()
    DRIVER = bs.start_browser()


def tearDownModule():
    if DRIVER:
        DRIVER.quit()


def js(script, *args, async_=False):
    return (DRIVER.execute_async_script if async_ else DRIVER.execute_script)(script, *args)


def hover_and_click(figure, trace_name, index=0, click=False):
    """Moves the mouse onto point `index` of the named trace (and clicks it); returns the
    kernel row the point belongs to."""
    from selenium.webdriver.common.action_chains import ActionBuilder
    js("document.getElementById(arguments[0]).scrollIntoView();", figure)
    x, y, row = js("""
        const gd = document.getElementById(arguments[0]);
        const t = gd._fullData.find((d) => d.name === arguments[1]);
        const xa = gd._fullLayout.xaxis, ya = gd._fullLayout.yaxis;
        const box = gd.getBoundingClientRect();
        return [box.left + xa._offset + xa.d2p(t.x[arguments[2]]),
                box.top + ya._offset + ya.d2p(t.y[arguments[2]]), (t.customdata || [])[arguments[2]]];
    """, figure, trace_name, index)
    actions = ActionBuilder(DRIVER)
    actions.pointer_action.move_to_location(int(x), int(y))
    if click:
        actions.pointer_action.click()
    actions.perform()
    return row


def hover_text(figure):
    deadline = time.time() + 5
    while time.time() < deadline:
        text = js("return [...document.querySelectorAll('#' + arguments[0] + ' .hoverlayer .hovertext')]"
                  ".map((e) => e.textContent).join(' | ');", figure)
        if text:
            return text
        time.sleep(0.05)
    return ""


class DemoPage(unittest.TestCase):
    """The quick start's report: the example profile with targets and a trajectory file."""

    @classmethod
    def setUpClass(cls):
        cls.profile = hs.analysed(hs.EXAMPLE, DIR, "demo-analysed.json")
        cls.page = hs.html(hs.EXAMPLE, os.path.join(DIR, "demo.html"), "--targets", hs.TARGETS,
                           "--trajectory", hs.trajectory(DIR))
        bs.open_page(DRIVER, cls.page)
        cls.errors = bs.console_errors(DRIVER)

    def setUp(self):
        if not DRIVER.current_url.endswith("/demo.html"):
            bs.open_page(DRIVER, self.page)

    def test_no_console_errors(self):
        self.assertEqual(self.errors, [])

    def test_every_figure_has_the_right_number_of_points(self):
        expected = bs.expected_points(self.profile)
        expected["trajectory"] = sum(len(k["points"]) for k in hs.load(
            os.path.join(DIR, "traj.trajectory.json"))["kernels"])
        drawn = js("return Object.fromEntries([...document.querySelectorAll('.plot')]"
                   ".map((d) => [d.id.slice(4), Number(d.dataset.points)]));")
        self.assertEqual(drawn, expected)

    def test_drawn_markers_match_the_data(self):
        # Each SVG marker Plotly drew, against the points the traces hold (ring trace empty).
        counts = js("""return [...document.querySelectorAll('.plot')].map((d) => [d.id,
            d.querySelectorAll('.scatterlayer .point').length,
            d._fullData.filter((t) => (t.mode || '').includes('markers'))
              .reduce((n, t) => n + t.x.filter((x) => x !== null).length, 0)]);""")
        for figure, svg, data in counts:
            self.assertEqual(svg, data, figure)

    def test_hover_names_the_kernel(self):
        row = hover_and_click("fig-irm", "HBM", 0)
        label = js("return IRF.kernels[arguments[0]].label;", row)
        text = hover_text("fig-irm")
        self.assertIn(label, text)
        self.assertRegex(text, r"of kernel time")
        self.assertRegex(text, r"bound (hbm|l1|l2|issue|undecided)")

    def test_click_on_a_point_selects_its_row(self):
        row = hover_and_click("fig-irm", "L1", 2, click=True)
        selected = js("return [...document.querySelectorAll('#kernel-table tr.selected')].map((r) => Number(r.dataset.row));")
        self.assertEqual(selected, [row])
        details = js("return document.getElementById('detail-body').textContent;")
        self.assertIn("Instruction Roofline", details)
        self.assertIn("Projections", details)
        ring = js("const gd = document.getElementById('fig-global-walls');"
                  "return gd.data[gd.data.length - 1].x.length;")
        self.assertGreater(ring, 0)

    def test_table_sorts_by_a_column(self):
        def rows():
            return js("return [...document.querySelectorAll('#kernel-table tbody tr')].map((r) => Number(r.dataset.row));")
        self.assertEqual(rows(), sorted(rows()))  # longest first, as the rows are numbered
        DRIVER.find_element("css selector", "#kernel-table th[data-key=time]").click()
        self.assertEqual(rows(), sorted(rows(), reverse=True))
        DRIVER.find_element("css selector", "#kernel-table th[data-key=label]").click()
        labels = js("return [...document.querySelectorAll('#kernel-table tbody td.name')].map((c) => c.textContent);")
        self.assertEqual(labels, sorted(labels))

    def test_filter_in_the_launchers_dialect(self):
        box = DRIVER.find_element("id", "filter")
        box.clear()
        box.send_keys("regex:transpose_")
        names = js("return [...document.querySelectorAll('#kernel-table tbody td.name')].map((c) => c.textContent);")
        self.assertEqual(sorted(names), ["transpose_naive", "transpose_padded"])
        box.send_keys("(?=x)")
        status = js("return document.getElementById('filter-status').textContent;")
        self.assertIn("look-around is not RE2 syntax", status)
        box.clear()
        box.send_keys(" ")
        box.clear()


# Per figure: the outline (corner points, screen pixels, turned as drawn) of each text people
# read, the markers' boxes, the figure's box, the tick labels and the kernel colours.
LAYOUT_JS = """
const outline = (e) => {
  const b = e.getBBox(), m = e.getScreenCTM();
  return [[b.x, b.y], [b.x + b.width, b.y], [b.x + b.width, b.y + b.height], [b.x, b.y + b.height]]
    .map(([x, y]) => { const p = new DOMPoint(x, y).matrixTransform(m); return [p.x, p.y]; });
};
const rect = (r) => [[r.left, r.top], [r.right, r.top], [r.right, r.bottom], [r.left, r.bottom]];
return [...document.querySelectorAll('.plot')].map((d) => {
  const texts = (sel, kind) => [...d.querySelectorAll(sel)].filter((e) => e.textContent.trim())
    .map((e) => ({ kind, text: e.textContent, shape: outline(e) }));
  return { id: d.id, box: rect(d.getBoundingClientRect()),
    texts: texts('.annotation-text', 'label').concat(texts('.legendtext', 'legend'),
      texts('.g-xtitle text, .g-ytitle text', 'axis title'), texts('.gtitle', 'title'),
      texts('.xtick text, .ytick text', 'tick')),
    markers: [...d.querySelectorAll('.scatterlayer .point')].map((e) => rect(e.getBoundingClientRect())),
    ticks: [...d.querySelectorAll('.xtick text')].map((e) => e.textContent),
    yticks: [...d.querySelectorAll('.ytick text')].map((e) => e.textContent) };
});
"""


ROOF_FIGURES = ("fig-irm", "fig-global-walls", "fig-shared-walls", "fig-flops-fp32")


def shapes_overlap(a, b, slack=0.5):
    """True when two convex outlines overlap by more than `slack` pixels on every axis."""
    for poly in (a, b):
        for i in range(len(poly)):
            (x0, y0), (x1, y1) = poly[i], poly[(i + 1) % len(poly)]
            nx, ny = y0 - y1, x1 - x0
            norm = (nx * nx + ny * ny) ** 0.5 or 1.0
            pa = [(x * nx + y * ny) / norm for x, y in a]
            pb = [(x * nx + y * ny) / norm for x, y in b]
            if max(pa) <= min(pb) + slack or max(pb) <= min(pa) + slack:
                return False
    return True


class Layout(unittest.TestCase):
    """Issue 53 item 8: the demo page at a laptop's 1024 px and a phone's 390 px: nothing runs
    past the window, no two texts of a figure overlap (roof labels, legend, titles, ticks), the
    roof labels cover no marker, log ticks read 0.1, 1, 10, 1k, and each kernel has its colour
    and its legend entry."""

    @classmethod
    def setUpClass(cls):
        cls.page = hs.html(hs.EXAMPLE, os.path.join(DIR, "layout.html"))
        cls.layouts = {}
        try:
            for width in (1024, 390):
                DRIVER.set_window_size(width, 900)
                bs.open_page(DRIVER, cls.page)
                cls.layouts[width] = (js("return [document.documentElement.scrollWidth, "
                                         "window.innerWidth];"), js(LAYOUT_JS))
                if width == 1024:
                    cls.colours = js("""const gd = document.getElementById('fig-irm');
                        return [gd.data.find((t) => t.name === 'L1').marker.color,
                                gd.data.find((t) => t.name === 'L1').customdata,
                                IRF.kernels.map((k) => (k.row + 1) + ' ' + k.label)];""")
        finally:
            DRIVER.set_window_size(1400, 1000)

    def test_nothing_runs_past_the_window(self):
        for width, ((scroll, inner), figures) in self.layouts.items():
            self.assertLessEqual(scroll, inner, f"{width} px")
            for f in figures:
                self.assertLessEqual(f["box"][1][0], inner, f"{width} px: {f['id']}")

    def test_no_two_texts_of_a_figure_overlap(self):
        for width, (_, figures) in self.layouts.items():
            for f in figures:
                texts = f["texts"]
                if f["id"] in ROOF_FIGURES:
                    self.assertTrue(any(t["kind"] == "label" for t in texts), f["id"])
                for i, a in enumerate(texts):
                    xs, ys = [p[0] for p in a["shape"]], [p[1] for p in a["shape"]]
                    box = f["box"]
                    self.assertTrue(min(xs) >= box[0][0] - 1 and max(xs) <= box[1][0] + 1 and
                                    min(ys) >= box[0][1] - 1 and max(ys) <= box[2][1] + 1,
                                    f"{width} px {f['id']}: {a['text']!r} outside the figure")
                    for b in texts[i + 1:]:
                        self.assertFalse(shapes_overlap(a["shape"], b["shape"]),
                                         f"{width} px {f['id']}: {a['kind']} {a['text']!r} "
                                         f"and {b['kind']} {b['text']!r}")

    def test_roof_labels_cover_no_marker(self):
        (_, figures) = self.layouts[1024]
        for f in figures:
            for t in f["texts"]:
                if t["kind"] == "label":
                    for m in f["markers"]:
                        self.assertFalse(shapes_overlap(t["shape"], m, slack=1.0),
                                         f"{f['id']}: {t['text']!r} covers a marker")

    def test_log_ticks_are_powers_of_ten_as_people_write_them(self):
        readable = {"0.0001", "0.001", "0.01", "0.1", "1", "10", "100", "1k", "10k", "100k",
                    "1M", "10M", "100M"}
        for width, (_, figures) in self.layouts.items():
            for f in figures:
                if f["id"] in ROOF_FIGURES:
                    for tick in f["ticks"] + f["yticks"]:
                        self.assertIn(tick, readable, f"{width} px {f['id']}")

    def test_each_kernel_has_its_colour_and_legend_entry(self):
        colours, rows, names = self.colours
        by_row = {}
        for colour, row in zip(colours, rows):
            by_row.setdefault(row, set()).add(colour)
        self.assertEqual(len(by_row), 5)
        self.assertTrue(all(len(c) == 1 for c in by_row.values()), by_row)
        self.assertEqual(len({next(iter(c)) for c in by_row.values()}), 5)
        (_, figures) = self.layouts[1024]
        legend = [t["text"] for f in figures if f["id"] == "fig-irm" for t in f["texts"]
                  if t["kind"] == "legend"]
        for name in names:
            self.assertIn(name, legend)


class OneDraw(unittest.TestCase):
    """The roof figures are drawn once: their labels are placed from the layout before Plotly
    draws, not moved after it (Plotly.relayout drew a WebGL figure of 10,000 kernels a second
    time; docs/performance.md, "HTML report"), at a laptop's and a phone's width."""

    def test_each_roof_figure_is_drawn_once(self):
        page = hs.html(hs.EXAMPLE, os.path.join(DIR, "once.html"))
        try:
            for width in (1024, 390):
                DRIVER.set_window_size(width, 900)
                bs.open_page(DRIVER, page)
                calls = js("""const done = arguments[arguments.length - 1], calls = [];
                    for (const name of ['newPlot', 'react', 'relayout', 'restyle', 'update', 'redraw']) {
                      const f = Plotly[name];
                      Plotly[name] = (...args) => { calls.push(name); return f(...args); };
                    }
                    Promise.all([IRF.drawInstructionRoofline(), IRF.drawWalls('global'),
                      IRF.drawWalls('shared'), IRF.drawFlopRoofline('fp32')])
                      .then(() => done(calls), (e) => done(String(e)));""", async_=True)
                self.assertEqual(calls, ["newPlot"] * 4, f"{width} px")
        finally:
            DRIVER.set_window_size(1400, 1000)


class JobPage(unittest.TestCase):
    """A merged job: the per-rank spread and the imbalance column."""

    def test_per_rank_spread(self):
        job = hs.job_profile(DIR)
        page = hs.html(job, os.path.join(DIR, "job.html"))
        bs.open_page(DRIVER, page)
        self.assertEqual(bs.console_errors(DRIVER), [])
        kernels = hs.load(job)["kernels"]
        expected = sum(len(k["ranks"]["per_rank"]) for k in kernels if "ranks" in k)
        self.assertEqual(js("return Number(document.getElementById('fig-ranks').dataset.points);"), expected)
        self.assertIn("rank imbalance", js("return document.getElementById('kernel-table').textContent;"))


class HostilePage(unittest.TestCase):
    """Script and markup in app, argv, host, kernel name, region path, warnings: shown, never run."""

    @classmethod
    def setUpClass(cls):
        cls.page = hs.html(hs.hostile_profile(DIR), os.path.join(DIR, "hostile.html"),
                           "--targets", hs.TARGETS)
        bs.open_page(DRIVER, cls.page)

    def test_nothing_runs(self):
        from selenium.common.exceptions import NoAlertPresentException
        with self.assertRaises(NoAlertPresentException):
            DRIVER.switch_to.alert.text  # noqa: B018
        self.assertIsNone(js("return window.irfPwned;"))
        self.assertEqual(js("return document.querySelectorAll('img').length;"), 0)
        self.assertEqual(bs.console_errors(DRIVER), [])

    def test_names_read_as_text(self):
        self.assertIn(hs.HOSTILE, js("return document.querySelector('h1').textContent;"))
        self.assertIn(hs.HOSTILE_ALERT, js("return document.getElementById('header').textContent;"))
        self.assertIn(hs.HOSTILE, js("return document.getElementById('regions').textContent;"))
        for name in (hs.HOSTILE_ALERT, hs.ENTITY_NAME):
            row = js("return IRF.kernels.findIndex((k) => k.name.startsWith(arguments[0]));", name)
            index = js("const t = document.getElementById('fig-irm')._fullData.find((d) => d.name === 'L1');"
                       "return t.customdata.indexOf(arguments[0]);", row)
            hover_and_click("fig-irm", "L1", index)
            # The name as the tables show it (a template-like <...> is folded there too).
            self.assertIn(js("return IRF.kernels[arguments[0]].label;", row), hover_text("fig-irm"))
        self.assertIn("&lt;b&gt;not_bold", hover_text("fig-irm"))
        # The region's diamond lies on its only kernel's HBM point: hover it by its trace.
        js("const gd = document.getElementById('fig-irm');"
           "Plotly.Fx.hover(gd, [{curveNumber: gd.data.findIndex((t) => t.name === 'NVTX regions'),"
           " pointNumber: 0}]);")
        self.assertIn("step/" + hs.HOSTILE, hover_text("fig-irm"))
        row = js("return IRF.kernels.findIndex((k) => k.name.startsWith(arguments[0]));", hs.HOSTILE_ALERT)
        js("IRF.select(arguments[0]);", row)
        self.assertIn(hs.HOSTILE_ALERT, js("return document.getElementById('detail-body').textContent;"))
        self.assertIn(hs.HOSTILE, js("return document.getElementById('detail-body').textContent;"))
        self.assertIsNone(js("return window.irfPwned;"))


class HostileFields(unittest.TestCase):
    """Issue 52 item 3: pipe, ceilings-pipe and precision names and a trajectory's name and
    verdict reach Plotly as text (no link, no styled text); the printed show command quotes."""

    @classmethod
    def setUpClass(cls):
        profile, trajectory = hs.hostile_fields(DIR)
        # A profile path that a shell would run code from when pasted unquoted.
        cls.source = os.path.join(DIR, "p $(touch pwned) 'x.json")
        shutil.copy(profile, cls.source)
        cls.page = hs.html(cls.source, os.path.join(DIR, "fields.html"), "--trajectory", trajectory)
        bs.open_page(DRIVER, cls.page)

    def assert_no_markup(self):
        self.assertEqual(js("return document.querySelectorAll('#figures svg a').length;"), 0)
        self.assertEqual(js("return document.querySelectorAll('[*|href*=\"example.com\"]').length;"), 0)

    def hover(self, figure, trace):
        js("const gd = document.getElementById(arguments[0]);"
           "Plotly.Fx.hover(gd, [{curveNumber: gd.data.findIndex((t) => t.name === arguments[1]),"
           " pointNumber: 0}]);", figure, trace)
        return hover_text(figure)

    def test_labels_and_titles_show_the_text_as_typed(self):
        self.assert_no_markup()
        labels = js("return [...document.querySelectorAll('#figures .annotation-text, #figures .gtitle,"
                    " #figures .legendtext')].map((e) => e.textContent).join(' | ');")
        self.assertIn(hs.LINK + " pipe", labels)  # the ceilings' pipe peak
        self.assertIn(hs.LINK + " FLOP roofline", labels)  # the precision's figure
        self.assertIn(hs.LINK, labels.replace(hs.LINK + " pipe", "").replace(hs.LINK + " FLOP", ""))
        self.assertEqual(bs.console_errors(DRIVER), [])

    def test_hovers_show_the_text_as_typed(self):
        self.assertIn("busiest pipe " + hs.LINK, self.hover("fig-irm", "busiest pipe"))
        self.assert_no_markup()
        trajectory = self.hover("fig-trajectory", js(
            "return document.getElementById('fig-trajectory').data[0].name;"))
        self.assertEqual(trajectory.count(hs.LINK), 2, trajectory)  # its name and its reason
        self.assert_no_markup()

    def test_show_command_is_one_word_per_argument(self):
        text = js("IRF.data.details[0] = null; IRF.select(0);"
                  "return document.querySelector('#detail-body pre').textContent;")
        label = js("return IRF.kernels[0].label;")
        self.assertEqual(shlex.split(text), ["irf-report", "show", "--", self.source, label])


if __name__ == "__main__":
    unittest.main()
