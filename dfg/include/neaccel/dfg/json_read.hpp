// Hardened reading of JSON (docs/limits.md): the nesting depth without recursion and integer fields
// read only from in-range JSON integers. Shared by the graph reader (dfg/io) and the schedule reader (sched/io).
#pragma once

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <utility>
#include <vector>

namespace neaccel::dfg::json_read {

// The nesting depth of a JSON value, without recursion (a hostile file nested 10^5 deep must not overflow the
// stack in a recursive copy or walk; docs/limits.md).
inline std::size_t json_depth(const nlohmann::json& root) {
  std::size_t deepest = 0;
  std::vector<std::pair<const nlohmann::json*, std::size_t>> todo{{&root, 1}};
  while (!todo.empty()) {
    const auto [j, d] = todo.back();
    todo.pop_back();
    deepest = std::max(deepest, d);
    if (j->is_structured())
      for (const auto& e : *j) todo.emplace_back(&e, d + 1);
  }
  return deepest;
}
inline constexpr std::size_t kMaxJsonDepth = 64;

// Integers are read only from JSON integers within T's range (a float or an out-of-range value would be a silent
// truncation or undefined behaviour in nlohmann's get<T>); vectors element by element.
template <class T>
struct is_int_vector : std::false_type {};
template <class U>
struct is_int_vector<std::vector<U>> : std::bool_constant<std::is_integral_v<U> && !std::is_same_v<U, bool>> {};

template <class T>
bool checked_get(const nlohmann::json& v, T& out) {
  if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
    if (v.is_number_unsigned()) {
      const auto u = v.get<std::uint64_t>();
      if (u > static_cast<std::uint64_t>(std::numeric_limits<T>::max())) return false;
      out = static_cast<T>(u);
      return true;
    }
    if (!v.is_number_integer()) return false;
    const auto s = v.get<std::int64_t>();
    if (s < static_cast<std::int64_t>(std::numeric_limits<T>::min()) ||
        (s > 0 && static_cast<std::uint64_t>(s) > static_cast<std::uint64_t>(std::numeric_limits<T>::max())))
      return false;
    out = static_cast<T>(s);
    return true;
  } else if constexpr (is_int_vector<T>::value) {
    if (!v.is_array()) return false;
    out.clear();
    for (const auto& e : v) {
      typename T::value_type x{};
      if (!checked_get(e, x)) return false;
      out.push_back(x);
    }
    return true;
  } else {
    try {
      out = v.get<T>();
      return true;
    } catch (const nlohmann::json::exception&) {
      return false;
    }
  }
}

}  // namespace neaccel::dfg::json_read
