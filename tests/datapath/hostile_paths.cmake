# `neaccel rtl` and `neaccel sim --engine cosim --vcd` on a design directory whose path holds spaces, quotes and
# "$(touch ...)": every tool is started with an argument vector (no shell), so nothing in a path is run as a command,
# and the Verilator harness builds (in a private temporary directory: GNU make cannot build in a directory with a
# space) and runs; the co-simulation passes and the VCD trace lands under its literal name.
#   cmake -DEXE=neaccel -DWORK=dir -P hostile_paths.cmake
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
set(dir "${WORK}/a dir/it's \"quoted\"/x$(touch PWNED)")
set(vcd "${dir}/t$(touch VCD_PWNED).vcd")
execute_process(COMMAND ${EXE} rtl --robot planar2 --flavour custom --mul 1 --add 2 --lat-mul 2 --lat-add 1 --out ${dir}
                WORKING_DIRECTORY ${WORK} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT EXISTS "${dir}/manifest.json")
  message(FATAL_ERROR "rtl: rc=${rc}\nstdout: ${out}\nstderr: ${err}")
endif()
execute_process(COMMAND ${EXE} sim --out ${dir} --engine cosim --random 3 --vcd ${vcd} --quiet --json
                WORKING_DIRECTORY ${WORK} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT out MATCHES "\"cosim_cycle_mismatches\": 0," OR NOT out MATCHES "\"mismatches\": 0,"
   OR NOT out MATCHES "\"cosim_kind\": \"cycle logs\"")
  message(FATAL_ERROR "sim: rc=${rc}\nstdout: ${out}\nstderr: ${err}")
endif()
if(NOT EXISTS "${vcd}")
  message(FATAL_ERROR "the VCD trace '${vcd}' was not written")
endif()
# `touch` would have made a file named PWNED or VCD_PWNED in the working directory of whatever ran it.
file(GLOB_RECURSE ran "${WORK}/*PWNED")
if(ran)
  message(FATAL_ERROR "a command embedded in a path was run: ${ran}")
endif()
