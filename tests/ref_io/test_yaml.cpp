// YAML robot files: exact round trip, and one test per bad-input case (one-line error naming source and field).
#include "neaccel/ref/error.hpp"
#include "neaccel/ref/io.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>

using namespace neaccel::ref;

namespace {

// A valid two-link file; line numbers matter for the tests below (mass of links[1] is on line 22).
const char* kGood = R"(name: arm
dh: modified
gravity: [0, 0, -9.81]
links:
  - name: upper
    joint: R
    a: 0
    alpha: 0
    d: 0.1
    theta: 0
    mass: 2
    com: [0.1, 0, 0]
    inertia: [0.01, 0.02, 0.02, 0, 0, 0]
  - name: lower
    joint: P
    parent: upper
    a: 0.5
    alpha: 1.5707963267948966
    d: 0
    theta: 0.3
    gamma: 0.25
    mass: 1
    com: [0, 0.1, 0]
    inertia: [0.01, 0.01, 0.015, 0.001, 0, 0]
    Ia: 0.1
    Fv: 0.2
    Fc: 0.3
payload:
  link: -1
  mass: 0.5
  com: [0, 0, 0.05]
  inertia: [0.001, 0.001, 0.001, 0, 0, 0]
external_wrench:
  force: [1, 2, 3]
  moment: [0.1, 0.2, 0.3]
)";

// kGood with the first occurrence of `from` replaced by `to`.
std::string edit(const std::string& from, const std::string& to) {
  std::string s = kGood;
  const auto pos = s.find(from);
  EXPECT_NE(pos, std::string::npos) << from;
  if (pos != std::string::npos) s.replace(pos, from.size(), to);
  return s;
}

// Expects an error whose message contains every fragment and is one line.
void expect_error(const std::string& yaml, std::initializer_list<const char*> fragments) {
  try {
    robot_from_yaml(yaml, "t.yaml");
    ADD_FAILURE() << "no error for:\n" << yaml;
  } catch (const neaccel::Error& e) {
    const std::string msg = e.what();
    EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
    EXPECT_EQ(msg.rfind("t.yaml", 0), 0u) << msg;
    for (const char* f : fragments) EXPECT_NE(msg.find(f), std::string::npos) << "'" << f << "' not in: " << msg;
  }
}

void expect_invalid(const Robot& r, std::initializer_list<const char*> fragments) {
  try {
    validate(r);
    ADD_FAILURE() << "no error";
  } catch (const neaccel::Error& e) {
    const std::string msg = e.what();
    EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
    for (const char* f : fragments) EXPECT_NE(msg.find(f), std::string::npos) << "'" << f << "' not in: " << msg;
  }
}

// Bitwise equality of doubles (distinguishes -0.0 from 0.0; NaN never occurs in a valid robot).
bool same(double x, double y) { return std::memcmp(&x, &y, sizeof x) == 0; }
template <class M>
bool same(const M& a, const M& b) {
  for (Eigen::Index k = 0; k < a.size(); ++k) {
    if (!same(a.data()[k], b.data()[k])) return false;
  }
  return true;
}

void expect_same(const Robot& a, const Robot& b) {
  EXPECT_EQ(a.name, b.name);
  EXPECT_EQ(a.convention, b.convention);
  EXPECT_TRUE(same(a.gravity, b.gravity));
  EXPECT_TRUE(same(a.f_e, b.f_e));
  EXPECT_TRUE(same(a.n_e, b.n_e));
  ASSERT_EQ(a.payload.has_value(), b.payload.has_value());
  if (a.payload) {
    EXPECT_EQ(a.payload->link, b.payload->link);
    EXPECT_TRUE(same(a.payload->mass, b.payload->mass));
    EXPECT_TRUE(same(a.payload->com, b.payload->com));
    EXPECT_TRUE(same(a.payload->inertia, b.payload->inertia));
  }
  ASSERT_EQ(a.dof(), b.dof());
  for (std::size_t i = 0; i < a.links.size(); ++i) {
    SCOPED_TRACE(i);
    const Link& x = a.links[i];
    const Link& y = b.links[i];
    EXPECT_EQ(x.name, y.name);
    EXPECT_EQ(x.parent, y.parent);
    EXPECT_EQ(x.joint, y.joint);
    for (auto [p, q] : {std::pair{x.a, y.a}, {x.alpha, y.alpha}, {x.d, y.d}, {x.theta, y.theta}, {x.gamma, y.gamma},
                        {x.b, y.b}, {x.mass, y.mass}, {x.Ia, y.Ia}, {x.Fv, y.Fv}, {x.Fc, y.Fc}}) {
      EXPECT_TRUE(same(p, q)) << p << " vs " << q;
    }
    EXPECT_TRUE(same(x.com, y.com));
    EXPECT_TRUE(same(x.inertia, y.inertia));
    EXPECT_EQ(x.triangle_inequality, y.triangle_inequality);
  }
}

}  // namespace

