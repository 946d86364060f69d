#!/usr/bin/env python3
"""Recomputes by hand, from the liberty tables, three figures OpenSTA gave for the sky130-hd target (docs/asic.md):
one stage's delay on the worst path of the 4-bit adder of tests/cost/data (add4.timing.log: nand2_1 _13_, B falling
to Y rising), one inverter's internal energy per output transition, and one flip-flop's clock-pin internal energy
per clock cycle. The slews and loads are the ones OpenSTA reported (-fields {slew cap}); bilinear interpolation in
the NLDM tables, as OpenSTA does.

usage: python3 cost/calibration/sky130/hand_check.py
"""
import lzma
import os
import re

root = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".."))
lib = lzma.open(os.path.join(root, "data", "asic", "sky130_fd_sc_hd__tt_025C_1v80.lib.xz"), "rt").read()


def cell(name):
    i = lib.index('cell ("%s")' % name)
    return lib[i:lib.index("\n    cell (", i + 10)]


def table(text, kind):
    t = text[text.index(kind):]
    i1 = [float(x) for x in re.search(r'index_1\("([^"]*)"\)', t).group(1).split(",")]
    m = re.search(r'index_2\("([^"]*)"\)', t[:t.index("values")])
    i2 = [float(x) for x in m.group(1).split(",")] if m else None
    rows = [[float(x) for x in r.split(",")] for r in re.findall(r'"([^"]*)"', re.search(r"values\(([^;]*)\);", t, re.S).group(1))]
    return i1, i2, rows


def lerp1(x, xs, ys):  # linear, extrapolating beyond the ends as OpenSTA does
    a = max([0] + [i for i in range(len(xs) - 1) if xs[i] <= x])
    return ys[a] + (ys[a + 1] - ys[a]) * (x - xs[a]) / (xs[a + 1] - xs[a])


def bilinear(tb, s, c):
    i1, i2, rows = tb
    a = max(i for i in range(len(i1) - 1) if i1[i] <= s)
    b = max(i for i in range(len(i2) - 1) if i2[i] <= c)
    tx = (s - i1[a]) / (i1[a + 1] - i1[a])
    ty = (c - i2[b]) / (i2[b + 1] - i2[b])
    return ((1 - tx) * (1 - ty) * rows[a][b] + (1 - tx) * ty * rows[a][b + 1] + tx * (1 - ty) * rows[a + 1][b]
            + tx * ty * rows[a + 1][b + 1])


# 1. nand2_1, arc B -> Y, Y rising (B falling): input slew 0.0426 ns, load 0.0065 pF (add4.timing.log: 0.0831 ns).
nand = cell("sky130_fd_sc_hd__nand2_1")
y = nand[nand.index('pin ("Y")'):]
arcs = [m.start() for m in re.finditer(r"timing \(\) \{", y)]
arc = next(y[s:] for s in arcs if 'related_pin : "B"' in y[s:s + 20000].split("timing_type")[0])
d = bilinear(table(arc, "cell_rise"), 0.0426, 0.0065)
print(f"nand2_1 B->Y rise delay at 0.0426 ns, 0.0065 pF: {d:.4f} ns by hand; OpenSTA 0.0831 ns")

# 2. inv_1, output Y: rise energy at A's fall slew 0.02504 ns, fall energy at its rise slew 0.03884 ns, load 0.00167
#    / 0.00168 pF. OpenSTA: 5.449922e-08 W at 0.1 transitions per 10 ns cycle = 0.005450 pJ per transition.
inv = cell("sky130_fd_sc_hd__inv_1")
er = bilinear(table(inv, 'rise_power ("power_outputs_1")'), 0.02504, 0.00167)
ef = bilinear(table(inv, 'fall_power ("power_outputs_1")'), 0.03884, 0.00168)
print(f"inv_1 internal energy: rise {er:.6f} pJ, fall {ef:.6f} pJ; per transition (their average) {(er + ef) / 2:.6f} pJ; "
      f"OpenSTA charges 0.005450 pJ = rise + fall ({er + ef:.6f})")

# 3. dfxtp_1 clock pin: one rise and one fall per cycle at the ideal clock's slew 0 (extrapolated). OpenSTA at activity
#    0: 5.900841e-05 W per flip-flop at a 1.38 ns clock = 0.081432 pJ per cycle.
ff = cell("sky130_fd_sc_hd__dfxtp_1")
clk = ff[ff.index('pin ("CLK")'):]
r = table(clk, "rise_power")
f = table(clk, "fall_power")
e = lerp1(0.0, r[0], r[2][0]) + lerp1(0.0, f[0], f[2][0])
print(f"dfxtp_1 CLK internal energy per cycle (rise + fall at slew 0): {e:.6f} pJ; OpenSTA 0.081432 pJ = {0.081432 / e:.3f} x")
