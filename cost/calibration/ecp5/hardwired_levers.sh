#!/bin/sh
# What registered decode and operand registers (neaccel rtl --decode registered, --operand-regs; docs/datapath.md
# "Registered decode and operand registers"), an input port of four words per cycle (--in-words 4: the 24 inputs
# load in 6 cycles instead of 24), the deep units (--units deep, rtl/units/deep) and local sequencers (--decode
# local: a counter copy beside each unit and operand port) and overlapped I/O (--io overlap) do to the placed
# clock of the
# study's fastest puma560 design, and what the unit
# latencies then cost in cycles. Each design is generated, co-simulated against its SystemC model (RTL =
# model in every cycle, results bit-exact), and placed and routed on the LFE5U-85F (neaccel area --design DIR --pnr
# --target ecp5-85f: from data/pnr-cache where the design is byte-identical, else Yosys and nextpnr, 2.5 to 4.5
# minutes each on the shared machine); writes data/ecp5-85f/hardwired-levers.json.
# From the repository root, after a build and ./run setup:
#   cost/calibration/ecp5/hardwired_levers.sh WORKDIR        (JOBS=2 LIMIT=2400 REMEASURE=0 by default)
set -eu
work=${1:?usage: hardwired_levers.sh WORKDIR}
neaccel=${NEACCEL:-build/cli/neaccel}
jobs=${JOBS:-2}
limit=${LIMIT:-2400}
remeasure=
[ "${REMEASURE:-0}" = 1 ] && remeasure=--remeasure
base="--robot puma560 --flavour custom --mul 4 --add 4 --arch hardwired --binding interconnect"
# name | nextpnr seed | rtl arguments beyond $base. Seed 1 is the figure of record; the combinational fixed-point
# design is the one whose seed-1 placement does not route (data/README.md), placed with seed 2.
list='fp-32-comb|1|--format fp32 --lat-mul 3 --lat-add 2
fp-32-reg|1|--format fp32 --lat-mul 3 --lat-add 2 --decode registered
fp-32-reg-opreg|1|--format fp32 --lat-mul 3 --lat-add 2 --decode registered --operand-regs
fp-43-reg-opreg|1|--format fp32 --lat-mul 4 --lat-add 3 --decode registered --operand-regs
fx-32-comb|2|--format fixed:16.16 --lat-mul 3 --lat-add 2
fx-32-reg|1|--format fixed:16.16 --lat-mul 3 --lat-add 2 --decode registered
fx-32-opreg|1|--format fixed:16.16 --lat-mul 3 --lat-add 2 --operand-regs
fx-32-reg-opreg|1|--format fixed:16.16 --lat-mul 3 --lat-add 2 --decode registered --operand-regs
fp-32-reg-w4|1|--format fp32 --lat-mul 3 --lat-add 2 --decode registered --in-words 4
fp-32-reg-opreg-w4|1|--format fp32 --lat-mul 3 --lat-add 2 --decode registered --operand-regs --in-words 4
fx-32-reg-w4|1|--format fixed:16.16 --lat-mul 3 --lat-add 2 --decode registered --in-words 4
fx-32-reg-opreg-w4|1|--format fixed:16.16 --lat-mul 3 --lat-add 2 --decode registered --operand-regs --in-words 4
fx-32-reg-opreg-w4-ov|1|--format fixed:16.16 --lat-mul 3 --lat-add 2 --decode registered --operand-regs --in-words 4 --io overlap
fx-52-deep-w4|1|--format fixed:16.16 --lat-mul 5 --lat-add 2 --decode registered --operand-regs --in-words 4 --units deep
fx-52-deep-local-w4|1|--format fixed:16.16 --lat-mul 5 --lat-add 2 --decode local --operand-regs --in-words 4 --units deep
fx-32-deep-local-w4|1|--format fixed:16.16 --lat-mul 3 --lat-add 2 --decode local --operand-regs --in-words 4 --units deep'
mkdir -p "$work"
echo "$list" | while IFS='|' read -r name seed args; do
  d="$work/$name"
  # shellcheck disable=SC2086
  [ -f "$d/manifest.json" ] || $neaccel rtl $base $args --out "$d" > /dev/null
  [ -f "$d/cosim.json" ] || $neaccel sim --out "$d" --engine cosim --random 20 --json --quiet > "$d/cosim.json"
done
echo "$list" | while IFS='|' read -r name seed args; do echo "$name $seed"; done | xargs -P "$jobs" -L 1 sh -c '
  out="'"$work"'/$0/pnr.json"
  [ -f "$out" ] && [ -z "'"$remeasure"'" ] && exit 0
  echo "$(date -u +%T) $0: place and route (seed $1)" >&2
  if timeout '"$limit"' '"$neaccel"' area --design "'"$work"'/$0" --pnr --target ecp5-85f --seed "$1" --json '"$remeasure"' > "$out.tmp"; then
    mv "$out.tmp" "$out"
  else echo "$(date -u +%T) $0: not measured (exit $?)" >&2; rm -f "$out.tmp"; fi'
echo "$list" | python3 -c '
import json, sys
work, base = sys.argv[1], sys.argv[2]
rows = []
for line in sys.stdin.read().splitlines():
    name, seed, args = line.split("|")
    d = work + "/" + name
    m = json.load(open(d + "/manifest.json"))
    c = json.load(open(d + "/cosim.json"))
    try:
        p = json.load(open(d + "/pnr.json"))
    except OSError:
        p = None
    s = m["spec"]
    cycles = m["datapath"]["cycles"]
    row = {"name": name, "rtl": "neaccel rtl " + base + " " + args, "format": s["format"],
           "lat_mul": s["lat_mul"], "lat_add": s["lat_add"], "decode": s.get("decode", "combinational"),
           "operand_regs": s.get("operand_regs", False), "in_words": s.get("in_words", 1),
           "units": s.get("units", "standard"), "io": s.get("io", "phases"), "cycles": cycles,
           "cosim": {"states": c["states"], "mismatches": c["mismatches"], "cycles_compared": c["cosim_compared_cycles"], "rtl_equals_systemc": c["cosim_cycle_mismatches"] == 0}}
    if p and p.get("fits"):
        row.update({"seed": p.get("seed", 1), "fmax_mhz": p["fmax_mhz"], "period_ns": p["period_ns"],
                    "time_ns": round(cycles * p["period_ns"], 1), "lut": p["lut"], "ff": p["ff"], "dsp": p["dsp"]})
    else:
        row["placed"] = "not measured"
    rows.append(row)
out = {"command": "cost/calibration/ecp5/hardwired_levers.sh WORKDIR", "target": "ecp5-85f",
       "part": "LFE5U-85F-6BG381C", "designs": rows}
json.dump(out, open("data/ecp5-85f/hardwired-levers.json", "w"), indent=1, sort_keys=True)
print("wrote data/ecp5-85f/hardwired-levers.json")
for r in rows:
    print("{:18} {:11} {}/{} {:13} opreg={!s:5} words={} {:4} cycles  {:>7} MHz  {:>8} ns  {:>6} LUT4".format(
        r["name"], r["format"], r["lat_mul"], r["lat_add"], r["decode"], r["operand_regs"], r["in_words"], r["cycles"],
        r.get("fmax_mhz", "-"), r.get("time_ns", "-"), r.get("lut", "-")))
' "$work" "$base"
