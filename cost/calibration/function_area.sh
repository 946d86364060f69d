#!/bin/sh
# Area of the puma560 function accelerators of cost/calibration/function-designs.txt, by both syntheses of
# `neaccel area --design` (docs/cost.md): flat (the design's synth/generic.ys) and --hierarchical (the non-unit logic
# with the units as black boxes, units from data/unit-area.json). Writes data/function-area.json. From the
# repository root, after a build:
#   cost/calibration/function_area.sh WORKDIR [NAME_REGEX] [flat|hierarchical|both]
# Flat synthesis of the dtau designs takes 20 minutes and more on the shared machine: run it in the background.
# With `hierarchical` the flat syntheses are skipped (the rows keep only what is cached). Everything is cached in
# WORKDIR/NAME/area-cache/.
set -eu
work=${1:?usage: function_area.sh WORKDIR [NAME_REGEX] [flat|hierarchical|both]}
only=${2:-.}
mode=${3:-both}
neaccel=${NEACCEL:-build/cli/neaccel}
list=$(dirname "$0")/function-designs.txt
mkdir -p "$work"
grep -v '^#' "$list" | grep -v '^\s*$' | while IFS='|' read -r name set args; do
  name=$(echo "$name" | tr -d ' ')
  echo "$name" | grep -Eq "$only" || continue
  d="$work/$name"
  # shellcheck disable=SC2086
  [ -f "$d/manifest.json" ] || $neaccel rtl $args --out "$d" > /dev/null
  if [ "$mode" != flat ]; then
    echo "$(date -u +%T) $name: hierarchical" >&2
    $neaccel area --design "$d" --hierarchical --json | jq -c --arg n "$name" --arg a "$args" '. + {name: $n, rtl_args: $a}' > "$d/hierarchical.json"
  fi
  if [ "$mode" != hierarchical ]; then
    echo "$(date -u +%T) $name: flat" >&2
    $neaccel area --design "$d" --json | jq -c --arg n "$name" --arg a "$args" '. + {name: $n, rtl_args: $a}' > "$d/flat.json"
  fi
done
grep -v '^#' "$list" | grep -v '^\s*$' | cut -d'|' -f1 | tr -d ' ' | while read -r n; do
  f="$work/$n/flat.json"; h="$work/$n/hierarchical.json"
  [ -f "$f" ] || [ -f "$h" ] || continue
  jq -n -c --arg n "$n" --slurpfile f "$( [ -f "$f" ] && echo "$f" || echo /dev/null)" \
        --slurpfile h "$( [ -f "$h" ] && echo "$h" || echo /dev/null)" '
    ($f[0] // $h[0]) as $any |
    {name: $n, rtl_args: $any.rtl_args, spec: $any.spec, point: $any.point,
     flat: (if $f[0] then $f[0] | {cells, unit_cells, non_unit_cells, flip_flops} else null end),
     hierarchical: (if $h[0] then $h[0] | {cells, unit_cells, non_unit_cells, non_unit_flip_flops, units} else null end),
     estimate_cells: $any.estimate.area_cells}'
done | jq -s '{
  what: "Area of the puma560 fd and dtau accelerators: Yosys 0.23 generic synth of the whole design (flat: the design'"'"'s synth/generic.ys, module hierarchy kept) and hierarchical (nea_top with the units as black boxes + each unit type'"'"'s own synthesis from data/unit-area.json); estimate_cells is the cost model of the day (informative, not checked)",
  regenerate: ["cost/calibration/function_area.sh WORKDIR   # neaccel rtl ARGS --out WORKDIR/NAME; neaccel area --design WORKDIR/NAME [--hierarchical] --json; for each line of cost/calibration/function-designs.txt"],
  designs: .}' > data/function-area.json
echo "wrote data/function-area.json" >&2
