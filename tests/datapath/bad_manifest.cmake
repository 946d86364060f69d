# `neaccel sim` on a design directory whose manifest.json is damaged: copies a design written by `neaccel rtl` (SRC),
# replaces the text FROM in manifest.json by TO (FROM empty: the whole file becomes TO) and expects exit 1 with one
# line naming manifest.json.
#   cmake -DEXE=neaccel -DSRC=dir -DDST=dir -DFROM=text -DTO=text -P bad_manifest.cmake
file(REMOVE_RECURSE ${DST})
file(COPY ${SRC}/ DESTINATION ${DST})
if(FROM STREQUAL "")
  file(WRITE ${DST}/manifest.json "${TO}")
else()
  file(READ ${DST}/manifest.json text)
  string(FIND "${text}" "${FROM}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "manifest.json has no '${FROM}' to replace")
  endif()
  string(REPLACE "${FROM}" "${TO}" text "${text}")
  file(WRITE ${DST}/manifest.json "${text}")
endif()
execute_process(COMMAND ${EXE} sim --out ${DST} --random 2 RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 1 OR NOT err MATCHES "^neaccel: error: [^\n]*manifest.json: [^\n]+\n$")
  message(FATAL_ERROR "expected exit 1 and one line naming manifest.json; rc=${rc} stderr: ${err}")
endif()
