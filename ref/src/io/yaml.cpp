// YAML robot files (schema: docs/robot-format.md): reader with line numbers in errors, exact writer.
#include "io_detail.hpp"
#include "neaccel/ref/error.hpp"
#include "neaccel/ref/io.hpp"
#include "neaccel/ref/model.hpp"
#include "neaccel/ref/file_limit.hpp"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <sstream>

namespace neaccel::ref {
namespace {

// Reads one YAML document into a Robot, remembering the line of every field for validate()'s messages.
class Reader {
 public:
  explicit Reader(std::string source) : source_(std::move(source)) {}

  Robot read(const std::string& text) {
    YAML::Node root;
    try {
      root = YAML::Load(text);
    } catch (const YAML::ParserException& e) {
      throw Error(detail::one_line(
          fmt::format("{}:{}:{}: malformed YAML: {}", source_, e.mark.line + 1, e.mark.column + 1, e.msg)));
    }
    if (!root.IsMap()) fail(root, "(document)", "expected a mapping with name, dh, gravity, links");
    keys(root, "", {"name", "dh", "gravity", "links", "payload", "external_wrench"});
    Robot r;
    r.source = source_;
    r.name = str(need(root, "", "name"), "name");
    const YAML::Node dh = root["dh"];
    r.convention = dh ? convention(dh) : DhConvention::Modified;
    r.gravity = vec3(need(root, "", "gravity"), "gravity");
    links(need(root, "", "links"), r);
    // A file whose joints are all placed (origin) needs no DH convention; any DH link does.
    if (!dh) {
      for (const Link& L : r.links)
        if (!L.placement) need(root, "", "dh");
    }
    if (const auto p = root["payload"]) r.payload = payload(p);
    if (const auto w = root["external_wrench"]) {
      keys(w, "external_wrench", {"force", "moment"});
      r.f_e = vec3(need(w, "external_wrench", "force"), "external_wrench.force");
      r.n_e = vec3(need(w, "external_wrench", "moment"), "external_wrench.moment");
    }
    return r;
  }

  // Location of a field for validate(): "file:line" of the deepest recorded prefix.
  std::string locate(const std::string& field) const {
    for (std::string f = field; !f.empty();) {
      const auto it = lines_.find(f);
      if (it != lines_.end()) return fmt::format("{}:{}", source_, it->second);
      const auto cut = f.find_last_of(".[");
      f = cut == std::string::npos ? std::string() : f.substr(0, cut);
    }
    return source_;
  }

 private:
  [[noreturn]] void fail(const YAML::Node& node, const std::string& field, const std::string& what) const {
    const int line = node.Mark().line;
    if (line >= 0) throw Error(detail::one_line(fmt::format("{}:{}: {}: {}", source_, line + 1, field, what)));
    throw Error(detail::one_line(fmt::format("{}: {}: {}", source_, field, what)));
  }

  static std::string join(const std::string& path, const std::string& key) {
    return path.empty() ? key : path + "." + key;
  }

  void keys(const YAML::Node& map, const std::string& path, std::initializer_list<const char*> allowed) const {
    if (!map.IsMap()) fail(map, path, "expected a mapping");
    std::set<std::string> seen;
    for (const auto& kv : map) {
      const std::string k = kv.first.Scalar();
      if (!seen.insert(k).second) fail(kv.first, join(path, k), "duplicate field");
      bool ok = false;
      for (const char* a : allowed) ok = ok || k == a;
      if (!ok) {
        std::string list;
        for (const char* a : allowed) list += (list.empty() ? "" : ", ") + std::string(a);
        fail(kv.first, join(path, k), fmt::format("unknown field (allowed: {})", list));
      }
    }
  }

  YAML::Node need(const YAML::Node& map, const std::string& path, const char* key) const {
    const YAML::Node v = map[key];
    if (!v) fail(map, join(path, key), "missing field");
    return v;
  }

  void mark(const YAML::Node& node, const std::string& field) {
    if (node.Mark().line >= 0) lines_[field] = node.Mark().line + 1;
  }

  std::string str(const YAML::Node& node, const std::string& field) {
    if (!node.IsScalar()) fail(node, field, "expected a string");
    mark(node, field);
    return node.Scalar();
  }

