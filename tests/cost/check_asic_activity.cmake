# The activity path end to end on a small design (planar2, hardwired 1 + 1 units, fixed:16.16; about 45 s on the
# shared 2-core machine): `neaccel area --design DIR --target sky130-hd` co-simulates it with a VCD trace, maps it
# (Yosys), and powers it (OpenSTA) at its registers' toggle rates; the result states where the activity came from
# and every flip-flop finds its register in the trace. Then `--activity 0.1` overrides it (OpenSTA only: the netlist
# is kept).
cmake_minimum_required(VERSION 3.19)
file(REMOVE_RECURSE "${DESIGN}/area-cache")
execute_process(COMMAND "${EXE}" area --design "${DESIGN}" --target sky130-hd --json
                OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "area --target sky130-hd failed (${rc}): ${err}")
endif()
string(JSON source GET "${out}" activity source)
string(JSON ff GET "${out}" activity flip_flops)
string(JSON traced GET "${out}" activity flip_flops_traced)
string(JSON cycles GET "${out}" activity cycles)
string(JSON mean GET "${out}" activity mean_flip_flop_rate)
string(JSON method GET "${out}" activity method)
string(JSON energy GET "${out}" energy_per_evaluation_nj)
message(STATUS "activity: ${source}, ${traced} of ${ff} flip-flops traced, ${cycles} cycles, mean ${mean}, ${method}; ${energy} nJ")
if(NOT source STREQUAL "co-simulation")
  message(FATAL_ERROR "activity.source is '${source}', not co-simulation")
endif()
if(NOT ff GREATER 0 OR NOT traced EQUAL ff)
  message(FATAL_ERROR "${traced} of ${ff} flip-flops found in the trace (every one should)")
endif()
if(NOT cycles GREATER 0 OR NOT mean GREATER 0 OR NOT mean LESS 1 OR NOT energy GREATER 0)
  message(FATAL_ERROR "cycles ${cycles}, mean rate ${mean}, energy ${energy}: not plausible")
endif()
execute_process(COMMAND "${EXE}" area --design "${DESIGN}" --target sky130-hd --activity 0.1
                OUTPUT_VARIABLE text ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR NOT text MATCHES "activity 0.1 per net per cycle \\(--activity")
  message(FATAL_ERROR "area --activity 0.1 (${rc}): ${text}${err}")
endif()
