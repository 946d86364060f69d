# neaccel simulate --accelerator: a passive puma560 for 5 s with the fd graph in double and in fp32.
#   double: the graph in double must reproduce ref's simulation (max |q - q_double| <= 1e-6 rad: the graph equals
#           ref's forward dynamics to 1e-10 relative; 5 s of a chaotic passive arm amplify that to ~1e-9 rad).
#   fp32:   the energy drift stays within 1e-4 J (E0 = 19.6 J with gravity from this q0; the double RK4 drifts ~1e-7 J and
#           binary32 forward dynamics, 4e-6 relative error per evaluation (docs/functions.md), has measured 2e-6 J:
#           the bound leaves a factor 40 and would catch an evaluation error of ~1e-4 relative).
# Usage: cmake -DEXE=neaccel -DDIR=out -P check_sim_accel.cmake
foreach(fmt double fp32)
  execute_process(COMMAND ${EXE} simulate --robot puma560 --zero-torque --t 5 --q0 0,0.5,1,0,1,0
                          --accelerator ${fmt} --json --out ${DIR}/${fmt}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "simulate --accelerator ${fmt} failed (${rc}): ${err}")
  endif()
  if(NOT EXISTS ${DIR}/${fmt}/drift.csv OR NOT EXISTS ${DIR}/${fmt}/summary.json)
    message(FATAL_ERROR "${fmt}: drift.csv or summary.json missing")
  endif()
  string(JSON finite GET "${out}" finite)
  string(JSON dq GET "${out}" max_abs_dq_rad)
  string(JSON drift GET "${out}" max_drift_accel_J)
  string(JSON drift_ref GET "${out}" max_drift_double_J)
  if(NOT finite)
    message(FATAL_ERROR "${fmt}: non-finite state")
  endif()
  if(fmt STREQUAL "double")
    if(dq GREATER 1e-6)
      message(FATAL_ERROR "double graph: max |q - q_double| = ${dq} > 1e-6")
    endif()
  else()
    if(drift GREATER 1e-4)
      message(FATAL_ERROR "fp32: energy drift ${drift} J > 1e-4 J (double ${drift_ref} J)")
    endif()
  endif()
  message(STATUS "${fmt}: drift ${drift} J (double ${drift_ref} J), max |dq| ${dq} rad")
endforeach()
