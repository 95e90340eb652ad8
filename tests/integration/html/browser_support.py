# SPDX-License-Identifier: Apache-2.0
"""One headless Chromium (Debian's chromium and chromium-driver, driven by python3-selenium) for
all the browser checks of the HTML report, and the expected figure contents computed from the
analysed profile independently of the page's scripts."""
import os
import shutil
import time

CHROMEDRIVER = os.environ.get("IRF_CHROMEDRIVER", "/usr/bin/chromedriver")
CHROMIUM = os.environ.get("IRF_CHROMIUM", "/usr/bin/chromium")
MISSING = ("the HTML report's browser tests need Debian's chromium, chromium-driver and "
           "python3-selenium (scripts/install-deps.sh installs them): ")


def start_browser():
    """A headless Chromium with the console log kept; AssertionError naming what is missing."""
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError as e:
        raise AssertionError(MISSING + f"python3-selenium: {e}") from e
    for path in (CHROMEDRIVER, CHROMIUM):
        if not shutil.which(path):
            raise AssertionError(MISSING + f"{path} not found")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage",
                "--window-size=1400,1000", "--enable-unsafe-swiftshader",
                "--use-angle=swiftshader"):
        options.add_argument(arg)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)


def open_page(driver, path, timeout=120, on_ready=None):
    """Loads the page and waits until every figure is drawn; returns (ready, complete): the ms
    from navigation start until the first screen was usable and until the last figure was
    drawn (the page's own clock). `on_ready` is called when ready is first seen."""
    driver.get_log("browser")  # drop what an earlier page left
    driver.get("file://" + os.path.abspath(path))
    deadline = time.time() + timeout
    while time.time() < deadline:
        state = driver.execute_script(
            "const d = document.documentElement.dataset;"
            "return [d.irfReady, d.irfComplete, d.irfError];")
        if state[2]:
            raise AssertionError(f"{path}: the page failed: {state[2]}")
        if state[0] and on_ready:
            on_ready()
            on_ready = None
        if state[1]:
            return float(state[0]), float(state[1])
        time.sleep(0.05)
    raise AssertionError(f"{path}: not complete after {timeout} s")


def console_errors(driver):
    return [e for e in driver.get_log("browser") if e.get("level") == "SEVERE"]


def level_point(kernel, level):
    irm = (kernel.get("analysis") or {}).get("irm") or {}
    thread = (irm.get("ii_thread") or {}).get(level), irm.get("gips_thread")
    warp = (irm.get("ii") or {}).get(level), irm.get("gips_warp")
    return bool((thread[0] or 0) > 0 and (thread[1] or 0) > 0 or
                (warp[0] or 0) > 0 and (warp[1] or 0) > 0)


def expected_points(profile, figure_kernels=20):
    """Points each figure must draw, from the analysed profile JSON."""
    kernels = profile["kernels"]
    out = {"irm": sum(level_point(k, lv) for k in kernels for lv in ("l1", "l2", "hbm"))}
    walls = {"global": ("inst_global_ld", "inst_global_st"),
             "shared": ("inst_shared_ld", "inst_shared_st", "inst_ldsm", "inst_stsm")}
    for wall, names in walls.items():
        def drawn(k):
            c = k.get("counters") or {}
            w = ((k.get("analysis") or {}).get("walls") or {}).get(wall) or {}
            return (w.get("intensity") or 0) > 0 and sum(c.get(n, 0) for n in names) > 0 and \
                (c.get("time_ns") or 0) > 0
        count = sum(drawn(k) for k in kernels)
        if count:
            out[wall + "-walls"] = count
    flops = {}
    for k in kernels:
        by = ((k.get("analysis") or {}).get("flops") or {}).get("by_precision") or {}
        for precision, v in by.items():
            if (v.get("flops") or 0) > 0:
                ai = v.get("ai") or {}
                flops[precision] = flops.get(precision, 0) + sum(
                    (ai.get(lv) or 0) > 0 for lv in ("l1", "l2", "hbm"))
    out.update({"flops-" + p: n for p, n in flops.items() if n})
    longest = sorted(kernels, key=lambda k: -k["time_ns"]["total"])[:figure_kernels]
    projection = sum(1 for k in longest for p in (k.get("analysis") or {}).get("projection", [])
                     if (p.get("time_ns", {}).get("point") or 0) > 0 and
                     isinstance(p.get("speedup_point"), (int, float)))
    if projection:
        out["projection"] = projection
    return out


def _children(pid):
    """Pids whose parent is `pid` (from /proc)."""
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", encoding="ascii", errors="replace") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                out.append(int(entry))
    return out


def process_cpu_seconds(driver, kind):
    """CPU time (user + system) used so far by the browser's processes of `kind` (renderer:
    the page's scripts, layout and painting; gpu-process: here WebGL and rasterisation in
    software, SwiftShader). A loaded machine stretches wall time, not this."""
    todo, total = [driver.service.process.pid], 0.0
    flag = b"--type=" + kind.encode()
    while todo:
        pid = todo.pop()
        todo += _children(pid)
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                if flag not in f.read():
                    continue
            with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total
