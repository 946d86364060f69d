#!/usr/bin/env bash
# The arithmetic units on the SkyWater SKY130 HD standard cells (target sky130-hd, typical corner): each unit
# configuration inside its timing harness (rtl/units/timing: registered inputs and outputs, every stage a
# register-to-register path), mapped onto the cells by Yosys and timed and powered by OpenSTA through
# `neaccel area --unit U --latency L [--non-pipelined] --target sky130-hd --json` (cost/src/asic.cpp, docs/asic.md).
# The same configurations as the ECP5's table (cost/calibration/ecp5/units.sh).
#
# usage: cost/calibration/sky130/units.sh [CONFIG...]   CONFIG = unit:latency[:np], default the sweep below.
#        NEACCEL=path/to/neaccel (default build/cli/neaccel). Rows are cached under out/sky130-hd-units/<config>/
#        row.json (keyed by a hash of the unit's sources, the target and the activity: a stale row is measured
#        again); cost/calibration/sky130/table.py gathers them into data/sky130-hd/unit-timing.json.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)"
neaccel="${NEACCEL:-$root/build/cli/neaccel}"
[ -x "$neaccel" ] || { echo "units.sh: $neaccel not found (build it: ./run build)" >&2; exit 1; }
command -v sta >/dev/null || { echo "units.sh: sta not found (install it with ./run setup)" >&2; exit 1; }

configs=("$@")
if [ ${#configs[@]} -eq 0 ]; then
  for lat in 3 1 6 2 4 5; do
    for u in fp32-mul fp32-add fx-mul fx-add fp32-fma fp32-div; do configs+=("$u:$lat"); done
  done
  configs+=(fp32-mul:3:np fx-mul:3:np fx-add:3:np fx-fma:2 fx-div:4)
  for lat in 1 2 3 4 5; do configs+=("fx-mul-deep:$lat"); done
  for lat in 1 2 3; do configs+=("fx-add-deep:$lat"); done
  for lat in 1 2 3 4 5 6 7 8; do configs+=("fp32-mul-deep:$lat" "fp32-add-deep:$lat"); done
fi

cd "$root"
failed=0
for c in "${configs[@]}"; do
  IFS=: read -r unit lat np <<<"$c"
  args=(area --unit "$unit" --latency "$lat" --target sky130-hd --out out --json)
  [ "${np:-}" = np ] && args+=(--non-pipelined)
  if row="$("$neaccel" "${args[@]}" 2>"out/sky130-units-last.err")"; then
    printf '%s\n' "$row" | python3 -c 'import json,sys; r=json.load(sys.stdin); print(r["unit"], r["latency"], "" if r["pipelined"] else "np", r["cache"], r["area_um2"], "um2", r["fmax_mhz"], "MHz")'
  else
    echo "FAILED $c: $(cat out/sky130-units-last.err)"; failed=1
  fi
done
exit $failed
