#include "neaccel/study/progress.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <cstdio>

namespace neaccel::study {

Progress::Progress(int stages, bool enabled) : stages_(stages), enabled_(enabled) {}

bool Progress::terminal() { return isatty(fileno(stderr)) != 0; }

void Progress::stage(const std::string& name) {
  ++current_;
  name_ = name;
  start_ = std::chrono::steady_clock::now();
  if (enabled_) std::fprintf(stderr, "[%d/%d] %s ...", current_, stages_, name.c_str());
}

void Progress::detail(const std::string& text) {
  if (enabled_) std::fprintf(stderr, "\r\033[K[%d/%d] %s ... %s", current_, stages_, name_.c_str(), text.c_str());
}

void Progress::done(const std::string& summary) {
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  times_.emplace_back(name_, s);
  if (enabled_)
    std::fprintf(stderr, "\r\033[K[%d/%d] %s: %s (%.1f s)\n", current_, stages_, name_.c_str(), summary.c_str(), s);
}

}  // namespace neaccel::study
