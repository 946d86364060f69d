#!/bin/sh
# Measures the designs of cost/calibration/designs.txt for the cost models (docs/cost.md) and writes the measurement
# files; the coefficients are then fitted by cost/calibration/fit.py. From the repository root, after a build:
#   cost/calibration/calibrate.sh WORKDIR [NAME_REGEX]
# For each design: `neaccel rtl ARGS --out WORKDIR/NAME`, then `neaccel area --design WORKDIR/NAME --json`
# (flat generic synthesis), and `--pnr --target ice40-hx8k` for the designs of the pnr set (iCE40 HX8K ct256 seed 1;
# named, since `--pnr` alone places a design the model puts beyond the HX8K on the ECP5). Results are
# cached in each design directory (area-cache/), so a second run only measures what changed. Writes
# WORKDIR/area.json and WORKDIR/timing.json (rows for data/datapath-area.json and data/datapath-timing.json).
set -eu
work=${1:?usage: calibrate.sh WORKDIR [NAME_REGEX]}
only=${2:-.}
neaccel=${NEACCEL:-build/cli/neaccel}
list=${DESIGNS:-$(dirname "$0")/designs.txt}  # another list: cost/calibration/fma_area.sh
mkdir -p "$work"
grep -v '^#' "$list" | grep -v '^\s*$' | while IFS='|' read -r name set args; do
  name=$(echo "$name" | tr -d ' '); set=$(echo "$set" | tr -d ' ')
  echo "$name" | grep -Eq "$only" || continue
  d="$work/$name"
  # --depth off unless the row says: the older rows were measured on the traced graphs (before the depth pass
  # existed); the newer rows say --depth on, as the study builds its designs
  depth="--depth off"
  case " $args " in *" --depth "*) depth="" ;; esac
  # shellcheck disable=SC2086
  [ -f "$d/manifest.json" ] || $neaccel rtl $args $depth --out "$d" > /dev/null
  flag=""
  [ "$set" = pnr ] && flag="--pnr --target ice40-hx8k"
  echo "$(date -u +%T) $name: area $flag" >&2
  # shellcheck disable=SC2086
  $neaccel area --design "$d" $flag --json | jq -c --arg n "$name" --arg a "$args" '. + {name: $n, rtl_args: $a}' > "$d/measured.json"
done
# One row per design, in the order of the list.
rows() { grep -v '^#' "$list" | grep -v '^\s*$' | cut -d'|' -f1 | tr -d ' ' | while read -r n; do
  [ -f "$work/$n/measured.json" ] && cat "$work/$n/measured.json"; done; }
rows | jq -s '[.[] | {name, rtl_args, point, cells, unit_cells, non_unit_cells, flip_flops}]' > "$work/area.json"
rows | jq -s '[.[] | select(.pnr != null and .pnr.fits) | {name, rtl_args, point, cells,
   logic_cells: .pnr.logic_cells, ram: .pnr.ram, io: .pnr.io, fmax_mhz: .pnr.fmax_mhz}]' > "$work/timing.json"
rows | jq -s '[.[] | select(.pnr != null and (.pnr.fits | not)) | {name, xc7: .pnr.xc7}]' > "$work/xc7.json"
echo "wrote $work/area.json, $work/timing.json, $work/xc7.json" >&2
