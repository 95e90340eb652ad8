# SPDX-License-Identifier: Apache-2.0
"""Checks of the KernelBench level-1 table and its published times (issue 57); no torch, no GPU.

Run by ctest as unit.kernelbench_ops. The byte-for-byte regeneration of published_level1.json is
skipped where the KernelBench git copy is absent (as in CI).
"""
import inspect
import json
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
DATA = os.path.join(ROOT, "tests", "data", "projection-public", "kernelbench")
PUBLISHED = os.path.join(DATA, "published_level1.json")
IMPORTER = os.path.join(ROOT, "scripts", "kernelbench_import.py")
RUNNER = os.path.join(HERE, "operators.py")
MIRROR = os.environ.get("IRF_KERNELBENCH_MIRROR",
                        "/work/.mirror/ScalingIntelligence+KernelBench/repo")

sys.path.insert(0, HERE)
import kernelbench_ops  # noqa: E402
import kernelbench_spec  # noqa: E402
import operators  # noqa: E402


def load_published():
    with open(PUBLISHED, encoding="utf-8") as f:
        return json.load(f)


class TableTest(unittest.TestCase):
    def setUp(self):
        self.published = load_published()
        self.stems = [p.stem for p in kernelbench_ops.PROBLEMS]

    def test_table_names_exactly_the_published_problems_in_order(self):
        self.assertEqual(len(self.stems), 100)
        self.assertEqual(len(set(self.stems)), 100, "a stem appears twice")
        self.assertEqual(self.stems, self.published["source"]["problems"])
        self.assertEqual([kernelbench_ops.problem_number(s) for s in self.stems],
                         list(range(1, 101)))

    def test_importing_the_table_did_not_import_torch(self):
        self.assertNotIn("torch", sys.modules)

    def test_inputs_are_well_formed(self):
        for p in kernelbench_ops.PROBLEMS:
            with self.subTest(p.stem):
                self.assertTrue(p.inputs, "no forward() input")
                for spec in p.inputs:
                    self.assertIn(spec.dtype, kernelbench_spec.DTYPES)
                    self.assertIn(spec.fill, kernelbench_spec.FILLS)
                    self.assertIn(spec.prep, kernelbench_spec.PREPS)
                    if spec.fill == "scalar":
                        self.assertEqual(spec.shape, ())
                        continue
                    self.assertTrue(spec.shape, "a tensor input without a shape")
                    self.assertTrue(all(isinstance(n, int) and n > 0 for n in spec.shape),
                                    f"shape {spec.shape} is not all positive integers")
                    if spec.fill == "randint":
                        self.assertGreater(spec.high, 0)
                    else:
                        self.assertEqual(spec.dtype, "float32")

    def test_every_maker_accepts_its_published_init_arguments(self):
        for p in kernelbench_ops.PROBLEMS:
            with self.subTest(p.stem):
                inspect.signature(p.make).bind("cuda", **p.init)

    def test_a_maker_rejects_an_argument_it_does_not_take(self):
        conv = kernelbench_ops.BY_STEM["87_conv_pointwise_2D"]
        with self.assertRaises(TypeError):
            inspect.signature(conv.make).bind("cuda", groups=2, **conv.init)

    def test_input_bytes_by_hand(self):
        # problem 1: two 2048 x 2048 float32 matrices; 93: 128 x 4000 floats and as many bools
        self.assertEqual(kernelbench_ops.input_bytes(kernelbench_ops.PROBLEMS[0]),
                         2 * 2048 * 2048 * 4)
        self.assertEqual(kernelbench_ops.input_bytes(kernelbench_ops.BY_STEM["93_masked_cumsum"]),
                         128 * 4000 * 5)
        # problem 5's second argument is a Python float: no bytes
        self.assertEqual(kernelbench_ops.input_bytes(kernelbench_ops.PROBLEMS[4]),
                         16384 * 4096 * 4)


