#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Writes config/gpus/<key>.yaml for the GPUs of gpu_entry_specs.py (issue 54 item 7), and the
datapaths and clocks blocks of entries written by hand (items 2 and 3).

Every value is SMs x a per-SM rate x the clock the vendor figure assumes, with the document it
comes from, so the loader checks the arithmetic (docs/ceilings.md, "Adding a GPU").

    scripts/gpu_entry.py write KEY...      write the entries (all of them without a KEY)
    scripts/gpu_entry.py blocks KEY        print the datapaths and clocks blocks of KEY
    scripts/gpu_entry.py check             exit 1 when a written entry differs from its spec
    scripts/gpu_entry.py write-public      write the Kepler/Maxwell/Pascal entries of the public replays
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gpu_entry_specs as specs  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def fmt(value):
    """Four significant decimals at most, as the hand-written entries."""
    text = f"{value:.4f}".rstrip("0").rstrip(".")
    return text if text else "0"


def quantity(lines, indent, key, value, unit, provenance, source, method, clock=None, rate=None):
    pad = " " * indent
    lines.append(f"{pad}{key}:")
    lines.append(f"{pad}  value: {fmt(value)}")
    lines.append(f"{pad}  unit: {unit}")
    lines.append(f"{pad}  provenance: {provenance}")
    lines.append(f'{pad}  source: "{source}"')
    lines.append(f'{pad}  method: "{method}"')
    if clock:
        lines.append(f"{pad}  clock_mhz: {fmt(clock)}")
    if rate is not None:
        lines.append(f"{pad}  per_sm_per_clock: {fmt(rate)}")


def per_sm(lines, indent, key, sms, rate, clock, unit, provenance, source, what, scale):
    quantity(lines, indent, key, sms * rate * clock / scale, unit, provenance, source,
             f"{sms} SMs x {fmt(rate)} {what}/clk/SM x {fmt(clock)} MHz", clock, rate)


def datapath_block(g, lines):
    arch = specs.ARCH[g["arch"]]
    lines.append("  # Datapaths of the SM (docs/ceilings.md, \"Datapaths\"): the classes each path")
    lines.append("  # runs, in warp instructions per clock per SM.")
    lines.append("  datapaths:")
    for key, rate in arch["datapaths"]:
        per_sm(lines, 4, key, g["sms"], rate, g["boost"], "warp-GIPS", "spec",
               arch["datapath_source"], "warp-inst", 1e3)


def clock_block(g, lines):
    c = g["clocks"]
    lines.append("  # SM clock under load (docs/ceilings.md, \"Sustained clocks\").")
    lines.append("  clocks:")
    for key in ("sustained", "sustained_low", "sustained_high"):
        if key in c:
            mhz, provenance, source, method = c[key]
            quantity(lines, 4, key, mhz, "MHz", provenance, source, method)


def latency_block(g, lines):
    value, provenance, source, method = g["latency"]
    lines.append("  # Shortest launch in the data on this GPU (docs/model.md, \"Launch floor + work\").")
    lines.append("  latency:")
    quantity(lines, 4, "launch_floor", value, "us", provenance, source, method)


def blocks(g):
    lines = []
    datapath_block(g, lines)
    if g.get("clocks"):
        clock_block(g, lines)
    if g.get("latency"):
        latency_block(g, lines)
    return lines


def identity(g, lines):
    arch = specs.ARCH[g["arch"]]
    lines += ["schema: irf.ceilings/v1", "gpu:", '  name: "%s"' % g["name"],
              "  key: " + g["key"], "  chip: " + g["chip"], '  cc: "%s"' % arch["cc"],
              "  sms: %d" % g["sms"], "  schedulers_per_sm: %d" % arch.get("schedulers", 4),
              "  boost_clock_mhz: " + fmt(g["boost"])]
    if g.get("base"):
        lines.append("  base_clock_mhz: " + fmt(g["base"]))
    lines += ["  l2_bytes: %d" % g["l2_bytes"], "  memory_bytes: %d" % g["memory_bytes"],
              "  memory_type: " + g["memory_type"],
              "  aliases: [" + ", ".join('"%s"' % a for a in g["aliases"]) + "]"]
    limits = specs.SM_LIMITS.get(arch["cc"])
    if limits:
        source = specs.SM_LIMITS_SOURCE.get(arch["cc"], specs.GUIDE_LIMITS) % arch["cc"]
        where = "toolkit" if arch["cc"] in specs.SM_LIMITS_SOURCE else "CUDA C++ Programming Guide"
        lines.append(f"  # Residency limits of cc {arch['cc']} ({where} table; "
                     "docs/ceilings.md, \"SM limits\").")
        lines.append("  sm_limits:")
        for key, value in limits:
            lines.append(f"    {key}: {value}")
        lines.append('    source: "%s (docs/ceilings.md)"' % source)


