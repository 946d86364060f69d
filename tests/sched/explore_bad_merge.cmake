# `neaccel explore --merge` refuses CSVs that are not explore shards, or not of its --arch: writes a shard (a 2-point
# sweep), then a copy with a changed header, a foreign CSV and a copy with a short row; each must be exit 1 with one
# line naming the file and line.   cmake -DEXE=neaccel -DDIR=dir -P explore_bad_merge.cmake
file(REMOVE_RECURSE ${DIR})
execute_process(COMMAND ${EXE} explore --robot planar2 --mul 1-2 --add 1 --lat-mul 1 --lat-add 1 --pipelined 1
                        --no-plot --out ${DIR}/s --shard 1/1 RESULT_VARIABLE rc OUTPUT_QUIET)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "explore shard: exit ${rc}")
endif()
file(READ ${DIR}/s/explore-1-of-1.csv good)
string(REGEX REPLACE "^robot," "robots," bad_header "${good}")
file(WRITE ${DIR}/bad_header.csv "${bad_header}")
file(WRITE ${DIR}/foreign.csv "x,y\n1,2\n")
file(WRITE ${DIR}/short_row.csv "${good}planar2,custom,3\n")
set(cases "bad_header.csv:1: not an explore CSV \\(header differs\\)" "foreign.csv:1: not an explore CSV \\(header differs\\)"
          "short_row.csv:[0-9]+: 3 fields \\(need [0-9]+\\)")
foreach(re ${cases})
  string(REGEX MATCH "^[a-z_]+\\.csv" file "${re}")
  execute_process(COMMAND ${EXE} explore --merge ${DIR}/${file} --out ${DIR}/m --no-plot RESULT_VARIABLE rc
                  OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 1 OR NOT err MATCHES "^neaccel: error: [^\n]*${re}\n$")
    message(FATAL_ERROR "${file}: expected exit 1 and one line matching '${re}'; rc=${rc} stderr: ${err}")
  endif()
endforeach()
# The good shard merges (the check above can only fail for the bad files).
execute_process(COMMAND ${EXE} explore --merge ${DIR}/s/explore-1-of-1.csv --out ${DIR}/m --no-plot RESULT_VARIABLE rc
                OUTPUT_QUIET)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the good shard does not merge: exit ${rc}")
endif()
# A shard swept as microcoded has no multiplexer inputs: merged as hardwired (the default) it is one line naming the
# file and the point, with --arch microcoded it merges.
execute_process(COMMAND ${EXE} explore --robot planar2 --mul 1-2 --add 1 --lat-mul 1 --lat-add 1 --pipelined 1
                        --arch microcoded --no-plot --out ${DIR}/mc --shard 1/1 RESULT_VARIABLE rc OUTPUT_QUIET)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "microcoded explore shard: exit ${rc}")
endif()
execute_process(COMMAND ${EXE} explore --merge ${DIR}/mc/explore-1-of-1.csv --out ${DIR}/mh --no-plot RESULT_VARIABLE rc
                OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 1 OR NOT err MATCHES "^neaccel: error: [^\n]*explore-1-of-1\\.csv: point planar2[^\n]* has no multiplexer inputs \\(a shard swept with --arch microcoded\\)[^\n]*\n$")
  message(FATAL_ERROR "microcoded shard merged as hardwired: expected exit 1 and one line; rc=${rc} stderr: ${err}")
endif()
execute_process(COMMAND ${EXE} explore --merge ${DIR}/mc/explore-1-of-1.csv --arch microcoded --out ${DIR}/mm --no-plot
                RESULT_VARIABLE rc OUTPUT_QUIET)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the microcoded shard does not merge with --arch microcoded: exit ${rc}")
endif()
