# SPDX-License-Identifier: Apache-2.0
"""irf-plot on a large profile (issue #34 item 4, irfplot/large.py): the kernels it chooses from
the light records, their numbers and what it draws equal a whole read of the same file; a file
laid out otherwise is read whole; a drawn kernel is checked as a whole read checks it."""
import copy
import json
import os
import tempfile
import unittest
from unittest import mock

from plot_support import golden, have_matplotlib, run_plot_in_process

import irf
from irfplot import large
from irfplot.profile import (PlotError, drawn, items_for, load, matching, select,
                             select_shared, total_time)


def many_kernels(count=300):
    """The golden analysed profile's kernels repeated `count` times with distinct names, times
    (ties among them) and bank-conflict ways, a null analysis and a name with escapes."""
    doc = golden()
    kernels = []
    for i in range(count):
        k = copy.deepcopy(doc["kernels"][i % len(doc["kernels"])])
        k["name"] = f"{k['name']}_{i}"
        k["time_ns"]["total"] = float((i * 7919) % 1000) * 1000.0  # repeats: ties keep order
        shared = (k.get("analysis") or {}).get("walls", {}).get("shared")
        if shared:
            shared["conflict_ways"] = 1.0 + (i % 13) / 2.0
        kernels.append(k)
    kernels[3]["analysis"] = None
    kernels[4]["name"] = 'quote " and \\ back\u00e9_4'
    kernels[5]["time_ns"]["total"] = 7  # an integer, as JSON may have it
    doc["kernels"] = kernels
    return doc


def write(path, doc, **layout):
    """`doc` as irf-report lays it out (2-space indentation, sorted keys) unless told."""
    with open(path, "w", encoding="utf-8") as f:
        json.dump(doc, f, **(layout or {"indent": 2, "sort_keys": True}))
    return path


class LargeProfile(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.path = write(os.path.join(self.dir.name, "big.json"), many_kernels())
        patch = mock.patch.object(large, "LARGE_BYTES", 0)  # every file counts as large here
        patch.start()
        self.addCleanup(patch.stop)

    def tearDown(self):
        self.dir.cleanup()

    def test_light_records_hold_what_chooses_kernels(self):
        light = large.load_large(self.path)
        whole = irf.load(self.path)
        self.assertIsNotNone(light)
        self.assertEqual(len(light["kernels"]), 300)
        for lk, k in zip(light["kernels"], whole["kernels"]):
            self.assertIsInstance(lk, large.LightKernel)
            self.assertEqual(lk["name"], k["name"])
            self.assertEqual(total_time(lk), total_time(k))
            shared = ((k.get("analysis") or {}).get("walls") or {}).get("shared")
            light_shared = ((lk.get("analysis") or {}).get("walls") or {}).get("shared")
            self.assertEqual(bool(light_shared), bool(shared), k["name"])
            if shared:
                self.assertEqual(light_shared["conflict_ways"], shared["conflict_ways"])
        self.assertEqual({k: v for k, v in light.items() if k != "kernels"},
                         {k: v for k, v in whole.items() if k != "kernels"})

    def test_the_same_kernels_are_chosen_numbered_and_drawn(self):
        light, whole = load(self.path), load(self.path, large=False)
        for pattern, top in ((None, 10), (None, 20), ("transpose", 5), ("hgemm|stream", 20)):
            for choose in (select, select_shared):
                a = items_for(choose(light["kernels"], pattern, top), light["kernels"])
                b = items_for(choose(whole["kernels"], pattern, top), whole["kernels"])
                self.assertEqual([(i.label, i.number) for i in a],
                                 [(i.label, i.number) for i in b], (pattern, top))
                self.assertEqual([drawn(i.after, self.path) for i in a], [i.after for i in b])
            self.assertEqual(len(matching(light["kernels"], pattern)),
                             len(matching(whole["kernels"], pattern)))

    def test_other_layouts_are_read_whole(self):
        doc = many_kernels(20)
        compact = write(os.path.join(self.dir.name, "compact.json"), doc, sort_keys=True)
        self.assertIsNone(large.load_large(compact))
        with open(self.path, "rb") as f:
            text = f.read()
        cut = os.path.join(self.dir.name, "cut.json")
        with open(cut, "wb") as f:
            f.write(text[: len(text) // 2])
        self.assertIsNone(large.load_large(cut))
        # A second "kernels" after the first is the one a whole read keeps: read whole.
        twice = os.path.join(self.dir.name, "twice.json")
        with open(twice, "wb") as f:
            f.write(text.rstrip()[:-1] + b',\n  "kernels": []\n}\n')
        self.assertIsNone(large.load_large(twice))
        with self.assertRaises(PlotError):
            load(cut)  # the whole read's one-line error

    def test_a_drawn_kernel_is_checked_like_a_whole_file(self):
        doc = many_kernels(20)
        longest = max(range(20), key=lambda i: doc["kernels"][i]["time_ns"]["total"])
        doc["kernels"][longest]["analysis"]["irm"] = [1, 2]
        path = write(os.path.join(self.dir.name, "bad.json"), doc)
        with self.assertRaises(PlotError) as whole:
            load(path, large=False)
        light = load(path)  # the bad kernel is not parsed until drawn
        chosen = select(light["kernels"], None, 1)
        with self.assertRaises(PlotError) as late:
            drawn(chosen[0], path)
        self.assertEqual(str(late.exception), str(whole.exception))

    @unittest.skipUnless(have_matplotlib(), "matplotlib is not installed")
    def test_figure_data_equal_a_whole_read(self):
        dumps = []
        for limit in (0, 1 << 40):
            dump = os.path.join(self.dir.name, f"dump{limit}.json")
            with mock.patch.object(large, "LARGE_BYTES", limit):
                code, err = run_plot_in_process(
                    [self.path, "-o", os.path.join(self.dir.name, f"f{limit}"), "--format", "png",
                     "--top", "12", "--dump-data", dump])
            self.assertEqual(code, 0, err)
            with open(dump, encoding="utf-8") as f:
                dumps.append(json.load(f))
        self.assertEqual(dumps[0], dumps[1])


class KernelNumbers(unittest.TestCase):
    def test_numbers_rank_by_time_and_ties_in_file_order(self):
        # Times 5, 9, 5, 1, 9 (file order a..e): by time, ties keep file order, so b is 1, e 2,
        # a 3, c 4, d 5 (the summary table's numbers), whichever kernels are drawn.
        kernels = [{"name": n, "time_ns": {"total": t}}
                   for n, t in zip("abcde", (5.0, 9.0, 5.0, 1.0, 9.0))]
        drawn_items = items_for([kernels[2], kernels[4], kernels[3]], kernels)
        self.assertEqual([i.number for i in drawn_items], [4, 2, 5])
        self.assertEqual([i.number for i in items_for(kernels, kernels)], [3, 1, 4, 5, 2])
        # A kernel that is not in the list numbered from gets its place in the drawn list.
        self.assertEqual([i.number for i in items_for(kernels[:2], [])], [1, 2])


if __name__ == "__main__":
    unittest.main()
