# neaccel control --lin-format: the gain updates' linearisation from the dtau and mass graphs.
#   default (double): no linearisation_effect in the summary (the reference path is unchanged);
#   fp32: planar2 nominal tracks like the double linearisation: the gains differ by ~1e-7 relative, acting on
#         joint errors of ~1e-4 rad, so the trajectories may differ by far less than 1e-6 rad (measured 8e-11).
#   fixed:12.12 on puma560: M's small wrist entries round away, M is not positive definite: a one-line error.
# Usage: cmake -DEXE=neaccel -DDIR=out -P check_control_lin.cmake
execute_process(COMMAND ${EXE} control --robot planar2 --json --out ${DIR}/double RESULT_VARIABLE rc OUTPUT_VARIABLE out)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "control (double) failed: ${rc}")
endif()
string(JSON lf GET "${out}" lin_format)
string(JSON has ERROR_VARIABLE missing GET "${out}" linearisation_effect)
if(NOT lf STREQUAL "double" OR NOT missing)
  message(FATAL_ERROR "default run: lin_format '${lf}', linearisation_effect present")
endif()
execute_process(COMMAND ${EXE} control --robot planar2 --lin-format fp32 --json --out ${DIR}/fp32
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "control --lin-format fp32 failed (${rc}): ${err}")
endif()
string(JSON dq GET "${out}" linearisation_effect max_q_diff_rad)
string(JSON e GET "${out}" linearisation_effect max_joint_error_rad)
string(JSON eref GET "${out}" linearisation_effect reference_max_joint_error_rad)
if(dq GREATER 1e-6)
  message(FATAL_ERROR "fp32 linearisation: max |q diff| ${dq} rad > 1e-6")
endif()
message(STATUS "fp32: max joint error ${e} rad (double linearisation ${eref}), max |q diff| ${dq} rad")
execute_process(COMMAND ${EXE} control --robot puma560 --lin-format fixed:12.12 --out ${DIR}/fixed
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 1 OR NOT err MATCHES "^neaccel: error: linearisation in fixed:12.12 \\(--lin-format\\): the inertia matrix")
  message(FATAL_ERROR "fixed:12.12 on puma560: expected a one-line error, got rc ${rc}: ${err}")
endif()
execute_process(COMMAND ${EXE} control --lin-format bogus --out ${DIR}/bogus RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 2 OR NOT err MATCHES "^neaccel: error: --lin-format: unknown format 'bogus'")
  message(FATAL_ERROR "bad --lin-format: rc ${rc}: ${err}")
endif()
