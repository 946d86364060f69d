#include "neaccel/study/report.hpp"

#include "neaccel/ref/error.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace neaccel::study {

namespace fs = std::filesystem;
using nlohmann::json;

void DataDir::put(const std::string& name, json value) { files_[name] = std::move(value); }

const json& DataDir::at(const std::string& name) const {
  auto it = files_.find(name);
  if (it == files_.end()) throw Error("study: no data file '" + name + ".json'");
  return it->second;
}

void DataDir::flush() const {
  fs::create_directories(root_);
  for (const auto& [name, value] : files_) {
    std::ofstream out(root_ / (name + ".json"));
    out << value.dump(2) << '\n';
    if (!out) throw Error("study: cannot write " + (root_ / (name + ".json")).string());
  }
}

std::string format_value(const json& v, int precision) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_boolean()) return v.get<bool>() ? "yes" : "no";
  if (v.is_number_integer()) return std::to_string(v.get<long long>());
  if (v.is_number_unsigned()) return std::to_string(v.get<unsigned long long>());
  if (v.is_number_float()) {
    const double x = v.get<double>();
    if (precision < 0) return fmt::format("{}", x);
    // Very small or large magnitudes in scientific notation so that precision is not lost to zeros.
    if (x != 0.0 && (std::abs(x) < 1e-3 || std::abs(x) >= 1e7)) return fmt::format("{:.{}e}", x, precision);
    return fmt::format("{:.{}f}", x, precision);
  }
  if (v.is_null()) return "n/a";
  throw Error("study: cannot print a JSON " + std::string(v.type_name()) + " as a number");
}

Cell Report::num(const std::string& file, const std::string& pointer, int precision) {
  const bool measured = file.rfind("measured/", 0) == 0;
  if (measured && !measured_) throw Error("study: report has no measured data for " + file);
  if (measured && !open_measured_) throw Error("study: measured figure " + file + pointer + " outside a measured part");
  const json& root = measured ? measured_->at(file.substr(9)) : data_->at(file);
  const json::json_pointer ptr(pointer);
  if (!root.contains(ptr)) throw Error("study: " + file + ".json has no " + pointer);
  NumberRef r{measured ? file.substr(9) : file, pointer, precision, format_value(root.at(ptr), precision)};
  std::vector<NumberRef>& refs = measured ? measured_refs_ : refs_;
  refs.push_back(r);
  return Cell{r.text, static_cast<int>(refs.size()) - 1};
}

void Report::begin_measured() {
  if (open_measured_) throw Error("study: measured parts of the report do not nest");
  open_measured_ = 1;
  blocks_.push_back({Block::Marker, 1, "begin", {}, {}});
}
void Report::end_measured() {
  if (!open_measured_) throw Error("study: end of a measured part that did not begin");
  open_measured_ = 0;
  blocks_.push_back({Block::Marker, 0, "end", {}, {}});
}

std::string Report::fill(const std::string& text, const std::vector<Cell>& numbers) const {
  std::string out;
  std::size_t k = 0, pos = 0;
  for (std::size_t at; (at = text.find("{}", pos)) != std::string::npos; pos = at + 2) {
    if (k >= numbers.size()) throw Error("study: report sentence has more {} than numbers: " + text);
    out += text.substr(pos, at - pos) + numbers[k++].text;
  }
  if (k != numbers.size()) throw Error("study: report sentence has fewer {} than numbers: " + text);
  return out + text.substr(pos);
}

