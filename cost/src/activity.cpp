#include "neaccel/cost/activity.hpp"

#include "neaccel/ref/error.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <regex>
#include <set>
#include <sstream>
#include <unordered_map>

namespace neaccel::cost {

namespace {

struct VcdVar {
  std::string name;  // scopes and name joined with '.'
  bool ranged = false;
  long left = 0, right = 0;  // [left:right]; the value's first character is bit `left`
};
struct VcdSignal {
  int width = 1;
  std::string value;            // current bits, MSB (left) first; 'u' before the first value
  std::vector<long> toggles;    // per position in `value`
  std::vector<VcdVar> vars;     // the variables sharing this identifier
};

std::string join(const std::vector<std::string>& scopes, const std::string& name) {
  std::string s;
  for (const auto& p : scopes) s += p + ".";
  return s + name;
}

}  // namespace

ToggleRates vcd_toggle_rates(std::istream& in, const std::string& clock) {
  std::unordered_map<std::string, VcdSignal> sig;
  std::vector<std::string> scopes;
  std::string tok, clock_id;
  // Header: scopes and variables until $enddefinitions.
  while (in >> tok) {
    if (tok == "$scope") {
      std::string kind, name;
      in >> kind >> name >> tok;
      scopes.push_back(name);
    } else if (tok == "$upscope") {
      in >> tok;
      if (!scopes.empty()) scopes.pop_back();
    } else if (tok == "$var") {
      std::string type, id, name;
      int width = 0;
      in >> type >> width >> id >> name;
      std::vector<std::string> rest;
      while (in >> tok && tok != "$end") rest.push_back(tok);
      if (type == "real" || type == "realtime") continue;  // no bits to toggle
      if (width <= 0) throw Error(fmt::format("vcd: variable {} has width {}", name, width));
      VcdVar v;
      v.name = join(scopes, name);
      // The range is a separate token ([31:0]) or glued to the name (name[31:0]).
      std::string range = rest.empty() ? "" : rest.front();
      static const std::regex range_re(R"(^\[(-?\d+)(?::(-?\d+))?\]$)");
      std::smatch m;
      if (range.empty()) {
        static const std::regex glued(R"(^(.*)(\[-?\d+(?::-?\d+)?\])$)");
        if (width > 1 && std::regex_match(v.name, m, glued)) {
          range = m[2];
          v.name = m[1];
        }
      }
      if (!range.empty() && std::regex_match(range, m, range_re)) {
        v.ranged = true;
        v.left = std::stol(m[1]);
        v.right = m[2].matched ? std::stol(m[2]) : v.left;
        if (std::labs(v.left - v.right) + 1 != width)
          throw Error(fmt::format("vcd: variable {} has width {} but range {}", v.name, width, range));
      }
      VcdSignal& s = sig[id];
      if (s.vars.empty()) {
        s.width = width;
        s.value.assign(static_cast<size_t>(width), 'u');
        s.toggles.assign(static_cast<size_t>(width), 0);
      } else if (s.width != width) {
        throw Error(fmt::format("vcd: identifier {} declared with widths {} and {}", id, s.width, width));
      }
      s.vars.push_back(v);
      if (clock_id.empty() && v.name == clock) clock_id = id;
    } else if (tok == "$enddefinitions") {
      in >> tok;
      break;
    } else if (tok.size() > 1 && tok[0] == '$' && tok != "$end") {
      while (in >> tok && tok != "$end") {}
    }
  }
  if (clock_id.empty()) throw Error("vcd: no variable " + clock + " (the clock)");
  ToggleRates r;
  auto change = [&](const std::string& id, std::string v) {
    const auto it = sig.find(id);
    if (it == sig.end()) throw Error("vcd: a value change for undeclared identifier " + id);
    VcdSignal& s = it->second;
    const size_t w = static_cast<size_t>(s.width);
    if (v.size() < w) v.insert(0, w - v.size(), (v[0] == '1') ? '0' : v[0]);  // left-extended (0 for 0 and 1)
    if (v.size() > w) v.erase(0, v.size() - w);
    if (id == clock_id && s.value[w - 1] == '0' && v[w - 1] == '1') ++r.cycles;
    for (size_t i = 0; i < w; ++i) {
      const char a = s.value[i], b = v[i];
      if ((a == '0' || a == '1') && (b == '0' || b == '1') && a != b) ++s.toggles[i];
      s.value[i] = b;
    }
  };
  while (in >> tok) {
    const char c = tok[0];
    if (c == '#' || tok == "$dumpvars" || tok == "$end" || tok == "$dumpall" || tok == "$dumpon" || tok == "$dumpoff") continue;
    if (c == '$') {  // a $comment in the body
      while (in >> tok && tok != "$end") {}
      continue;
    }
    if (c == 'b' || c == 'B') {
      std::string id;
      in >> id;
      std::string v = tok.substr(1);
      for (char& ch : v) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
      change(id, v);
    } else if (c == 'r' || c == 'R') {
      in >> tok;  // a real value: no bits
    } else if (c == '0' || c == '1' || c == 'x' || c == 'X' || c == 'z' || c == 'Z') {
      change(tok.substr(1), std::string(1, static_cast<char>(std::tolower(static_cast<unsigned char>(c)))));
    } else {
      throw Error("vcd: unexpected token '" + tok.substr(0, 40) + "' in the value changes");
    }
  }
  if (r.cycles <= 0) throw Error("vcd: the clock " + clock + " never rises");
  const double cycles = static_cast<double>(r.cycles);
  for (const auto& [id, s] : sig) {
    for (const auto& v : s.vars) {
      for (size_t i = 0; i < static_cast<size_t>(s.width); ++i) {
        const double rate = static_cast<double>(s.toggles[i]) / cycles;
        if (!v.ranged) {
          r.rate[v.name] = rate;
        } else {
          const long step = v.left >= v.right ? -1 : 1;
          r.rate[fmt::format("{}[{}]", v.name, v.left + step * static_cast<long>(i))] = rate;
          if (s.width == 1) r.rate.emplace(v.name, rate);  // a one-bit vector ([0:0]) is one wire to Yosys
        }
      }
    }
  }
  return r;
}

std::string activity_key(const std::string& net) {
  static const std::regex genblk(R"((^|\.)(genblk\d+\.)+)");
  return std::regex_replace(net, genblk, "$1");
}

std::map<std::string, double> rename_bits(const std::map<std::string, double>& rate,
                                          const std::vector<std::pair<std::string, std::string>>& renames) {
  std::map<std::string, double> out;
  for (const auto& [name, v] : rate) {
    for (const auto& [from, to] : renames) {
      if (name.rfind(from, 0) == 0) {
        out.emplace(activity_key(to + name.substr(from.size())), v);  // the first (a port before its alias inside) wins
        break;
      }
    }
  }
  return out;
}

std::vector<std::string> netlist_pin_nets(const std::string& netlist, const std::vector<std::string>& cell_types,
                                          const std::string& pin) {
  const std::set<std::string> types(cell_types.begin(), cell_types.end());
  static const std::regex inst_re(R"(^\s*([A-Za-z_][A-Za-z0-9_$]*)\s+(\\\S+|[A-Za-z_][A-Za-z0-9_$]*)\s*\($)");
  const std::regex pin_re("^\\s*\\." + pin + "\\((.*)\\),?\\s*$");
  std::vector<std::string> nets;
  std::istringstream in(netlist);
  std::string line;
  std::smatch m;
  bool inside = false;
  while (std::getline(in, line)) {
    if (!inside) {
      if (!line.empty() && line.back() == '(' && std::regex_match(line, m, inst_re) && types.count(m[1])) inside = true;
      continue;
    }
    if (line.find(");") != std::string::npos && line.find('.') == std::string::npos) {
      inside = false;
      continue;
    }
    if (std::regex_match(line, m, pin_re)) {
      std::string net = m[1];
      while (!net.empty() && net.back() == ' ') net.pop_back();
      if (!net.empty() && net[0] == '\\') net.erase(0, 1);
      if (!net.empty()) nets.push_back(net);
    }
  }
  return nets;
}

std::string activity_tcl(const std::map<std::string, double>& rate, double fallback, const std::string& clock) {
  for (const auto& [name, v] : rate)
    if (name.find_first_of("{}\\ ") != std::string::npos) throw Error("activity: net name '" + name + "' has a brace, backslash or space");
  std::string s = "# Written by neaccel area: every net's pins at its toggle rate (transitions per clock cycle).\n";
  s += "array set nea_act {\n";
  for (const auto& [name, v] : rate) s += fmt::format("  {{{}}} {:.6g}\n", name, v);
  s += "}\n";
  s += fmt::format("set nea_fallback {:.6g}\n", fallback);
  s += "foreach nea_net [get_nets *] {\n"
       "  set nea_name [get_full_name $nea_net]\n"
       "  if {$nea_name == {" + clock + "}} continue\n"
       "  regsub -all {(^|\\.)(genblk[0-9]+\\.)+} $nea_name {\\1} nea_name\n"
       "  if {[info exists nea_act($nea_name)]} { set nea_a $nea_act($nea_name) } else { set nea_a $nea_fallback }\n"
       "  foreach nea_pin [get_pins -of_objects $nea_net] { sta::set_power_pin_activity $nea_pin $nea_a 0.5 }\n"
       "}\n"
       "foreach nea_port [get_ports *] {\n"
       "  set nea_name [get_full_name $nea_port]\n"
       "  if {$nea_name == {" + clock + "} || [get_property $nea_port direction] != {input}} continue\n"
       "  if {[info exists nea_act($nea_name)]} { set nea_a $nea_act($nea_name) } else { set nea_a $nea_fallback }\n"
       "  sta::set_power_input_port_activity $nea_port $nea_a 0.5\n"
       "}\n";
  return s;
}

}  // namespace neaccel::cost
