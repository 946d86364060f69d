// A report whose every number is traceable to a JSON file beside it.
//
// The study writes its results as JSON files under <out>/data/ (DataDir). The report never formats a number
// it computed itself: a table cell or a sentence takes its numbers from DataDir by (file, JSON pointer), and the
// report records each one in numbers.json (file, pointer, precision, text as printed). check_report() re-reads
// the data files and verifies every recorded number, so the report cannot claim what the data does not hold.
#pragma once

#include <nlohmann/json.hpp>

#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace neaccel::study {

// The JSON files of one study, kept in memory until flush() writes them (pretty-printed, sorted keys).
class DataDir {
 public:
  explicit DataDir(std::filesystem::path root) : root_(std::move(root)) {}
  // Stores `value` as <root>/<name>.json (name without extension, e.g. "counts").
  void put(const std::string& name, nlohmann::json value);
  const nlohmann::json& at(const std::string& name) const;
  bool has(const std::string& name) const { return files_.count(name) != 0; }
  void flush() const;
  const std::filesystem::path& root() const { return root_; }

 private:
  std::filesystem::path root_;
  std::map<std::string, nlohmann::json> files_;
};

// One recorded number: where it comes from and how it was printed.
struct NumberRef {
  std::string file;     // data file name (without .json)
  std::string pointer;  // JSON pointer into it, e.g. "/designs/0/cycles"
  int precision = -1;   // digits after the point; -1 = integer / as stored
  std::string text;     // as printed in the report
};

// Formats a JSON number (or string) the way the report prints it.
std::string format_value(const nlohmann::json& v, int precision);

// A table cell: plain text (labels) or a number taken from the data.
struct Cell {
  std::string text;
  int ref = -1;  // index into Report's numbers, or -1 for a label
};

// Measured figures (times, rates) vary between runs, unlike everything else: they come from a second DataDir
// (<out>/measured/), are recorded in measured/numbers.json instead of numbers.json, and sit between
// begin_measured() and end_measured(), which the report marks with "<!-- measured: begin -->" and
// "<!-- measured: end -->" so that a comparison of two runs can leave exactly those parts out (docs/study.md).
class Report {
 public:
  explicit Report(const DataDir& data, const DataDir* measured = nullptr) : data_(&data), measured_(measured) {}

  // A number from the data, recorded; returns a cell showing it. A file named "measured/NAME" is NAME in the
  // measured DataDir (recorded in measured_numbers()), and only allowed inside a measured part.
  Cell num(const std::string& file, const std::string& pointer, int precision = -1);
  void begin_measured();
  void end_measured();
  static Cell label(std::string text) { return Cell{std::move(text), -1}; }
  // A sentence with "{}" placeholders filled by numbers from the data, in order.
  void para(const std::string& text, const std::vector<Cell>& numbers = {});
  void heading(int level, const std::string& text);
  void table(const std::vector<std::string>& header, const std::vector<std::vector<Cell>>& rows);
  // An image (SVG) relative to the report's directory, with a caption.
  void figure(const std::string& path, const std::string& caption);
  void note(const std::string& text);  // a small-print remark
  // Blocks so far; move_to(from, at) moves the blocks added since position() was `from` to position `at` (<= from):
  // a summary written once its data exists, shown before the sections it summarises.
  std::size_t position() const { return blocks_.size(); }
  void move_to(std::size_t from, std::size_t at);

  std::string markdown() const;
  std::string html(const std::string& title) const;
  nlohmann::json numbers() const;           // the manifest written as numbers.json
  nlohmann::json measured_numbers() const;  // the same for measured figures: measured/numbers.json
  const std::vector<NumberRef>& refs() const { return refs_; }

 private:
  struct Block {
    enum Kind { Heading, Para, Table, Figure, Note, Marker } kind;
    int level = 0;
    std::string text;
    std::vector<std::string> header;
    std::vector<std::vector<Cell>> rows;
  };
  std::string fill(const std::string& text, const std::vector<Cell>& numbers) const;
  const DataDir* data_;
  const DataDir* measured_;
  std::vector<Block> blocks_;
  std::vector<NumberRef> refs_, measured_refs_;
  int open_measured_ = 0;
};

// Verifies a written report directory: every entry of numbers.json equals the value at its pointer in its data
// file (formatted the same way) and appears in report.md; so does every entry of measured/numbers.json (when
// there is one), with its file under measured/, in report.md's measured parts. Returns the problems found (empty =
// consistent).
std::vector<std::string> check_report(const std::filesystem::path& dir);

}  // namespace neaccel::study