TEST(Yaml, ReadsEveryField) {
  const Robot r = robot_from_yaml(kGood, "t.yaml");
  EXPECT_EQ(r.name, "arm");
  EXPECT_EQ(r.source, "t.yaml");
  EXPECT_EQ(r.convention, DhConvention::Modified);
  ASSERT_EQ(r.dof(), 2);
  EXPECT_EQ(r.links[0].parent, -1);  // default: previous link
  EXPECT_EQ(r.links[1].parent, 0);   // by name
  EXPECT_EQ(r.links[1].joint, JointType::Prismatic);
  EXPECT_EQ(r.links[1].gamma, 0.25);
  EXPECT_EQ(r.links[1].b, 0.0);
  EXPECT_EQ(r.links[1].inertia(0, 1), 0.001);
  EXPECT_EQ(r.links[1].inertia(1, 0), 0.001);
  EXPECT_EQ(r.links[1].inertia(2, 2), 0.015);
  EXPECT_EQ(r.links[1].Fc, 0.3);
  EXPECT_EQ(r.links[0].Ia, 0.0);
  ASSERT_TRUE(r.payload.has_value());
  EXPECT_EQ(r.payload->mass, 0.5);
  EXPECT_EQ(r.f_e, Eigen::Vector3d(1, 2, 3));
  EXPECT_EQ(r.n_e, Eigen::Vector3d(0.1, 0.2, 0.3));
}

TEST(Yaml, RoundTripIsExact) {
  std::vector<Robot> robots = {robot_from_yaml(kGood, "t.yaml")};
  for (const auto& n : builtin_robot_names()) robots.push_back(load_robot(n));
  for (int n = 1; n <= 12; ++n) {
    robots.push_back(load_robot(fmt::format("random:{}:{}", n, n)));
    robots.push_back(load_robot(fmt::format("randomtree:{}:{}", n, n + 100)));
  }
  Robot odd = robots.front();  // names that need quoting, signed zeros, tiny and huge numbers
  odd.name = "my robot: \"v2\" #1";
  odd.links[0].name = "true";
  odd.links[1].name = "null";
  odd.links[0].a = -0.0;
  odd.links[0].Fv = 1e-300;
  odd.links[0].mass = 1.2345678901234567e+30;
  odd.links[0].inertia *= 1e30;
  odd.links[1].triangle_inequality = false;
  robots.push_back(odd);
  for (const Robot& r : robots) {
    SCOPED_TRACE(r.name);
    const std::string text = to_yaml(r);
    const Robot back = robot_from_yaml(text, "back.yaml");
    expect_same(r, back);
    EXPECT_EQ(to_yaml(back), text);  // and the text is stable
  }
}

TEST(Yaml, AnglesAsMultiplesOfPi) {
  const double pi = 3.14159265358979323846;
  const std::pair<const char*, double> cases[] = {{"pi/2", pi / 2}, {"-pi/2", -pi / 2}, {"pi", pi},
                                                  {"3*pi/4", 3 * pi / 4}, {"0.5 * pi", 0.5 * pi}, {"-2*pi", -2 * pi}};
  for (const auto& [text, value] : cases) {
    const Robot r = robot_from_yaml(edit("alpha: 1.5707963267948966", std::string("alpha: ") + text), "t.yaml");
    EXPECT_EQ(r.links[1].alpha, value) << text;
  }
  // pi/2 is exactly the double the built-in files write out.
  EXPECT_EQ(robot_from_yaml(edit("alpha: 1.5707963267948966", "alpha: pi/2"), "t.yaml").links[1].alpha,
            1.5707963267948966);
  expect_error(edit("alpha: 1.5707963267948966", "alpha: pi/0"), {"links[1].alpha: expected a number"});
  expect_error(edit("alpha: 1.5707963267948966", "alpha: 2pi"), {"links[1].alpha: expected a number"});
}

TEST(Yaml, FileLoadsByPath) {
  const std::filesystem::path dir = NEACCEL_TEST_OUT;
  std::filesystem::create_directories(dir);
  const auto path = (dir / "arm.yaml").string();
  std::ofstream(path) << kGood;
  const Robot r = load_robot(path);
  EXPECT_EQ(r.source, path);
  EXPECT_EQ(r.dof(), 2);
  const auto yml = (dir / "arm.yml").string();
  std::ofstream(yml) << to_yaml(load_robot("puma560"));
  EXPECT_EQ(load_robot(yml).dof(), 6);
}

// ---- bad input: one test per case ----

TEST(YamlBad, NegativeMassNamesFileLineAndField) {
  expect_error(edit("mass: 1", "mass: -1"), {"t.yaml:22: links[1].mass: must be finite and >= 0 (got -1)"});
}