  double num(const YAML::Node& node, const std::string& field) {
    if (!node.IsScalar()) fail(node, field, "expected a number");
    mark(node, field);
    try {
      return node.as<double>();
    } catch (const YAML::Exception&) {
      if (const auto v = pi_expression(node.Scalar())) return *v;
      fail(node, field, fmt::format("expected a number or a multiple of pi (got '{}')", node.Scalar()));
    }
  }

  // Angles may be written as multiples of pi: "pi", "-pi/2", "3*pi/4", "0.5*pi" (sign * K * pi / N in double).
  static std::optional<double> pi_expression(const std::string& s) {
    static const std::regex form(
        R"(\s*([+-]?)\s*(?:([0-9]+(?:\.[0-9]*)?)\s*\*\s*)?pi\s*(?:/\s*([0-9]+(?:\.[0-9]*)?))?\s*)");
    std::smatch m;
    if (!std::regex_match(s, m, form)) return std::nullopt;
    const double k = m[2].matched ? std::stod(m[2]) : 1.0;
    const double n = m[3].matched ? std::stod(m[3]) : 1.0;
    if (n == 0) return std::nullopt;
    const double v = k * 3.14159265358979323846 / n;
    return m[1] == "-" ? -v : v;
  }

  double opt_num(const YAML::Node& map, const std::string& path, const char* key) {
    const YAML::Node v = map[key];
    return v ? num(v, join(path, key)) : 0.0;
  }

  std::vector<double> nums(const YAML::Node& node, const std::string& field, std::size_t n, const char* what) {
    if (!node.IsSequence() || node.size() != n) fail(node, field, fmt::format("expected {}", what));
    mark(node, field);
    std::vector<double> v;
    for (std::size_t k = 0; k < n; ++k) v.push_back(num(node[k], fmt::format("{}[{}]", field, k)));
    return v;
  }

  Eigen::Vector3d vec3(const YAML::Node& node, const std::string& field) {
    const auto v = nums(node, field, 3, "a list of 3 numbers [x, y, z]");
    return {v[0], v[1], v[2]};
  }

  // [xx, yy, zz, xy, xz, yz] -> symmetric matrix (DESIGN.md order).
  Eigen::Matrix3d inertia(const YAML::Node& node, const std::string& field) {
    const auto v = nums(node, field, 6, "a list of 6 numbers [xx, yy, zz, xy, xz, yz]");
    const char* names[6] = {"xx", "yy", "zz", "xy", "xz", "yz"};
    for (int k = 0; k < 6; ++k) mark(node[k], field + "." + names[k]);
    Eigen::Matrix3d I;
    I << v[0], v[3], v[4], v[3], v[1], v[5], v[4], v[5], v[2];
    return I;
  }

  DhConvention convention(const YAML::Node& node) {
    const std::string s = str(node, "dh");
    if (s == "standard") return DhConvention::Standard;
    if (s == "modified") return DhConvention::Modified;
    fail(node, "dh", fmt::format("unknown DH convention '{}' (expected standard or modified)", s));
  }

  JointType joint(const YAML::Node& node, const std::string& field) {
    const std::string s = str(node, field);
    if (s == "R" || s == "revolute") return JointType::Revolute;
    if (s == "P" || s == "prismatic") return JointType::Prismatic;
    fail(node, field, fmt::format("unknown joint type '{}' (expected R or P)", s));
  }

  // An integer index (-1 = base) or the name of an earlier link ("base" = -1).
  int parent(const YAML::Node& node, const std::string& field, const std::vector<Link>& earlier) {
    if (!node.IsScalar()) fail(node, field, "expected an index, a link name or base");
    const std::string s = str(node, field);
    if (s == "base") return -1;
    if (std::regex_match(s, std::regex("-?[0-9]{1,9}"))) return std::stoi(s);
    for (std::size_t k = 0; k < earlier.size(); ++k) {
      if (earlier[k].name == s) return static_cast<int>(k);
    }
    fail(node, field, fmt::format("no earlier link named '{}' (expected an index, a link name or base)", s));
  }

  bool boolean(const YAML::Node& node, const std::string& field) {
    mark(node, field);
    try {
      return node.as<bool>();
    } catch (const YAML::Exception&) {
      fail(node, field, fmt::format("expected true or false (got '{}')", node.IsScalar() ? node.Scalar() : "?"));
    }
  }