void Report::para(const std::string& text, const std::vector<Cell>& numbers) {
  blocks_.push_back({Block::Para, 0, fill(text, numbers), {}, {}});
}
void Report::heading(int level, const std::string& text) { blocks_.push_back({Block::Heading, level, text, {}, {}}); }
void Report::table(const std::vector<std::string>& header, const std::vector<std::vector<Cell>>& rows) {
  for (const auto& r : rows)
    if (r.size() != header.size()) throw Error("study: table row width differs from its header");
  blocks_.push_back({Block::Table, 0, "", header, rows});
}
void Report::figure(const std::string& path, const std::string& caption) {
  blocks_.push_back({Block::Figure, 0, caption, {path}, {}});
}
void Report::note(const std::string& text) { blocks_.push_back({Block::Note, 0, text, {}, {}}); }
void Report::move_to(std::size_t from, std::size_t at) {
  if (at > from || from > blocks_.size()) throw Error("study: report blocks moved out of range");
  std::rotate(blocks_.begin() + static_cast<std::ptrdiff_t>(at), blocks_.begin() + static_cast<std::ptrdiff_t>(from), blocks_.end());
}

std::string Report::markdown() const {
  std::ostringstream md;
  for (const Block& b : blocks_) {
    switch (b.kind) {
      case Block::Heading: md << std::string(static_cast<std::size_t>(b.level), '#') << ' ' << b.text << "\n\n"; break;
      case Block::Para: md << b.text << "\n\n"; break;
      case Block::Note: md << "*" << b.text << "*\n\n"; break;
      case Block::Marker: md << "<!-- measured: " << b.text << " -->\n\n"; break;
      case Block::Figure: md << "![" << b.text << "](" << b.header[0] << ")\n\n*" << b.text << "*\n\n"; break;
      case Block::Table: {
        md << '|';
        for (const auto& h : b.header) md << ' ' << h << " |";
        md << "\n|";
        for (std::size_t i = 0; i < b.header.size(); ++i) md << (i == 0 ? "---|" : "---:|");
        md << '\n';
        for (const auto& row : b.rows) {
          md << '|';
          for (const auto& c : row) md << ' ' << c.text << " |";
          md << '\n';
        }
        md << '\n';
        break;
      }
    }
  }
  return md.str();
}

