// The files `neaccel rtl` writes for a design (docs/datapath.md), and reading them back for `neaccel sim`.
//
//   DIR/manifest.json      design spec, configuration, sizes, cycle counts, file list
//   DIR/schedule.json      the verified schedule (sched::to_json)
//   DIR/hex/*.hex          microcode, constants, input/output maps, meta (write_hex)
//   DIR/rtl/nea_top.v      microcoded: top wrapper, nea_datapath with this design's parameters and HexDir = "hex"
//                          (relative: Yosys runs in DIR; simulators get +neaccel_hex=DIR/hex);
//                          hardwired (--arch hardwired): the generated datapath itself (hw::hardwired_verilog), no hex
//   DIR/synth/generic.ys, DIR/synth/xilinx.ys   Yosys scripts (generic cells; synth_xilinx xc7)
#pragma once

#include "neaccel/hw/design.hpp"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace neaccel::hw {

// The hand-written Verilog the generated files refer to, under `rtl_dir` (the repository's rtl/). Hardwired: only the
// unit wrapper and the units (the datapath is DIR/rtl/nea_top.v).
std::vector<std::string> rtl_sources(const std::string& rtl_dir, const Config& c, Arch arch = Arch::Microcoded);

// The generated top wrapper (module nea_top, same ports as nea_datapath).
std::string top_wrapper(const Config& c, const std::string& hex_dir);

// Yosys script, run in the design directory DIR (its own files are named relative to it; the rtl_dir sources
// absolute); xilinx = synth_xilinx -family xc7, else generic synth. Statistics go to synth/<name>.stat.
std::string yosys_script(const Config& c, const std::string& rtl_dir, bool xilinx, Arch arch = Arch::Microcoded);

// Writes everything above into out_dir. Inside the files, the design's own files are named relative to out_dir,
// so the bytes do not depend on out_dir or the working directory. Returns the manifest.
nlohmann::json write_artifacts(const Design& d, const std::string& out_dir, const std::string& rtl_dir);

// Reads DIR/manifest.json back into a spec (neaccel::Error naming the file/field on a problem).
DesignSpec read_manifest_spec(const std::string& out_dir);

}  // namespace neaccel::hw