  void links(const YAML::Node& seq, Robot& r) {
    if (!seq.IsSequence()) fail(seq, "links", "expected a list of links");
    mark(seq, "links");
    turn_.clear();
    mimic_names_.clear();
    for (std::size_t i = 0; i < seq.size(); ++i) r.links.push_back(link(seq[i], fmt::format("links[{}]", i), r.links));
    // A mimic may follow a later link: names are resolved once every link is read.
    for (const auto& [i, node] : mimic_names_) {
      const std::string s = str(node, fmt::format("links[{}].mimic.link", i));
      for (std::size_t k = 0; k < r.links.size(); ++k)
        if (r.links[k].name == s) r.links[i].mimic->link = static_cast<int>(k);
      if (r.links[i].mimic->link < 0)
        fail(node, fmt::format("links[{}].mimic.link", i), fmt::format("no link named '{}'", s));
    }
  }

  // mimic: {link: INDEX or NAME, multiplier: M (default 1), offset: O (default 0)} (robot.hpp Mimic).
  Mimic mimic(const YAML::Node& m, const std::string& f, std::size_t i) {
    keys(m, f, {"link", "multiplier", "offset"});
    mark(m, f);
    Mimic M;
    const YAML::Node link = need(m, f, "link");
    if (!link.IsScalar()) fail(link, f + ".link", "expected a link index or name");
    const std::string s = str(link, f + ".link");
    if (std::regex_match(s, std::regex("-?[0-9]{1,9}"))) {
      M.link = std::stoi(s);
    } else {
      M.link = -1;
      mimic_names_.emplace_back(i, link);
    }
    if (m["multiplier"]) M.multiplier = num(m["multiplier"], f + ".multiplier");
    M.offset = opt_num(m, f, "offset");
    return M;
  }

  // cos and sin of an angle, exact 0 and +-1 within 1e-12 (pi/2 written as "pi/2" has cos 6e-17).
  static std::pair<double, double> trig(double v) {
    return {detail::snap_unit(std::cos(v)), detail::snap_unit(std::sin(v))};
  }

  // origin: {xyz: [x, y, z], rpy: [roll, pitch, yaw]} or {xyz, rotation: [9 numbers, row by row]}: the joint's
  // frame in the parent link's frame, as a URDF joint origin (rpy: R = Rz(yaw) Ry(pitch) Rx(roll)).
  Placement origin(const YAML::Node& m, const std::string& f) {
    keys(m, f, {"xyz", "rpy", "rotation"});
    mark(m, f);
    Placement P;
    if (m["xyz"]) P.p = vec3(m["xyz"], f + ".xyz");
    if (m["rpy"] && m["rotation"]) fail(m["rotation"], f + ".rotation", "give rpy or rotation, not both");
    if (m["rpy"]) {
      const Eigen::Vector3d rpy = vec3(m["rpy"], f + ".rpy");
      const auto [cr, sr] = trig(rpy[0]);
      const auto [cp, sp] = trig(rpy[1]);
      const auto [cy, sy] = trig(rpy[2]);
      P.R = detail::rot_z(cy, sy) * (detail::rot_y(cp, sp) * detail::rot_x(cr, sr));
    } else if (m["rotation"]) {
      const auto v = nums(m["rotation"], f + ".rotation", 9, "a list of 9 numbers (a rotation matrix, row by row)");
      P.R << v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8];
    }
    return P;
  }

