#!/usr/bin/env python3
"""Multiplexer inputs of left-edge vs interconnect-aware binding on the same schedules (docs/binding.md).

Runs `neaccel rtl --json --binding left-edge|interconnect` for puma560 and stanford (custom, fp32) at the unit mixes
1+1 (latency 5/3), 2+2 (3/2), 4+4 (3/2), 8+6 (1/1) and prints a CSV (the cached copy is data/binding/mux-inputs.csv):

    python3 scripts/binding_table.py build/cli/neaccel /tmp/binding-table > data/binding/mux-inputs.csv

The second argument is a scratch directory for the artefacts (written there only).
"""
import json
import subprocess
import sys

MIXES = [(1, 1, 5, 3), (2, 2, 3, 2), (4, 4, 3, 2), (8, 6, 1, 1)]
ROBOTS = ["puma560", "stanford"]


def run(exe, out, robot, mix, binding):
    mul, add, lm, la = mix
    args = [exe, "rtl", "--robot", robot, "--flavour", "custom", "--format", "fp32", "--mul", str(mul), "--add",
            str(add), "--lat-mul", str(lm), "--lat-add", str(la), "--binding", binding, "--depth", "off", "--json", "--out",
            f"{out}/{robot}-m{mul}a{add}-l{lm}{la}-{binding}"]
    return json.loads(subprocess.run(args, check=True, capture_output=True, text=True).stdout)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    exe, out = sys.argv[1], sys.argv[2]
    print("robot,mul,add,lat_mul,lat_add,length,"
          "le_mux_inputs,le_unit_ports,le_register_writes,le_output,le_registers,"
          "ic_mux_inputs,ic_unit_ports,ic_register_writes,ic_output,ic_registers,reduction_pct")
    for robot in ROBOTS:
        for mix in MIXES:
            le, ic = (run(exe, out, robot, mix, b) for b in ("left-edge", "interconnect"))
            assert le["schedule"]["length"] == ic["schedule"]["length"]
            row = [robot, *mix, le["schedule"]["length"]]
            for m in (le, ic):
                i = m["interconnect"]
                row += [i["mux_inputs"], i["unit_port_mux_inputs"], i["register_mux_inputs"], i["output_mux_inputs"],
                        m["datapath"]["registers"]]
            row.append(f"{100.0 * (1 - ic['interconnect']['mux_inputs'] / le['interconnect']['mux_inputs']):.1f}")
            print(",".join(str(x) for x in row))


if __name__ == "__main__":
    main()