TEST(YamlBad, NonFiniteMass) {
  expect_error(edit("mass: 1", "mass: .inf"), {"links[1].mass", "must be finite"});
  expect_error(edit("mass: 1", "mass: .nan"), {"links[1].mass", "nan"});
}

TEST(YamlBad, NanInEveryNumericField) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"gravity: [0, 0, -9.81]", "gravity[2]"},
      {"d: 0.1", "links[0].d"},
      {"a: 0.5", "links[1].a"},
      {"alpha: 1.5707963267948966", "links[1].alpha"},
      {"theta: 0.3", "links[1].theta"},
      {"gamma: 0.25", "links[1].gamma"},
      {"mass: 2", "links[0].mass"},
      {"com: [0.1, 0, 0]", "links[0].com[0]"},
      {"inertia: [0.01, 0.02, 0.02, 0, 0, 0]", "links[0].inertia.xx"},
      {"inertia: [0.01, 0.01, 0.015, 0.001, 0, 0]", "links[1].inertia.xy"},
      {"Ia: 0.1", "links[1].Ia"},
      {"Fv: 0.2", "links[1].Fv"},
      {"Fc: 0.3", "links[1].Fc"},
      {"mass: 0.5", "payload.mass"},
      {"com: [0, 0, 0.05]", "payload.com[2]"},
      {"inertia: [0.001, 0.001, 0.001, 0, 0, 0]", "payload.inertia.xx"},
      {"force: [1, 2, 3]", "external_wrench.force[1]"},
      {"moment: [0.1, 0.2, 0.3]", "external_wrench.moment[0]"},
  };
  for (const auto& [line, field] : cases) {
    SCOPED_TRACE(field);
    // Replace the number the field refers to by .nan (first number, or the one named by the index).
    std::string bad = line;
    if (field == "gravity[2]") bad = "gravity: [0, 0, .nan]";
    else if (field == "links[1].inertia.xy") bad = "inertia: [0.01, 0.01, 0.015, .nan, 0, 0]";
    else if (field == "payload.com[2]") bad = "com: [0, 0, .nan]";
    else if (field == "external_wrench.force[1]") bad = "force: [1, .nan, 3]";
    else if (field.find("com[0]") != std::string::npos) bad = "com: [.nan, 0, 0]";
    else if (field.find("inertia.xx") != std::string::npos) bad = line.substr(0, line.find('[') + 1) + ".nan" +
                                                                  line.substr(line.find(','));
    else if (field == "external_wrench.moment[0]") bad = "moment: [.nan, 0.2, 0.3]";
    else bad = line.substr(0, line.find(':') + 2) + ".nan";
    expect_error(edit(line, bad), {field.c_str(), "nan"});
  }
}

TEST(YamlBad, InertiaNotPositiveSemiDefinite) {
  expect_error(edit("inertia: [0.01, 0.02, 0.02, 0, 0, 0]", "inertia: [0.01, 0.02, 0.02, 0.05, 0, 0]"),
               {"t.yaml:13: links[0].inertia", "positive semi-definite"});
  expect_error(edit("inertia: [0.01, 0.02, 0.02, 0, 0, 0]", "inertia: [-0.01, 0.02, 0.02, 0, 0, 0]"),
               {"links[0].inertia", "positive semi-definite"});
}

TEST(YamlBad, InertiaViolatesTriangleInequality) {
  const std::string bad = edit("inertia: [0.01, 0.02, 0.02, 0, 0, 0]", "inertia: [0.01, 0.01, 0.05, 0, 0, 0]");
  expect_error(bad, {"links[0].inertia", "triangle inequality"});
  // The same tensor is accepted when the file declares it a lumped (published, non-rigid-body) inertia.
  std::string lumped = bad;
  lumped.replace(lumped.find("  - name: lower"), 0, "    triangle_inequality: false\n");
  EXPECT_NO_THROW(robot_from_yaml(lumped, "t.yaml"));
  // A thin rod (I1 + I2 = I3 exactly, e.g. 0.1 + 0.2 vs 0.3 with decimal rounding) is valid: tolerance 1e-9.
  EXPECT_NO_THROW(robot_from_yaml(edit("inertia: [0.01, 0.02, 0.02, 0, 0, 0]", "inertia: [0.1, 0.2, 0.3, 0, 0, 0]"),
                                  "t.yaml"));
}

TEST(YamlBad, InertiaNotSymmetric) {
  Robot r = robot_from_yaml(kGood, "prog");
  r.links[1].inertia(0, 1) = 0.002;  // (1, 0) stays 0.001: only a program can build this
  expect_invalid(r, {"prog: links[1].inertia: must be symmetric"});
}

