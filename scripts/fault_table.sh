#!/bin/sh
# Regenerates data/faults/*.json (docs/datapath.md, "Fault campaign"): five designs (latency and streaming, fp32 and
# fixed point, microcoded and hardwired), 1,000 single-bit flips each, seed 1. Usage:
#   scripts/fault_table.sh build/cli/neaccel OUT_DIR [DATA_DIR]
# OUT_DIR holds the designs and Verilator harnesses; DATA_DIR defaults to data/faults. Each campaign prints its run
# time on stderr (not in the JSON, which is deterministic).
set -eu
NEACCEL=$1
OUT=$2
DATA=${3:-data/faults}
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1
mkdir -p "$OUT" "$DATA"
units22="--mul 2 --add 2 --lat-mul 3 --lat-add 2"
# name | rtl arguments | states
while IFS='|' read -r name args states; do
  [ -n "$name" ] || continue
  # shellcheck disable=SC2086
  "$NEACCEL" rtl $args --out "$OUT/$name" > "$OUT/$name.rtl.log"
  "$NEACCEL" sim --out "$OUT/$name" --engine cosim --random "$states" --seed 1 --fault-campaign 1000 --json \
    > "$DATA/$name.json"
done <<LIST
puma560-fp32-latency-microcoded|--robot puma560 --flavour custom $units22|2
puma560-fixed-stream-backpressure-microcoded|--robot puma560 --flavour custom --format fixed:12.20 $units22 --ii min --backpressure|6
stanford-fixed-latency-hardwired|--arch hardwired --robot stanford --flavour custom --format fixed:12.20 $units22|2
stanford-fp32-stream-hardwired|--arch hardwired --robot stanford --flavour custom $units22 --ii min|6
stanford-fixed-stream-microcoded|--robot stanford --flavour custom --format fixed:12.20 --mul 1 --add 1 --lat-mul 3 --lat-add 2 --ii min|6
LIST
