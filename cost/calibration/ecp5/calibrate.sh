#!/bin/sh
# The ECP5 device model's calibration in one command (docs/cost.md, "The ECP5 device model"): places and routes the
# designs of cost/calibration/ecp5/designs.txt (designs.sh; cached, so only what changed runs the tools), writes
# their measurements to data/ecp5-85f/designs.json, keeps their results in the committed cache (data/pnr-cache),
# rebuilds (the data is embedded in the library) and prints the model's coefficients and the table of docs/cost.md.
# From the repository root, after a build and ./run setup:
#   cost/calibration/ecp5/calibrate.sh [WORKDIR]        (default out/ecp5-cal)
set -eu
work=${1:-out/ecp5-cal}
here=$(dirname "$0")
build=${BUILD:-build}
"$here/designs.sh" "$work"
jq --arg cmd "cost/calibration/ecp5/calibrate.sh" '{
  what: "Whole designs placed and routed on the ECP5 LFE5U-85F-6BG381C (neaccel area --design DIR --pnr --target ecp5-85f): the measurements the device model of cost::estimate_cost is fitted on (set fit) or checked against (set check)",
  command: $cmd,
  designs: [.[] | {name, set, rtl_args, point, lut, ff, dsp, bram, io, fmax_mhz, period_ns, seconds, hash}]}' \
  "$work/designs.json" > data/ecp5-85f/designs.json.tmp
mv data/ecp5-85f/designs.json.tmp data/ecp5-85f/designs.json
# Each design's current result (its hash; not older ones its area-cache may hold) into the committed cache.
mkdir -p data/pnr-cache/ecp5-85f
for d in "$work"/*/; do
  [ -f "$d/ecp5.json" ] || continue
  h=$(jq -r .hash "$d/ecp5.json")
  [ -f "$d/area-cache/$h/pnr-ecp5-85f.json" ] && cp "$d/area-cache/$h/pnr-ecp5-85f.json" "data/pnr-cache/ecp5-85f/$h.json"
done
cmake --build "$build" --target neaccel > /dev/null
"$build/cli/neaccel" area --model --target ecp5-85f
