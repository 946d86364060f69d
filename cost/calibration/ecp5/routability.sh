#!/bin/sh
# Writes data/ecp5-85f/routability.json: the designs of cost/calibration/ecp5/routability.txt placed on the ECP5
# LFE5U-85F, routed or not, each with its cost point (so that the model's estimate and the envelope of
# routability.hpp can be computed from it). Runs no place and route: a routed design's result is read from the
# committed cache (neaccel area --design DIR --pnr --target ecp5-85f --cached-only), so place a new one first.
# From the repository root, after a build:
#   cost/calibration/ecp5/routability.sh [WORKDIR]        (default out/ecp5-routability)
set -eu
work=${1:-out/ecp5-routability}
neaccel=${NEACCEL:-build/cli/neaccel}
list=$(dirname "$0")/routability.txt
mkdir -p "$work"
rows="$work/rows.jsonl"
: > "$rows"
grep -v '^#' "$list" | grep -v '^\s*$' | while IFS='|' read -r name outcome args note; do
  name=$(echo "$name" | tr -d ' ')
  outcome=$(echo "$outcome" | sed 's/^ *//;s/ *$//')
  note=$(echo "$note" | sed 's/^ *//;s/ *$//')
  # shellcheck disable=SC2086
  [ -f "$work/$name/manifest.json" ] || $neaccel rtl $args --out "$work/$name" > /dev/null
  $neaccel area --design "$work/$name" --pnr --target ecp5-85f --cached-only --json > "$work/$name/ecp5.json"
  case "$outcome" in
    routed)
      if [ "$(jq -r .cache "$work/$name/ecp5.json")" = none ] || [ "$(jq -r .fits "$work/$name/ecp5.json")" != true ]; then
        echo "routability.sh: $name is not in the place-and-route cache: neaccel area --design $work/$name --pnr --target ecp5-85f, then cost/calibration/ecp5/save_cache.sh $work/$name" >&2
        exit 1
      fi
      jq -c --arg n "$name" --arg a "$args" --arg note "$note" \
        '{name: $n, routed: true, rtl_args: $a, note: $note, point, lut, dsp, fmax_mhz, lut_percent: .percent.lut, hash}' \
        "$work/$name/ecp5.json" >> "$rows" ;;
    unrouted*)
      lut=$(echo "$outcome" | awk '{print $2}')
      jq -c --arg n "$name" --arg a "$args" --arg note "$note" --argjson lut "$lut" \
        '{name: $n, routed: false, rtl_args: $a, note: $note, point, lut: $lut, hash}' \
        "$work/$name/ecp5.json" >> "$rows" ;;
    *) echo "routability.sh: $name: outcome must be routed or unrouted N (got '$outcome')" >&2; exit 1 ;;
  esac
done
jq -s --arg cmd "cost/calibration/ecp5/routability.sh" '{
  what: "Designs placed on the ECP5 LFE5U-85F-6BG381C beside the device model calibration designs (data/ecp5-85f/designs.json, all routed): whether nextpnr routed them. With those they give, per architecture, the envelope a design must lie in to be taken as routable (cost/include/neaccel/cost/routability.hpp)",
  command: $cmd, designs: .}' "$rows" > data/ecp5-85f/routability.json.tmp
mv data/ecp5-85f/routability.json.tmp data/ecp5-85f/routability.json
echo "wrote data/ecp5-85f/routability.json" >&2
