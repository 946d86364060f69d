#include "neaccel/sim/check.hpp"

#include "neaccel/hw/hardwired.hpp"
#include "neaccel/hw/number.hpp"
#include "neaccel/ref/error.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <cmath>
#include <fstream>
#include <sstream>
#include <utility>

namespace neaccel::sim {

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
      if (timed && lat != d.dp.latency() && c.first_cycle_error < 0) c.first_cycle_error = static_cast<long>(k);
      cycle_errors += timed && lat != d.dp.latency();
      if (k == 0 || segment_start[k]) continue;
      const long ii = st.first_out[k] - st.first_out[k - 1];
      ii_min = ii_min == 0 ? ii : std::min(ii_min, ii);
      ii_max = ii_max == 0 ? ii : std::max(ii_max, ii);
      if (timed && ii != d.dp.stream.ii && c.first_cycle_error < 0) c.first_cycle_error = static_cast<long>(k);
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
      // A NaN or infinite output (or reference) is an infinite error, never a 0 that std::max would keep.
      const double e = std::abs(v - ref[i]) / scale;
      max_err = std::isfinite(e) ? std::max(max_err, e) : std::numeric_limits<double>::infinity();
    }
    if (!same && c.first_mismatch < 0) c.first_mismatch = static_cast<long>(k);
    mismatches += !same;
    if (!streaming && r.cycles[k] != d.dp.cycles() && c.first_cycle_error < 0) c.first_cycle_error = static_cast<long>(k);
    if (!streaming) cycle_errors += r.cycles[k] != d.dp.cycles();
    c.torques.push_back(tk);
  }
  return c;
}

}  // namespace neaccel::sim
