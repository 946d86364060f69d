#include "neaccel/dfg/graph.hpp"

namespace neaccel::dfg {

int arity(Op op) {
  switch (op) {
    case Op::Input:
    case Op::Const: return 0;
    case Op::Neg:
    case Op::Sqrt: return 1;
    case Op::Add:
    case Op::Sub:
    case Op::Mul:
    case Op::Div:
    case Op::Cmp: return 2;
    case Op::Fma: return 3;
  }
  return 0;
}

const char* op_name(Op op) {
  switch (op) {
    case Op::Input: return "input";
    case Op::Const: return "const";
    case Op::Add: return "add";
    case Op::Sub: return "sub";
    case Op::Mul: return "mul";
    case Op::Neg: return "neg";
    case Op::Div: return "div";
    case Op::Sqrt: return "sqrt";
    case Op::Fma: return "fma";
    case Op::Cmp: return "cmp";
  }
  return "?";
}

}  // namespace neaccel::dfg
