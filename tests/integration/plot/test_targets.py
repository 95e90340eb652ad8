# SPDX-License-Identifier: Apache-2.0
"""#41 item 9: with more targets than the projection figure shows, the profiled GPU's peers and
successors come first (an H100 profile shows the H200 and the B200 before older GPUs), read
from the shipped ceilings database."""
import os
import tempfile
import unittest

from irfplot.targets import by_relevance, gpu_field, shipped_cc
from plot_support import GOLDEN as GOLDEN_PATH, golden, have_matplotlib, plot_data, run_plot


class TargetRelevance(unittest.TestCase):
    def test_shipped_entries_give_their_compute_capability(self):
        self.assertEqual(shipped_cc("h200-sxm"), 9.0)  # config/gpus/h200-sxm.yaml: cc "9.0"
        self.assertEqual(shipped_cc("a100-pcie"), 8.0)
        self.assertIsNone(shipped_cc("no-such-gpu"))
        self.assertIsNone(shipped_cc("../etc/passwd"))  # names only, never paths

    def test_peers_and_successors_come_first(self):
        cc = {"a100-pcie": 8.0, "b200": 10.0, "h200-sxm": 9.0, "l40s": 8.9, "v100-sxm2": 7.0,
              "gh200": 9.0, "mine": None}
        order = by_relevance(sorted(cc), 9.0, cc.get)
        # Same cc (9.0, by name), then the next (10.0); older: 8.9, 8.0, 7.0; unknown last.
        self.assertEqual(order, ["gh200", "h200-sxm", "b200", "l40s", "a100-pcie", "v100-sxm2",
                                 "mine"])

    def test_gpu_field_reads_the_gpu_mapping_only(self):
        text = "schema: irf.ceilings/v1\nkey: top\ngpu:\n  name: X\n  key: k1  # c\n  cc: \"8.9\"\n"
        self.assertEqual(gpu_field(text, "key"), "k1")
        self.assertEqual(gpu_field(text, "cc"), "8.9")
        self.assertIsNone(gpu_field(text, "sms"))



@unittest.skipUnless(have_matplotlib(), "python3-matplotlib is not installed")
class TargetsByNameOrFile(unittest.TestCase):
    """--targets takes shipped names and ceilings YAML files, as irf run and irf-report do: a
    file stands for its gpu.key, the name the profile's projections carry (#21 item 4)."""

    def drawn_targets(self, targets):
        doc = golden()
        rename = {"a100-test": "l4", "b200-test": "my-l4"}
        for k in doc["kernels"]:
            for p in (k.get("analysis") or {}).get("projection", []):
                p["target"] = rename.get(p["target"], p["target"])
        with tempfile.TemporaryDirectory() as tmp:
            entry = os.path.join(tmp, "entry.yaml")
            with open(entry, "w", encoding="utf-8") as f:
                f.write("schema: irf.ceilings/v1\ngpu:\n  name: \"L4 copy\"\n  key: my-l4\n")
            spec = targets.replace("FILE", entry)
            code, err, data = plot_data(doc, tmp, "svg", ["--targets", spec],
                                        figures=["projection"])
            self.assertEqual(code, 0, err)
            rows = data["projection"]["rows"]
        return {r["target"] for r in rows}

    def test_shipped_name(self):
        self.assertEqual(self.drawn_targets("l4"), {"l4"})

    def test_file_stands_for_its_key(self):
        self.assertEqual(self.drawn_targets("FILE"), {"my-l4"})

    def test_all(self):
        self.assertEqual(self.drawn_targets("all"), {"l4", "my-l4"})

    def test_a_target_the_profile_lacks_is_one_line_and_exit_2(self):
        # The golden profile projects onto a100-test and b200-test: "b200" begins b200-test,
        # "h200" begins none of them; a blank figure with exit 0 used to hide the typo.
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "out")
            code, err, _ = run_plot([GOLDEN_PATH, "-o", out, "--targets", "b200"])
            self.assertEqual(code, 2, err)
            self.assertIn("irf-plot: error: --targets b200: not a projection target of this "
                          "profile; did you mean b200-test? (its targets: a100-test, b200-test;",
                          err)
            self.assertEqual(err.count("\n"), 1, err)
            self.assertFalse(os.path.exists(out))  # checked before anything is drawn
            code, err, _ = run_plot([GOLDEN_PATH, "-o", out, "--targets", "h200"])
            self.assertEqual(code, 2, err)
            self.assertNotIn("did you mean", err)

    def test_unreadable_file_is_one_line_and_exit_2(self):
        code, err, _ = run_plot([GOLDEN_PATH, "-o", "/tmp", "--targets", "/nonexistent/x.yaml"])
        self.assertEqual(code, 2)
        self.assertIn("--targets '/nonexistent/x.yaml': cannot read", err)

if __name__ == "__main__":
    unittest.main()
