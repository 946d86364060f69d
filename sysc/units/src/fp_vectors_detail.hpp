// Internal to sysc/units/src: the operand generators shared by fp_vectors.cpp (add, sub, mul) and
// fma_vectors.cpp (fma, div).
#pragma once

#include "neaccel/units/fp_vectors.hpp"

namespace neaccel::units::fpvec::detail {

uint32_t any_operand(std::mt19937_64& rng);  // specials, subnormals, uniform bits, normals
Pair random_mul(std::mt19937_64& rng);
Pair random_fma(std::mt19937_64& rng);
Pair random_div(std::mt19937_64& rng);
void fma_sweeps(std::vector<Pair>& out);
void div_sweeps(std::vector<Pair>& out);

}  // namespace neaccel::units::fpvec::detail
