#!/bin/sh
# Measures the designs with FMA units of cost/calibration/fma-designs.txt (flat Yosys generic synthesis, as
# cost/calibration/calibrate.sh does for the model's own designs) and writes data/fma-area.json, the rows
# tests/study/test_cost.cpp checks the area model against (docs/cost.md, "Dividers and FMA units"). From the
# repository root, after a build:
#   cost/calibration/fma_area.sh WORKDIR
# Everything is cached in WORKDIR/NAME/area-cache/, so a second run re-measures only what changed.
set -eu
work=${1:?usage: fma_area.sh WORKDIR}
dir=$(dirname "$0")
DESIGNS="$dir/fma-designs.txt" sh "$dir/calibrate.sh" "$work"
jq --arg cmd "cost/calibration/fma_area.sh WORKDIR" '{
  what: "Flat Yosys synthesis of datapaths with FMA units: the area model (cost/src/cost.cpp) counts 3 operand ports per FMA unit; these rows are not fitted, the test checks the model against them",
  tool: "yosys 0.23 generic synth -top nea_top through neaccel area --design DIR --json (module hierarchy kept)",
  regenerate: [$cmd, "(runs neaccel rtl ARGS --out WORKDIR/NAME and neaccel area --design WORKDIR/NAME --json for each line of cost/calibration/fma-designs.txt)"],
  tolerance_percent: 15,
  designs: [.[] | {name, rtl_args, point, cells, unit_cells, non_unit_cells, flip_flops}]
}' "$work/area.json" > data/fma-area.json
echo "wrote data/fma-area.json ($(jq '.designs | length' data/fma-area.json) designs)" >&2
