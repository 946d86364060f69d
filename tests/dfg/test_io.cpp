// Import/export: lossless JSON round trip, DOT export/import, generic graphs, one test per malformed-input case.
#include "neaccel/dfg/evaluate.hpp"
#include "neaccel/dfg/io.hpp"
#include "neaccel/dfg/passes.hpp"
#include "neaccel/dfg/trace.hpp"
#include "neaccel/ref/error.hpp"
#include "neaccel/ref/io.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>

namespace neaccel::dfg {
namespace {

Graph puma(Flavour fl) { return trace(ref::load_robot("puma560"), Form::ModifiedNE, fl); }

TEST(Io, JsonRoundTripIsLossless) {
  for (Flavour fl : {Flavour::General, Flavour::Custom}) {
    for (const Graph& g : {puma(fl), customise(puma(fl))}) {
      const Graph back = graph_from_json_text(to_json_text(g), "mem.json");
      EXPECT_TRUE(back == g);
      EXPECT_EQ(to_json_text(back), to_json_text(g));  // deterministic bytes
    }
  }
}

TEST(Io, JsonKeepsSpecialConstantsBitForBit) {
  Graph g;
  g.inputs = {"x"};
  g.nodes.resize(6);
  g.nodes[0].op = Op::Input;
  const double values[] = {-0.0, HUGE_VAL, -HUGE_VAL, 0.1, 5e-324};
  for (int k = 0; k < 5; ++k) g.nodes[static_cast<std::size_t>(k + 1)].value = values[k];
  g.outputs = {{"o", 5}};
  const Graph back = graph_from_json_text(to_json_text(g), "mem.json");
  for (std::size_t k = 1; k < 6; ++k) EXPECT_EQ(std::memcmp(&back.nodes[k].value, &g.nodes[k].value, 8), 0) << k;
  g.nodes[1].value = std::nan("");
  EXPECT_TRUE(std::isnan(graph_from_json_text(to_json_text(g), "m").nodes[1].value));
}

void expect_error(const std::function<void()>& f, const std::string& needle) {
  try {
    f();
    ADD_FAILURE() << "no error, expected one mentioning '" << needle << "'";
  } catch (const Error& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find(needle), std::string::npos) << m;
    EXPECT_EQ(m.find('\n'), std::string::npos) << "one line: " << m;
  }
}

TEST(Io, JsonErrorsNameTheFile) {
  const std::string good = to_json_text(customise(puma(Flavour::Custom)));
  expect_error([] { graph_from_json_text("{\"nodes\": [", "bad.json"); }, "bad.json");
  expect_error([] { graph_from_json_text("[1]", "bad.json"); }, "bad.json: expected a JSON object");
  auto edit = [&](const std::function<void(nlohmann::json&)>& f) {
    nlohmann::json j = nlohmann::json::parse(good);
    f(j);
    return j;
  };
  expect_error([&] { graph_from_json(edit([](auto& j) { j["nodes"][10]["op"] = "pow"; }), "g.json"); }, "unknown op 'pow'");
  expect_error([&] { graph_from_json(edit([](auto& j) { j["version"] = 7; }), "g.json"); }, "g.json: version");
  expect_error([&] { graph_from_json(edit([](auto& j) { j.erase("outputs"); }), "g.json"); }, "missing field 'outputs'");
  expect_error([&] {
    graph_from_json(edit([](auto& j) {
      for (auto& n : j["nodes"])
        if (n.contains("args")) { n["args"][0] = 999999; break; }
    }), "g.json");
  }, "g.json: node");
}

TEST(Io, DotImportOfAMultiplyAdd) {
  const Graph g = graph_from_dot("digraph { a [op=mul]; b [op=add]; a -> b; }", "ex.dot");
  EXPECT_EQ(count_ops(g).mul(), 1);
  EXPECT_EQ(count_ops(g).add(), 1);
  const std::vector<std::string> inputs{"a.in0", "a.in1", "b.in1"};
  EXPECT_EQ(g.inputs, inputs);
  ASSERT_EQ(g.outputs.size(), 1u);
  EXPECT_EQ(g.outputs[0].name, "b");
  EXPECT_EQ(evaluate<double>(g, {2.0, 3.0, 4.0})[0], 2.0 * 3.0 + 4.0);
}

TEST(Io, DotImportSyntaxCoverage) {
  const char* text = R"(
    /* an HLS-style kernel */
    strict digraph "kern" {
      rankdir = LR; graph [fontsize=10]
      node [shape=circle]
      x; y [op=input]; "k" [op=const, value="-2.5"]
      // operations
      m1 [op=mul]  m2 [label="MUL"]
      s [op=sub, output=true]; out2 [op=neg, name="unused"]
      subgraph cluster_a { d [op=add] }
      x -> m1 -> s; y -> m1
      k -> m2; x:e -> m2; m2 -> s [color=red];
      s -> d; m1 -> d
      d -> out2
      # a comment line
    })";
  const Graph g = graph_from_dot(text, "k.dot");
  // s = x*y - k*x; d = s + x*y; out2 = -d; outputs: s (marked), out2 (sink).
  ASSERT_EQ(g.outputs.size(), 2u);
  EXPECT_EQ(g.outputs[0].name, "s");
  EXPECT_EQ(g.outputs[1].name, "out2");
  const double x = 1.5, y = -0.75, s = x * y - (-2.5) * x;
  std::map<std::string, double> in{{"x", x}, {"y", y}};
  const auto out = evaluate<double>(g, bind_inputs(g, in));
  EXPECT_EQ(out[0], s);
  EXPECT_EQ(out[1], -(s + x * y));
}

