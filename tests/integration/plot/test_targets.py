# SPDX-License-Identifier: Apache-2.0
"""#41 item 9: with more targets than the projection figure shows, the profiled GPU's peers and
successors come first (an H100 profile shows the H200 and the B200 before older GPUs), read
from the shipped ceilings database."""
import unittest

from irfplot.targets import by_relevance, gpu_field, shipped_cc


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


if __name__ == "__main__":
    unittest.main()
