#!/usr/bin/env python3
"""Fits the cost models' coefficients (docs/cost.md) on the measurements written by cost/calibration/calibrate.sh and
writes data/datapath-area.json and data/datapath-timing.json (measurements, command, coefficients).

    python3 cost/calibration/fit.py WORKDIR            (from the repository root; standard library only)

Area: weighted least squares of  cells - units(data/unit-area.json)  on the terms of estimate_cost
(cost/src/cost.cpp), weights 1/cells so that the relative error of the total is what is minimised;
a coefficient that comes out negative is fixed at 0 and the rest refitted (non-negative least squares by
elimination). Timing: 1000/fmax - unit stage period = t_op0 + t_op_per_level * log2(S) (the operand path), the
slope fixed at a measured LUT level delay and the intercept fitted.
"""
import json
import math
import sys


def clog2(n):
    b = 0
    while (1 << b) < n:
        b += 1
    return b


def width(fmt):
    if fmt == "fp32":
        return 32
    i, f = fmt.split(":")[1].split(".")
    return int(i) + int(f)


def word_bits(p):
    u, r = p["mul"] + p["add"], max(p["registers"], 1)
    ra, oa = max(1, clog2(r)), max(1, clog2(u + r + p["consts"]))
    if p["streaming"]:
        sb = max(1, clog2(max(p["stages"], 1)))
        return u * (3 + sb + 2 * oa) + u * (1 + sb + ra) + 1 + (2 + ra) + (1 + sb + oa)
    return u * (3 + 2 * oa) + u * (1 + ra)


def unit_name(p, mul):
    return ("fp32-" if p["format"] == "fp32" else "fx-") + ("mul" if mul else "add")


def unit_row(table, unit, lat, pipelined, key):
    for row in table["units"]:
        if row["unit"] == unit and row["latency"] == lat and row.get("pipelined", True) == pipelined:
            return row[key]
    if not pipelined:  # the estimate of neaccel::cost::unit_area (cost/src/area.cpp)
        return unit_row(table, unit, 1, True, key) + unit_row(table, "fp32-mul", 3, False, key) - \
            unit_row(table, "fp32-mul", 1, True, key)
    raise SystemExit(f"no {key} for {unit} latency {lat} pipelined={pipelined}")


def units_area(p, table):
    return p["mul"] * unit_row(table, unit_name(p, True), p["lat_mul"], p["pipelined"], "generic_cells") + \
        p["add"] * unit_row(table, unit_name(p, False), p["lat_add"], p["pipelined"], "generic_cells")


def unit_period(p, timing, mul):
    lat = (p["lat_mul"] if mul else p["lat_add"]) if p["pipelined"] else 1
    rows = [r for r in timing["units"] if r["unit"] == unit_name(p, mul) and r.get("pipelined", True) and r["latency"] <= lat]
    best = max(rows, key=lambda r: r["latency"])
    return 1000.0 / best["fmax_mhz"]


AREA_TERMS = ["k_reg", "k_op", "k_const", "k_wb", "k_rom", "k_ctl", "k_bus"]
# Fixed by construction, not fitted: one flip-flop per register bit (the measured flip-flop counts confirm R*W of
# them), one two-input multiplexer cell per register bit and extra write source. Over the designs the register
# count R grows with the unit count U, so R*W*U (write-back) and the operand multiplexers are nearly collinear:
# fitted freely they trade places from one set of designs to the next (0 and 5 cells per bit seen).
AREA_FIXED = {0: 1.0, 3: 1.0}


def area_features(p):
    """The operand multiplexers are costed on their register inputs, 2U*W*(R+Q-1) (Q parameter memory words, read as
    registers are), and on the other units' result buses, 2U*W*(U-1). The result-bus term was fitted to 0 before the
    datapath's execution part was rewritten (the microcode ROM is logic, and Yosys pruned what the program never
    selected); measured again on today's designs, the many-unit ones on small graphs are 10 to 50 % larger and the
    term is needed (docs/cost.md)."""
    w, u, r, c = width(p["format"]), p["mul"] + p["add"], max(p["registers"], 1), max(p["consts"], 0)
    q = max(p.get("params", 0), 0)
    return [(r + q) * w, 2 * u * w * (r + q - 1), 2 * u * w * c, r * w * u,
            max(p["program_words"], 1) * word_bits(p), 1.0, 2 * u * w * (u - 1)]


def design_sets():
    """name -> set (area, pnr, outside) of cost/calibration/designs.txt."""
    sets = {}
    for line in open("cost/calibration/designs.txt"):
        if line.startswith("#") or not line.strip():
            continue
        name, kind = (x.strip() for x in line.split("|")[:2])
        sets[name] = kind
    return sets


