# SPDX-License-Identifier: Apache-2.0
"""irf-plot: temporaries never follow planted symlinks (#22 item 4); hostile input is one line and
exit 2 in bounded time (#22 item 6); the figures' data: positions, labels, colours, edge arrows,
nested rings, no overlapping labels, PDF (#21 item 8)."""
import json
import math
import os
import stat
import tempfile
import unittest

from plot_support import (golden, have_matplotlib, kernel_at, plot_data,
                          run_plot, shapes_overlap, write_json)


@unittest.skipUnless(have_matplotlib(), "python3-matplotlib is not installed")
class SaveThroughTemporary(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.out = self.dir.name
        import irf_plot
        self.irf_plot = irf_plot
        self.plt = irf_plot.import_pyplot()

    def tearDown(self):
        self.dir.cleanup()

    def figure(self):
        fig = self.plt.figure(figsize=(2, 2))
        fig.add_subplot(111).plot([1, 2], [1, 2])
        return fig

    def test_planted_symlink_at_the_old_temporary_name_is_not_followed(self):
        victim = os.path.join(self.out, "victim.txt")
        with open(victim, "w") as f:
            f.write("precious")
        # The name irf-plot used before: .<figure>.<pid>.tmp, predictable by another user.
        os.symlink(victim, os.path.join(self.out, f".fig.{os.getpid()}.tmp"))
        written = self.irf_plot.save(self.plt, self.figure(), self.out, "fig", ["png"])
        self.assertEqual(written, [os.path.join(self.out, "fig.png")])
        with open(victim) as f:
            self.assertEqual(f.read(), "precious")
        with open(written[0], "rb") as f:
            self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n")
        self.assertFalse(stat.S_ISLNK(os.lstat(written[0]).st_mode))

    def test_symlink_at_the_final_name_is_neither_followed_nor_replaced(self):
        victim = os.path.join(self.out, "victim.txt")
        with open(victim, "w") as f:
            f.write("precious")
        os.symlink(victim, os.path.join(self.out, "fig.svg"))
        with self.assertRaisesRegex(self.irf_plot.PlotError, "symbolic link"):
            self.irf_plot.save(self.plt, self.figure(), self.out, "fig", ["svg"])
        with open(victim) as f:
            self.assertEqual(f.read(), "precious")
        self.assertTrue(os.path.islink(os.path.join(self.out, "fig.svg")))

    def test_failed_write_leaves_no_temporary(self):
        def fail(_file):
            raise KeyboardInterrupt  # as SIGINT (SIGTERM is a SystemExit) in the middle
        with self.assertRaises(KeyboardInterrupt):
            self.irf_plot.write_atomically(os.path.join(self.out, "x.png"), fail)
        self.assertEqual(os.listdir(self.out), [])

    def test_figures_are_readable_like_other_files(self):
        old = os.umask(0o022)
        try:
            written = self.irf_plot.save(self.plt, self.figure(), self.out, "fig", ["pdf"])
        finally:
            os.umask(old)
        self.assertEqual(stat.S_IMODE(os.stat(written[0]).st_mode), 0o644)
        with open(written[0], "rb") as f:
            self.assertEqual(f.read(5), b"%PDF-")


class HostileInput(unittest.TestCase):
    """Each case: exit 2, one line naming the file, no traceback, within the time bound."""

    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.out = os.path.join(self.dir.name, "plots")

    def tearDown(self):
        self.dir.cleanup()

    def expect_refused(self, path, shown=None):
        code, err, seconds = run_plot([path, "-o", self.out], timeout=60)
        self.assertEqual(code, 2, err)
        self.assertTrue(err.startswith("irf-plot: error: "), err)
        self.assertEqual(err.count("\n"), 1, err)
        self.assertNotIn("Traceback", err)
        self.assertIn(shown or os.path.basename(path), err)
        self.assertLess(seconds, 60)
        return err

    def test_deeply_nested_json(self):
        for depth in (1000, 200000):
            doc = '{"schema": "irf.profile/v1", "kernels": ' + "[" * depth
            path = os.path.join(self.dir.name, f"deep{depth}.json")
            with open(path, "w") as f:
                f.write(doc + "]" * depth + "}")
            self.assertIn("nested", self.expect_refused(path))

    def test_device_and_fifo_are_not_regular_files(self):
        self.assertIn("not a regular file", self.expect_refused("/dev/zero"))
        fifo = os.path.join(self.dir.name, "fifo.json")
        os.mkfifo(fifo)
        self.assertIn("not a regular file", self.expect_refused(fifo))

    def test_file_over_the_size_limit(self):
        path = os.path.join(self.dir.name, "huge.json")
        with open(path, "wb") as f:
            f.truncate((1 << 30) + 1)  # sparse: nothing is read
        self.assertIn("larger than 1 GiB", self.expect_refused(path))

    def test_control_characters_in_the_file_name_stay_on_one_line(self):
        path = os.path.join(self.dir.name, "a\nforged\x1b[31m.json")
        with open(path, "w") as f:
            f.write("{")
        self.expect_refused(path, shown="a\\nforged\\x1b[31m.json")

    def test_wrong_container_types_name_the_field(self):
        doc = golden()
        doc["kernels"][0]["analysis"]["projection"] = {"not": "a list"}
        path = write_json(os.path.join(self.dir.name, "types.json"), doc)
        self.assertIn("kernels[0].analysis.projection: expected an array",
                      self.expect_refused(path))


@unittest.skipUnless(have_matplotlib(), "python3-matplotlib is not installed")
class FigureData(unittest.TestCase):
    """One run of irf-plot --dump-data on a profile built for the checks below."""

    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.TemporaryDirectory()
        doc = golden()
        peak = doc["ceilings_used"]["warp_gips"]
        template = next(k for k in doc["kernels"] if k["name"].startswith("void gsrb_branch"))
        kernels = [kernel_at(template, f"series_{i:02d}", 0.05 * 1.7 ** i, 3.0 + 2.5 * i,
                             1e9 - i) for i in range(12)]
        kernels.append(kernel_at(template, "twin_a", 2.0, 50.0, 5e8))  # same point as twin_b
        kernels.append(kernel_at(template, "twin_b", 2.0, 50.0, 4e8))
        # Over 100x the peak (ceilings of another GPU): above the axes, drawn at the edge.
        kernels.append(kernel_at(template, "too_fast", 1.0, 100 * peak, 3e8))
        for k in kernels:
            k["analysis"]["projection"] = [
                {"target": f"gpu{t:04d}" + "x" * (100000 if t == 7 else 0),
                 "speedup_point": 1.5, "confidence": "high",
                 "time_ns": {"point": 100.0, "low": 90.0, "high": 120.0}}
                for t in range(5000)] if k["name"] == "series_00" else []
        doc["kernels"] = kernels
        profile = write_json(os.path.join(cls.dir.name, "p.json"), doc)
        cls.dump_path = os.path.join(cls.dir.name, "data.json")
        cls.out = os.path.join(cls.dir.name, "out")
        cls.result = run_plot([profile, "-o", cls.out, "--top", "15", "--format", "pdf",
                               "--dump-data", cls.dump_path])
        with open(cls.dump_path) as f:
            cls.data = json.load(f)
        cls.roofline = cls.data["instruction_roofline"]["axes"][0]
        cls.peak = peak

    @classmethod
    def tearDownClass(cls):
        cls.dir.cleanup()

    def points(self, kernel, role="point"):
        return [p for p in self.roofline["points"] if p["kernel"] == kernel and p["role"] == role]

    def test_run_succeeds_in_bounded_time_and_writes_pdf(self):
        code, err, seconds = self.result
        self.assertEqual(code, 0, err)
        self.assertLess(seconds, 240)  # 5,000 targets took over 120 s when all were drawn
        for name in ("instruction_roofline", "projection"):
            with open(os.path.join(self.out, name + ".pdf"), "rb") as f:
                self.assertEqual(f.read(5), b"%PDF-")

    def test_points_sit_at_the_profile_values(self):
        # series_03: ii = 0.05 * 1.7^3 = 0.24565, GIPS = 3.0 + 2.5 * 3 = 10.5 at every level.
        pts = self.points("series_03")
        self.assertEqual(len(pts), 3)  # L1, L2, HBM markers
        for p in pts:
            self.assertAlmostEqual(p["x"], 0.24565, places=9)
            self.assertAlmostEqual(p["y"], 10.5)
            self.assertEqual(p["shown"], [p["x"], p["y"]])
            self.assertIsNone(p["edge"])

    def test_fifteen_series_have_fifteen_colours_and_numbers(self):
        legend = self.roofline["legend"]
        self.assertIn("1  series_00", legend)
        self.assertIn("15  too_fast", legend)
        colours = {p["number"]: p["color"] for p in self.roofline["points"]}
        self.assertEqual(len(colours), 15)
        self.assertEqual(len(set(colours.values())), 15)

    def test_point_outside_the_axes_is_drawn_at_the_edge(self):
        (p,) = [p for p in self.points("too_fast") if p["marker"] == "o"]
        self.assertEqual(p["y"], 100 * self.peak)
        self.assertEqual(p["edge"], [0, 1])
        bottom, top = self.roofline["ylim"]
        # 3% of the log span inside the top edge: top / (top / bottom)^0.03.
        self.assertAlmostEqual(p["shown"][1], top / (top / bottom) ** 0.03)
        self.assertEqual(p["shown"][0], p["x"])

    def test_coincident_markers_stay_visible_as_nested_rings(self):
        a = [p for p in self.points("twin_a") if p["marker"] == "o"][0]
        b = [p for p in self.points("twin_b") if p["marker"] == "o"][0]
        self.assertEqual(a["shown"], b["shown"])
        self.assertNotEqual(a["size"], b["size"])

    def test_every_kernel_has_a_visible_number(self):
        numbered = {p["number"] for p in self.roofline["points"] if p["label_visible"]}
        self.assertEqual(numbered, set(range(1, 16)))

    def test_no_visible_labels_overlap(self):
        for figure, content in self.data.items():
            for ax in content["axes"]:
                # As drawn: a slanted roof label's outline, not the box around it.
                shapes = [(t["text"], t["shape"]) for t in ax["texts"] if t["visible"]]
                for i, (ta, a) in enumerate(shapes):
                    for tb, b in shapes[i + 1:]:
                        self.assertFalse(shapes_overlap(a, b), f"{figure}: {ta!r} and {tb!r}")

    def test_projection_draws_eight_targets_and_says_so(self):
        rows = self.data["projection"]["rows"]
        self.assertEqual(len({r["target"] for r in rows}), 8)
        self.assertTrue(all(len(r["target"]) <= 40 for r in rows))
        self.assertIn("4992 more targets not shown",
                      self.data["projection"]["axes"][0]["title"])
        self.assertTrue(all(math.isclose(r["point"], 1.5) for r in rows))


if __name__ == "__main__":
    unittest.main()


class NamesAsTheTables(unittest.TestCase):
    """#21 item 1: the figures name kernels with the display_name irf-report wrote (one naming
    function for tables and plots), and never give two distinct kernels one label."""

    def drawn(self, doc):
        """irf-plot's --dump-data of the profile `doc`."""
        with tempfile.TemporaryDirectory() as tmp:
            code, err, data = plot_data(doc, tmp, "svg", figures=["instruction_roofline"])
            self.assertEqual(code, 0, err)
            return data

    def test_labels_are_the_profiles_display_names(self):
        doc = golden()
        template = doc["kernels"][0]
        twins = []
        for scope in ("alpha", "beta"):
            k = kernel_at(template, f"void {scope}::reduce<float>(float*)", 1.0, 10.0, 1e6)
            k["display_name"] = f"{scope}::reduce<...>"  # as common::display_names writes it
            twins.append(k)
        doc["kernels"] = twins
        points = self.drawn(doc)["instruction_roofline"]["axes"][0]["points"]
        self.assertEqual({p["kernel"] for p in points},
                         {"alpha::reduce<...>", "beta::reduce<...>"})

    def test_legend_shows_the_rank_imbalance_of_a_merged_job(self):
        # irf-report merge writes kernels[].ranks; imbalance = slowest rank's time / mean.
        doc = golden()
        doc["kernels"][0]["ranks"] = {"present": 2, "of": 2, "imbalance": 1.5}
        legend = self.drawn(doc)["instruction_roofline"]["axes"][0]["legend"]
        noted = [row for row in legend if row.endswith("(ranks: max/mean 1.50)")]
        self.assertEqual(len(noted), 1, legend)

class KernelRegexDialect(unittest.TestCase):
    """#21 item 4: --kernels means what it means to irf run and irf-report: ncu's `regex:`
    prefix is accepted, and look-around or back-references (not RE2) are one line, exit 2."""

    def plot_kernels(self, pattern):
        with tempfile.TemporaryDirectory() as tmp:
            code, err, data = plot_data(golden(), tmp, "svg", ["--kernels", pattern],
                                        figures=["instruction_roofline"])
            kernels = None
            if data is not None:
                kernels = {p["kernel"] for p in data["instruction_roofline"]["axes"][0]["points"]}
            return code, err, kernels

    @unittest.skipUnless(have_matplotlib(), "python3-matplotlib is not installed")
    def test_ncu_prefix_is_accepted(self):
        code, err, kernels = self.plot_kernels("regex:^void transpose_")
        self.assertEqual(code, 0, err)
        self.assertEqual(kernels, {"transpose_naive<float>", "transpose_coalesced<float>"})

    def test_look_around_and_back_references_are_refused_as_the_launcher_does(self):
        for pattern in ("transpose(?=_naive)", "(?<!x)triad", r"(a)\1"):
            code, err, _ = self.plot_kernels(pattern)
            self.assertEqual(code, 2, pattern)
            self.assertIn("invalid RE2 regex", err)
            self.assertEqual(err.count("\n"), 1, err)


@unittest.skipUnless(have_matplotlib(), "python3-matplotlib is not installed")
class ThreadDotsAndWalls(unittest.TestCase):
    """#18 items 4-5: the solid dots are thread-based (inst_thread / 32 per transaction and per
    ns), moved diagonally from the warp-based point by predication (Fig. 2b); the global-wall
    dot counts global ld/st on both axes; a float4 kernel gets its own unit-stride wall."""

    @classmethod
    def setUpClass(cls):
        doc = golden()
        k = kernel_at(doc["kernels"][0], "half_predicated", 1.0, 10.0, 1e6)
        # Predication 0.5: thread-based intensity and GIPS are half the warp-based ones.
        k["analysis"]["irm"]["ii_thread"] = {"l1": 0.5, "l2": 0.5, "hbm": 0.5}
        k["analysis"]["irm"]["gips_thread"] = 5.0
        c = k["counters"]
        c.update({"time_ns": 1000.0, "inst_global_ld": 300.0, "inst_global_st": 100.0,
                  "inst_local_ld": 5000.0, "inst_local_st": 5000.0})
        k["analysis"]["walls"]["global"] = {"intensity": 1 / 16, "pattern": "unit",
                                            "unit_intensity": 1 / 16, "access_bytes": 16.0}
        c.update({"inst_shared_ld": 100.0, "inst_shared_st": 0.0, "inst_ldsm": 100.0})
        k["analysis"]["walls"]["shared"] = {"intensity": 0.25, "conflict_ways": 1.0,
                                            "conflict_free_intensity": 0.25,
                                            "access_bytes": 16.0}
        doc["kernels"] = [k]
        cls.dir = tempfile.TemporaryDirectory()
        code, err, cls.data = plot_data(doc, cls.dir.name, figures=[
            "instruction_roofline", "global_walls", "shared_walls"])
        cls.result = (code, err)

    @classmethod
    def tearDownClass(cls):
        cls.dir.cleanup()

    def test_thread_dots_move_diagonally_from_the_warp_points(self):
        self.assertEqual(self.result[0], 0, self.result[1])
        points = self.data["instruction_roofline"]["axes"][0]["points"]
        dots = [p for p in points if p["role"] == "point"]
        warp = [p for p in points if p["role"] == "warp"]
        self.assertEqual(len(dots), 3)
        self.assertEqual(len(warp), 3)
        for p in dots:  # (0.5, 5): both coordinates halved
            self.assertAlmostEqual(p["x"], 0.5)
            self.assertAlmostEqual(p["y"], 5.0)
        for p in warp:
            self.assertAlmostEqual(p["x"], 1.0)
            self.assertAlmostEqual(p["y"], 10.0)

    def test_global_wall_dot_counts_global_instructions_on_both_axes(self):
        axes = self.data["global_walls"]["axes"][0]
        (ldst,) = [p for p in axes["points"] if p["marker"] == "o" and p["y"] < 1.0]
        # x = 1/16 global ld/st per sector; y = (300 + 100) global ld/st / 1000 ns = 0.4 GIPS,
        # not (400 + 10000 local) / 1000.
        self.assertAlmostEqual(ldst["x"], 1 / 16)
        self.assertAlmostEqual(ldst["y"], 0.4)
        walls = [t["text"] for t in axes["texts"]]
        self.assertIn("unit stride (16-byte)", walls)

    def test_shared_wall_dot_counts_ldsm_on_both_axes(self):
        axes = self.data["shared_walls"]["axes"][0]
        (ldst,) = [p for p in axes["points"] if p["marker"] == "o"]
        # x = 0.25 (LDS + LDSM per wavefront); y = (100 LDS + 100 LDSM) / 1000 ns = 0.2 GIPS.
        self.assertAlmostEqual(ldst["x"], 0.25)
        self.assertAlmostEqual(ldst["y"], 0.2)
        self.assertIn("no bank conflict (16-byte)", [t["text"] for t in axes["texts"]])

