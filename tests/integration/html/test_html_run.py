# SPDX-License-Identifier: Apache-2.0
"""`irf run --html` (issue 35): the application runs under libirf (the fake backend, through the
injection harness), then the page is written beside the profile; the application's exit status
is irf's; an application that writes no profile gets one line and no page."""
import os
import subprocess
import unittest

import html_support as hs

IRF = os.environ.get("IRF_BIN", os.path.join(hs.ROOT, "build", "ci", "tools", "irf"))
HARNESS = os.environ.get("IRF_HARNESS_BIN",
                         os.path.join(hs.ROOT, "build", "ci", "tests", "integration", "irf_harness"))
SCRIPT = os.path.join(hs.DATA_DIR, "examples", "demo-fake-script.json")


def irf_run(directory, *command):
    return subprocess.run([IRF, "run", "--html", "-o", os.path.join(directory, "app-%p"),
                           "--summary", "none", "--targets", "b200", "--", *command],
                          capture_output=True, text=True, timeout=300)


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


if __name__ == "__main__":
    unittest.main()
