# SPDX-License-Identifier: Apache-2.0
"""unit tests of tests/gpu/kit_table.py on a FAKE kit log written here in the kit's own line
formats (launch_loop.cu, replay_cost.cu); every figure worked out by hand."""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import kit_table  # noqa: E402

FAKE_LOG = """\
name, driver_version, clocks.sm [MHz], clocks.max.sm [MHz]
== eager tiny launches
[1] none: eager n=50000 rounds=3 sync_every=0: median wall 2000.0 ns/launch, thread CPU 1900.0 ns/launch (min wall 1990.0)
[1] cb: eager n=50000 rounds=3 sync_every=0: median wall 2600.0 ns/launch, thread CPU 2500.0 ns/launch (min wall 2590.0)
[2] none: eager n=50000 rounds=3 sync_every=0: median wall 2200.0 ns/launch, thread CPU 2100.0 ns/launch (min wall 2190.0)
[2] cb: eager n=50000 rounds=3 sync_every=0: median wall 3000.0 ns/launch, thread CPU 2700.0 ns/launch (min wall 2990.0)
[1] gpa-wrapper: cudaFree(nullptr): CUDA driver version is insufficient
none: threads=8 n=20000: median thread CPU 5000.0 ns/launch
ck: threads=8 n=20000: median thread CPU 5600.0 ns/launch
none: graph nodes=100 replays=1000: GPU 1200.0 ns/node, host 900.0 ns/replay
graph: graph nodes=100 replays=1000: GPU 1250.0 ns/node, host 950.0 ns/replay
chip GH100, 12 metrics, 3 passes, extra 8 GiB; host setup 20.0 ms, Enable 3.0 ms, SetConfig+image 5.0 ms
kernel replay, median of 5 samples (ms): Start 0.100 | launch (replays) 40.000 | Stop 1.000 | Decode 2.000 | Evaluate+reset 0.500 | total 43.600
kernel replay, median of 5 samples (ms): Start 9 | launch (replays) 9 | Stop 9 | Decode 9 | Evaluate+reset 9 | total 9
user replay: 3 launches for 3 passes, 0.500 ms in the loop, decode+evaluate 1.000 ms, dropped 0, inst_executed 123
"""


class KitTable(unittest.TestCase):
    def setUp(self):
        self.figures = kit_table.parse(FAKE_LOG.splitlines())

    def test_each_mechanism_minus_none_median_over_rounds(self):
        costs = kit_table.eager_costs(self.figures["eager"])
        self.assertEqual(set(costs), {"none", "cb"})  # the failed gpa-wrapper row is skipped
        self.assertEqual(costs["none"]["cpu"], 2000)  # median of 1900 and 2100
        self.assertEqual(costs["cb"]["cpu"], 2600)    # median of 2500 and 2700
        self.assertEqual(costs["cb"]["cpu_added"], 600)
        self.assertEqual(costs["cb"]["wall_added"], 2800 - 2100)

    def test_threads_graph_samples_and_user_replay(self):
        self.assertEqual(self.figures["threads"], {"none": 5000, "ck": 5600})
        self.assertEqual(self.figures["graph"], {"none": 1200, "graph": 1250})
        # the second sample line has no setup line before it: not taken
        self.assertEqual(len(self.figures["samples"]), 1)
        sample = self.figures["samples"][0]
        self.assertEqual((sample["passes"], sample["extra_gib"], sample["total"]), (3, 8, 43.6))
        self.assertEqual(self.figures["user"][0]["passes"], 3)
        text = kit_table.markdown(self.figures)
        self.assertIn("| cb | 2600 | +600 | 2800 | +700 |", text)
        self.assertIn("| ck | 5600 | +600 |", text)
        self.assertIn("| graph | 1250 | +50 |", text)
        self.assertIn("user replay: 3 launches for 3 passes (one pass a launch)", text)

    def test_no_baseline_is_unknown_never_zero(self):
        figures = kit_table.parse(["[1] cb: eager n=1 rounds=1 sync_every=0: median wall 5.0 "
                                   "ns/launch, thread CPU 4.0 ns/launch (min wall 5.0)"])
        self.assertIsNone(kit_table.eager_costs(figures["eager"])["cb"]["cpu_added"])
        self.assertIn("| cb | 4 | ? | 5 | ? |", kit_table.markdown(figures))



class RecordedH200Log(unittest.TestCase):
    """The kit's log from the H200 of 2026-11-28, whose lines carry the kit's counts between
    the mechanism's name and its figures."""

    def setUp(self):
        here = os.path.dirname(os.path.abspath(__file__))
        path = os.path.join(here, "..", "data", "gpu", "h200", "session-2026-11-28", "call1",
                            "kit", "kit.log")
        with open(path, encoding="utf-8") as f:
            self.figures = kit_table.parse(f.read().splitlines())

    def test_every_mechanism_is_read(self):
        self.assertEqual(sorted(self.figures["eager"]),
                         ["cb", "cbck", "cbdom", "ck", "ckpool", "drv", "drvck", "gpa-wrapper",
                          "k", "none"])
        self.assertEqual(sorted(self.figures["threads"]), ["cb", "cbck", "ck", "none"])
        self.assertEqual(sorted(self.figures["graph"]), ["ck", "graph", "none"])

    def test_callbacks_cost_the_rounds_median_over_none(self):
        costs = kit_table.eager_costs(self.figures["eager"])
        # CPU: cb (5529.2 + 5132.3) / 2 = 5330.75, none (5113.5 + 4293.9) / 2 = 4703.7
        self.assertAlmostEqual(costs["cb"]["cpu_added"], 627.05, places=2)
        # graph: 1132.9 - 778.3 ns a node with kernel records
        self.assertAlmostEqual(self.figures["graph"]["ck"] - self.figures["graph"]["none"],
                               354.6, places=1)

if __name__ == "__main__":
    unittest.main()
