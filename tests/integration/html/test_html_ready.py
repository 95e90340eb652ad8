# SPDX-License-Identifier: Apache-2.0
"""The readiness benchmark of the HTML report (issue 35 items 1 and 6; docs/performance.md,
"HTML report"): a page of 10,000 kernels is under 10 MB, draws every figure with the right
number of points, and is ready (header, Instruction Roofline and kernel table usable) in under
3 s in headless Chromium; the time until every figure is drawn and the browser's CPU time are
printed beside it. Run alone (ctest RUN_SERIAL): it is a time."""
import json
import os
import unittest

import browser_support as bs
import html_support as hs

# The 3 s goal is judged where it is asked for (IRF_HTML_READY_MS=3000, docs/performance.md):
# CI's 2-core machines draw WebGL in software after a build and the whole suite, and a time
# measured there says more about the machine than about the page, so CI prints it only.
READY_MS = os.environ.get("IRF_HTML_READY_MS")


class TenThousandKernels(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = hs.workdir()
        cls.driver = bs.start_browser()

    @classmethod
    def tearDownClass(cls):
        cls.driver.quit()

    def test_ready_in_under_3_s_and_under_10_mb(self):
        profile = hs.big_profile(self.dir)
        page = hs.html(profile, os.path.join(self.dir, "big.html"), "--targets", "b200")
        size = os.path.getsize(page)
        cpu = {}

        def take(when):
            for kind in ("renderer", "gpu-process"):
                cpu[when, kind] = bs.process_cpu_seconds(self.driver, kind)
        take("start")
        ready, complete = bs.open_page(self.driver, page, on_ready=lambda: take("ready"))
        take("complete")
        used = {f"{kind} until {when}": cpu[when, kind] - cpu["start", kind]
                for when in ("ready", "complete") for kind in ("renderer", "gpu-process")}
        load = os.getloadavg()[0]
        timings = self.driver.execute_script("return JSON.stringify(IRF.timings);")
        print(f"\n[bench] html 10000 kernels: {size / 1e6:.2f} MB, ready in {ready:.0f} ms, "
              f"every figure drawn in {complete:.0f} ms; CPU s: "
              + ", ".join(f"{k} {v:.2f}" for k, v in used.items())
              + f"; load average {load:.1f} on {os.cpu_count()} CPUs (steps, ms since "
              f"navigation: {timings})", flush=True)
        self.assertLess(size, 10e6)
        self.assertEqual(bs.console_errors(self.driver), [])
        rows = self.driver.execute_script(
            "return document.querySelectorAll('#kernel-table tbody tr').length;")
        self.assertEqual(rows, 500)
        drawn = json.loads(self.driver.execute_script(
            "return JSON.stringify(Object.fromEntries([...document.querySelectorAll('.plot')]"
            ".map((d) => [d.id.slice(4), Number(d.dataset.points)])));"))
        expected = bs.expected_points(hs.analysed(profile, self.dir, "big-analysed.json", "b200"))
        self.assertEqual(drawn, expected)
        # One draw per figure (no label moved after it), and the kernels without a colour of
        # their own in one single-colour trace: per-point colours only for the coloured ten.
        relaid = self.driver.execute_script(
            "return [...document.querySelectorAll('.plot')].filter((d) => d.dataset.relaid)"
            ".map((d) => d.id + ' ' + d.dataset.relaid);")
        self.assertEqual(relaid, [])
        colours = self.driver.execute_script(
            "return [...document.querySelectorAll('.plot')].map((d) => d.data.map((t) =>"
            " Array.isArray((t.marker || {}).color) ? t.marker.color.length : 0))"
            ".reduce((a, b) => a.concat(b), []);")
        self.assertLessEqual(max(colours), 10)
        # The ready time is judged on a machine doing nothing else (CI runs this test alone,
        # RUN_SERIAL). Where the load is above the CPUs, wall time measures the other work too
        # (and the browser's own CPU time cannot be cut at "ready" from outside): the figures
        # above are printed, the time is not judged, and the line says so.
        if READY_MS is None or load > os.cpu_count():
            print(f"[bench] ready time not judged: IRF_HTML_READY_MS "
                  f"{'unset' if READY_MS is None else 'set'}, load average {load:.1f} on "
                  f"{os.cpu_count()} CPUs", flush=True)
            return
        self.assertLess(ready, float(READY_MS))

if __name__ == "__main__":
    unittest.main()
