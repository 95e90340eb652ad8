# SPDX-License-Identifier: Apache-2.0
"""Issue 53 item 7: a figure says inside the image which kernels it left out and why, and never
that a kernel issues no instructions when its counters or its time were not in the file; item
8: that footnote is wrapped inside the image."""
import tempfile
import unittest

from plot_support import figure_texts, golden, have_matplotlib, plot_data


def texts(data, figure):
    return figure_texts(data, figure)


def untimed(kernel):
    """`kernel` as an import without a duration writes it: null times, no GIPS."""
    kernel["time_ns"] = {"total": None, "min": None, "mean": None, "max": None}
    irm = kernel["analysis"]["irm"]
    irm["gips_warp"] = irm["gips_thread"] = irm["bound"] = irm["roofline_pct"] = None


class LeftOut(unittest.TestCase):
    @unittest.skipUnless(have_matplotlib(), "python3-matplotlib is not installed")
    def test_untimed_and_uncounted_kernels_are_named_with_their_reason(self):
        doc = golden()
        by_name = {k["name"].split("<")[0].split("(")[0]: k for k in doc["kernels"]}
        untimed(by_name["void transpose_naive"])
        # A reason longer than the figure is wide: the footnote wraps inside the image.
        gemm = by_name["void hgemm_wmma"]
        gemm["analysis"]["irm"] = None
        gemm["analysis"]["missing"].append("irm: counters absent: " + ", ".join(
            f"counter_with_a_long_name_{i}" for i in range(12)))
        triad = by_name["void stream_triad"]
        triad["analysis"]["walls"]["global"] = None
        triad["analysis"]["missing"].append(
            "walls.global: counters absent: inst_global_ld, inst_global_st")
        with tempfile.TemporaryDirectory() as tmp:
            code, err, data = plot_data(doc, tmp, "svg", ["--top", "6"],
                                        figures=["instruction_roofline", "global_walls"])
            self.assertEqual(code, 0, err)
            numbers = {p["kernel"]: p["number"] for ax in data["instruction_roofline"]["axes"]
                       for p in ax["points"]}
            self.assertNotIn("transpose_naive<float>", numbers)
            irm = " ".join(texts(data, "instruction_roofline"))
            self.assertRegex(irm, r"kernel\(s\) \d+ not drawn: no time in the file, so no GIPS")
            walls = " ".join(texts(data, "global_walls"))
            self.assertRegex(walls, r"kernel\(s\) [\d, ]+ not drawn: counters absent: "
                                    r"inst_global_ld, inst_global_st")
            self.assertNotIn("issues global-memory instructions", walls)
            self.assert_footnote_inside(data["instruction_roofline"], "counter_with_a_long_name_11")

    def assert_footnote_inside(self, fig, text):
        """Issue 53 item 8: the footnote is wrapped to the figure's width, below the panel,
        clear of the legend and inside the saved image (it ran past the image's edge)."""
        (note,) = fig["footnotes"]
        self.assertIn(text, note["text"])
        self.assertGreaterEqual(note["text"].count("\n"), 1)
        box, saved, width = note["box"], fig["saved"], fig["figure"][2]
        self.assertTrue(0 <= box[0] and box[2] <= width, (box, width))
        self.assertTrue(saved[0] <= box[0] and box[2] <= saved[2] and saved[1] <= box[1], saved)
        ax = fig["axes"][0]
        self.assertLess(box[3], ax["frame"][1])  # below the panel
        for legend in ax["legend_boxes"]:
            overlap = box[0] < legend[2] and legend[0] < box[2] and box[1] < legend[3] and \
                legend[1] < box[3]
            self.assertFalse(overlap, legend)

    @unittest.skipUnless(have_matplotlib(), "python3-matplotlib is not installed")
    def test_register_moves_are_no_uncounted_tensor_work(self):
        # hgemm_wmma's tensor instructions marked as HFMA2.MMA moves: it is drawn on its
        # CUDA-core panel and not named as an uncounted tensor-core kernel.
        doc = golden()
        for k in doc["kernels"]:
            if k["name"].startswith("void hgemm_wmma"):
                flops = k["analysis"]["flops"]
                flops["tensor"] = 0.0
                flops["fp32"] = flops["fp32"] or 1e6
                flops["gflops"] = flops["gflops"] or 1.0
                flops["tensor_register_moves"] = k["counters"]["inst_tensor"]
        with tempfile.TemporaryDirectory() as tmp:
            code, err, data = plot_data(doc, tmp, "svg", figures=["flop_roofline"])
            self.assertEqual(code, 0, err)
            notes = " ".join(texts(data, "flop_roofline"))
            self.assertNotIn("tensor-core kernel(s) not drawn", notes)

    @unittest.skipUnless(have_matplotlib(), "python3-matplotlib is not installed")
    def test_projection_names_the_kernels_it_left_out_beside_those_it_drew(self):
        # One kernel the analysis could not project (its own reason in analysis.missing), the
        # others projected: the figure names it with that reason (it did only when it drew none).
        doc = golden()
        by_name = {k["name"].split("<")[0].split("(")[0]: k for k in doc["kernels"]}
        triad = by_name["void stream_triad"]
        targets = [p["target"] for p in triad["analysis"]["projection"]]
        self.assertTrue(targets)
        triad["analysis"]["projection"] = []
        triad["analysis"]["missing"] += [f"projection[{t}]: no instructions (inst_warp absent "
                                         "or 0)" for t in targets]
        with tempfile.TemporaryDirectory() as tmp:
            code, err, data = plot_data(doc, tmp, "png",
                                        figures=["instruction_roofline", "projection"])
            self.assertEqual(code, 0, err)
            rows = data["projection"]["rows"]
            self.assertTrue(rows)
            self.assertNotIn("stream_triad", {r["kernel"] for r in rows})
            (note,) = data["projection"]["footnotes"]
            number = {p["kernel"]: p["number"] for ax in data["instruction_roofline"]["axes"]
                      for p in ax["points"]}["stream_triad"]
            self.assertIn(f"kernel(s) {number} not drawn: no instructions (inst_warp absent or 0)",
                          note["text"].replace("\n", " "))
            saved, box = data["projection"]["saved"], note["box"]
            self.assertTrue(saved[0] - 0.5 <= box[0] and box[2] <= saved[2] + 0.5 and
                            saved[1] - 0.5 <= box[1] and box[3] <= saved[3] + 0.5, (box, saved))


if __name__ == "__main__":
    unittest.main()