def compute(g, lines):
    arch, sms, boost, src = specs.ARCH[g["arch"]], g["sms"], g["boost"], g["source"]
    lines.append("ceilings:")
    slots = arch.get("schedulers", 4)
    quantity(lines, 2, "warp_gips", sms * slots * boost / 1e3, "warp-GIPS", "derived",
             "Ding & Williams, An Instruction Roofline Model for GPUs, PMBS 2019 (peak = SMs x "
             + ("4 schedulers" if slots == 4 else "issue slots") + " x clock)",
             f"{sms} SMs x {slots} warp-inst/clk/SM x {fmt(boost)} MHz",
             boost, slots)
    lines.append("  pipe_gips:")
    for key, rate in sorted(arch["pipes"].items()):
        per_sm(lines, 4, key, sms, rate, boost, "warp-GIPS", "derived", arch["pipe_source"],
               "warp-inst", 1e3)
    lines.append("  gflops:")
    for key, rate in sorted(dict(arch["gflops"], **g.get("gflops", {})).items()):
        per_sm(lines, 4, key + "_fma", sms, rate, boost, "GFLOP/s", "spec", src, "flop", 1e3)
        if key == "fp32" and g.get("fp32_gemm"):  # a published FP32 GEMM rate beside the peak
            value, source, method = g["fp32_gemm"]
            lines += ["      alternatives:", f"        - value: {fmt(value)}",
                      "          unit: GFLOP/s", "          provenance: published",
                      f'          source: "{source}"', f'          method: "{method}"']
        quantity(lines, 4, key + "_nofma", sms * rate / 2 * boost / 1e3, "GFLOP/s", "derived",
                 "FADD/FMUL issue at the FMA rate with 1 flop: FMA peak / 2",
                 f"{sms} SMs x {fmt(rate / 2)} flop/clk/SM x {fmt(boost)} MHz", boost, rate / 2)
    if g["tensor"]:
        lines.append("  tensor_tflops:")
    tensor_clock = g.get("tensor_clock", boost)
    for key, rate in sorted(g["tensor"].items()):
        unit, what = ("TOPS", "op") if key.startswith("int") else ("TFLOP/s", "flop")
        per_sm(lines, 4, key, sms, rate, tensor_clock, unit, "spec", src, what, 1e6)


def memory(g, lines):
    arch, sms, boost = specs.ARCH[g["arch"]], g["sms"], g["boost"]
    per_sm(lines, 2, "l1_gbs", sms, arch["l1"], boost, "GB/s", "derived", arch["l1_source"],
           "B", 1e3)
    per_sm(lines, 2, "shared_gbs", sms, 128, boost, "GB/s", "derived",
           "32 banks x 4 B per clock per SM", "B", 1e3)
    if g.get("l2_rate"):  # a cut-down die whose L2 partitions are not in proportion to its SMs
        rate, source, why = g["l2_rate"]
        quantity(lines, 2, "l2_gbs", sms * rate * boost / 1e3, "GB/s", "derived", source,
                 f"{sms} SMs x {fmt(rate)} B/clk/SM x {fmt(boost)} MHz: {why}", boost, rate)
    elif arch.get("l2"):
        rate, source = arch["l2"]
        quantity(lines, 2, "l2_gbs", sms * rate * boost / 1e3, "GB/s", "derived", source,
                 f"{sms} SMs x {fmt(rate)} B/clk/SM x {fmt(boost)} MHz; L2 = SMs x gpu-l2-cache "
                 "plateau B/clk/SM of the die x boost clock (docs/ceilings.md, one method for "
                 "every GPU)", boost, rate)
    gbs, source = g["dram"]
    quantity(lines, 2, "hbm_gbs", gbs, "GB/s", "spec", source,
             "DRAM bandwidth" + ("" if g["memory_type"].startswith("HBM") else
                                 " (GDDR; stored under hbm_gbs)"))
    gen = g["pcie"]
    quantity(lines, 2, "pcie_gbs", specs.PCIE[gen][0], "GB/s", "spec", specs.PCIE[gen][1],
             "per direction")


def entry(g):
    lines = ["# SPDX-License-Identifier: Apache-2.0"]
    lines += ["# " + line for line in g["comment"]]
    lines += ["# " + line for line in specs.COMMON_COMMENT]
    identity(g, lines)
    compute(g, lines)
    memory(g, lines)
    lines += blocks(g)
    return "\n".join(lines) + "\n"


def main(argv):
    if len(argv) >= 2 and argv[1] == "blocks":
        print("\n".join(blocks(specs.BLOCKS_ONLY[argv[2]])))
        return 0
    if len(argv) >= 2 and argv[1] == "write-public":
        for g in specs.VALIDATION_GPUS:
            out_dir = os.path.join(ROOT, "tests", "data", "projection-public",
                                   g.get("set", "gpuperfpredict"), "ceilings")
            os.makedirs(out_dir, exist_ok=True)
            with open(os.path.join(out_dir, g["key"] + ".yaml"), "w", encoding="utf-8") as out:
                out.write(entry(g))
        return 0
    if len(argv) >= 2 and argv[1] in ("write", "check"):
        keys = argv[2:] or [g["key"] for g in specs.GPUS]
        differ = []
        for g in specs.GPUS:
            if g["key"] not in keys:
                continue
            path = os.path.join(ROOT, "config", "gpus", g["key"] + ".yaml")
            text = entry(g)
            if argv[1] == "write":
                with open(path, "w", encoding="utf-8") as out:
                    out.write(text)
            elif not os.path.exists(path) or open(path, encoding="utf-8").read() != text:
                differ.append(g["key"])
        if differ:
            print("differ from their spec: " + ", ".join(differ), file=sys.stderr)
            return 1
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
