#!/usr/bin/env python3
"""Checks a campaign report against the data it claims to show, computed here independently of neaccel.

usage: check_report.py DIR   (a finished campaign directory)

- robots side by side: each robot's best latency, best throughput and smallest area are recomputed from the merged
  exploration (explore/merged/explore.json: verified points with a cost estimate) and must equal report.json's, and
  report.md's cell must print that number (latency .1f, throughput .4g, area .0f);
- chosen designs: one row per slot (robots x flavours x choices x formats x architectures from spec.json) in
  report.json and report.md; a slot reported verified has every engine of designs.verify passing, with zero
  mismatches and zero cycle-count errors; a binary32 microcoded slot's own estimate (its point rescheduled and
  costed) equals the exploration's figures.
Exit 1 with one line per problem.
"""
import json
import sys


def main():
    d = sys.argv[1]
    spec = json.load(open(f"{d}/spec.json"))
    ex = json.load(open(f"{d}/explore/merged/explore.json"))["points"]
    rep = json.load(open(f"{d}/report/report.json"))
    md = open(f"{d}/report/report.md").read()
    problems = []
    rows = {}
    for line in md.splitlines():
        if line.startswith("| "):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            rows.setdefault(cells[0], []).append(cells[1:])
    col = 0
    for r in spec["robots"]:
        rj = next(x for x in rep["robots"] if x["name"] == r["name"])
        for f in spec["flavours"]:
            pts = [p for p in ex if p["robot"] == r["spec"] and p["flavour"] == f and p["verified"] and "latency_ns" in p]
            if not pts:
                problems.append(f"{r['name']} {f}: no costed point")
                continue
            want = {
                "best_latency": ("latency_ns", min(p["latency_ns"] for p in pts), "best latency (ns, est.)", "{:.1f}"),
                "best_throughput": ("throughput_per_s", max(p["throughput_per_s"] for p in pts),
                                    "best throughput (set points/s, est.)", "{:.4g}"),
                "smallest": ("area", min(p["area"] for p in pts), "smallest area (cells, est.)", "{:.0f}"),
            }
            for key, (field, value, label, form) in want.items():
                got = rj["flavours"][f][key][field]
                if got != value:
                    problems.append(f"{r['name']} {f}: report.json {key}.{field} = {got}, the exploration says {value}")
                cell = rows.get(label, [[]])[0][col] if label in rows and col < len(rows[label][0]) else None
                if cell != form.format(value):
                    problems.append(f"{r['name']} {f}: report.md '{label}' shows {cell}, expected {form.format(value)}")
            col += 1
    n = len(spec["robots"]) * len(spec["flavours"]) * len(spec["choose"]) * len(spec["formats"]) * len(spec["architectures"])
    if len(rep["designs"]) != n:
        problems.append(f"report.json has {len(rep['designs'])} designs, the campaign has {n} slots")
    slot_rows = [k for k in rows if k.isdigit() and len(k) == 3]
    if len(slot_rows) != n:
        problems.append(f"report.md lists {len(slot_rows)} design slots, the campaign has {n}")
    for des in rep["designs"]:
        # The design's own estimate reschedules its point: in binary32 on the microcoded datapath it must be the
        # exploration's figure exactly (same schedule, same cost model).
        if des.get("format") == "fp32" and des.get("arch") == "microcoded" and "estimate" in des:
            for k in ("area", "latency_ns", "eval_cycles"):
                if des["estimate"][k] != des["point"][k]:
                    problems.append(f"slot {des['slot']}: estimate {k} {des['estimate'][k]} != explored {des['point'][k]}")
        if des.get("status") == "verified":
            for e in spec["verify"]:
                v = des.get("verify", {}).get(e)
                if not v or not v["pass"] or v["mismatches"] != 0 or v["cycle_count_errors"] != 0:
                    problems.append(f"slot {des['slot']}: reported verified but engine {e} says {v}")
    for p in problems:
        print("check_report:", p)
    if not problems:
        print(f"check_report: {d}: {col} robot column(s), {n} design slots consistent with the data")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
