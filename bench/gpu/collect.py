#!/usr/bin/env python3
"""Gathers what bench/gpu/measure.sh measured into one JSON file.

Board power is nvidia-smi's power.draw, sampled every 100 ms; the energy per evaluation is the mean power over the
sustained run's window divided by its rate (board power, so it includes the idle draw), and beside it the same with
the idle power (3 s before any kernel ran) subtracted.
"""
import datetime
import json
import os
import sys
import time


def power_samples(path):
    out = []
    with open(path) as f:
        for line in f:
            parts = [p.strip() for p in line.split(",")]
            if len(parts) != 2:
                continue
            try:
                t = datetime.datetime.strptime(parts[0], "%Y/%m/%d %H:%M:%S.%f")
                w = float(parts[1])
            except ValueError:
                continue
            out.append((time.mktime(t.timetuple()) + t.microsecond * 1e-6, w))
    return out


def source_key(path):
    """FNV-1a 64 of the kernel source after its first line (a comment naming how the robot was given), as
    neaccel platforms computes it to find a kept measurement of the kernel it generated (dfg/src/platforms.cpp)."""
    text = open(path, "rb").read()
    text = text[text.find(b"\n") + 1:]
    h = 0xcbf29ce484222325
    for c in text:
        h = ((h ^ c) * 0x100000001b3) & 0xffffffffffffffff
    return "%016x" % h


def mean_in(samples, t0, t1):
    w = [p for t, p in samples if t0 <= t <= t1]
    return (sum(w) / len(w), len(w)) if w else (None, 0)


def main():
    work, out, command, build, nvcc, gpu = sys.argv[1:7]
    kernels = sys.argv[7:]
    samples = power_samples(os.path.join(work, "power.csv"))
    i0, i1 = (float(x) for x in open(os.path.join(work, "idle.txt")).read().split())
    idle_w, _ = mean_in(samples, i0, i1)
    name, driver, limit = (x.strip() for x in gpu.split(","))
    result = {
        "what": "generated CUDA kernels of neaccel platforms, measured by bench/gpu/measure.sh",
        "command": command, "device": name, "driver": driver, "power_limit": limit, "nvcc": nvcc.strip(), "build": build,
        "date_utc": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "idle_board_power_w": idle_w, "kernels": {},
    }
    for cu in kernels:
        b = os.path.splitext(os.path.basename(cu))[0]
        sweep = json.load(open(os.path.join(work, b + ".sweep.json")))
        sus = json.load(open(os.path.join(work, b + ".sustain.json")))["sustain"]
        w, n = mean_in(samples, sus["start_epoch_s"], sus["end_epoch_s"])
        sus["board_power_w"] = w
        sus["power_samples"] = n
        if w is not None:
            sus["nj_per_state_board"] = 1e9 * w / sus["states_per_s"]
            if idle_w is not None:
                sus["nj_per_state_above_idle"] = 1e9 * (w - idle_w) / sus["states_per_s"]
        sweep.pop("device", None)
        sweep["source_key"] = source_key(cu)
        sweep["sustain"] = sus
        result["kernels"][b] = sweep
    with open(out, "w") as f:
        json.dump(result, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
