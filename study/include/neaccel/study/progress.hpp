// Stage-by-stage progress of a long run: one line per stage on a terminal, nothing when piped (isatty).
#pragma once

#include <chrono>
#include <string>
#include <utility>
#include <vector>

namespace neaccel::study {

class Progress {
 public:
  Progress(int stages, bool enabled);
  void stage(const std::string& name);     // "[k/N] name ..."
  void detail(const std::string& text);    // an in-stage update, overwriting the line
  void done(const std::string& summary);   // ends the current stage with its time and a summary
  bool enabled() const { return enabled_; }
  // Wall time of each finished stage (measured: DIR/timings.json, not the deterministic output).
  const std::vector<std::pair<std::string, double>>& times() const { return times_; }
  // Whether standard error is a terminal (the default for `enabled`).
  static bool terminal();

 private:
  int stages_, current_ = 0;
  bool enabled_;
  std::string name_;
  std::chrono::steady_clock::time_point start_;
  std::vector<std::pair<std::string, double>> times_;
};

}  // namespace neaccel::study