def solve(rows, ys, ws, active):
    """Weighted least squares restricted to the active columns (normal equations, Gauss-Jordan)."""
    n = len(active)
    a = [[0.0] * (n + 1) for _ in range(n)]
    for x, y, w in zip(rows, ys, ws):
        xs = [x[k] for k in active]
        for i in range(n):
            for j in range(n):
                a[i][j] += w * w * xs[i] * xs[j]
            a[i][n] += w * w * xs[i] * y
    for col in range(n):
        piv = max(range(col, n), key=lambda r: abs(a[r][col]))
        a[col], a[piv] = a[piv], a[col]
        if abs(a[col][col]) < 1e-30:
            raise SystemExit("fit: singular system (too few or too similar designs)")
        for r in range(n):
            if r != col:
                f = a[r][col] / a[col][col]
                for k in range(col, n + 1):
                    a[r][k] -= f * a[col][k]
    return {k: a[i][n] / a[i][i] for i, k in enumerate(active)}


def nnls(rows, ys, ws, ncols):
    active = list(range(ncols))
    while True:
        sol = solve(rows, ys, ws, active)
        neg = [k for k, v in sol.items() if v < 0]
        if not neg:
            return [sol.get(k, 0.0) for k in range(ncols)]
        active.remove(min(neg, key=lambda k: sol[k]))


def update_hardwired(rows):
    """Adds (or replaces, by name) the measured hardwired designs in data/hardwired-area.json."""
    if not rows:
        return
    path = "data/hardwired-area.json"
    data = json.load(open(path))
    for d in rows:
        p = d["point"]
        row = {"design": d["name"], "rtl_args": d["rtl_args"], "format": p["format"], "streaming": p["streaming"],
               "units": p["mul"] + p["add"], "registers": p["registers"], "mux_inputs": p["mux_inputs"],
               "mux2_equivalent": p["mux2_equivalent"], "program_words": p["program_words"], "cells": d["cells"],
               "non_unit_cells": d["non_unit_cells"], "flip_flops": d["flip_flops"], "point": p}
        same = [i for i, r in enumerate(data["rows"]) if r["design"] == d["name"]]
        if same:
            data["rows"][same[0]] = row
        else:
            data["rows"].append(row)
        print(f"hardwired {d['name']:<20} measured {d['cells']:>8} non-unit {d['non_unit_cells']:>7} -> {path}",
              file=sys.stderr)
    data["columns"]["flip_flops"] = ("flip-flop cells of the whole design (rows measured by cost/calibration/calibrate.sh, "
                                     "which has no per-module flip-flop count)")
    how = ("the rows of cost/calibration/designs.txt (names ending -dhw): cost/calibration/calibrate.sh WORKDIR && "
           "python3 cost/calibration/fit.py WORKDIR")
    if how not in data["regenerate"]:
        data["regenerate"].append(how)
    json.dump(data, open(path, "w"), indent=1)
    open(path, "a").write("\n")