  Link link(const YAML::Node& m, const std::string& f, const std::vector<Link>& earlier) {
    keys(m, f, {"name", "joint", "parent", "a", "alpha", "d", "theta", "gamma", "b", "origin", "axis", "mass", "com",
                "inertia", "Ia", "Fv", "Fc", "triangle_inequality", "mimic"});
    mark(m, f);
    Link L;
    L.name = m["name"] ? str(m["name"], f + ".name") : fmt::format("link{}", earlier.size() + 1);
    L.joint = joint(need(m, f, "joint"), f + ".joint");
    L.parent = m["parent"] ? parent(m["parent"], f + ".parent", earlier) : static_cast<int>(earlier.size()) - 1;
    L.mass = num(need(m, f, "mass"), f + ".mass");
    L.com = vec3(need(m, f, "com"), f + ".com");
    L.inertia = inertia(need(m, f, "inertia"), f + ".inertia");
    Eigen::Matrix3d turn = Eigen::Matrix3d::Identity();
    if (m["origin"]) {
      // A placed joint (robot.hpp Placement), written as a URDF joint: origin in the parent link's frame, axis,
      // centre of mass and inertia in the joint's frame. Frame j is turned onto the axis (io_detail.hpp axis_frame).
      for (const char* k : {"a", "alpha", "d", "theta", "gamma", "b"}) {
        if (m[k]) fail(m[k], join(f, k), "not with origin (a joint placement replaces the DH parameters)");
      }
      const Placement o = origin(m["origin"], f + ".origin");
      Eigen::Vector3d axis = Eigen::Vector3d::UnitZ();
      if (m["axis"]) {
        axis = vec3(m["axis"], f + ".axis");
        if (!axis.allFinite() || axis.norm() < 1e-12) fail(m["axis"], f + ".axis", "must be a non-zero vector");
        axis.normalize();
      }
      turn = detail::axis_frame(axis);
      const bool valid_parent = L.parent >= 0 && static_cast<std::size_t>(L.parent) < turn_.size();
      const Eigen::Matrix3d parent_turn = valid_parent ? turn_[static_cast<std::size_t>(L.parent)]
                                                       : Eigen::Matrix3d(Eigen::Matrix3d::Identity());
      L.placement = detail::placed_joint(parent_turn, o.R, o.p, turn);
      L.com = turn.transpose() * L.com;
      L.inertia = turn.transpose() * L.inertia * turn;
    } else {
      if (m["axis"]) fail(m["axis"], f + ".axis", "only with origin (a DH joint turns about its z axis)");
      L.a = num(need(m, f, "a"), f + ".a");
      L.alpha = num(need(m, f, "alpha"), f + ".alpha");
      L.d = num(need(m, f, "d"), f + ".d");
      L.theta = num(need(m, f, "theta"), f + ".theta");
      L.gamma = opt_num(m, f, "gamma");
      L.b = opt_num(m, f, "b");
    }
    turn_.push_back(turn);
    L.Ia = opt_num(m, f, "Ia");
    L.Fv = opt_num(m, f, "Fv");
    L.Fc = opt_num(m, f, "Fc");
    if (m["triangle_inequality"]) L.triangle_inequality = boolean(m["triangle_inequality"], f + ".triangle_inequality");
    if (m["mimic"]) L.mimic = mimic(m["mimic"], f + ".mimic", earlier.size());
    return L;
  }

  RigidLoad payload(const YAML::Node& m) {
    keys(m, "payload", {"link", "mass", "com", "inertia"});
    mark(m, "payload");
    RigidLoad P;
    if (m["link"]) {
      const double v = num(m["link"], "payload.link");
      if (v != std::floor(v) || std::abs(v) > 1e9) fail(m["link"], "payload.link", "expected an integer link index");
      P.link = static_cast<int>(v);
    }
    P.mass = num(need(m, "payload", "mass"), "payload.mass");
    P.com = vec3(need(m, "payload", "com"), "payload.com");
    P.inertia = inertia(need(m, "payload", "inertia"), "payload.inertia");
    return P;
  }

