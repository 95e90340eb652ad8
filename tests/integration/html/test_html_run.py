# SPDX-License-Identifier: Apache-2.0
"""`irf run --html` (issue 35): the application runs under libirf (the fake backend, through the
injection harness), then the page is written beside the profile; the application's exit status
is irf's; an application that writes no profile gets one line and no page; under mpirun or srun
each rank writes its own page beside its own profile (docs/tools.md, MPI and Slurm)."""
import json
import os
import re
import subprocess
import unittest

import html_support as hs

IRF = os.environ.get("IRF_BIN", os.path.join(hs.ROOT, "build", "ci", "tools", "irf"))
HARNESS = os.environ.get("IRF_HARNESS_BIN",
                         os.path.join(hs.ROOT, "build", "ci", "tests", "integration", "irf_harness"))
SCRIPT = os.path.join(hs.DATA_DIR, "examples", "demo-fake-script.json")


# The variables a rank is read from (docs/configuration.md, %r).
RANK_VARIABLES = ("OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK", "SLURM_PROCID",
                  "MV2_COMM_WORLD_RANK")


def irf_run(directory, *command):
    return subprocess.run([IRF, "run", "--html", "-o", os.path.join(directory, "app-%p"),
                           "--summary", "none", "--targets", "b200", "--", *command],
                          capture_output=True, text=True, timeout=300)


def start_rank(stem, rank_variable, rank):
    """`irf run --html -o STEM` as one rank of a job started by a launcher that sets
    `rank_variable` (the harness plays the fake script under libirf); not waited for."""
    env = {k: v for k, v in os.environ.items() if k not in RANK_VARIABLES}
    env[rank_variable] = str(rank)
    return subprocess.Popen([IRF, "run", "--html", "-o", stem, "--summary", "none", "--targets",
                             "none", "--", "/bin/sh", "-c",
                             f'IRF_BACKEND=fake:{SCRIPT} exec "$0" "$CUDA_INJECTION64_PATH"',
                             HARNESS], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)


def page_header(path):
    """The header the page was made from (its JSON data block)."""
    with open(path, encoding="utf-8") as f:
        block = re.search(r'<script type="application/json"[^>]*>(.*?)</script>', f.read(), re.S)
    return json.loads(block.group(1))["header"]


class RunHtml(unittest.TestCase):
    def setUp(self):
        self.dir = hs.workdir()

    def test_page_beside_the_profile(self):
        proc = irf_run(self.dir, "/bin/sh", "-c",
                       f'IRF_BACKEND=fake:{SCRIPT} exec "$0" "$CUDA_INJECTION64_PATH"', HARNESS)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        files = sorted(os.listdir(self.dir))
        self.assertEqual([os.path.splitext(f)[1] for f in files], [".html", ".json"], files)
        self.assertEqual(os.path.splitext(files[0])[0], os.path.splitext(files[1])[0])
        self.assertRegex(proc.stderr, r"irf-report html: wrote .*app-\d+\.html \(5 kernels")

    def test_exit_status_is_the_applications(self):
        proc = irf_run(self.dir, "/bin/sh", "-c", "exit 3")
        self.assertEqual(proc.returncode, 3, proc.stderr)
        self.assertRegex(proc.stderr, r"irf: no HTML report: the application wrote no profile")
        self.assertEqual(os.listdir(self.dir), [])

    def test_bad_option_starts_nothing(self):
        proc = irf_run(os.path.join(self.dir, "missing"), "/bin/sh", "-c", "exit 0")
        self.assertEqual(proc.returncode, 2, proc.stderr)
        self.assertEqual(len(proc.stderr.strip().splitlines()), 1, proc.stderr)


class RunHtmlPerRank(unittest.TestCase):
    """Two ranks of one job, one named by Open MPI's variable and one by Slurm's, run at once
    with the same stem: each writes STEM-r<rank>.json and its page STEM-r<rank>.html."""

    def test_each_rank_writes_its_own_page(self):
        directory = hs.workdir()
        stem = os.path.join(directory, "job")
        ranks = [start_rank(stem, "OMPI_COMM_WORLD_RANK", 0), start_rank(stem, "SLURM_PROCID", 1)]
        results = [proc.communicate(timeout=300) for proc in ranks]
        for rank, (proc, (_, err)) in enumerate(zip(ranks, results)):
            self.assertEqual(proc.returncode, 0, err)
            self.assertIn(f"irf: profile will go to {stem}-r{rank}.json\n", err)
            self.assertRegex(err, rf"irf-report html: wrote {re.escape(stem)}-r{rank}\.html ")
        self.assertEqual(sorted(os.listdir(directory)),
                         ["job-r0.html", "job-r0.json", "job-r1.html", "job-r1.json"])
        for rank in (0, 1):
            header = page_header(f"{stem}-r{rank}.html")
            self.assertEqual(header["rank"], rank)
            self.assertEqual(header["pid"], hs.load(f"{stem}-r{rank}.json")["pid"])


if __name__ == "__main__":
    unittest.main()
