# SPDX-License-Identifier: Apache-2.0
"""Issue 53 item 8: the PNG figures people read. On the demo profile every roof label is drawn,
none overlaps another label or covers a marker (outlines as drawn, slanted ones slanted), each
lies inside the saved image; the roofs are drawn at the clock the text's roof% uses. (A long
footnote wrapped inside the image: test_left_out.py.)"""
import json
import os
import tempfile
import unittest

from plot_support import DATA_DIR, have_matplotlib, run_plot, shapes_overlap

DEMO = os.path.join(DATA_DIR, "examples", "demo-profile.json")
ROOF_FIGURES = ("instruction_roofline", "global_walls", "shared_walls", "flop_roofline")


def inside(box, frame):
    """True when the pixel box [x0, y0, x1, y1] lies within `frame` (half a pixel of slack)."""
    return (frame[0] - 0.5 <= box[0] and box[2] <= frame[2] + 0.5 and
            frame[1] - 0.5 <= box[1] and box[3] <= frame[3] + 0.5)


@unittest.skipUnless(have_matplotlib(), "python3-matplotlib is not installed")
class DemoFigures(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.TemporaryDirectory()
        dump = os.path.join(cls.dir.name, "data.json")
        cls.result = run_plot([DEMO, "-o", os.path.join(cls.dir.name, "out"), "--format", "png",
                               "--dump-data", dump])
        with open(dump, encoding="utf-8") as f:
            cls.data = json.load(f)
        with open(DEMO, encoding="utf-8") as f:
            cls.doc = json.load(f)

    @classmethod
    def tearDownClass(cls):
        cls.dir.cleanup()

    def roof_texts(self, figure):
        return [t for ax in self.data[figure]["axes"] for t in ax["texts"]
                if t["kind"] == "roof"]

    def test_every_roof_label_is_drawn(self):
        self.assertEqual(self.result[0], 0, self.result[1])
        for figure, wanted in (("instruction_roofline", ("peak", "L1", "L2", "HBM", "lsu pipe")),
                               ("flop_roofline", ("FP32 FMA", "FP32 no-FMA", "L1", "L2", "HBM"))):
            texts = self.roof_texts(figure)
            for prefix in wanted:
                label = [t for t in texts if t["text"].startswith(prefix + " ")]
                self.assertEqual(len(label), 1, f"{figure}: {prefix}: {texts}")
                self.assertTrue(label[0]["visible"], f"{figure}: {label[0]['text']} hidden")

    def test_no_label_overlaps_another_or_covers_a_marker(self):
        for figure in ROOF_FIGURES:
            for ax in self.data[figure]["axes"]:
                shown = [t for t in ax["texts"] if t["visible"]]
                for i, a in enumerate(shown):
                    for b in shown[i + 1:]:
                        self.assertFalse(shapes_overlap(a["shape"], b["shape"]),
                                         f"{figure}: {a['text']!r} and {b['text']!r}")
                    for marker in ax["markers"]:
                        self.assertFalse(shapes_overlap(a["shape"], marker),
                                         f"{figure}: {a['text']!r} under a marker")

    def test_roof_labels_lie_inside_their_panel_and_the_image(self):
        for figure in ROOF_FIGURES:
            saved = self.data[figure]["saved"]
            for ax in self.data[figure]["axes"]:
                for t in ax["texts"]:
                    if t["visible"]:
                        self.assertTrue(inside(t["box"], saved), f"{figure}: {t['text']!r}")
                    if t["kind"] == "roof":
                        self.assertTrue(inside(t["box"], ax["frame"]), f"{figure}: {t['text']}")

    def test_roofs_are_drawn_at_the_clock_the_text_uses(self):
        # Kernel 1 (stream_triad) ran at 1892.58 MHz of the H100's 1980: its L1 roof in the
        # analysis is its warp peak 1045.4 x 1892.58 / 1980 = 999.2 warp GIPS, the peak drawn.
        triad = self.doc["kernels"][0]
        self.assertIn("stream_triad", triad["name"])
        roof = triad["analysis"]["irm"]["roofline_gips"]["l1"]
        self.assertAlmostEqual(roof, 1045.4 * 1892584408.9038534 / 1.98e9, places=6)
        (peak,) = [t["text"] for t in self.roof_texts("instruction_roofline")
                   if t["text"].startswith("peak")]
        self.assertEqual(peak, f"peak {roof:,.1f} warp GIPS at 1893 MHz")
        notes = " ".join(t["text"].replace("\n", " ")
                         for t in self.data["instruction_roofline"]["footnotes"])
        self.assertIn("drawn at 1893 MHz, kernel 1's clock", notes)
        # FP32 FMA: 66,908.2 GFLOP/s x 1892.58 / 1980 = 63.95 TFLOP/s.
        fma = [t["text"] for t in self.roof_texts("flop_roofline")
               if t["text"].startswith("FP32 FMA")]
        self.assertEqual(fma, ["FP32 FMA 64.0 TFLOP/s at 1893 MHz"])
        # L2 and HBM do not follow the SM clock.
        self.assertTrue(any(t["text"] == "HBM 104.8 GTXN/s"
                            for t in self.roof_texts("instruction_roofline")))


if __name__ == "__main__":
    unittest.main()