  std::vector<std::pair<std::size_t, YAML::Node>> mimic_names_;  // links whose mimic names a link by name
  std::string source_;
  std::map<std::string, int> lines_;
  std::vector<Eigen::Matrix3d> turn_;  // each link's axis_frame (identity for a DH link)
};

// ---- writer ----

// Shortest decimal that reads back to the same double (fmt's "{}"); YAML spellings for the non-finite values.
std::string num(double v) {
  if (std::isnan(v)) return ".nan";
  if (std::isinf(v)) return v > 0 ? ".inf" : "-.inf";
  return fmt::format("{}", v);
}

std::string vec(const Eigen::Vector3d& v) { return fmt::format("[{}, {}, {}]", num(v[0]), num(v[1]), num(v[2])); }

std::string inertia6(const Eigen::Matrix3d& I) {
  return fmt::format("[{}, {}, {}, {}, {}, {}]", num(I(0, 0)), num(I(1, 1)), num(I(2, 2)), num(I(0, 1)), num(I(0, 2)),
                     num(I(1, 2)));
}

// A plain scalar when it cannot be mistaken for anything else, otherwise a double-quoted YAML string.
std::string name(const std::string& s) {
  static const std::regex plain("[A-Za-z_][A-Za-z0-9_.-]*");
  static const std::regex special("(null|Null|NULL|true|True|TRUE|false|False|FALSE|yes|Yes|YES|no|No|NO|on|On|ON|"
                                  "off|Off|OFF|y|Y|n|N)");
  if (std::regex_match(s, plain) && !std::regex_match(s, special)) return s;
  std::string out = "\"";
  for (const unsigned char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20) {
      out += fmt::format("\\x{:02x}", c);
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + "\"";
}

bool written(double v) { return v != 0 || std::signbit(v); }
bool written(const Eigen::Vector3d& v) { return written(v[0]) || written(v[1]) || written(v[2]); }

void write_link(std::ostringstream& o, const Link& L, bool modified) {
  o << "  - name: " << name(L.name) << "\n";
  o << "    joint: " << (L.joint == JointType::Prismatic ? "P" : "R") << "\n";
  o << "    parent: " << L.parent << "\n";
  if (L.placement) {  // frame j already on the axis (z): the rotation as it is, no axis
    const Eigen::Matrix3d& R = L.placement->R;
    o << "    origin: {xyz: " << vec(L.placement->p) << ", rotation: [" << num(R(0, 0)) << ", " << num(R(0, 1)) << ", "
      << num(R(0, 2)) << ", " << num(R(1, 0)) << ", " << num(R(1, 1)) << ", " << num(R(1, 2)) << ", " << num(R(2, 0))
      << ", " << num(R(2, 1)) << ", " << num(R(2, 2)) << "]}\n";
  } else {
    o << "    a: " << num(L.a) << "\n    alpha: " << num(L.alpha) << "\n    d: " << num(L.d)
      << "\n    theta: " << num(L.theta) << "\n";
    if (modified || written(L.gamma)) o << "    gamma: " << num(L.gamma) << "\n";
    if (modified || written(L.b)) o << "    b: " << num(L.b) << "\n";
  }
  o << "    mass: " << num(L.mass) << "\n    com: " << vec(L.com) << "\n    inertia: " << inertia6(L.inertia) << "\n";
  if (written(L.Ia)) o << "    Ia: " << num(L.Ia) << "\n";
  if (written(L.Fv)) o << "    Fv: " << num(L.Fv) << "\n";
  if (written(L.Fc)) o << "    Fc: " << num(L.Fc) << "\n";
  if (!L.triangle_inequality) o << "    triangle_inequality: false\n";
  if (L.mimic)
    o << "    mimic: {link: " << L.mimic->link << ", multiplier: " << num(L.mimic->multiplier)
      << ", offset: " << num(L.mimic->offset) << "}\n";
}

}  // namespace

Robot robot_from_yaml(const std::string& text, const std::string& source) {
  Reader reader(source);
  Robot r = reader.read(text);
  detail::validate_located(r, [&](const std::string& field) { return reader.locate(field); });
  return r;
}

Robot robot_from_yaml_file(const std::string& path) { return robot_from_yaml(detail::read_text_file(path), path); }

std::string to_yaml(const Robot& r) {
  std::ostringstream o;
  o << "# neaccel robot file (docs/robot-format.md); inertia: [xx, yy, zz, xy, xz, yz] about the centre of mass\n";
  o << "name: " << name(r.name) << "\n";
  o << "dh: " << (r.convention == DhConvention::Modified ? "modified" : "standard") << "\n";
  o << "gravity: " << vec(r.gravity) << "\n";
  o << "links:\n";
  for (const Link& L : r.links) write_link(o, L, r.convention == DhConvention::Modified);
  if (r.payload) {
    const RigidLoad& P = *r.payload;
    o << "payload:\n  link: " << P.link << "\n  mass: " << num(P.mass) << "\n  com: " << vec(P.com)
      << "\n  inertia: " << inertia6(P.inertia) << "\n";
  }
  if (written(r.f_e) || written(r.n_e)) {
    o << "external_wrench:\n  force: " << vec(r.f_e) << "\n  moment: " << vec(r.n_e) << "\n";
  }
  return o.str();
}

namespace detail {
std::string read_text_file(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) {
    throw Error(fmt::format("{}: cannot read file ({})", path,
                            std::filesystem::exists(path, ec) ? "not a regular file" : "no such file"));
  }
  check_file_size(path);
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  if (!in || !(s << in.rdbuf())) {
    if (in && in.peek() == std::ifstream::traits_type::eof()) return std::string();  // an empty file
    throw Error(fmt::format("{}: cannot read file ({})", path, std::strerror(errno)));
  }
  return s.str();
}
}  // namespace detail

}  // namespace neaccel::ref
