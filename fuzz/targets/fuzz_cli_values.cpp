// Comma-separated CLI value lists: cli::parse_vector (--q, --qd, --qdd, --tau of `neaccel dynamics` / `simulate`)
// and cli::parse_ints (`explore --mul 1-4,8`, --add, --lat-mul, --lat-add, --pipelined, --n).
// The first byte picks the parser and its parameter (count n or lower bound), the rest is the option's text.
#include "fuzz_common.hpp"
#include "dyn_args.hpp"
#include "value_lists.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const int n = data[0] % 16;
  const auto text = neaccel::fuzz::text_of(data + 1, size - 1);
  return neaccel::fuzz::run_one([&] {
    if (data[0] & 0x80) {
      (void)neaccel::cli::parse_ints(text, "--mul", n % 2);
    } else {
      const auto v = neaccel::cli::parse_vector(text, n, "--q");
      (void)neaccel::cli::vector_text(v);
    }
  });
}
