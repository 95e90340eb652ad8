#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Screenshots of an HTML report for docs/figures/ (docs/tools.md, "irf-report html"):
the page as it opens with the longest kernel selected and its L1 point hovered, and the kernel
table with that kernel's details.

    /usr/bin/python3 tests/integration/html/screenshot_report.py out/quickstart/report.html docs/figures
"""
import os
import sys

import browser_support as bs


def main():
    page, out = sys.argv[1], sys.argv[2]
    driver = bs.start_browser()
    try:
        driver.set_window_size(1400, 1100)
        bs.open_page(driver, page)
        driver.execute_script(
            "IRF.select(0); const gd = document.getElementById('fig-irm');"
            "Plotly.Fx.hover(gd, [{curveNumber: gd.data.findIndex((t) => t.name === 'L1'),"
            " pointNumber: gd.data.find((t) => t.name === 'L1').customdata.indexOf(0)}]);")
        driver.save_screenshot(os.path.join(out, "html_report.png"))
        driver.execute_script("document.getElementById('kernels').scrollIntoView();")
        driver.save_screenshot(os.path.join(out, "html_report_selected.png"))
        errors = bs.console_errors(driver)
        if errors:
            print(f"console errors: {errors}", file=sys.stderr)
            return 1
    finally:
        driver.quit()
    return 0


if __name__ == "__main__":
    sys.exit(main())
