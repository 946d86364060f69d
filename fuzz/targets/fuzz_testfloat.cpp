// TestFloat vector lines ("A B RESULT FLAGS", hex): units::fpvec::parse_vectors, what `neaccel fpcheck --vectors`
// reads.
#include "fuzz_common.hpp"
#include "neaccel/units/fp_vectors.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return neaccel::fuzz::run_one(
      [&] { (void)neaccel::units::fpvec::parse_vectors(neaccel::fuzz::text_of(data, size), "fuzz.tv"); });
}
