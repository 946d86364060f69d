# `neaccel area --design DIR --pnr --target ecp5-85f --seed N --cached-only --json`: another placer seed is cached
# apart (its own hash), seed 1 (the default) under the hash the calibration and the committed cache use.
# Variables: EXE, DESIGN (a design written by `neaccel rtl`).
foreach(seed 1 2)
  execute_process(COMMAND ${EXE} area --design ${DESIGN} --pnr --target ecp5-85f --seed ${seed} --cached-only --json
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "area --seed ${seed} --cached-only failed (${rc}): ${err}")
  endif()
  string(JSON hash_${seed} GET "${out}" hash)
endforeach()
execute_process(COMMAND ${EXE} area --design ${DESIGN} --pnr --target ecp5-85f --cached-only --json
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
string(JSON hash_default GET "${out}" hash)
if(hash_1 STREQUAL hash_2)
  message(FATAL_ERROR "seeds 1 and 2 share the cache key ${hash_1}")
endif()
if(NOT hash_1 STREQUAL hash_default)
  message(FATAL_ERROR "--seed 1 (${hash_1}) is not the default's key (${hash_default})")
endif()
