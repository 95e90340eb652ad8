# SPDX-License-Identifier: Apache-2.0
"""A/B of the HTML report's assets (docs/performance.md, "HTML report"): the same 10,000-kernel
page (bench.html_ready's) written by one irf-report with each set of assets, opened in turn in
one headless Chromium (A, B, B, A, ...), so the machine's load falls on both alike; prints each
page's ready and complete ms and IRF.timings, then medians.
Usage: html-assets-ab.py BUILD_DIR ROUNDS NAME=ASSET_DIR... (e.g. old=<git archive of
tools/irf_report/html at a commit> new=tools/irf_report/html)."""
import json, os, shutil, statistics, subprocess, sys, tempfile, time
ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.join(ROOT, "tests", "integration", "html"))
import browser_support as bs
import html_support as hs

BUILD = sys.argv[1]          # build dir with irf-report and share/irf/html
ROUNDS = int(sys.argv[2])
VARIANTS = sys.argv[3:]      # name=assetdir ...
work = tempfile.mkdtemp(prefix="irf-html-ab-")
profile = hs.big_profile(work)
pages = {}
for v in VARIANTS:
    name, assets = v.split("=")
    prefix = os.path.join(work, name)
    shutil.rmtree(prefix, ignore_errors=True)
    os.makedirs(prefix + "/bin"); os.makedirs(prefix + "/share/irf")
    shutil.copy(BUILD + "/tools/irf-report", prefix + "/bin/irf-report")
    shutil.copytree(BUILD + "/share/irf/html", prefix + "/share/irf/html")
    for f in os.listdir(assets):
        shutil.copy(os.path.join(assets, f), prefix + "/share/irf/html/" + f)
    page = os.path.join(work, name + ".html")
    subprocess.run([prefix + "/bin/irf-report", "html", profile, "-o", page, "--targets", "b200"],
                   check=True)
    pages[name] = page
driver = bs.start_browser()
res = {n: [] for n in pages}
names = list(pages)
for r in range(ROUNDS):
    order = names if r % 2 == 0 else names[::-1]
    for n in order:
        driver.get("about:blank")
        time.sleep(1.0)
        load = os.getloadavg()[0]
        ready, complete = bs.open_page(driver, pages[n])
        t = json.loads(driver.execute_script("return JSON.stringify(IRF.timings);"))
        res[n].append((ready, complete, load, t))
        print(f"round {r} {n}: ready {ready:.0f} complete {complete:.0f} load {load:.1f} {t}", flush=True)
driver.quit()
for n, rows in res.items():
    rd = [x[0] for x in rows]; cp = [x[1] for x in rows]
    print(f"{n}: ready median {statistics.median(rd):.0f} ms (min {min(rd):.0f}, max {max(rd):.0f}); "
          f"complete median {statistics.median(cp):.0f} ms (min {min(cp):.0f}, max {max(cp):.0f})")
