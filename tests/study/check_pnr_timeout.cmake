# `neaccel study --pnr --pnr-timeout S`: a design whose place and route runs over the limit (nextpnr's router need not
# converge; here 1 s, which YoWASP's Yosys alone takes longer than) is reported as not placed, with the limit and the
# way on, and the study goes on and passes: no hang, no failed study. A design already in the committed cache is read
# as before. Variables: EXE, DIR (the output directory).
file(REMOVE_RECURSE ${DIR})
execute_process(COMMAND ${EXE} study --quick --no-platforms --robot twolink --pnr --pnr-timeout 1 --out ${DIR}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "study --pnr --pnr-timeout 1 failed (${rc}): ${err}")
endif()
file(READ ${DIR}/data/device.json dev)
string(JSON n LENGTH "${dev}" designs)
set(timed_out 0)
math(EXPR last "${n} - 1")
foreach(i RANGE ${last})
  string(JSON status GET "${dev}" designs ${i} placed status)
  if(status MATCHES "^not placed: yowasp-[a-z0-9-]+ ran over its 1 s limit in .* \\(--pnr-timeout 1: a longer limit, or `neaccel area --design .* --pnr --target ecp5-85f --seed 2` for another placement\\)$")
    math(EXPR timed_out "${timed_out} + 1")
  elseif(NOT status MATCHES "^placed and routed \\(committed result")
    message(FATAL_ERROR "design ${i}: neither over the limit nor read from the committed cache: ${status}")
  endif()
endforeach()
if(timed_out EQUAL 0)
  message(FATAL_ERROR "no design ran over the 1 s limit: ${dev}")
endif()
file(READ ${DIR}/report.md md)
if(NOT md MATCHES "not placed: yowasp-")
  message(FATAL_ERROR "the report does not say which design was not placed")
endif()