TEST(YamlBad, UnknownJointType) {
  expect_error(edit("joint: P", "joint: X"), {"t.yaml:15: links[1].joint", "unknown joint type 'X'"});
  Robot r = robot_from_yaml(kGood, "prog");
  r.links[0].joint = static_cast<JointType>(7);
  expect_invalid(r, {"links[0].joint", "unknown joint type"});
}

TEST(YamlBad, ParentNotEarlier) {
  expect_error(edit("parent: upper", "parent: 1"), {"links[1].parent", "earlier link 0..0 (got 1)"});
  expect_error(edit("parent: upper", "parent: 5"), {"links[1].parent", "(got 5)"});
  expect_error(edit("parent: upper", "parent: -2"), {"links[1].parent", "(got -2)"});
  expect_error(edit("parent: upper", "parent: lower"), {"links[1].parent", "no earlier link named 'lower'"});
}

TEST(YamlBad, EmptyRobot) {
  expect_error("name: e\ndh: standard\ngravity: [0, 0, -9.81]\nlinks: []\n", {"links", "robot has no links"});
  Robot r;
  r.source = "prog";
  expect_invalid(r, {"prog: links: robot has no links"});
}

TEST(YamlBad, MalformedYamlGivesLine) {
  expect_error(edit("com: [0.1, 0, 0]", "com: [0.1, 0, 0"), {"malformed YAML"});
  expect_error("name: x\ndh: standard\n  links: - a\n", {"t.yaml:3:", "malformed YAML"});
  expect_error("", {"expected a mapping"});
  expect_error("- 1\n- 2\n", {"expected a mapping"});
}

TEST(YamlBad, MissingFields) {
  expect_error(edit("    mass: 1\n", ""), {"links[1].mass: missing field"});
  expect_error(edit("dh: modified\n", ""), {"dh: missing field"});
  expect_error(edit("gravity: [0, 0, -9.81]\n", ""), {"gravity: missing field"});
  expect_error(edit("    joint: R\n", ""), {"links[0].joint: missing field"});
  expect_error(edit("    inertia: [0.01, 0.02, 0.02, 0, 0, 0]\n", ""), {"links[0].inertia: missing field"});
  expect_error(edit("  moment: [0.1, 0.2, 0.3]\n", ""), {"external_wrench.moment: missing field"});
}

TEST(YamlBad, WrongTypesAndUnknownFields) {
  expect_error(edit("mass: 1", "mass: heavy"),
               {"t.yaml:22: links[1].mass: expected a number or a multiple of pi (got 'heavy')"});
  expect_error(edit("mass: 1", "masss: 1"), {"links[1].masss: unknown field"});
  expect_error(edit("com: [0.1, 0, 0]", "com: [0.1, 0]"), {"links[0].com: expected a list of 3 numbers"});
  expect_error(edit("inertia: [0.01, 0.02, 0.02, 0, 0, 0]", "inertia: 0.01"),
               {"links[0].inertia: expected a list of 6 numbers"});
  expect_error(edit("dh: modified", "dh: sideways"), {"dh: unknown DH convention 'sideways'"});
  expect_error(edit("links:", "lynx:"), {"lynx: unknown field"});
  expect_error(edit("    mass: 1\n", "    mass: 1\n    mass: 2\n"), {"t.yaml:23: links[1].mass: duplicate field"});
  expect_error(edit("link: -1", "link: 1.5"), {"payload.link: expected an integer"});
}

TEST(YamlBad, MessagesStayOneLine) {
  // A multi-line scalar in the message (block scalar) is flattened: expect_error checks there is no newline.
  expect_error(edit("joint: P", "joint: |\n      multi\n      line"), {"unknown joint type 'multi line"});
}

TEST(YamlBad, OtherFieldChecks) {
  expect_error(edit("dh: modified", "dh: standard"), {"links[1].gamma: only allowed with dh: modified"});
  expect_error(edit("name: lower", "name: upper"), {"links[1].name: duplicate link name 'upper'"});
  expect_error(edit("link: -1", "link: 2"), {"payload.link", "(got 2)"});
  expect_error(edit("Fv: 0.2", "Fv: -0.2"), {"links[1].Fv: must be finite and >= 0 (got -0.2)"});
  expect_error(edit("Ia: 0.1", "Ia: -1"), {"links[1].Ia: must be finite and >= 0"});
}

TEST(YamlBad, UnreadableFile) {
  const std::filesystem::path dir = std::filesystem::path(NEACCEL_TEST_OUT) / "dir.yaml";  // a directory
  std::filesystem::create_directories(dir);
  for (const std::string& path : {std::string("/nonexistent/robot.yaml"), dir.string()}) {
    SCOPED_TRACE(path);
    try {
      load_robot(path);
      ADD_FAILURE() << "no error";
    } catch (const neaccel::Error& e) {
      EXPECT_EQ(std::string(e.what()).rfind(path + ": cannot read file", 0), 0u) << e.what();
    }
  }
}
