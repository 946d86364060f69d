// The files `neaccel rtl` writes for a design (docs/datapath.md), and reading them back for `neaccel sim`.
//
//   DIR/manifest.json      design spec, configuration, sizes, cycle counts, file list
//   DIR/schedule.json      the verified schedule (sched::to_json)
//   DIR/hex/*.hex          microcode, constants, input/output maps, meta (write_hex)
//   DIR/rtl/nea_top.v      microcoded: top wrapper, nea_datapath with this design's parameters and HexDir = "hex"
//                          (relative: Yosys runs in DIR; simulators get +neaccel_hex=DIR/hex);
//                          hardwired (--arch hardwired): the generated datapath itself (hw::hardwired_verilog), no hex
//   DIR/synth/generic.ys, DIR/synth/xilinx.ys   Yosys scripts (generic cells; synth_xilinx xc7)
//
// The manifest's `checksums` record every other file above with its size and FNV-1a 64 content hash, so that a
// design directory checks itself: `neaccel sim` refuses a missing, truncated or changed file, and a manifest field
// that is not the design rebuilt from the manifest's spec, before it simulates anything.
#pragma once

#include "neaccel/hw/design.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <string>
#include <utility>
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

// The hex images of a microcoded datapath, (file name, lines) in the order write_hex writes them.
std::vector<std::pair<std::string, std::vector<std::string>>> hex_images(const Datapath& dp);

// Every file of the design but the manifest, by path relative to the design directory, with its bytes.
std::map<std::string, std::string> artifact_files(const Design& d, const std::string& rtl_dir);

// The manifest of the design without its checksums.
nlohmann::json manifest_json(const Design& d, const std::string& rtl_dir);


// Writes everything above into out_dir. Inside the files, the design's own files are named relative to out_dir,
// so the bytes do not depend on out_dir or the working directory. Returns the manifest.
nlohmann::json write_artifacts(const Design& d, const std::string& out_dir, const std::string& rtl_dir);

// DIR/manifest.json as JSON (an object); neaccel::Error naming the file when it cannot be read or parsed.
nlohmann::json read_manifest(const std::string& out_dir);

// The manifest's spec, every field checked for its type and range (neaccel::Error naming the file and the field,
// e.g. "DIR/manifest.json: spec.mul: 0 (need 1 .. 256)"). `path` is the manifest's path, for the messages.
DesignSpec manifest_spec(const nlohmann::json& m, const std::string& path);

// Both of the above.
DesignSpec read_manifest_spec(const std::string& out_dir);

// Every file the manifest's checksums list exists in out_dir with the recorded size and hash (neaccel::Error naming
// the file otherwise). A manifest without checksums (written before they existed) is an error asking to regenerate.
void check_design_files(const std::string& out_dir, const nlohmann::json& m);

// The manifest and the files against `d`, the design rebuilt from the manifest's spec: the configuration's RTL
// parameters in their ranges, every other field equal to manifest_json(d) (type and value; files.rtl_sources
// excepted), the checksums listing exactly artifact_files(d), and each of those files (the Yosys scripts excepted:
// they name rtl_dir) the bytes generated for d. neaccel::Error naming the file or field at the first difference.
void check_design(const Design& d, const std::string& out_dir, const nlohmann::json& m, const std::string& rtl_dir);

}  // namespace neaccel::hw