TEST(Io, DotErrorsAreOneLineWithFileAndLine) {
  expect_error([] { graph_from_dot("digraph { a [op=add]; b [op=add]; a -> b; b -> a; }", "cyc.dot"); },
               "cyc.dot:1: cycle through node 'a'");
  expect_error([] { graph_from_dot("digraph {\n a [op=pow];\n}", "op.dot"); }, "op.dot:2: node 'a': unknown op 'pow'");
  expect_error([] { graph_from_dot("digraph { a [op=neg]; a -> zz; }", "dang.dot"); },
               "dang.dot:1: dangling edge a -> zz: node 'zz' is not declared");
  expect_error([] { graph_from_dot("digraph { a; a [op=add]; }", "dup.dot"); }, "dup.dot:1: duplicate node id 'a'");
  expect_error([] { graph_from_dot("digraph { a [op=add; }", "syn.dot"); }, "syn.dot:1: syntax error");
  expect_error([] { graph_from_dot("digraph { a [op=add] ", "eof.dot"); }, "eof.dot:1: syntax error");
  expect_error([] { graph_from_dot("graph { a -- b }", "u.dot"); }, "u.dot:1: syntax error");
  expect_error([] { graph_from_dot("digraph { x; y; z; n [op=neg]; x -> n; y -> n; }", "ar.dot"); },
               "node 'n' (neg) has 2 incoming edges");
  expect_error([] { graph_from_dot("digraph { x; y [op=neg]; y -> x; }", "in.dot"); }, "node 'x' is an input");
  expect_error([] { graph_from_dot("digraph { c [op=const]; }", "c.dot"); }, "without a value");
  expect_error([] { graph_from_dot("digraph { c [op=const, value=abc]; }", "c.dot"); }, "not a number");
  expect_error([] { read_graph_file("/nonexistent/g.dot"); }, "/nonexistent/g.dot: cannot read");
}

TEST(Io, DotExportReimportsToTheSameComputation) {
  const ref::Robot robot = ref::load_robot("puma560");
  for (Flavour fl : {Flavour::General, Flavour::Custom}) {
    const Graph g = customise(trace(robot, Form::ModifiedNE, fl));
    const std::string dot = to_dot(g);
    EXPECT_NE(dot.find("subgraph cluster_link3"), std::string::npos);
    EXPECT_NE(dot.find("fillcolor=\"#b3de69\""), std::string::npos);  // "f" colour
    const Graph back = graph_from_dot(dot, "puma.dot");
    EXPECT_EQ(count_ops(back).by_op, count_ops(g).by_op);
    ASSERT_EQ(back.outputs.size(), g.outputs.size());
    EXPECT_EQ(back.outputs[0].name, "tau1");
    const Eigen::VectorXd q = Eigen::VectorXd::LinSpaced(6, -1, 1), qd = 0.5 * q, qdd = -q;
    const auto a = evaluate<double>(g, robot_input_vector(g, robot, q, qd, qdd));
    const auto b = evaluate<double>(back, robot_input_vector(back, robot, q, qd, qdd));
    EXPECT_EQ(a, b);  // same operations on the same operands
    EXPECT_EQ(to_dot(g), dot);  // deterministic
  }
}

TEST(Io, GenericJsonImport) {
  const char* text = R"({"nodes": [{"id": "a", "op": "mul"}, {"id": "b", "op": "add", "quantity": "f", "link": 2},
                                   {"id": "x"}],
                         "edges": [["x", "a"], ["a", "b"]]})";
  const Graph g = graph_from_json_text(text, "gen.json");
  const std::vector<std::string> inputs{"x", "a.in1", "b.in1"};
  EXPECT_EQ(g.inputs, inputs);
  EXPECT_EQ(evaluate<double>(g, {2.0, 5.0, 1.0})[0], 11.0);
  EXPECT_EQ(g.provenance[g.nodes[g.outputs[0].node].prov].quantity, "f");
  expect_error([] { graph_from_json_text(R"({"nodes": [{"id": "a", "op": "mul"}], "edges": [["q", "a"]]})", "e.json"); },
               "e.json: dangling edge q -> a");
}

TEST(Io, FilesByExtension) {
  const std::string dir = NEACCEL_TEST_OUT;
  std::filesystem::create_directories(dir);
  const Graph g = customise(puma(Flavour::Custom));
  std::ofstream(dir + "/dfg_io.json") << to_json_text(g);
  std::ofstream(dir + "/dfg_io.dot") << to_dot(g);
  EXPECT_TRUE(read_graph_file(dir + "/dfg_io.json") == g);
  EXPECT_EQ(count_ops(read_graph_file(dir + "/dfg_io.dot")).by_op, count_ops(g).by_op);
  std::ofstream(dir + "/dfg_io.txt") << "x";
  expect_error([&] { read_graph_file(dir + "/dfg_io.txt"); }, "unknown graph file type");
}

}  // namespace
}  // namespace neaccel::dfg
