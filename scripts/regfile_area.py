#!/usr/bin/env python3
"""Regenerates data/regfile-area.json: the register file as memory against today's microcoded datapath and the
hardwired one (docs/datapath.md "Register file as memory", docs/cost.md).

    python3 scripts/regfile_area.py build/cli/neaccel OUT > data/regfile-area.json

For puma560 customised fp32 (pipelined units, list schedule), the study's smallest explored design (1 mul + 1 add,
latency 5/3) and fastest (8 + 6, latency 1/1), in three forms: microcoded with flip-flop register file (--regfile ff,
the default), hardwired (--arch hardwired --binding interconnect), microcoded with the register file as memory
(--regfile mem). Each: `neaccel rtl ... --out OUT/D` and `neaccel area --design OUT/D --fpga --json` (--no-ice40 but
for the smallest design's memory register file: every design is several times the HX8K, and the iCE40 view is
there to show what becomes of the memory arrays). Yosys runs take minutes to an hour each
(microcoded 8 + 6: generic synth about half an hour under load): results are cached under OUT/D/area-cache/, so a
second run only collects them. With --cached-only, existing design directories are not rewritten and a design whose
results are not all in its cache is listed under "not_measured" instead of being synthesised (with its generic
figures when that run is done).
"""
import json
import os
import subprocess
import sys

DESIGNS = [
    ("smallest", "small", "1 mul + 1 add", "5/3", ["--mul", "1", "--add", "1", "--lat-mul", "5", "--lat-add", "3"], True),
    ("fastest", "fast", "8 mul + 6 add", "1/1", ["--mul", "8", "--add", "6", "--lat-mul", "1", "--lat-add", "1"], False),
]
FORMS = [
    ("microcoded, flip-flop register file", "ff", []),
    ("hardwired, interconnect binding", "hw", ["--arch", "hardwired", "--binding", "interconnect"]),
    ("microcoded, register file as memory", "mem", ["--regfile", "mem"]),
]


def cached(d, ice40):
    """Whether OUT/D/area-cache holds every result `neaccel area --design D --fpga` needs (one design per D)."""
    root = os.path.join(d, "area-cache")
    need = ["generic.json", "xilinx.stat"] + (["ice40.stat"] if ice40 else [])
    return os.path.isdir(root) and any(all(os.path.exists(os.path.join(root, h, f)) for f in need)
                                       for h in os.listdir(root))


def generic_only(d):
    """The generic synthesis result in OUT/D/area-cache, if that run is done (None otherwise)."""
    root = os.path.join(d, "area-cache")
    if not os.path.isdir(root):
        return None
    for h in sorted(os.listdir(root)):
        p = os.path.join(root, h, "generic.json")
        if os.path.exists(p):
            return json.load(open(p))
    return None


def main():
    if len(sys.argv) < 3:
        sys.exit("usage: regfile_area.py NEACCEL OUT [--cached-only]")
    exe, out = sys.argv[1], sys.argv[2]
    cached_only = "--cached-only" in sys.argv[3:]
    rows, missing = [], []
    for design, short, units, lat, unit_args, with_ice40 in DESIGNS:
        for form, tag, form_args in FORMS:
            ice40 = with_ice40 and tag == "mem"  # the iCE40 view only where it says something: RAM inference
            d = os.path.join(out, f"{short}_{tag}")
            rtl = [exe, "rtl", "--robot", "puma560", "--flavour", "custom", "--format", "fp32"] + unit_args + form_args
            rtl += ["--depth", "off", "--out", d]  # the traced graph, as the cached rows (from before the depth pass)
            area = [exe, "area", "--design", d, "--fpga", "--json"] + ([] if ice40 else ["--no-ice40"])
            if not cached_only or not os.path.exists(os.path.join(d, "manifest.json")):
                subprocess.run(rtl, check=True, stdout=subprocess.DEVNULL)
            m = json.load(open(os.path.join(d, "manifest.json")))
            if cached_only and not cached(d, ice40):
                g = generic_only(d)
                if g is None:
                    missing.append({"design": design, "form": form})
                    continue
                a = dict(g, fpga={"xc7": None})  # generic synth done, the FPGA runs not (yet)
                missing.append({"design": design, "form": form, "missing": "xc7 / iCE40 resources"})
            else:
                a = json.loads(subprocess.run(area, check=True, capture_output=True, text=True).stdout)
            rf = m["datapath"]["register_file"]
            row = {"design": design, "units": units, "latency": lat, "form": form,
                   "program_words": m["datapath"]["program_words"], "registers": m["datapath"]["registers"],
                   "cells": a["cells"], "unit_cells": a["unit_cells"], "non_unit_cells": a["non_unit_cells"],
                   "flip_flops": a["flip_flops"], "memory_banks": a.get("memory_banks", 0),
                   "mux_inputs": m["interconnect"]["mux_inputs"] if tag == "hw" else None,
                   "xc7": None if a["fpga"]["xc7"] is None else
                   {k: a["fpga"]["xc7"][k] for k in ("lut", "lutram", "ff", "bram", "dsp48e1", "carry4", "muxf")}}
            if "kind" in rf:
                row["register_file"] = {k: rf["kind"][k] for k in ("write_ports", "read_ports", "banks", "depth",
                                                                    "live_value_table_bits")}
            if "ice40" in a["fpga"]:
                row["ice40"] = {k: a["fpga"]["ice40"][k] for k in ("lut4", "ff", "carry", "ram40_4k",
                                                                    "logic_cells_min", "fits_hx8k")}
            rows.append(row)
    print(json.dumps({
        "what": "Yosys area of puma560 customised fp32 datapaths in three forms: microcoded with the flip-flop "
                "register file, hardwired (interconnect binding), microcoded with the register file as memory "
                "(docs/datapath.md 'Register file as memory')",
        "tool": "yosys 0.23 through `neaccel area --design DIR --fpga --json`: generic synth (hierarchy kept; memory "
                "banks nea_rf_bank as black boxes, one cell each), synth_xilinx -family xc7, synth_ice40",
        "columns": {
            "cells / unit_cells / non_unit_cells / flip_flops": "generic synth (docs/cost.md)",
            "memory_banks": "nea_rf_bank black boxes counted as one cell each in cells (bits: banks x depth x 32)",
            "xc7": "synth_xilinx: lut = logic LUTs, lutram = LUT6 sites used as distributed RAM, ff, bram, dsp48e1",
            "ice40": "synth_ice40 (smallest design, memory register file only): lut4, ff, ram40_4k, logic_cells_min = max(lut4, ff)",
        },
        "regenerate": "python3 scripts/regfile_area.py build/cli/neaccel OUT > data/regfile-area.json",
        "rows": rows,
        "not_measured": missing,
    }, indent=1))


if __name__ == "__main__":
    main()
