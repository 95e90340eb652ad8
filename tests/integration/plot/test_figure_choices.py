# SPDX-License-Identifier: Apache-2.0
"""#41 item 11: what each figure chooses to draw, and how it numbers and explains it, read from
irf-plot --dump-data."""
import json
import os
import tempfile
import unittest

from plot_support import (GOLDEN, figure_texts, golden, have_matplotlib, plot_data, run_plot,
                          run_plot_in_process)


class FigureChoices(unittest.TestCase):
    """#41 item 11: what each figure chooses to draw, and how it numbers and explains it."""

    @unittest.skipUnless(have_matplotlib(), "python3-matplotlib is not installed")
    def test_a_selected_kernel_keeps_its_number_in_the_table(self):
        # The golden profile's table (docs/tools.md): 1 gsrb_branch (16.0 ms),
        # 2 transpose_naive (12.0 ms), 3 transpose_coalesced (5.50 ms). Selected alone it is
        # still 3, not 1.
        with tempfile.TemporaryDirectory() as tmp:
            code, err, data = plot_data(golden(), tmp, "svg", ["--kernels", "coalesced"],
                                        figures=["instruction_roofline"])
            self.assertEqual(code, 0, err)
            numbers = {p["number"] for p in data["instruction_roofline"]["axes"][0]["points"]}
            self.assertEqual(numbers, {3})

    @unittest.skipUnless(have_matplotlib(), "python3-matplotlib is not installed")
    def test_shared_walls_show_the_conflicted_kernel_first(self):
        # --top 1 keeps gsrb_branch (16.0 ms, #1) on the rooflines; the shared walls show the
        # kernel whose conflicts matter most: transpose_coalesced (#3, 8.5-way, 5.5 ms x
        # (1 - 1/8.5) = 4.85 ms), not the top kernel by time.
        with tempfile.TemporaryDirectory() as tmp:
            code, err, data = plot_data(golden(), tmp, "svg", ["--top", "1"],
                                        figures=["instruction_roofline", "shared_walls"])
            self.assertEqual(code, 0, err)
            irm = {p["number"] for p in data["instruction_roofline"]["axes"][0]["points"]}
            shared = {p["number"] for p in data["shared_walls"]["axes"][0]["points"]}
            self.assertEqual(irm, {1})
            self.assertEqual(shared, {3})

    @unittest.skipUnless(have_matplotlib(), "python3-matplotlib is not installed")
    def test_a_tensor_kernel_without_tensor_flops_is_not_drawn_as_fp32(self):
        # hgemm_wmma ran 33,554,432 tensor instructions; without the tensor_types counters its
        # only FLOPs would be CUDA-core ones, and it used to land on the FP32 panel.
        doc = golden()
        for k in doc["kernels"]:
            if k["name"].startswith("void hgemm_wmma"):
                flops = k["analysis"]["flops"]
                flops["tensor"] = 0.0
                flops["fp32"] = flops["fp32"] or 1e6
                flops["gflops"] = flops["gflops"] or 1.0
        with tempfile.TemporaryDirectory() as tmp:
            code, err, data = plot_data(doc, tmp, "svg", figures=["flop_roofline"])
            self.assertEqual(code, 0, err)
            drawn = [p["kernel"] for ax in data["flop_roofline"]["axes"] for p in ax["points"]]
            self.assertFalse(any(name.startswith("hgemm_wmma") for name in drawn), drawn)
            texts = figure_texts(data, "flop_roofline")
            self.assertTrue(any("tensor-core kernel(s) not drawn" in t and
                                "IRF_METRICS=tensor_types" in t for t in texts), texts)

    @unittest.skipUnless(have_matplotlib(), "python3-matplotlib is not installed")
    def test_tma_kernels_on_the_global_walls_are_explained(self):
        doc = golden()
        doc["kernels"][1]["analysis"]["notes"] = [
            "irm.ii.l1: L2 sectors (9e+06) exceed L1 sectors (1e+06): copies that bypass the "
            "LSU counters (TMA) are not in L1 intensity, which is overstated"]
        with tempfile.TemporaryDirectory() as tmp:
            code, err, data = plot_data(doc, tmp, "svg", figures=["global_walls"])
            self.assertEqual(code, 0, err)
            texts = " ".join(figure_texts(data, "global_walls"))
            # kernels[1] is transpose_coalesced, #3 by time; #6 (hgemm_wmma) has the note in
            # the golden profile already.
            # Either wording of the note (TMA from cc 9.0, LDGSTS or partitions before) counts.
            self.assertIn("kernel(s) 3, 6: most of their traffic is not in the LSU counters (TMA "
                          "copies, or LDGSTS before Hopper), so their ld/st point (often at the "
                          "edge) shows only the rest", texts)


@unittest.skipUnless(have_matplotlib(), "python3-matplotlib is not installed")
class FiguresOption(unittest.TestCase):
    """--figures draws only the figures named (docs/tools.md, irf-plot)."""

    def test_only_the_named_figures_are_written_and_dumped(self):
        with tempfile.TemporaryDirectory() as tmp:
            out, dump = os.path.join(tmp, "out"), os.path.join(tmp, "data.json")
            code, err, _ = run_plot([GOLDEN, "-o", out, "--format", "svg", "--dump-data", dump,
                                     "--figures", "projection, instruction_roofline"])
            self.assertEqual(code, 0, err)
            self.assertEqual(sorted(os.listdir(out)),
                             ["instruction_roofline.svg", "projection.svg"])
            with open(dump, encoding="utf-8") as f:
                self.assertEqual(sorted(json.load(f)), ["instruction_roofline", "projection"])

    def test_wrong_lists_are_one_line_and_exit_2(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "out")
            cases = [([GOLDEN, "--figures", "roofline"], "--figures 'roofline': expected a comma "
                      "list of instruction_roofline, global_walls, shared_walls, flop_roofline, "
                      "projection"),
                     ([GOLDEN, "--figures", " , "], "--figures ' , ': expected"),
                     (["--compare", GOLDEN, GOLDEN, "--figures", "projection"],
                      "--figures projection: --compare draws no projection figure"),
                     (["--trajectory", GOLDEN, "--figures", "global_walls"],
                      "--figures: the trajectory figures are drawn together")]
            for args, message in cases:
                code, err = run_plot_in_process(args + ["-o", out])
                self.assertEqual(code, 2, args)
                self.assertIn(message, err)
                self.assertEqual(err.count("\n"), 1, err)
                self.assertFalse(os.path.exists(out))


if __name__ == "__main__":
    unittest.main()
