// A whole design directory written by `neaccel rtl` placed and routed on a target (`neaccel area --design DIR --pnr
// --target ecp5-85f`, docs/cost.md): nea_top with its dbg_* trace ports left open, synthesised and placed and routed
// by the target's flow (pnr.hpp), its utilisation (LUT, FF, DSP, block RAM, I/O) and achieved Fmax, or the one line
// naming the resource that overflows. Place and route of a large design takes many minutes, so results are cached by
// a content hash of everything the tools read (the Verilog, the hex files the ROMs load, the wrapper), the target's
// flags and its pinned tool versions: under DIR/area-cache/<hash>/, and in the committed cache
// data/pnr-cache/<target>/<hash>.json (read only; cost/calibration/ecp5/save_cache.sh fills it), so that a fresh
// machine reuses the result for a byte-identical design without the tools.
#pragma once

#include "neaccel/cost/timing.hpp"

#include <nlohmann/json.hpp>

#include <string>

namespace neaccel::cost {

struct DesignPnrOptions {
  std::string dir;                  // design directory (manifest.json, rtl/nea_top.v, hex/)
  std::string target = "ecp5-85f";  // cost/targets/<name>.json
  bool remeasure = false;           // run the tools even when a cached result exists
  double timeout_s = 0;             // each tool's time limit (0: none)
  bool cached_only = false;         // never run the tools: a design not in either cache gets "cache": "none"
  int seed = 1;                     // nextpnr's placer seed: the figures of record are seed 1's; another seed is
                                    // cached apart (its own hash), to measure how much placement alone moves them
  int other_seeds = 0;              // where `seed` has no cached result, the cached result of the first of the next
                                    // other_seeds seeds (a design whose seed-1 placement did not route is committed
                                    // at the seed that did; the result records its seed); the tools run at `seed` only
};

// The other seeds whose cached results the study and `area --design --pnr` (without --seed) read where seed 1 has
// none: a design whose seed-1 placement did not route is committed at the seed that did (data/README.md).
constexpr int kCachedOtherSeeds = 4;

// Each place-and-route tool's limit on one design where the caller sets none of its own: above the longest measured
// (40 minutes), and finite, because nextpnr's router need not converge.
constexpr double kPnrTimeoutS = 7200;

// The content hash (16 hex digits) under which the design's result for the target is cached.
std::string design_pnr_key(const DesignPnrOptions& o);

// Places and routes (or reads the cached result) and returns: target, part, fits, overflow (when not), fmax_mhz,
// period_ns, lut, ff, dsp, bram, io with the device's totals and shares, the tools' versions and seconds, the hash,
// and where the result came from ("cache": "design", "committed" or "measured"; "none" with cached_only and no
// result, then without the measured fields); also the design's cost point and the target model's estimate. Throws neaccel::Error on bad
// input (naming --design, --target or the manifest), a missing tool (naming ./run setup) or a tool failure.
nlohmann::json design_pnr(const DesignPnrOptions& o);

// The target a design is placed on when none is named (`neaccel area --design DIR --pnr`): the iCE40 HX8K where the
// cost model says it fits (device_fit: its logic cells estimated from its generic cells by the largest ratio of the
// placed designs), else the LFE5U-85F (default_target), with that fit test. Reads DIR/manifest.json:
// without one the iCE40 HX8K (whose flow then says what is missing); throws neaccel::Error naming it when it is not
// a design's manifest.
struct DefaultPnrTarget {
  std::string target;
  DeviceFit ice40;  // the iCE40 HX8K fit test (no estimate without a manifest)
};
DefaultPnrTarget default_pnr_target(const std::string& dir);

}  // namespace neaccel::cost
