# SPDX-License-Identifier: Apache-2.0
"""Replays tests/gpu/replay_compare.py on the H200's recording of 2026-11-28 (call 3: every
known-answer app under IRF_REPLAY=kernel and =launches, 16 launches a kernel): kernel replay
meets every known answer; the samples by launches were all kept as such, and what they miss is
the instrumented counters only (the finding that made `kernel` the default again,
docs/validation/h200-2026-11-28.md). A change to the known answers or to the comparison that
breaks either shows here. Also ncu's application replay of two cases (the seventh session)."""
import json
import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import compare_ncu  # noqa: E402
import replay_compare  # noqa: E402

RECORDING = os.path.join(HERE, "..", "data", "gpu", "h200", "session-2026-11-28", "call3",
                         "replay")


class H200Recording(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        with open(os.path.join(HERE, "expected.json"), encoding="utf-8") as f:
            cls.cases = json.load(f)["cases"]
        cls.rows = [replay_compare.compare_case(c, RECORDING) for c in cls.cases]

    def test_kernel_replay_meets_every_known_answer(self):
        self.assertEqual(len(self.rows), 30)
        missed = {r["id"]: r["kernel"]["missed"] for r in self.rows if r["kernel"]["missed"]}
        self.assertEqual(missed, {})

    def test_every_launches_sample_was_one_by_launches(self):
        self.assertTrue(all(r["launches"]["found"] and r["launches"]["by_launches"]
                            for r in self.rows))

    def test_samples_by_launches_miss_the_instrumented_counters_only(self):
        # e.g. stride-fp32-s1: bytes_global_ld 0 of 1,048,576; sectors met
        names = {m.split()[0] for r in self.rows for m in r["launches"]["missed"]}
        self.assertTrue(names)
        self.assertTrue(all(n.startswith(("bytes_", "thread_")) for n in names), names)
        met = [r["id"] for r in self.rows if not r["launches"]["missed"]]
        self.assertEqual(sorted(met), ["mma-f16", "sw-integer"])


NCU_APPLICATION = os.path.join(HERE, "..", "data", "gpu", "h200", "session-2026-11-28b", "call1",
                               "replay", "ncu-application")


class NcuApplicationReplay(unittest.TestCase):
    """ncu's `--replay-mode application` (a pass per run of the app, as irf's user replay takes a
    pass per launch) on the H200, 2026-11-28, seventh session: it meets every known answer of
    the two cases, instrumented counters included, where irf's user replay read those 0
    (docs/cupti-notes.md question 17): the zeros were irf's doing, not the mode's."""

    @classmethod
    def setUpClass(cls):
        with open(os.path.join(HERE, "expected.json"), encoding="utf-8") as f:
            cls.cases = {c["id"]: c for c in json.load(f)["cases"]}
        cls.metric_map = compare_ncu.read_metric_map(os.path.join(HERE, "ncu_metrics_gh100.txt"))

    def counts(self, case_id):
        case = self.cases[case_id]
        values = compare_ncu.read_ncu_csv(os.path.join(NCU_APPLICATION, case_id + ".csv"),
                                          case["kernel"])
        self.assertIsNotNone(values, case_id)
        return {canonical: values[metric] for canonical, metric, _ in self.metric_map
                if metric in values}

    def test_application_replay_meets_the_known_answers(self):
        for case_id in ("stride-fp32-s1", "bank-ways1"):
            counts = self.counts(case_id)
            self.assertEqual(replay_compare.misses(counts, self.cases[case_id]), [], case_id)

    def test_the_instrumented_counters_are_read(self):
        self.assertEqual(self.counts("stride-fp32-s1")["bytes_global_ld"], 1048576)
        self.assertEqual(self.counts("bank-ways1")["bytes_shared_ld"], 8388608)


if __name__ == "__main__":
    unittest.main()
