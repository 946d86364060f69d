#!/bin/sh
# How much nextpnr's placer seed alone moves a placed design's clock (docs/cost.md, "Placement noise"). The device
# model is fitted on one place and route per design, seed 1; this places and routes designs of
# cost/calibration/ecp5/designs.txt again with seeds 2..SEEDS (`neaccel area --design DIR --pnr --target ecp5-85f
# --seed N`: each seed is synthesised and placed again and cached apart; seed 1 is the calibration's own result, from
# the cache) and writes data/ecp5-85f/seed-spread.json: per design its Fmax and LUT4 per seed, the spread of the
# clock (largest less smallest, as a share of the median) and the model's period error against seed 1 and against
# the median of the seeds.
# From the repository root, after a build and ./run setup:
#   cost/calibration/ecp5/seeds.sh WORKDIR [NAME_REGEX]      (SEEDS=5 JOBS=2 LIMIT=2400 by default)
# The default names: the small designs of both architectures (a place and route in 20 to 120 s each), the
# microcoded streaming ones among them.
set -eu
work=${1:?usage: seeds.sh WORKDIR [NAME_REGEX]}
only=${2:-'^(p2-fp-1x1-l32-hw|tl-fp-2x2-l32-hw|p2-fx-1x1-l11-hw|p2-fp-1x1-l32|tl-fx-1x1-l21|tl-fx-1x1-l32-s|tl-fp-2x1-l32-s|p2-fp-2x1-l32-s|tl-fp-1x1-l11-s|tl-fx-1x1-l21-s|rnd31-fp-1x1-l32-s)$'}
neaccel=${NEACCEL:-build/cli/neaccel}
list=$(dirname "$0")/designs.txt
seeds=${SEEDS:-5}
jobs=${JOBS:-2}
limit=${LIMIT:-2400}
mkdir -p "$work"
names=$(grep -v '^#' "$list" | grep -v '^\s*$' | while IFS='|' read -r name set args; do
  name=$(echo "$name" | tr -d ' ')
  echo "$name" | grep -Eq "$only" || continue
  # shellcheck disable=SC2086
  [ -f "$work/$name/manifest.json" ] || $neaccel rtl $args --out "$work/$name" > /dev/null
  echo "$name"
done)
[ -n "$names" ] || { echo "seeds.sh: no design of $list matches $only" >&2; exit 1; }
for name in $names; do
  s=1
  while [ "$s" -le "$seeds" ]; do echo "$name $s"; s=$((s + 1)); done
done | xargs -P "$jobs" -L 1 sh -c '
  out="'"$work"'/$0/seed$1.json"
  [ -f "$out" ] && exit 0
  echo "$(date -u +%T) $0 seed $1: place and route" >&2
  if timeout '"$limit"' '"$neaccel"' area --design "'"$work"'/$0" --pnr --target ecp5-85f --seed "$1" --json > "$out.tmp"; then
    mv "$out.tmp" "$out"
  else echo "$(date -u +%T) $0 seed $1: not measured (exit $?)" >&2; rm -f "$out.tmp"; fi'
for name in $names; do
  ls "$work/$name"/seed*.json > /dev/null 2>&1 || continue
  jq -s --arg n "$name" '
    (map(select(.fits)) | sort_by(.seed)) as $r |
    ($r | map(.fmax_mhz) | sort) as $f |
    (if ($f | length) % 2 == 1 then $f[($f | length - 1) / 2] else ($f[($f | length) / 2 - 1] + $f[($f | length) / 2]) / 2 end) as $med |
    ($r | map(select(.seed == 1)) | .[0]) as $one |
    {name: $n, arch: $one.point.arch, streaming: $one.point.streaming,
     seeds: [$r[] | {seed, fmax_mhz, lut}],
     median_fmax_mhz: $med,
     spread_percent: ((($f | max) - ($f | min)) / $med * 1000 | round / 10),
     model_period_ns: ($one.estimate.period_ns * 100 | round / 100),
     model_error_percent: {seed1: (($one.estimate.period_ns - 1000 / $one.fmax_mhz) / (1000 / $one.fmax_mhz) * 1000 | round / 10),
                           median: (($one.estimate.period_ns - 1000 / $med) / (1000 / $med) * 1000 | round / 10)}}' \
    "$work/$name"/seed*.json
done | jq -s --arg cmd "cost/calibration/ecp5/seeds.sh WORKDIR" --argjson seeds "$seeds" '{
  what: "The same designs placed and routed on the LFE5U-85F-6BG381C with nextpnr placer seeds 1..\($seeds) (neaccel area --design DIR --pnr --target ecp5-85f --seed N): how much the seed alone moves the clock; the device model is fitted on seed 1",
  command: $cmd,
  designs: .}' > data/ecp5-85f/seed-spread.json.tmp
mv data/ecp5-85f/seed-spread.json.tmp data/ecp5-85f/seed-spread.json
echo "wrote data/ecp5-85f/seed-spread.json" >&2
# The table of docs/cost.md ("Placement noise").
echo "| design | datapath | Fmax by seed 1..$seeds (MHz) | median | spread | model's period error: seed 1 / median |"
echo "|---|---|---|---:|---:|---|"
jq -r '.designs[] | "| \(.name) | \(.arch)\(if .streaming then " streaming" else " latency" end) | \([.seeds[].fmax_mhz | tostring] | join(" / ")) | \(.median_fmax_mhz) | \(.spread_percent) % | \(.model_error_percent.seed1) % / \(.model_error_percent.median) % |"' \
  data/ecp5-85f/seed-spread.json
