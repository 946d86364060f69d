# Sparse files over the input-file cap: each reader must refuse them with exit code 1 and exactly one stderr line
# "neaccel: error: FILE: N bytes, over the limit of 64 MiB on input files". Arguments (-D): EXE, WORK, EDGE (set:
# 64 MiB + 1 byte, and a file of exactly 64 MiB that must not get the cap message).
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK}/design)
if(EDGE)
  math(EXPR size "64 * 1024 * 1024 + 1")
else()
  set(size 1073741824)
endif()
function(sparse path bytes)
  execute_process(COMMAND truncate -s ${bytes} ${path} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "truncate -s ${bytes} ${path} failed")
  endif()
endfunction()

# file | the command that reads it
set(cases
  "robot.yaml|robot|show|${WORK}/robot.yaml"
  "robot.urdf|robot|show|${WORK}/robot.urdf"
  "graph.json|dfg|--graph|${WORK}/graph.json"
  "graph.dot|dfg|--graph|${WORK}/graph.dot"
  "schedule.json|schedule|--graph|${WORK}/schedule.json"
  "campaign.yaml|campaign|${WORK}/campaign.yaml|--out|${WORK}/camp|--local"
  "design/manifest.json|sim|--out|${WORK}/design|--random|1"
  "torques.csv|simulate|--robot|planar2|--tau-file|${WORK}/torques.csv"
  "shard.csv|explore|--merge|${WORK}/shard.csv|--out|${WORK}/merged")
foreach(c ${cases})
  string(REPLACE "|" ";" args "${c}")
  list(POP_FRONT args name)
  sparse(${WORK}/${name} ${size})
  execute_process(COMMAND ${EXE} ${args} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  set(want "^neaccel: error: ${WORK}/${name}: ${size} bytes, over the limit of 64 MiB on input files\n$")
  if(NOT rc EQUAL 1 OR NOT err MATCHES "${want}")
    message(FATAL_ERROR "${name}: exit code ${rc}, stderr:\n${err}\nexpected exit code 1 and '${want}'")
  endif()
  message(STATUS "${name}: refused (${size} bytes)")
endforeach()

if(EDGE)  # exactly the cap: read (all zero bytes, so a parse error or other complaint), not refused for its size
  sparse(${WORK}/cap.json 67108864)
  execute_process(COMMAND ${EXE} dfg --graph ${WORK}/cap.json RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(rc EQUAL 0 OR err MATCHES "over the limit")
    message(FATAL_ERROR "a file of exactly 64 MiB: exit code ${rc}, stderr:\n${err}")
  endif()
endif()
