# SPDX-License-Identifier: Apache-2.0
"""irf.load (#21 item 6): the profile as a dict, flat kernel/region rows, pandas DataFrames when
pandas is present and a one-line PandasMissing when it is not; bad input is a ProfileError."""
import builtins
import os
import tempfile
import unittest
from unittest import mock

from plot_support import GOLDEN, golden, write_json

import irf


def without_pandas():
    """Makes `import pandas` fail, as on a Debian python3 without python3-pandas."""
    real_import = builtins.__import__

    def fake_import(name, *args, **kwargs):
        if name == "pandas" or name.startswith("pandas."):
            raise ImportError("No module named 'pandas'")
        return real_import(name, *args, **kwargs)
    return mock.patch("builtins.__import__", fake_import)


class Load(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()

    def tearDown(self):
        self.dir.cleanup()

    def with_regions(self):
        doc = golden()
        doc["regions"] = [{"path": "train/step", "time_ns": 2500.0, "launches": 3,
                           "kernels": ["k"]},
                          {"path": "train/eval", "time_ns": 500.0, "launches": 1,
                           "kernels": ["k"]}]
        return irf.load(write_json(os.path.join(self.dir.name, "r.json"), doc))

    def test_profile_is_the_document(self):
        profile = irf.load(GOLDEN)
        self.assertEqual(profile["schema"], "irf.profile/v1")
        self.assertEqual(len(profile.kernels), len(golden()["kernels"]))
        self.assertEqual(profile.regions, [])

    def test_kernel_rows_are_flat(self):
        rows = irf.load(GOLDEN).kernel_rows()
        first = golden()["kernels"][0]
        self.assertEqual(rows[0]["name"], first["name"])
        self.assertEqual(rows[0]["time_ns.total"], first["time_ns"]["total"])
        self.assertEqual(rows[0]["analysis.irm.ii.l1"], first["analysis"]["irm"]["ii"]["l1"])

    def test_region_rows(self):
        rows = self.with_regions().region_rows()
        self.assertEqual([r["path"] for r in rows], ["train/step", "train/eval"])
        self.assertEqual(rows[0]["time_ns"], 2500.0)

    def test_frames_without_pandas_say_what_to_do(self):
        profile = self.with_regions()
        with without_pandas():
            for accessor in (profile.kernels_frame, profile.regions_frame):
                with self.assertRaises(irf.PandasMissing) as caught:
                    accessor()
                self.assertIn("needs pandas", str(caught.exception))
                self.assertNotIn("\n", str(caught.exception))
            # Issue 53 item 9: the message names functions that exist.
            with self.assertRaises(irf.PandasMissing) as caught:
                profile.kernels_frame()
            self.assertIn("kernels_frame() needs pandas", str(caught.exception))
            self.assertIn("kernel_rows() gives", str(caught.exception))
            self.assertTrue(hasattr(profile, "kernel_rows"))

    def test_frames_with_pandas(self):
        try:
            import pandas  # noqa: F401
        except ImportError:
            self.skipTest("pandas is not installed (python3-pandas)")
        profile = self.with_regions()
        kernels = profile.kernels_frame()
        self.assertEqual(len(kernels), len(profile.kernels))
        self.assertIn("time_ns.total", kernels.columns)
        self.assertEqual(list(profile.regions_frame()["path"]), ["train/step", "train/eval"])

    def test_kernels_frame_has_the_same_columns_for_every_profile(self):
        # Issue 53 item 9: a raw profile (no analysis) and an analysed one give one set of
        # columns, NaN where a value is absent.
        try:
            import pandas  # noqa: F401
        except ImportError:
            self.skipTest("pandas is not installed (python3-pandas)")
        raw = irf.load(os.path.join(os.path.dirname(GOLDEN), "..", "tools", "raw_before.json"))
        analysed = self.with_regions()
        for frame in (raw.kernels_frame(), analysed.kernels_frame()):
            self.assertEqual(list(frame.columns), list(irf.KERNEL_COLUMNS))
        self.assertTrue(raw.kernels_frame()["analysis.irm.gips_warp"].isna().all())

    def test_raw_profiles_load_too(self):
        raw = os.path.join(os.path.dirname(GOLDEN), "..", "tools", "raw_before.json")
        self.assertGreater(len(irf.load(raw).kernels), 0)

    def test_bad_input_is_a_profile_error(self):
        wrong = write_json(os.path.join(self.dir.name, "w.json"), {"schema": "x"})
        for path in (wrong, "/dev/zero", os.path.join(self.dir.name, "missing.json")):
            with self.assertRaises(irf.ProfileError) as caught:
                irf.load(path)
            self.assertIn(os.path.basename(path), str(caught.exception))


if __name__ == "__main__":
    unittest.main()