class PublishedTest(unittest.TestCase):
    def setUp(self):
        self.published = load_published()
        with open(os.path.join(DATA, "README.md"), encoding="utf-8") as f:
            self.readme = f.read()

    def test_every_gpu_has_every_problem_or_the_readme_lists_it(self):
        problems = self.published["source"]["problems"]
        gpus = self.published["gpus"]
        for key, gpu in gpus.items():
            with self.subTest(key):
                self.assertEqual(sorted(set(gpu["times_ms"]) | set(gpu["missing"])),
                                 sorted(problems))
                # a folder that mixes GPUs is split by hardware: what one key lacks, the other
                # key of the same folder holds; anything else missing is named in the README
                siblings = set()
                for other, entry in gpus.items():
                    if other != key and entry["folder"] == gpu["folder"]:
                        siblings |= set(entry["times_ms"])
                for stem in gpu["missing"]:
                    if stem not in siblings:
                        self.assertIn(stem, self.readme, f"{key}: {stem} missing, not in README")

    def test_times_are_consistent(self):
        for key, gpu in self.published["gpus"].items():
            self.assertTrue(gpu["hardware"], key)
            self.assertIn(f"`{gpu['folder']}`", self.readme, f"README does not name {key}'s")
            for stem, t in gpu["times_ms"].items():
                with self.subTest(gpu=key, problem=stem):
                    self.assertGreater(t["min"], 0)
                    self.assertLessEqual(t["min"], t["mean"])
                    self.assertLessEqual(t["mean"], t["max"])
                    self.assertGreaterEqual(t["std"], 0)
                    self.assertEqual(t["num_trials"], 100)
                    self.assertIn(t["hardware"], gpu["hardware"])

    def test_the_gpu_keys_are_the_expected_eleven(self):
        # ten GPU folders; A10G_modal's split into its two boards (a10g and a10)
        self.assertEqual(sorted(self.published["gpus"]),
                         sorted(["h100-sxm5", "b200", "a100-sxm4-40gb", "a100-sxm4-80gb", "l40s",
                                 "l4", "t4", "a10g", "a10", "rtx-a6000", "rtx-3090-ti"]))

    def test_the_importer_reproduces_the_file_byte_for_byte(self):
        if not os.path.isdir(MIRROR):
            self.skipTest(f"no KernelBench git copy at {MIRROR} (set IRF_KERNELBENCH_MIRROR)")
        run = subprocess.run([sys.executable, IMPORTER, "--mirror", MIRROR, "--check"],
                             capture_output=True, text=True, timeout=120)
        self.assertEqual(run.returncode, 0, run.stdout + run.stderr)


class RunnerTest(unittest.TestCase):
    def run_runner(self, *args):
        env = dict(os.environ, CUDA_VISIBLE_DEVICES="")
        return subprocess.run([sys.executable, RUNNER, *args], capture_output=True, text=True,
                              timeout=120, env=env)

    def test_without_a_device_it_says_so_and_exits_77(self):
        run = self.run_runner("--only", "^19_ReLU$")
        self.assertEqual(run.returncode, 77, run.stdout + run.stderr)
        self.assertRegex(run.stdout, r"^operators: no CUDA device: \S")
        self.assertEqual(len(run.stdout.splitlines()), 1)

    def test_list_names_the_selected_problems(self):
        run = self.run_runner("--list")
        self.assertEqual(run.returncode, 0, run.stderr)
        lines = run.stdout.splitlines()
        self.assertEqual([line.split()[0] for line in lines],
                         [p.stem for p in kernelbench_ops.PROBLEMS])
        run = self.run_runner("--list", "--only", "conv_transposed_1D")
        self.assertEqual([line.split()[0] for line in run.stdout.splitlines()],
                         ["64_conv_transposed_1D", "74_conv_transposed_1D_dilated",
                          "79_conv_transposed_1D_asymmetric_input_square_kernel___padded____"
                          "strided____dilated__"])

    def test_summary_by_hand(self):
        # times 1, 2, 4, 5 ms: mean 3, median (2 + 4) / 2 = 3, min 1,
        # population deviation sqrt((4 + 1 + 1 + 4) / 4) = sqrt(2.5)
        line = operators.summary("x", [5.0, 1.0, 4.0, 2.0])
        self.assertEqual(line["name"], "x")
        self.assertEqual(line["iters"], 4)
        self.assertAlmostEqual(line["mean_ms"], 3.0)
        self.assertAlmostEqual(line["median_ms"], 3.0)
        self.assertAlmostEqual(line["min_ms"], 1.0)
        self.assertAlmostEqual(line["std_ms"], 2.5**0.5)

    def test_json_is_written_whole_without_a_temporary_left(self):
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "out.json")
            operators.write_json_atomic(path, {"results": [1, 2]})
            with open(path, encoding="utf-8") as f:
                self.assertEqual(json.load(f), {"results": [1, 2]})
            self.assertEqual(os.listdir(folder), ["out.json"])

    def test_bad_options_are_named(self):
        for args, word in ((("--only", "nothing-matches-this"), "matches none"),
                           (("--only", "("), "not a regular expression"),
                           (("--iters", "0"), "--iters")):
            with self.subTest(args):
                run = self.run_runner(*args)
                self.assertEqual(run.returncode, 2)
                self.assertIn(word, run.stderr)


if __name__ == "__main__":
    unittest.main()
