// Schedule JSON (format neaccel-schedule, sched/io.hpp): the text is parsed as sched::load_graph does (a JSON
// error becomes neaccel::Error there) and then read by sched::from_json, which checks graph, problem and schedule.
#include "fuzz_common.hpp"
#include "neaccel/sched/io.hpp"

#include <nlohmann/json.hpp>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return neaccel::fuzz::run_one([&] {
    nlohmann::json j = nlohmann::json::parse(neaccel::fuzz::text_of(data, size), nullptr, false);
    if (j.is_discarded()) return;  // load_graph turns this into "not valid JSON"
    (void)neaccel::sched::from_json(j, "fuzz-schedule.json");
  });
}