namespace {
std::string escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '&': out += "&amp;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

// Inline `code` spans of the markdown text become <code> in HTML.
std::string inline_html(const std::string& s) {
  std::string out;
  bool code = false;
  for (char c : escape(s)) {
    if (c == '`') {
      out += code ? "</code>" : "<code>";
      code = !code;
    } else {
      out += c;
    }
  }
  if (code) out += "</code>";
  return out;
}

// Numbers are right-aligned in tables, text left.
bool looks_numeric(const std::string& s) {
  if (s.empty()) return false;
  char* end = nullptr;
  std::strtod(s.c_str(), &end);
  return end && *end == '\0';
}

const char* kStyle = R"(body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;color:#222;line-height:1.45}
h1{border-bottom:2px solid #345;padding-bottom:.2em}h2{margin-top:2em;border-bottom:1px solid #ccc}
table{border-collapse:collapse;margin:1em 0;font-size:.92em}th,td{border:1px solid #ccc;padding:.25em .6em}
th{background:#eef2f6;text-align:left}td{text-align:left}td.num{text-align:right}
tr:nth-child(even) td{background:#fafbfc}figure{margin:1.5em 0}figure img{max-width:100%;border:1px solid #ddd}
figcaption{font-size:.9em;color:#555}.measured{border-left:4px solid #c96;padding-left:.8em}.note{font-size:.88em;color:#555}code{background:#f3f3f3;padding:0 .2em})";
}  // namespace

std::string Report::html(const std::string& title) const {
  std::ostringstream h;
  h << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>" << escape(title)
    << "</title>\n<style>" << kStyle << "</style></head><body>\n";
  // Consecutive paragraphs that start with "- " (markdown list items) form one HTML list.
  auto item = [](const Block& b) { return b.kind == Block::Para && b.text.rfind("- ", 0) == 0; };
  for (std::size_t i = 0; i < blocks_.size(); ++i) {
    const Block& b = blocks_[i];
    if (item(b)) {
      if (i == 0 || !item(blocks_[i - 1])) h << "<ul>\n";
      h << "<li>" << inline_html(b.text.substr(2)) << "</li>\n";
      if (i + 1 == blocks_.size() || !item(blocks_[i + 1])) h << "</ul>\n";
      continue;
    }
    switch (b.kind) {
      case Block::Heading: h << "<h" << b.level << '>' << inline_html(b.text) << "</h" << b.level << ">\n"; break;
      case Block::Para: h << "<p>" << inline_html(b.text) << "</p>\n"; break;
      case Block::Note: h << "<p class=\"note\">" << inline_html(b.text) << "</p>\n"; break;
      case Block::Marker:
        if (b.level) h << "<!-- measured: begin -->\n<div class=\"measured\">\n";
        else h << "</div>\n<!-- measured: end -->\n";
        break;
      case Block::Figure:
        h << "<figure><img src=\"" << escape(b.header[0]) << "\" alt=\"" << escape(b.text) << "\"><figcaption>"
          << inline_html(b.text) << "</figcaption></figure>\n";
        break;
      case Block::Table: {
        h << "<table><thead><tr>";
        for (const auto& x : b.header) h << "<th>" << inline_html(x) << "</th>";
        h << "</tr></thead><tbody>\n";
        for (const auto& row : b.rows) {
          h << "<tr>";
          for (const auto& c : row) h << (looks_numeric(c.text) ? "<td class=\"num\">" : "<td>") << inline_html(c.text) << "</td>";
          h << "</tr>\n";
        }
        h << "</tbody></table>\n";
        break;
      }
    }
  }
  h << "</body></html>\n";
  return h.str();
}

namespace {
json manifest(const std::vector<NumberRef>& refs) {
  json out = json::array();
  for (const auto& r : refs)
    out.push_back({{"file", r.file}, {"pointer", r.pointer}, {"precision", r.precision}, {"text", r.text}});
  return out;
}
}  // namespace

json Report::numbers() const { return manifest(refs_); }
json Report::measured_numbers() const { return manifest(measured_refs_); }

namespace {
std::string read_file(const fs::path& p) {
  std::ifstream in(p);
  if (!in) throw Error("study: cannot read " + p.string());
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}
}  // namespace

std::vector<std::string> check_report(const fs::path& dir) {
  std::vector<std::string> problems;
  const std::string md = read_file(dir / "report.md");
  // The measured parts of report.md: a measured number must appear in one of them.
  std::string measured_md;
  for (std::size_t at = 0; (at = md.find("<!-- measured: begin -->", at)) != std::string::npos;) {
    const std::size_t end = md.find("<!-- measured: end -->", at);
    if (end == std::string::npos) {
      problems.push_back("report.md: a measured part does not end");
      break;
    }
    measured_md += md.substr(at, end - at) + "\n";
    at = end;
  }
  const auto check = [&](const fs::path& numbers, const fs::path& data_dir, const std::string& prefix,
                         const std::string& text_in) {
    const json manifest = json::parse(read_file(numbers));
    std::map<std::string, json> files;
    for (const auto& e : manifest) {
      const std::string file = e.at("file");
      if (!files.count(file)) files[file] = json::parse(read_file(data_dir / (file + ".json")));
      const json::json_pointer ptr(e.at("pointer").get<std::string>());
      const std::string where = prefix + file + ".json" + e.at("pointer").get<std::string>();
      if (!files[file].contains(ptr)) {
        problems.push_back(where + ": missing in the data");
        continue;
      }
      const std::string text = format_value(files[file].at(ptr), e.at("precision").get<int>());
      if (text != e.at("text").get<std::string>())
        problems.push_back(where + ": data says " + text + ", report says " + e.at("text").get<std::string>());
      if (text_in.find(e.at("text").get<std::string>()) == std::string::npos)
        problems.push_back(where + ": '" + e.at("text").get<std::string>() + "' not in report.md" +
                           (prefix.empty() ? "" : "'s measured parts"));
    }
  };
  check(dir / "numbers.json", dir / "data", "", md);
  if (fs::exists(dir / "measured" / "numbers.json"))
    check(dir / "measured" / "numbers.json", dir / "measured", "measured/", measured_md);
  return problems;
}

}  // namespace neaccel::study
