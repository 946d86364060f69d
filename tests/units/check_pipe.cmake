# Runs `GEN | CHECK` through a pipe without a shell (execute_process with two COMMANDs), or CHECK alone with its
# standard input read from INPUT, and checks CHECK's exit code, a regular expression on its stdout and, for errors,
# that its stderr is one line matching STDERR_RE. GEN must exit 0 (it may not fail unnoticed).
# Arguments (-D): GEN and CHECK (argument vectors, '|'-separated; GEN optional), INPUT (a file, optional), RC (CHECK's
# expected exit code), STDOUT_RE and STDERR_RE (optional).
string(REPLACE "|" ";" check "${CHECK}")
if(DEFINED GEN)
  string(REPLACE "|" ";" gen "${GEN}")
  execute_process(COMMAND ${gen} COMMAND ${check} RESULTS_VARIABLE rcs OUTPUT_VARIABLE out ERROR_VARIABLE err)
  list(GET rcs 0 gen_rc)
  list(GET rcs 1 rc)
  if(NOT gen_rc STREQUAL "0")
    message(FATAL_ERROR "generator exit code ${gen_rc}, expected 0\nstderr: ${err}")
  endif()
else()
  execute_process(COMMAND ${check} INPUT_FILE ${INPUT} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
endif()
set(STDERR_EMPTY TRUE)
include(${CMAKE_CURRENT_LIST_DIR}/../check_output.cmake)
