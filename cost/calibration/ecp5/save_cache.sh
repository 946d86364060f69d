#!/usr/bin/env bash
# Copies the ECP5 place-and-route results of design directories into the committed cache, data/pnr-cache/<target>/
# <hash>.json, which `neaccel area --design DIR --pnr --target T` reads for a byte-identical design on any machine.
# usage: cost/calibration/ecp5/save_cache.sh [--target T] DESIGN_DIR...   (default target ecp5-85f)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../../.." && pwd)"
target=ecp5-85f
[ "${1:-}" = --target ] && { target="$2"; shift 2; }
mkdir -p "$root/data/pnr-cache/$target"
for d in "$@"; do
  found=0
  for f in "$d"/area-cache/*/pnr-"$target".json; do
    [ -f "$f" ] || continue
    h="$(basename "$(dirname "$f")")"
    cp "$f" "$root/data/pnr-cache/$target/$h.json"; found=1
    echo "saved $d -> data/pnr-cache/$target/$h.json"
  done
  [ $found = 1 ] || echo "save_cache.sh: no $target result in $d/area-cache (run neaccel area --design $d --pnr --target $target)" >&2
done
