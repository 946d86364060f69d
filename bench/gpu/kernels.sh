#!/usr/bin/env bash
# Writes the CUDA kernels that data/platforms/gpu/*.json measured: `neaccel platforms` for puma560 and the KUKA
# LBR iiwa 14, inverse (id) and forward (fd) dynamics, binary64 and binary32, all into DIR (the CPU is timed only
# briefly: the kernels are what is wanted). Then, on a machine with a GPU:
#   bench/gpu/measure.sh DIR data/platforms/gpu/NAME.json
#
#   bench/gpu/kernels.sh [NEACCEL] [DIR]
set -euo pipefail
neaccel=${1:-build/cli/neaccel}
dir=${2:-out/gpu-kernels}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$dir"
for robot in puma560 iiwa; do
  for fn in id fd; do
    "$neaccel" platforms --robot "$robot" --function "$fn" --no-pinocchio --batch 1 --repeats 1 --target-ms 0.1 \
      --quiet --out "$dir/run-$robot-$fn" >/dev/null
    cp "$dir/run-$robot-$fn"/kernels/*.cu "$dir/"
  done
done
ls "$dir"/*.cu
