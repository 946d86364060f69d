#include "neaccel/sim/check.hpp"

#include "neaccel/hw/hardwired.hpp"
#include "neaccel/hw/number.hpp"
#include "neaccel/ref/error.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>
#include <utility>

namespace neaccel::sim {

void check_hex_matches(const hw::Design& d, const std::string& dir) {
  if (d.spec.arch == hw::Arch::Hardwired) {
    const std::string path = dir + "/rtl/nea_top.v";
    std::ifstream f(path, std::ios::binary);
    if (!f) throw Error(path + ": cannot read");
    std::ostringstream text;
    text << f.rdbuf();
    if (text.str() != hw::hardwired_verilog(d.dp))
      throw Error(path + ": does not match the manifest's design (regenerate with neaccel rtl)");
    return;
  }
  for (const auto& [name, want] : {std::pair{"ucode.hex", hw::microcode_hex(d.dp)}, std::pair{"meta.hex", hw::meta_hex(d.dp)}}) {
    const std::string path = dir + "/hex/" + name;
    std::ifstream f(path);
    if (!f) throw Error(path + ": cannot read");
    std::vector<std::string> lines;
    for (std::string l; std::getline(f, l);) lines.push_back(l);
    if (lines != want) throw Error(path + ": does not match the manifest's design (regenerate with neaccel rtl)");
  }
}

Golden golden_of(const hw::Design& d, const std::vector<std::vector<double>>& states) {
  Golden g;
  for (const auto& s : states) {
    g.want.push_back(hw::golden_raw(*d.graph, d.spec.format, s));
    g.ref.push_back(hw::reference(*d.graph, s));
  }
  return g;
}

std::vector<char> segment_starts(const hw::Design& d, const Words& raw) {
  std::vector<char> start(raw.size(), 0);
  for (const auto& seg : hw::segments(d.dp, raw)) start[seg.first] = 1;
  return start;
}

Checked check_results(const hw::Design& d, const Golden& g, const EngineRun& r, int stall_every,
                      const std::vector<char>& segment_start) {
  const hw::DesignSpec& spec = d.spec;
  const std::size_t n_states = g.want.size();
  Checked c;
  long& mismatches = c.mismatches;
  long& cycle_errors = c.cycle_errors;
  double& max_err = c.max_err;
  // Streaming: results in order, II apart (measured), each set point's latency as claimed.
  const bool streaming = d.dp.streaming();
  long &ii_min = c.ii_min, &ii_max = c.ii_max, &lat_min = c.lat_min, &lat_max = c.lat_max;
  if (streaming) {
    const auto& st = r.stream;
    if (r.out.size() != n_states) throw Error(fmt::format("{} results for {} set points", r.out.size(), n_states));
    for (std::size_t k = 0; k < st.first_out.size() && k < st.first_in.size(); ++k) {
      const long lat = st.last_out[k] - st.first_in[k] + 1;
      lat_min = k == 0 ? lat : std::min(lat_min, lat);
      lat_max = k == 0 ? lat : std::max(lat_max, lat);
      // A stalling sink slows the stream down: then only order and values are checked, the figures are measured.
      const bool timed = stall_every == 0;
      cycle_errors += timed && lat != d.dp.latency();
      if (k == 0 || segment_start[k]) continue;
      const long ii = st.first_out[k] - st.first_out[k - 1];
      ii_min = ii_min == 0 ? ii : std::min(ii_min, ii);
      ii_max = ii_max == 0 ? ii : std::max(ii_max, ii);
      cycle_errors += timed && ii != d.dp.stream.ii;
    }
  }
  for (std::size_t k = 0; k < n_states; ++k) {
    const auto& want = g.want[k];
    const auto& ref = g.ref[k];
    double scale = 1;
    for (double t : ref) scale = std::max(scale, std::abs(t));
    bool same = r.out[k].size() == want.size();
    nlohmann::json tk = nlohmann::json::array();
    for (std::size_t i = 0; i < want.size() && i < r.out[k].size(); ++i) {
      same = same && hw::same(spec.format, r.out[k][i], want[i]);
      const double v = hw::decode(spec.format, r.out[k][i]);
      tk.push_back(v);
      max_err = std::max(max_err, std::abs(v - ref[i]) / scale);
    }
    mismatches += !same;
    if (!streaming) cycle_errors += r.cycles[k] != d.dp.cycles();
    c.torques.push_back(tk);
  }
  return c;
}

}  // namespace neaccel::sim
