#!/bin/sh
# Fills data/asic-cache/sky130-hd (the committed chip results the study reads, keyed by the design's sources, the
# target file with its tool versions, the liberty file and the activity) from a study's design directories:
#   build/cli/neaccel study --quick --target sky130-hd --chip-flow --out OUT     (about 2 minutes per design)
#   cost/calibration/sky130/asic_cache.sh OUT
# Each result is OUT/designs/<design>/area-cache/<hash>/sky130-hd.<activity>.json, copied as <hash>.<activity>.json
# (the file `neaccel area --design DIR --target sky130-hd` writes; docs/asic.md).
set -eu
out=${1:?usage: asic_cache.sh STUDY_OUT}
dest=data/asic-cache/sky130-hd
mkdir -p "$dest"
n=0
for f in "$out"/designs/*/area-cache/*/sky130-hd.*.json; do
  [ -f "$f" ] || continue
  hash=$(basename "$(dirname "$f")")
  act=$(basename "$f" .json | sed 's/^sky130-hd\.//')
  cp "$f" "$dest/$hash.$act.json"
  n=$((n + 1))
done
echo "asic_cache.sh: $n result(s) in $dest"
