# Runs the neaccel CLI and checks its exit code, a regular expression on stdout or stderr, and (for errors) that
# stderr is exactly one line. Arguments (-D): EXE, ARGS ('|'-separated), RC (expected exit code),
# STDOUT_RE and/or STDERR_RE (optional regexes).
string(REPLACE "|" ";" args "${ARGS}")
execute_process(COMMAND ${EXE} ${args} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
include(${CMAKE_CURRENT_LIST_DIR}/check_output.cmake)
