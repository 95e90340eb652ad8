# SPDX-License-Identifier: Apache-2.0
"""irf-report html without a browser: the page is one file whose only tags are the template's,
hostile names stay data (issue 35 item 7), nothing points outside the file (item 1), and bad
input is one line, exit 2, nothing written."""
import html.parser
import json
import os
import re
import shutil
import subprocess
import unittest

import html_support as hs

TEMPLATE_TAGS = {"html", "head", "meta", "title", "style", "body", "header", "nav", "main",
                 "section", "h2", "div", "label", "code", "input", "span", "table", "p",
                 "script", "a"}


class TagCollector(html.parser.HTMLParser):
    """Every start tag and attribute as a browser's tokenizer sees them (script text is raw)."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tags, self.attrs, self.scripts = [], [], []
        self._in_script = False

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self.attrs += attrs
        self._in_script = tag == "script"
        if self._in_script:
            self.scripts.append([dict(attrs), ""])

    def handle_endtag(self, tag):
        self._in_script = False

    def handle_data(self, data):
        if self._in_script:
            self.scripts[-1][1] += data


def parse(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    collector = TagCollector()
    collector.feed(text)
    return text, collector


class HostilePage(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = hs.workdir()
        cls.page = hs.html(hs.hostile_profile(cls.dir), os.path.join(cls.dir, "hostile.html"),
                           "--targets", hs.TARGETS)
        cls.text, cls.parsed = parse(cls.page)

    def test_only_the_templates_tags(self):
        self.assertLessEqual(set(self.parsed.tags), TEMPLATE_TAGS)
        self.assertNotIn("img", self.parsed.tags)
        self.assertEqual(self.parsed.tags.count("script"), 3)  # library, data, page scripts

    def test_no_event_handler_attributes(self):
        self.assertEqual([a for a, _ in self.parsed.attrs if a.startswith("on")], [])

    def test_names_are_data_in_the_json_block(self):
        blocks = [s for a, s in self.parsed.scripts if a.get("type") == "application/json"]
        self.assertEqual(len(blocks), 1)
        data = json.loads(blocks[0])
        self.assertEqual(data["header"]["app"], hs.HOSTILE)
        self.assertEqual(data["header"]["host"], hs.HOSTILE_ALERT)
        self.assertIn(hs.HOSTILE, data["header"]["warnings"])
        self.assertTrue(any(row[1].startswith(hs.HOSTILE_ALERT) for row in data["kernels"]))
        self.assertTrue(any(hs.HOSTILE in r[0] for r in data["regions"]))
        self.assertNotRegex(blocks[0], "[<>&]")  # written as \\u003c, \\u003e, \\u0026

    def test_no_closing_script_inside_a_script(self):
        for _, body in self.parsed.scripts:
            self.assertNotRegex(body.lower(), "</script")


class SelfContained(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = hs.workdir()
        cls.page = hs.html(hs.EXAMPLE, os.path.join(cls.dir, "demo.html"))
        cls.text, cls.parsed = parse(cls.page)

    def test_nothing_loads_from_elsewhere(self):
        for name, value in self.parsed.attrs:
            self.assertNotIn(name, ("src", "action"), value)
            if name == "href":
                self.assertTrue(value.startswith("#"), value)  # links within the page only
        self.assertNotRegex(self.text, r'<link\b|<script[^>]+src=|@import|url\(\s*["\']?https?:')

    def test_content_security_policy_forbids_the_network(self):
        self.assertRegex(self.text, r"connect-src 'none'")
        self.assertRegex(self.text, r"default-src 'none'")

    def test_pinned_library_and_its_licence_notice(self):
        self.assertRegex(self.text, r"plotly\.js v4\.1\.2")
        self.assertRegex(self.text, r"Licensed under the MIT license")

    def test_default_output_beside_the_profile(self):
        profile = hs.save(hs.load(hs.EXAMPLE), self.dir, "side.json")
        proc = hs.run_report("html", profile)
        self.assertTrue(os.path.isfile(os.path.join(self.dir, "side.html")), proc.stderr)


class BadInput(unittest.TestCase):
    def setUp(self):
        self.dir = hs.workdir()
        self.out = os.path.join(self.dir, "out.html")

    def assert_refused(self, args, pattern):
        proc = hs.run_report("html", *args, "-o", self.out, check=False)
        self.assertEqual(proc.returncode, 2, proc.stderr)
        self.assertEqual(len(proc.stderr.strip().splitlines()), 1, proc.stderr)
        self.assertRegex(proc.stderr, pattern)
        self.assertEqual(os.listdir(self.dir), [p for p in os.listdir(self.dir) if p != "out.html"])
        self.assertFalse(os.path.exists(self.out))

    def test_missing_profile(self):
        self.assert_refused([os.path.join(self.dir, "none.json")], r"^irf-report: error: .*none\.json")

    def test_not_a_profile(self):
        path = hs.save({"schema": "other"}, self.dir, "other.json")
        self.assert_refused([path], r"^irf-report: error: .*other\.json")

    def test_not_a_trajectory(self):
        path = hs.save({"schema": "irf.profile/v1"}, self.dir, "t.json")
        self.assert_refused([hs.EXAMPLE, "--trajectory", path], r"not an irf\.trajectory/v1")

    def test_fields_that_are_words_of_irf_are_checked(self):
        # Issue 52 item 3: bound, wall pattern, confidence and bound source/target reach the
        # page's figures; a value that is none of irf's is refused, without quoting it.
        base = hs.analysed(hs.EXAMPLE, self.dir, "analysed.json")
        for pointer in (("irm", "bound"), ("walls", "global", "pattern"),
                        ("projection", 0, "confidence"), ("projection", 0, "bound", "source"),
                        ("projection", 0, "bound", "target")):
            p = json.loads(json.dumps(base))
            node = p["kernels"][0]["analysis"]
            for key in pointer[:-1]:
                node = node[key]
            node[pointer[-1]] = hs.LINK
            path = hs.save(p, self.dir, "field.json")
            field = ".".join(str(k) for k in pointer).replace(".0.", "[0].")
            with self.subTest(field=field):
                self.assert_refused([path], r"kernels\[0\]\.analysis\." + re.escape(field) +
                                    r": not one of ")
                self.assertNotIn("example.com", hs.run_report("html", path, check=False).stderr)

    def test_malformed_trajectory_is_one_line(self):
        # Each was an internal error (exit 3) or a page whose figures never completed.
        good = hs.load(hs.trajectory(self.dir))
        cases = {
            "kernels[0]: not an object": lambda t: t["kernels"].__setitem__(0, 1),
            "kernels[0].name": lambda t: t["kernels"][0].__setitem__("name", 5),
            "kernels[0].points": lambda t: t["kernels"][0].__setitem__("points", "x"),
            "points[0].sms": lambda t: t["kernels"][0]["points"][0].__setitem__("sms", "<b>1</b>"),
            "points[1].sms": lambda t: t["kernels"][0]["points"][1].__setitem__("sms", 0),
            "points[0].time_ns": lambda t: t["kernels"][0]["points"][0].__setitem__("time_ns", "1"),
            "points[0].gips_warp": lambda t: t["kernels"][0]["points"][0].__setitem__("gips_warp", []),
            "points[0].ii": lambda t: t["kernels"][0]["points"][0].__setitem__("ii", "x"),
            "points[0].ii.hbm": lambda t: t["kernels"][0]["points"][0]["ii"].__setitem__("hbm", {}),
            "points[0]: not an object": lambda t: t["kernels"][0]["points"].__setitem__(0, None),
            "verdict.kind": lambda t: t["kernels"][0].__setitem__("verdict", "ideal"),
            "verdict.kind: not a verdict": lambda t: t["kernels"][0]["verdict"].__setitem__("kind", hs.LINK),
            "verdict.reason": lambda t: t["kernels"][0]["verdict"].__setitem__("reason", 5),
        }
        for where, spoil in cases.items():
            t = json.loads(json.dumps(good))
            spoil(t)
            path = hs.save(t, self.dir, "bad.trajectory.json")
            with self.subTest(where=where):
                self.assert_refused([hs.EXAMPLE, "--trajectory", path],
                                    r"^irf-report: error: .*bad\.trajectory\.json: .*" +
                                    re.escape(where.split(": ")[0]))

    def test_unwritable_output(self):
        proc = hs.run_report("html", hs.EXAMPLE, "-o", os.path.join(self.dir, "no", "x.html"),
                             check=False)
        self.assertEqual(proc.returncode, 2, proc.stderr)
        self.assertEqual(len(proc.stderr.strip().splitlines()), 1, proc.stderr)


def page_data(page):
    """The page's data block (the JSON the scripts read)."""
    _, parsed = parse(page)
    return json.loads(next(text for attrs, text in parsed.scripts if attrs.get("id") == "irf-data"))


