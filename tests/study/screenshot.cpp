// study_screenshot REPORT_DIR OUT_DIR: renders a study's report.html with headless Chromium (Debian's `chromium`,
// --headless --no-sandbox --disable-gpu --screenshot) into OUT_DIR/report.png, and each plot of the report
// (plots/*.svg) on its own into OUT_DIR/<plot>.png, then checks the images:
//   report.png  not blank, and the plots drawn in it: the report's text and tables are grey, so its coloured
//               pixels are the plots' data series;
//   <plot>.png  each plot has coloured data series (many distinct colours, enough coloured pixels).
// Exit status: 0 all checks pass, 1 a check failed, 2 usage or I/O error, 77 Chromium is not installed (CTest
// SKIP_RETURN_CODE: the test is optional, Chromium is not one of ./run's packages). NEACCEL_CHROMIUM overrides the
// browser command.
#include "neaccel/ref/process.hpp"

#include <png.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

struct Image {
  unsigned width = 0, height = 0;
  std::vector<unsigned char> rgb;  // row-major, 3 bytes per pixel
};

bool read_png(const fs::path& path, Image& img) {
  png_image p{};
  p.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_file(&p, path.c_str())) return false;
  p.format = PNG_FORMAT_RGB;
  img.width = p.width;
  img.height = p.height;
  img.rgb.resize(PNG_IMAGE_SIZE(p));
  const bool ok = png_image_finish_read(&p, nullptr, img.rgb.data(), 0, nullptr) != 0;
  png_image_free(&p);
  return ok;
}

// What an image shows: distinct colours, pixels that are not the white background, and coloured (saturated)
// pixels with their distinct colours. Grey text, black axes and the report's blue-grey rules are not coloured.
struct Census {
  std::size_t colours = 0, ink = 0, coloured = 0, coloured_colours = 0, last_ink_row = 0;
};

Census census(const Image& img) {
  std::set<unsigned> all, sat;
  Census c;
  for (unsigned y = 0; y < img.height; ++y)
    for (unsigned x = 0; x < img.width; ++x) {
      const unsigned char* px = &img.rgb[3 * (static_cast<std::size_t>(y) * img.width + x)];
      const unsigned key = static_cast<unsigned>(px[0]) << 16 | static_cast<unsigned>(px[1]) << 8 | px[2];
      all.insert(key);
      if (key != 0xffffffu) {
        ++c.ink;
        c.last_ink_row = y;
      }
      const int hi = std::max({px[0], px[1], px[2]}), lo = std::min({px[0], px[1], px[2]});
      if (hi - lo >= 60) {
        ++c.coloured;
        sat.insert(key);
      }
    }
  c.colours = all.size();
  c.coloured_colours = sat.size();
  return c;
}

std::string browser() {
  if (const char* env = std::getenv("NEACCEL_CHROMIUM")) return env;
  for (const char* name : {"chromium", "chromium-browser", "google-chrome"})
    if (neaccel::proc::find_program(name)) return name;
  return "";
}

// One headless screenshot, killed after 180 s; Chromium's chatter appended to `log`.
bool screenshot(const std::string& chromium, const fs::path& page, const fs::path& png, int w, int h, const fs::path& log) {
  fs::remove(png);
  neaccel::proc::Spawn run;
  run.argv = {chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--force-device-scale-factor=1",
              "--window-size=" + std::to_string(w) + "," + std::to_string(h), "--screenshot=" + png.string(),
              "file://" + page.string()};
  run.stdout_path = run.stderr_path = log;
  run.append = true;
  run.timeout_s = 180;
  return neaccel::proc::run(run).ok() && fs::exists(png);
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

int failures = 0;
void check(bool ok, const std::string& what) {
  std::cout << (ok ? "ok    " : "FAIL  ") << what << '\n';
  if (!ok) ++failures;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: study_screenshot REPORT_DIR OUT_DIR\n";
    return 2;
  }
  const fs::path dir = fs::absolute(argv[1]), out = fs::absolute(argv[2]);
  const std::string chromium = browser();
  if (chromium.empty()) {
    std::cout << "SKIP: no chromium (apt-get install chromium; optional, not in ./run's packages)\n";
    return 77;
  }
  const std::string html = slurp(dir / "report.html");
  if (html.empty()) {
    std::cerr << "study_screenshot: cannot read " << (dir / "report.html") << " (run `neaccel study` first)\n";
    return 2;
  }
  fs::create_directories(out);
  const fs::path log = out / "chromium.log";
  fs::remove(log);

  // The plots the report shows, in order.
  std::vector<std::string> plots;
  const std::regex img(R"(<img src="(plots/[^"]+\.svg)\")");
  for (std::sregex_iterator it(html.begin(), html.end(), img), end; it != end; ++it) plots.push_back((*it)[1]);
  check(!plots.empty(), "report.html shows plots (" + std::to_string(plots.size()) + ")");

  // The whole report, 1200 pixels wide; tall enough for the page (checked: the last rows must be background).
  const int page_h = 16000;
  Image page;
  if (!screenshot(chromium, dir / "report.html", out / "report.png", 1200, page_h, log) || !read_png(out / "report.png", page)) {
    std::cerr << "study_screenshot: chromium wrote no readable " << (out / "report.png") << " (see " << log << ")\n";
    return 2;
  }
  const Census pc = census(page);
  std::cout << "report.png: " << page.width << "x" << page.height << ", " << pc.colours << " colours, "
            << pc.coloured << " coloured pixels in " << pc.coloured_colours << " colours, page ends at row "
            << pc.last_ink_row << '\n';
  check(pc.ink > page.rgb.size() / 3 / 100, "report.png is not blank (over 1% of pixels drawn)");
  check(pc.last_ink_row + 50 < page.height, "report.png holds the whole page");
  check(pc.coloured >= 1000 * plots.size(), "report.png: the plots' data series are drawn (1000 coloured pixels per plot)");
  check(pc.coloured_colours >= 50, "report.png: the plots show many distinct colours (>= 50 coloured)");

  // Each plot on its own, at the size gnuplot wrote it for (viewBox).
  for (const auto& rel : plots) {
    const fs::path svg = dir / rel;
    int w = 900, h = 520;
    std::smatch m;
    const std::string text = slurp(svg);
    if (std::regex_search(text, m, std::regex(R"(viewBox="0 0 (\d+) (\d+)\")"))) {
      w = std::stoi(m[1]);
      h = std::stoi(m[2]);
    }
    const fs::path png = out / (svg.stem().string() + ".png");
    Image im;
    if (!screenshot(chromium, svg, png, w, h, log) || !read_png(png, im)) {
      check(false, rel + ": chromium rendered it");
      continue;
    }
    const Census c = census(im);
    std::cout << png.filename().string() << ": " << c.colours << " colours, " << c.coloured << " coloured pixels in "
              << c.coloured_colours << " colours\n";
    check(c.colours >= 64, rel + ": many distinct colours (>= 64)");
    check(c.coloured >= 1000, rel + ": data series drawn (>= 1000 coloured pixels)");
    check(c.coloured_colours >= 16, rel + ": several series colours (>= 16 coloured colours)");
  }
  std::cout << (failures ? "FAILED: " + std::to_string(failures) + " check(s)\n" : "all checks passed; images in " + out.string() + "\n");
  return failures ? 1 : 0;
}
