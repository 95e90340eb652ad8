# SPDX-License-Identifier: Apache-2.0
"""Issue 53 item 7: a figure says inside the image which kernels it left out and why, and never
that a kernel issues no instructions when its counters or its time were not in the file."""
import tempfile
import unittest

from plot_support import golden, have_matplotlib, plot_data


def texts(data, figure):
    return [t["text"] for ax in data[figure]["axes"] for t in ax["texts"]]


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
        triad = by_name["void stream_triad"]
        triad["analysis"]["walls"]["global"] = None
        triad["analysis"]["missing"].append(
            "walls.global: counters absent: inst_global_ld, inst_global_st")
        with tempfile.TemporaryDirectory() as tmp:
            code, err, data = plot_data(doc, tmp, "svg", ["--top", "6"])
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
            code, err, data = plot_data(doc, tmp, "svg")
            self.assertEqual(code, 0, err)
            notes = " ".join(texts(data, "flop_roofline"))
            self.assertNotIn("tensor-core kernel(s) not drawn", notes)


if __name__ == "__main__":
    unittest.main()
