#!/usr/bin/env python3
"""Gathers the SKY130 HD unit rows that units.sh measured (out/sky130-hd-units/*/row.json) into the target's unit
table, data/sky130-hd/unit-timing.json, beside the ECP5's Fmax for the same configuration (data/ecp5-85f/unit-timing.json).

usage: python3 cost/calibration/sky130/table.py > data/sky130-hd/unit-timing.json
       python3 cost/calibration/sky130/table.py --markdown   (the table docs/asic.md shows)
"""
import glob
import json
import os
import sys

root = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".."))
rows = [json.load(open(p)) for p in glob.glob(os.path.join(root, "out", "sky130-hd-units", "*", "row.json"))]
ecp5 = {}
for u in json.load(open(os.path.join(root, "data", "ecp5-85f", "unit-timing.json")))["units"]:
    ecp5[(u["unit"], u["latency"], u["pipelined"])] = u
rows.sort(key=lambda r: (r["unit"], r["latency"], not r["pipelined"]))
for r in rows:
    e = ecp5.get((r["unit"], r["latency"], r["pipelined"]))
    r["ecp5_fmax_mhz"] = e["fmax_mhz"] if e else None
    for k, d in (("area_um2", 4), ("energy_per_cycle_pj", 4), ("fmax_mhz", 2), ("worst_path_ns", 4), ("clock_ns", 2),
                 ("internal_mw", 6), ("opensta_internal_mw", 6), ("switching_mw", 6), ("total_mw", 6), ("leakage_uw", 6), ("ff_share_area", 4),
                 ("ff_share_cells", 4)):
        r[k] = round(r[k], d)
    r.pop("seconds", None)
    r.pop("cache", None)

if "--markdown" in sys.argv:
    print("| unit | L | pipelined | area um2 | cells | FF | FF share of area | worst path ns | Fmax MHz | leakage uW | internal mW | switching mW | pJ per cycle | ECP5 Fmax MHz |")
    print("|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        f = lambda v: "-" if v is None else v
        print(f"| {r['unit']} | {r['latency']} | {'yes' if r['pipelined'] else 'no'} | {r['area_um2']:,.0f} | {r['cells']:,} | "
              f"{r['flip_flops']:,} | {100 * r['ff_share_area']:.1f} % | {r['worst_path_ns']:.2f} | {r['fmax_mhz']:.1f} | "
              f"{r['leakage_uw']:.3f} | {r['internal_mw']:.2f} | {r['switching_mw']:.2f} | {r['energy_per_cycle_pj']:.1f} | "
              f"{f(r['ecp5_fmax_mhz'])} |")
    sys.exit(0)

out = {
    "command": "cost/calibration/sky130/units.sh && python3 cost/calibration/sky130/table.py > data/sky130-hd/unit-timing.json",
    "target": "sky130-hd",
    "library": "sky130_fd_sc_hd, typical corner tt_025C_1v80 (data/asic)",
    "estimate": "pre-layout estimate, SkyWater 130 nm typical corner (tt, 25 C, 1.80 V): ideal clock, no wire capacitance",
    "tool": "Debian yosys 0.23 (synth -flatten; dfflibmap and abc -liberty without the target's dont_use cells; stat "
            "-liberty) + Debian OpenSTA 2019 (report_checks, report_power at the clock found) through neaccel area "
            "--unit U --latency L --target sky130-hd (unit in rtl/units/timing/unit_timing_top.v, FMAs and dividers "
            "in unit_timing_top3.v, deep units in unit_timing_deep.v: registered inputs and outputs, every stage "
            "register to register)",
    "fields": "area_um2 = sum of the liberty areas of the mapped cells (harness registers included); cells; flip_flops "
              "= cells with an ff or latch group; ff_share_cells, ff_share_area = their share; worst_path_ns = the "
              "worst register-to-register path's arrival + setup (the least clock period); clock_ns = it rounded up "
              "to 0.01 ns, fmax_mhz = 1000 / clock_ns; leakage_uw, switching_mw = OpenSTA report_power at clock_ns "
              "with every net at `activity` transitions per cycle (the clock 2); internal_mw = half of OpenSTA's "
              "internal power (opensta_internal_mw: Debian's OpenSTA 2019 charges each transition with the rise "
              "plus the fall energy of the table, docs/asic.md); total_mw = their sum; "
              "energy_per_cycle_pj = total power x clock_ns; stages = cells on the worst path; ecp5_fmax_mhz = "
              "data/ecp5-85f/unit-timing.json for the same configuration",
    "units": rows,
}
print(json.dumps(out, indent=2, sort_keys=True))