def main():
    work = sys.argv[1]
    unit_area = json.load(open("data/unit-area.json"))
    unit_timing = json.load(open("data/unit-timing.json"))
    measured = json.load(open(f"{work}/area.json"))
    for d in measured:
        d["rtl_args"] = d["rtl_args"].strip()  # as read from designs.txt, after the separator
    # Hardwired designs (`--arch hardwired` rows) are the hardwired model's data: data/hardwired-area.json, fitted by
    # estimate_cost at first use (cost/src/cost.cpp); the rest are the microcoded model's.
    micro = [d for d in measured if d["point"].get("arch", "microcoded") != "hardwired"]
    # Set `outside`: measured and reported beside the model, not fitted (docs/cost.md says why each is outside).
    sets = design_sets()
    area = [d for d in micro if sets.get(d["name"]) != "outside"]
    outside = [d for d in micro if sets.get(d["name"]) == "outside"]
    update_hardwired([d for d in measured if d["point"].get("arch", "microcoded") == "hardwired"])
    rows = [area_features(d["point"]) for d in area]
    ys = [d["cells"] - units_area(d["point"], unit_area) - sum(v * x[i] for i, v in AREA_FIXED.items())
          for d, x in zip(area, rows)]
    ws = [1.0 / d["cells"] for d in area]
    free = [i for i in range(len(AREA_TERMS)) if i not in AREA_FIXED]
    sol = nnls([[x[i] for i in free] for x in rows], ys, ws, len(free))
    k = [AREA_FIXED.get(i, 0.0) for i in range(len(AREA_TERMS))]
    for j, i in enumerate(free):
        k[i] = sol[j]
    coef = {name: round(v, 6) for name, v in zip(AREA_TERMS, k)}
    worst = 0.0
    for d, x in zip(area, rows):
        est = units_area(d["point"], unit_area) + sum(c * v for c, v in zip(k, x))
        err = 100.0 * (est - d["cells"]) / d["cells"]
        worst = max(worst, abs(err))
        print(f"area {d['name']:<20} measured {d['cells']:>8} model {est:>9.0f} {err:+6.1f}%", file=sys.stderr)
    print(f"area: worst {worst:.1f}%  {coef}", file=sys.stderr)
    for d in outside:
        est = units_area(d["point"], unit_area) + sum(c * v for c, v in zip(k, area_features(d["point"])))
        d["model_error_percent"] = round(100.0 * (est - d["cells"]) / d["cells"], 2)
        print(f"outside {d['name']:<17} measured {d['cells']:>8} model {est:>9.0f} {d['model_error_percent']:+6.1f}%",
              file=sys.stderr)
    json.dump({
        "tool": "yosys 0.23 synth -top nea_top (generic cells; the design's synth/generic.ys)",
        "command": f"cost/calibration/calibrate.sh {work} && python3 cost/calibration/fit.py {work}",
        "designs_list": "cost/calibration/designs.txt",
        "model": {"form": "cells = units(data/unit-area.json) + k_reg*(R+Q)*W + k_op*2U*W*(R+Q-1) + k_bus*2U*W*(U-1) "
                          "+ k_const*2U*W*C + k_wb*R*W*U + k_rom*P*B + k_ctl",
                  "fit": "weighted least squares (weights 1/cells), non-negative; k_reg = k_wb = 1 fixed by construction",
                  "worst_error_percent": round(worst, 2), "coefficients": coef},
        "designs": area,
        "outside": outside}, open("data/datapath-area.json", "w"), indent=1)
    open("data/datapath-area.json", "a").write("\n")

    timing = json.load(open(f"{work}/timing.json"))
    if not timing:
        print("timing: no placed design, not fitted", file=sys.stderr)
        return
    # The operand path: unit stage + t_op0 + T_LEVEL * log2(S). The designs that fit the HX8K all have S between
    # 15 and 25 operand sources (log2 S 3.9..4.6), too narrow a range to fit the slope: it is fixed at the mean
    # delay of one LUT level (LUT plus its net) on the measured critical path of p2-fx-1x1-l11 (24 LUT levels,
    # 1.28 ns; nextpnr's critical path report), and only the intercept is fitted (weighted mean, weights 1/period).
    T_LEVEL = 1.28
    rows, ys, ws = [], [], []
    for d in timing:
        p = d["point"]
        tu = max(unit_period(p, unit_timing, True) if p["mul"] else 0, unit_period(p, unit_timing, False) if p["add"] else 0)
        s = p["mul"] + p["add"] + max(p["registers"], 1) + p["consts"] + p.get("params", 0)
        meas = 1000.0 / d["fmax_mhz"]
        rows.append(math.log2(s))
        ys.append(meas - tu - T_LEVEL * math.log2(s))
        ws.append(1.0 / meas)
        d["unit_period_ns"] = round(tu, 3)
    t0 = sum(w * w * y for w, y in zip(ws, ys)) / sum(w * w for w in ws)
    sol = [t0, T_LEVEL]
    coef = {"t_op0": round(sol[0], 4), "t_op_per_level": T_LEVEL, "t_ctl0": 0.0, "t_ctl_per_level": 0.0}
    worst = 0.0
    for d, x in zip(timing, rows):
        est = d["unit_period_ns"] + sol[0] + sol[1] * x
        meas = 1000.0 / d["fmax_mhz"]
        err = 100.0 * (est - meas) / meas
        worst = max(worst, abs(err))
        print(f"period {d['name']:<20} measured {meas:6.2f} ns model {est:6.2f} ns {err:+6.1f}%", file=sys.stderr)
    print(f"timing: worst {worst:.1f}%  {coef}", file=sys.stderr)
    json.dump({
        "tool": "yosys synth_ice40 + nextpnr-ice40 --hx8k --package ct256 --seed 1 --freq 100 --timing-allow-fail",
        "device": "hx8k", "package": "ct256", "seed": 1,
        "command": f"cost/calibration/calibrate.sh {work} && python3 cost/calibration/fit.py {work}",
        "designs_list": "cost/calibration/designs.txt",
        "model": {"form": "period_ns = max(unit stage (1000/fmax of data/unit-timing.json) + t_op0 + t_op_per_level*log2(S), "
                          "t_ctl0 + t_ctl_per_level*log2(P*B))",
                  "fit": "t_op_per_level fixed at the mean LUT level delay (LUT + net) of a measured critical path; t_op0 weighted least squares (weights 1/period); control term 0 (the measured critical paths start at the microcode word register and end in a unit)",
                  "worst_error_percent": round(worst, 2), "coefficients": coef},
        "designs": timing}, open("data/datapath-timing.json", "w"), indent=1)
    open("data/datapath-timing.json", "a").write("\n")


if __name__ == "__main__":
    main()
