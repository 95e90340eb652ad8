# SPDX-License-Identifier: Apache-2.0
"""unit tests of tests/gpu/overhead_table.py: FAKE round logs written here (figures worked out
by hand), and the H200's rounds of 2026-11-28, seventh session, whose medians
docs/performance.md and docs/validation/h200-2026-11-28.md quote."""
import json
import os
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import overhead_table  # noqa: E402

RECORDING = os.path.join(HERE, "..", "data", "gpu", "h200", "session-2026-11-28b")


def step_line(eager, graph, launch):
    figures = {"eager_ms": eager, "eager_cpu_ms": eager / 2, "graph_ms": graph,
               "graph_cpu_ms": graph / 4, "launch_us": launch, "launch_cpu_us": launch}
    return "noise before\ntrain_step: " + json.dumps(figures) + "\n"


class FakeRounds(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        logs = {"base-1.log": step_line(10, 4, 7), "base-2.log": step_line(12, 4, 8),
                "base-3.log": step_line(11, 4, 9), "run-s0-1.log": step_line(13.2, 4.2, 10),
                "run-s0-2.log": "killed at the deadline\n", "notes.log": step_line(99, 99, 99),
                "run-fast-1.log": step_line(11.55, 4.1, 8.5)}
        for name, text in logs.items():
            with open(os.path.join(self.tmp.name, name), "w", encoding="utf-8") as f:
                f.write(text)

    def tearDown(self):
        self.tmp.cleanup()

    def test_medians_and_differences(self):
        rows = overhead_table.table(overhead_table.read_rounds([self.tmp.name]))
        self.assertEqual([r["rounds"] for r in rows], [3, 1, 1])  # the cut run, notes.log ignored
        base, s0, fast = rows
        self.assertEqual(base["eager_ms"], 11)  # median of 10, 12, 11
        self.assertEqual(base["launch_us"], 8)
        self.assertAlmostEqual(s0["eager_pct"], 20.0)  # 13.2 / 11 - 1
        self.assertAlmostEqual(s0["graph_pct"], 5.0)  # 4.2 / 4 - 1
        self.assertAlmostEqual(s0["launch_delta_us"], 2.0)  # 10 - 8
        self.assertEqual(fast["setting"], "`--samples 0 --fast-intercept`")
        self.assertAlmostEqual(fast["eager_pct"], 5.0)  # 11.55 / 11 - 1
        self.assertAlmostEqual(fast["launch_delta_us"], 0.5)  # 8.5 - 8

    def test_a_figure_no_round_has_is_a_dash_not_a_zero(self):
        rows = [{"setting": "old step", "rounds": 1, "eager_ms": 12.0, "graph_ms": 4.0,
                 "graph_cpu_ms": 1.0, "launch_us": 9.0}]  # logged before the CPU figures
        line = overhead_table.render(rows).splitlines()[2]
        self.assertEqual(line, "| old step | 1 | 12.00 | - | 4.00 | 1.00 | 9.00 |")


class H200Rounds(unittest.TestCase):
    """Six rounds (call 1's five, call 2's one; the fifth lost its last two runs)."""

    @classmethod
    def setUpClass(cls):
        dirs = [os.path.join(RECORDING, c, "overhead") for c in ("call1", "call2")]
        cls.rows = {r["setting"]: r for r in overhead_table.table(overhead_table.read_rounds(dirs))}

    def test_the_figures_the_docs_quote(self):
        base = self.rows["without irf"]
        run = self.rows["`irf run` (defaults)"]
        s0 = self.rows["`irf run --samples 0`"]
        self.assertEqual((base["rounds"], run["rounds"], s0["rounds"]), (6, 6, 5))
        self.assertAlmostEqual(base["eager_ms"], 13.14, places=2)
        self.assertAlmostEqual(run["eager_ms"], 17.54, places=2)
        self.assertAlmostEqual(s0["eager_ms"], 16.38, places=2)
        self.assertAlmostEqual(s0["launch_delta_us"], 4.68, places=2)
        self.assertAlmostEqual(s0["graph_pct"], 7.4, places=1)


if __name__ == "__main__":
    unittest.main()