def page_library_value(page, expression):
    """`expression` (JavaScript, a string or JSON value) evaluated by node with the page's first
    script part (report_util.js: the data and IRF's helpers) loaded."""
    _, parsed = parse(page)
    script_text = parsed.scripts[2][1]
    library = script_text[:script_text.index("// irf's HTML report, part 2 of 5")]
    data = next(text for attrs, text in parsed.scripts if attrs.get("id") == "irf-data")
    script = ("globalThis.performance = { now: () => 0 };\n"
              "globalThis.document = { getElementById: () => ({ textContent: %s }) };\n"
              "%s\nprocess.stdout.write(JSON.stringify(%s));\n"
              % (json.dumps(data), library, expression))
    proc = subprocess.run(["node", "-e", script], capture_output=True, text=True, timeout=60)
    if proc.returncode != 0:
        raise AssertionError(proc.stderr)
    return json.loads(proc.stdout)


def empty_roofline_note(page):
    """IRF.noPointsReason() as the page's library computes it, run by node on the page's data."""
    _, parsed = parse(page)
    # Part 1 of the page's script (report_util.js) holds the data and IRF.noPointsReason; the
    # later parts draw into the DOM.
    script_text = parsed.scripts[2][1]
    library = script_text[:script_text.index("// irf's HTML report, part 2 of 5")]
    data = next(text for attrs, text in parsed.scripts if attrs.get("id") == "irf-data")
    script = ("globalThis.performance = { now: () => 0 };\n"
              "globalThis.document = { getElementById: () => ({ textContent: %s }) };\n"
              "%s\nprocess.stdout.write(IRF.noPointsReason());\n" % (json.dumps(data), library))
    proc = subprocess.run(["node", "-e", script], capture_output=True, text=True, timeout=60)
    if proc.returncode != 0:
        raise AssertionError(proc.stderr)
    return proc.stdout


