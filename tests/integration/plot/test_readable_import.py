# SPDX-License-Identifier: Apache-2.0
"""Issue 53 item 8 on a real import, not only the demo profile: the figures of a public A100
ncu export (tests/data/import/ncu-long-2024-a100-smsp-cycles-sgemm.csv, imported with
`irf-report import`) have every roof label drawn, no text over another text or a marker, and
each figure names inside the image the kernels it left out and why. (The panel's note on why
nothing is drawn covered the walls' labels before it was placed by the collision check.)"""
import json
import os
import re
import subprocess
import tempfile
import unittest

from plot_support import DATA_DIR, ROOT, have_matplotlib, run_plot, shapes_overlap

EXPORT = os.path.join(DATA_DIR, "import", "ncu-long-2024-a100-smsp-cycles-sgemm.csv")
REPORT = os.environ.get("IRF_REPORT_BIN", os.path.join(ROOT, "build", "ci", "tools", "irf-report"))
FIGURES = ("instruction_roofline", "global_walls", "shared_walls", "flop_roofline", "projection")


def left_out_numbers(texts):
    """The kernel numbers a figure's texts say were not drawn ("kernel(s) 1, 2 not drawn: why")."""
    out = set()
    for text in texts:
        for numbers, why in re.findall(r"kernel\(s\) ([\d, ]+) not drawn: (\S[^;]*)", text):
            out |= {int(n) for n in numbers.split(",")}
    return out


@unittest.skipUnless(have_matplotlib(), "python3-matplotlib is not installed")
class ImportedFigures(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if not os.access(REPORT, os.X_OK):
            raise AssertionError(f"irf-report not found at {REPORT} (set IRF_REPORT_BIN)")
        cls.dir = tempfile.TemporaryDirectory()
        profile = os.path.join(cls.dir.name, "sgemm.json")
        subprocess.run([REPORT, "import", EXPORT, "--gpu", "a100-sxm4-40gb", "-o", profile],
                       check=True, capture_output=True, text=True)
        dump = os.path.join(cls.dir.name, "data.json")
        code, err, _ = run_plot([profile, "-o", os.path.join(cls.dir.name, "out"), "--format",
                                 "png", "--dump-data", dump])
        if code != 0:
            raise AssertionError(err)
        with open(dump, encoding="utf-8") as f:
            cls.data = json.load(f)
        with open(profile, encoding="utf-8") as f:
            cls.kernels = len(json.load(f)["kernels"])

    @classmethod
    def tearDownClass(cls):
        cls.dir.cleanup()

    def test_no_text_overlaps_another_or_a_marker_and_no_roof_label_is_hidden(self):
        for figure in FIGURES:
            for ax in self.data[figure]["axes"]:
                for t in ax["texts"]:
                    if t["kind"] == "roof":
                        self.assertTrue(t["visible"], f"{figure}: {t['text']!r} hidden")
                shown = [t for t in ax["texts"] if t["visible"]]
                for i, a in enumerate(shown):
                    for b in shown[i + 1:]:
                        self.assertFalse(shapes_overlap(a["shape"], b["shape"]),
                                         f"{figure}: {a['text']!r} and {b['text']!r}")
                    for marker in ax["markers"]:
                        self.assertFalse(shapes_overlap(a["shape"], marker),
                                         f"{figure}: {a['text']!r} under a marker")

    def test_the_walls_keep_their_labels(self):
        # The export has no ld/st counters: the walls are drawn with their labels, and the
        # note saying so beside them.
        for figure, wanted in (("global_walls", ("stride-0", "unit stride (4-byte)",
                                                 "unit stride (8-byte)", "stride \u2265 8 / gather")),
                               ("shared_walls", ("no bank conflict", "32-way bank conflict"))):
            roofs = [t["text"] for ax in self.data[figure]["axes"] for t in ax["texts"]
                     if t["kind"] == "roof" and t["visible"]]
            for label in wanted:
                self.assertIn(label, roofs, figure)

    def test_every_figure_names_the_kernels_it_left_out_and_why(self):
        every = set(range(1, self.kernels + 1))
        self.assertEqual(self.kernels, 3)
        for figure in FIGURES:
            content = self.data[figure]
            drawn = {p["number"] for ax in content["axes"] for p in ax["points"]}
            drawn |= {r["number"] for r in content.get("rows", [])}
            texts = [t["text"].replace("\n", " ") for ax in content["axes"] for t in ax["texts"]
                     if t["visible"]] + [t["text"].replace("\n", " ")
                                         for t in content.get("footnotes", [])]
            said = left_out_numbers(texts)
            self.assertEqual(drawn | said, every, f"{figure}: drawn {drawn}, said {said}: {texts}")
            self.assertFalse(drawn & said, figure)
            for t in [t for ax in content["axes"] for t in ax["texts"]] + \
                    content.get("footnotes", []):
                if "not drawn" in t["text"]:
                    saved, box = content["saved"], t["box"]
                    self.assertTrue(saved[0] - 0.5 <= box[0] and box[2] <= saved[2] + 0.5 and
                                    saved[1] - 0.5 <= box[1] and box[3] <= saved[3] + 0.5,
                                    f"{figure}: {t['text']!r} outside the image")
        notes = " ".join(t["text"] for t in self.data["global_walls"]["axes"][0]["texts"])
        self.assertIn("kernel(s) 1, 2, 3 not drawn: counters absent: inst_global_ld, "
                      "inst_global_st", notes)
        projection = " ".join(t["text"].replace("\n", " ")
                              for t in self.data["projection"]["axes"][0]["texts"])
        self.assertIn("kernel(s) 1, 2, 3 not drawn: no instructions (inst_warp absent or 0)",
                      projection)


if __name__ == "__main__":
    unittest.main()
