# SPDX-License-Identifier: Apache-2.0
"""irf-plot and the irf loader against issue #39's probes (items 3 and 9): each case ends in one
line and exit 2 (or, for special output files, is written through), in bounded time."""
import os
import stat
import tempfile
import threading
import unittest

import irf
from plot_support import GOLDEN, run_plot


class HostileRoundTwo(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.out = os.path.join(self.dir.name, "plots")

    def tearDown(self):
        self.dir.cleanup()

    def expect_one_line(self, args, needle):
        code, err, seconds = run_plot(args, timeout=60)
        self.assertEqual(code, 2, err)
        self.assertTrue(err.startswith("irf-plot: error: "), err)
        self.assertEqual(err.count("\n"), 1, err)
        self.assertNotIn("Traceback", err)
        self.assertIn(needle, err)
        self.assertLess(seconds, 30)

    def write(self, name, text):
        path = os.path.join(self.dir.name, name)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        return path

    def test_fifo_as_targets_does_not_block(self):
        fifo = os.path.join(self.dir.name, "t.yaml")
        os.mkfifo(fifo)  # blocked forever in open() before
        self.expect_one_line([GOLDEN, "-o", self.out, "--targets", fifo], "not a regular file")

    def test_nested_quantifiers_are_refused_not_backtracked(self):
        self.expect_one_line([GOLDEN, "-o", self.out, "-k", "(a+)+$"], "nested repetition")

    def test_directories_as_inputs_are_one_line(self):
        d = self.dir.name
        self.expect_one_line([d, "-o", self.out], "a directory")
        self.expect_one_line(["--compare", d, GOLDEN, "-o", self.out], "a directory")
        self.expect_one_line(["--trajectory", d, "-o", self.out], "a directory")

    def test_load_of_a_directory_is_a_profile_error(self):
        with self.assertRaisesRegex(irf.ProfileError, "a directory"):
            irf.load(self.dir.name)

    def test_numbers_beyond_double_are_refused_as_irf_report_does(self):
        path = self.write("inf.json", '{"schema": "irf.profile/v1", "kernels": [], "x": 1e400}')
        with self.assertRaisesRegex(irf.ProfileError, "out of range"):
            irf.load(path)
        self.expect_one_line([path, "-o", self.out], "out of range")


class SpecialOutputFiles(unittest.TestCase):
    """--dump-data onto a FIFO, a device or /dev/stdout is written through, never replaced."""

    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        import irf_plot
        self.irf_plot = irf_plot

    def tearDown(self):
        self.dir.cleanup()

    def test_fifo_is_written_through_and_stays_a_fifo(self):
        fifo = os.path.join(self.dir.name, "data.json")
        os.mkfifo(fifo)
        got = []

        def read_all():
            with open(fifo, "rb") as f:
                got.append(f.read())

        reader = threading.Thread(target=read_all)
        reader.start()
        while not got and reader.is_alive():
            try:
                self.irf_plot.write_atomically(fifo, lambda f: f.write(b"{}"))
                break
            except self.irf_plot.PlotError:  # the reader has not opened it yet
                continue
        reader.join(10)
        self.assertEqual(got, [b"{}"])
        self.assertTrue(stat.S_ISFIFO(os.lstat(fifo).st_mode))

    def test_link_to_dev_null_is_written_through_and_kept(self):
        link = os.path.join(self.dir.name, "data.json")
        os.symlink("/dev/null", link)
        self.irf_plot.write_atomically(link, lambda f: f.write(b"{}"))
        self.assertTrue(os.path.islink(link))

    def test_own_descriptor_is_written_to(self):
        read_end, write_end = os.pipe()
        self.irf_plot.write_atomically(f"/proc/self/fd/{write_end}", lambda f: f.write(b"ok"))
        os.close(write_end)
        self.assertEqual(os.read(read_end, 16), b"ok")
        os.close(read_end)


if __name__ == "__main__":
    unittest.main()
