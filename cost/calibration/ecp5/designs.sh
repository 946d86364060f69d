#!/bin/sh
# Places and routes the designs of cost/calibration/ecp5/designs.txt on the ECP5 (neaccel area --design DIR --pnr
# --target ecp5-85f) for the period and LUT/DSP models fitted by cost/calibration/ecp5/fit.py (docs/cost.md).
# From the repository root, after a build and ./run setup:
#   cost/calibration/ecp5/designs.sh WORKDIR [NAME_REGEX]
# Each design: `neaccel rtl ARGS --out WORKDIR/NAME`, then the place and route, JOBS at a time (default 2), each
# stopped after LIMIT seconds (default 2400: nextpnr's router can stall on a congested design; such a design is
# reported as not measured). Results are cached by the design's content hash (WORKDIR/NAME/area-cache and the
# committed data/pnr-cache/ecp5-85f/), so a second run only measures what changed; cost/calibration/ecp5/save_cache.sh
# copies new results into the committed cache. Writes WORKDIR/designs.json (one row per design that was measured).
set -eu
work=${1:?usage: designs.sh WORKDIR [NAME_REGEX]}
only=${2:-.}
neaccel=${NEACCEL:-build/cli/neaccel}
list=$(dirname "$0")/designs.txt
jobs=${JOBS:-2}
limit=${LIMIT:-2400}
mkdir -p "$work"
grep -v '^#' "$list" | grep -v '^\s*$' | while IFS='|' read -r name set args; do
  name=$(echo "$name" | tr -d ' ')
  echo "$name" | grep -Eq "$only" || continue
  # shellcheck disable=SC2086
  [ -f "$work/$name/manifest.json" ] || $neaccel rtl $args --out "$work/$name" > /dev/null
  echo "$name"
done | xargs -P "$jobs" -I{} sh -c '
  echo "$(date -u +%T) {}: place and route" >&2
  if timeout '"$limit"' '"$neaccel"' area --design "'"$work"'/{}" --pnr --target ecp5-85f --json > "'"$work"'/{}/ecp5.json.tmp"; then
    mv "'"$work"'/{}/ecp5.json.tmp" "'"$work"'/{}/ecp5.json"; echo "$(date -u +%T) {}: done" >&2
  else echo "$(date -u +%T) {}: not measured (exit $?)" >&2; fi'
# One row per measured design, in the order of the list, with the list's set and arguments.
grep -v '^#' "$list" | grep -v '^\s*$' | while IFS='|' read -r name set args; do
  name=$(echo "$name" | tr -d ' '); set=$(echo "$set" | tr -d ' '); args=$(echo "$args" | sed 's/^ *//;s/ *$//')
  [ -f "$work/$name/ecp5.json" ] || continue
  jq -c --arg n "$name" --arg s "$set" --arg a "$args" '{name: $n, set: $s, rtl_args: $a} + .' "$work/$name/ecp5.json"
done | jq -s . > "$work/designs.json"
echo "wrote $work/designs.json" >&2
