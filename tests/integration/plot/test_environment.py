# SPDX-License-Identifier: Apache-2.0
"""The plot tests' own precondition: matplotlib, which the README's test command installs."""
import unittest

from plot_support import have_matplotlib


class Environment(unittest.TestCase):
    def test_matplotlib_is_installed(self):
        # scripts/test.sh installs python3-matplotlib (scripts/install-deps.sh) for the
        # interpreter these tests run under; without it the figure tests skip (30 of 47), so its
        # absence is this one failure instead of a quiet pass.
        self.assertTrue(have_matplotlib(),
                        "matplotlib is not importable: install python3-matplotlib "
                        "(scripts/install-deps.sh); the figure tests were skipped")


if __name__ == "__main__":
    unittest.main()
