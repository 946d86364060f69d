# `neaccel sim` refuses hex images that are not the manifest's design: copies a design written by `neaccel rtl`
# (SRC), changes the last line of hex/FILE (meta.hex: the back-pressure credits; ucode.hex: a microcode word) and
# expects a one-line error naming the file and a non-zero exit.
#   cmake -DEXE=neaccel -DSRC=dir -DDST=dir -DFILE=meta.hex [-DSUBDIR=rtl] -P tampered_hex.cmake
# SUBDIR (default hex): rtl with FILE=nea_top.v for a hardwired design (its generated Verilog is checked instead).
if(NOT SUBDIR)
  set(SUBDIR hex)
endif()
file(REMOVE_RECURSE ${DST})
file(COPY ${SRC}/ DESTINATION ${DST})
if(SUBDIR STREQUAL "hex")
  file(STRINGS ${DST}/${SUBDIR}/${FILE} lines)
  list(POP_BACK lines last)
  string(REGEX REPLACE "[0-9a-f]$" "" stem "${last}")
  string(REGEX MATCH "[0-9a-f]$" digit "${last}")
  if(digit STREQUAL "0")
    set(digit 1)
  else()
    set(digit 0)
  endif()
  list(APPEND lines "${stem}${digit}")
  list(JOIN lines "\n" text)
  file(WRITE ${DST}/${SUBDIR}/${FILE} "${text}\n")
else()  # generated Verilog: one more line
  file(APPEND ${DST}/${SUBDIR}/${FILE} "// changed by hand\n")
endif()
execute_process(COMMAND ${EXE} sim --out ${DST} --random 2 RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(rc EQUAL 0 OR NOT err MATCHES "^neaccel: error: [^\n]*${SUBDIR}/${FILE}: does not match the manifest's design[^\n]*\n$")
  message(FATAL_ERROR "expected a one-line error about ${SUBDIR}/${FILE}; rc=${rc} stderr: ${err}")
endif()
