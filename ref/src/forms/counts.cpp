#include "neaccel/ref/forms/counts.hpp"

#include "neaccel/ref/counts.hpp"
#include "neaccel/ref/error.hpp"
#include "neaccel/ref/forms/dalembert.hpp"
#include "neaccel/ref/forms/division.hpp"
#include "neaccel/ref/forms/forward.hpp"
#include "neaccel/ref/forms/gibbs_appell.hpp"
#include "neaccel/ref/forms/lagrange.hpp"
#include "neaccel/ref/forms/recursive_lagrange.hpp"
#include "neaccel/ref/forms/spatial_ne.hpp"
#include "neaccel/ref/forms/strobe.hpp"

#include <functional>

namespace neaccel::ref::forms {

namespace {

struct Setup {
  Robot robot;
  ModelT<Counted> model;
  JointInputs<Counted> in;
  std::vector<Counted> tau;
};

void prepare(Setup& s, int n) {
  s.robot = general_arm(n);
  s.model = counted_model(s.robot);
  s.model.robot = &s.robot;
  s.in = counted_inputs(s.robot);
  s.tau.assign(static_cast<std::size_t>(n), Counted::unknown(1.0));
}

struct Entry {
  std::string name, kind, title;
  std::function<void(const Setup&)> run;
  std::function<std::vector<PaperCount>(double)> paper;
};

const std::vector<Entry>& entries() {
  static const std::vector<Entry> e = {
      {"lagrange", "inverse", "Lagrange (Uicker/Lewis, 4x4, Appendix A), seed 000 eq 3.1",
       [](const Setup& s) { (void)lagrange(s.model, s.in); },
       [](double x) {
         return std::vector<PaperCount>{
             {"seed 000 Table 8.1", "81/6 n^3 + 165/2 n^2 + 5n", "40/3 n^3 + 58n^2 - 64/3 n",
              81.0 / 6 * x * x * x + 82.5 * x * x + 5 * x, 40.0 / 3 * x * x * x + 58 * x * x - 64.0 / 3 * x},
             {"seed 002 Table 3 (L-E)", "128/3 n^4 + 512/3 n^3 + 739/3 n^2 + 160/3 n",
              "98/3 n^4 + 781/6 n^3 + 559/3 n^2 + 245/6 n",
              128.0 / 3 * x * x * x * x + 512.0 / 3 * x * x * x + 739.0 / 3 * x * x + 160.0 / 3 * x,
              98.0 / 3 * x * x * x * x + 781.0 / 6 * x * x * x + 559.0 / 3 * x * x + 245.0 / 6 * x}};
       }},
      {"recursive-lagrange", "inverse", "Recursive Lagrange (Hollerbach, 3x3), seed 000 eqs 3.2-3.6",
       [](const Setup& s) { (void)recursive_lagrange(s.model, s.in); },
       [](double x) {
         return std::vector<PaperCount>{{"seed 000 Table 8.1", "226n", "144n", 226 * x, 144 * x},
                                        {"seed 003 Table 9.5 (Hollerbach 80)", "412n - 277", "320n - 201",
                                         412 * x - 277, 320 * x - 201},
                                        {"seed 004 (recursive Lagrangian, 4x4)", "830n - 592", "675n - 464",
                                         830 * x - 592, 675 * x - 464}};
       }},
      {"gibbs-appell", "inverse", "Gibbs-Appell (Horowitz-Tomizuka), seed 000 eq 3.14",
       [](const Setup& s) { (void)gibbs_appell(s.model, s.in); }, [](double) { return std::vector<PaperCount>{}; }},
      {"dalembert", "inverse", "Generalized d'Alembert, seed 002 section 4",
       [](const Setup& s) { (void)dalembert(s.model, s.in); },
       [](double x) {
         return std::vector<PaperCount>{{"seed 002 Table 3", "13/6 n^3 + 105/2 n^2 + 268/3 n + 69",
                                         "4/3 n^3 + 44n^2 + 146/3 n + 45",
                                         13.0 / 6 * x * x * x + 52.5 * x * x + 268.0 / 3 * x + 69,
                                         4.0 / 3 * x * x * x + 44 * x * x + 146.0 / 3 * x + 45}};
       }},
      {"spatial-ne", "inverse", "6x6 spatial Newton-Euler (Nasser), inverse form, seed 001",
       [](const Setup& s) { (void)spatial_ne_inverse(s.model, s.in); },
       [](double x) {
         return std::vector<PaperCount>{{"seed 002 Table 3 (N-E)", "132n", "111n - 4", 132 * x, 111 * x - 4}};
       }},
      {"strobe-M", "explicit", "M(q) by strobing the modified N-E, seed 000 section 8",
       [](const Setup& s) { (void)strobe(s.model, s.in, StrobeParts{true, false, false}); },
       [](double x) {
         return std::vector<PaperCount>{
             {"seed 000 section 8", "36n(n+1)", "26n(n+1)", 36 * x * (x + 1), 26 * x * (x + 1)}};
       }},
      {"strobe-C", "explicit", "Christoffel C^i_jk by strobing the modified N-E, seed 000 section 8",
       [](const Setup& s) { (void)strobe(s.model, s.in, StrobeParts{false, true, false}); },
       [](double x) {
         const double v = 54 * x * x * x + 27 * x * x + 9 * x;
         return std::vector<PaperCount>{{"seed 000 section 8", "54n^3 + 27n^2 + 9n", "54n^3 + 27n^2 + 9n", v, v}};
       }},
      {"lagrange-coefficients", "explicit", "Lagrange-Euler D, h (= C), c, seed 002 eqs 2.11-2.15",
       [](const Setup& s) { (void)lagrange_coefficients(s.model, s.in); },
       [](double) { return std::vector<PaperCount>{}; }},
      {"nasser-forward", "forward", "Recursive forward dynamics (Nasser 6x6), seed 001",
       [](const Setup& s) { (void)nasser_forward(s.model, s.in, s.tau); },
       [](double x) {
         return std::vector<PaperCount>{{"seed 001", "258N - 119", "191N - 83", 258 * x - 119, 191 * x - 83}};
       }},
      {"khalil-forward", "forward", "Recursive forward dynamics (Khalil, H_j = a^T J* a + Ia), seed 003 9.7.2",
       [](const Setup& s) { (void)khalil_forward(s.model, s.in, s.tau); },
       [](double) { return std::vector<PaperCount>{}; }},
  };
  return e;
}

}  // namespace

std::vector<std::string> formulation_names() {
  std::vector<std::string> names;
  for (const Entry& e : entries()) names.push_back(e.name);
  return names;
}

CountRow count_formulation(const std::string& name, int n) {
  if (n < 1) throw Error("counts: n must be at least 1 (got " + std::to_string(n) + ")");
  for (const Entry& e : entries()) {
    if (e.name != name) continue;
    Setup s;
    prepare(s, n);
    counting::reset();
    reset_divisions();
    e.run(s);
    CountRow row{e.name, e.kind, e.title, n, counting::totals(), divisions(), counting::by_quantity(), e.paper(n)};
    counting::reset();
    reset_divisions();
    return row;
  }
  throw Error("counts: unknown formulation '" + name + "'");
}

std::vector<CountRow> formulation_counts(int n) {
  std::vector<CountRow> rows;
  for (const Entry& e : entries()) rows.push_back(count_formulation(e.name, n));
  return rows;
}

}  // namespace neaccel::ref::forms