@unittest.skipUnless(shutil.which("node"), "node is not installed")
class EmptyRooflineSaysWhy(unittest.TestCase):
    """A profile with counters but none of the Instruction Roofline's is not "timing-only"
    (issue 53 item 7): the page says the analysis's reason; an import without counters says
    its files had none, and only irf's own run without counters is called --samples 0."""

    @classmethod
    def setUpClass(cls):
        cls.dir = hs.workdir()

    def profile(self, name, strip, imported=False):
        p = hs.load(hs.EXAMPLE)
        for k in p["kernels"]:
            k.pop("analysis", None)
            for c in strip(k["counters"]):
                k["counters"].pop(c, None)
        if imported:
            p["import"] = {"tool": "ncu", "version": "", "files": ["run.csv"],
                           "formats": ["ncu-long"]}
        raw = hs.save(p, self.dir, name + "-raw.json")
        out = os.path.join(self.dir, name + ".json")
        hs.run_report("analyze", raw, "--targets", "none", "-o", out)
        return hs.html(out, os.path.join(self.dir, name + ".html"))

    def test_counters_without_instructions_give_the_analysis_reason(self):
        page = self.profile("noinst", lambda c: ["inst_warp", "inst_thread"], imported=True)
        rows = page_data(page)
        column = rows["columns"].index("irm_missing")
        self.assertEqual({k[column] for k in rows["kernels"]},
                         {"irm: counters absent: inst_warp, inst_thread"})
        note = empty_roofline_note(page)
        self.assertIn("irm: counters absent: inst_warp, inst_thread", note)
        self.assertNotIn("timing-only", note)
        self.assertNotIn("--samples 0", note)

    def test_an_import_without_counters_says_its_files_had_none(self):
        note = empty_roofline_note(self.profile("nocounters", lambda c: list(c), imported=True))
        self.assertIn("the imported files have none", note)
        self.assertNotIn("--samples 0", note)

    def test_irfs_own_run_without_counters_is_timing_only(self):
        note = empty_roofline_note(self.profile("timing", lambda c: list(c)))
        self.assertIn("timing-only profile: --samples 0", note)


if __name__ == "__main__":
    unittest.main()


@unittest.skipUnless(shutil.which("node"), "node is not installed")
class RoofsAtTheTextsClock(unittest.TestCase):
    """The SM-side roofs are drawn at the clock the longest kernel's analysis used, as irf-plot
    draws them and the text's roof% reads them (issue 53 item 8); L2, HBM and tensor peaks keep
    theirs."""

    def test_roofs_follow_the_longest_kernels_measured_clock(self):
        directory = hs.workdir()
        analysed = hs.analysed(hs.EXAMPLE, directory, "clock.json")
        page = hs.html(os.path.join(directory, "clock.json"), os.path.join(directory, "clock.html"))
        data = page_data(page)
        clock = data["header"]["roof_clock"]
        longest = max(analysed["kernels"], key=lambda k: k["time_ns"]["total"])
        note = next(n for n in longest["analysis"]["notes"] if n.startswith("clock: ran at"))
        mhz, fraction = re.match(r"clock: ran at (\d+) MHz, ([0-9.]+) of the boost", note).groups()
        self.assertEqual(clock["mhz"], float(mhz))
        self.assertEqual(clock["fraction"], float(fraction))
        self.assertLess(clock["fraction"], 1.0)
        used = data["header"]["ceilings_used"]
        drawn = page_library_value(page, "IRF.ceilings()")
        self.assertAlmostEqual(drawn["warp_gips"], used["warp_gips"] * clock["fraction"])
        self.assertAlmostEqual(drawn["gtxn_per_s"]["l1"], used["gtxn_per_s"]["l1"] * clock["fraction"])
        self.assertEqual(drawn["gtxn_per_s"]["l2"], used["gtxn_per_s"]["l2"])
        self.assertEqual(drawn["gtxn_per_s"]["hbm"], used["gtxn_per_s"]["hbm"])
        for key, value in used.get("gflops", {}).items():
            expected = value if key.startswith("tensor_") else value * clock["fraction"]
            self.assertAlmostEqual(drawn["gflops"][key], expected, msg=key)
        self.assertEqual(page_library_value(page, "IRF.atClock()"), " at %s MHz" % mhz)
