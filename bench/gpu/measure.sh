#!/usr/bin/env bash
# Measures the generated CUDA kernels (`neaccel platforms` writes them to OUT/kernels/*.cu) on the GPU of the machine
# it runs on: throughput over batch sizes, one state's latency, the difference from the host build of the same body,
# and board power (nvidia-smi) while the largest batch runs for a few seconds. Writes one JSON file, the data that
# `neaccel platforms --gpu-data FILE` shows as a GPU measured elsewhere.
#
#   bench/gpu/measure.sh KERNEL_DIR OUT_JSON [SUSTAIN_S]
#
# Needs nvcc, nvidia-smi and python3. Every kernel is built with the same command (recorded in the JSON).
set -euo pipefail
kdir=${1:?usage: measure.sh KERNEL_DIR OUT_JSON [SUSTAIN_S]}
out=${2:?usage: measure.sh KERNEL_DIR OUT_JSON [SUSTAIN_S]}
sustain=${3:-4}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'kill "${smi:-}" 2>/dev/null || true; rm -rf "$work"' EXIT
shopt -s nullglob
kernels=("$kdir"/*.cu)
[ ${#kernels[@]} -gt 0 ] || { echo "measure.sh: no .cu files in $kdir" >&2; exit 1; }
nvcc_flags=(-O3 -arch=native -DNEACCEL_CUDA_BENCH)
for cu in "${kernels[@]}"; do
  b=$(basename "$cu" .cu)
  nvcc "${nvcc_flags[@]}" -o "$work/$b" "$cu" >"$work/$b.build.log" 2>&1 &
done
wait
nvidia-smi --query-gpu=timestamp,power.draw --format=csv,noheader,nounits -lms 100 >"$work/power.csv" &
smi=$!
sleep 1
idle0=$(date +%s.%N); sleep 3; idle1=$(date +%s.%N)
echo "$idle0 $idle1" >"$work/idle.txt"
for cu in "${kernels[@]}"; do
  b=$(basename "$cu" .cu)
  [ -x "$work/$b" ] || { echo "measure.sh: nvcc failed for $cu:" >&2; cat "$work/$b.build.log" >&2; exit 1; }
  [ -t 2 ] && echo "measure.sh: $b" >&2
  "$work/$b" >"$work/$b.sweep.json"
  "$work/$b" 8388608 "$sustain" >"$work/$b.sustain.json"
done
sleep 1
kill "$smi"; wait "$smi" 2>/dev/null || true
python3 "$here/collect.py" "$work" "$out" "bench/gpu/measure.sh $kdir $out $sustain" "nvcc ${nvcc_flags[*]} -o bench KERNEL.cu" "$(nvcc --version | tail -n 2 | tr '\n' ' ')" \
  "$(nvidia-smi --query-gpu=name,driver_version,power.limit --format=csv,noheader)" "${kernels[@]}"
