# External tools run with an argument vector and no shell (ref/include/neaccel/ref/process.hpp), and text that goes
# into a gnuplot script is quoted for gnuplot: an output directory or a robot name with quotes, spaces, ';', '$(...)'
# or backquotes is data, never a command. Each case runs one command in a fresh DIR (its working directory, where a
# `touch X` that got through a shell or gnuplot would land) and checks that
#   - it exits 0 and wrote its files into the directory named exactly as given;
#   - where gnuplot is installed, the plot was drawn there (gnuplot ran in that directory);
#   - no file X, PWNED or GP exists anywhere under DIR.
# Before the shell was removed, CASE control_quote created DIR/X and CASE title created DIR/GP.
# Usage: cmake -DEXE=neaccel -DDIR=workdir -DROBOT=data/robots/planar2.yaml [-DCAMPAIGN=tests/campaign/small.yaml]
#              -DCASE=<case> -P check_no_shell.cmake
#   control_quote   neaccel control --out "DIR/c';touch X;'"
#   control_dollar  neaccel control --out "DIR/a b $(touch PWNED) `touch PWNED`"
#   title           neaccel control --robot FILE, the robot named  q'uote "dq" `touch GP` @x  (plot titles)
#   simulate        neaccel simulate --accelerator double --out "DIR/s';touch X;' $(touch PWNED)", the same robot
#   explore         neaccel explore (small sweep, plot on) --out "DIR/e';touch X;' $(touch PWNED)"
#   counts          neaccel counts --nmax 2 --out "DIR/f';touch X;' $(touch PWNED)"
#   campaign        neaccel campaign CAMPAIGN --local --jobs 2 --out "DIR/k';touch X;' $(touch PWNED)" (the task
#                   lines, shell-quoted in stages/*.tasks, are read back into arguments; no plot)
file(REMOVE_RECURSE "${DIR}")
file(MAKE_DIRECTORY "${DIR}")
find_program(GNUPLOT gnuplot)

set(q "'")
set(tick "`")

# A robot whose name holds a quote, a double quote, a backquoted command and an @macro (planar2 otherwise; the name
# in YAML single quotes, where '' is one quote).
file(READ "${ROBOT}" yaml)
string(REGEX REPLACE "\nname: [^\n]*" "\nname: 'q''uote \"dq\" ${tick}touch GP${tick} @x'" yaml "${yaml}")
file(WRITE "${DIR}/odd.yaml" "${yaml}")

if(CASE STREQUAL "control_quote")
  set(out "${DIR}/c${q};touch X;${q}")
  set(cmd control --robot planar2 --scenario nominal --feedback off)
  set(files control.csv summary.json)
  set(plot path.svg)
elseif(CASE STREQUAL "control_dollar")
  set(out "${DIR}/a b $(touch PWNED) ${tick}touch PWNED${tick}")
  set(cmd control --robot planar2 --scenario nominal --feedback off)
  set(files control.csv summary.json)
  set(plot path.svg)
elseif(CASE STREQUAL "title")
  set(out "${DIR}/title")
  set(cmd control --robot "${DIR}/odd.yaml" --scenario nominal --feedback off)
  set(files control.csv summary.json plots.gp)
  set(plot path.svg)
elseif(CASE STREQUAL "simulate")
  set(out "${DIR}/s${q};touch X;${q} $(touch PWNED)")
  set(cmd simulate --robot "${DIR}/odd.yaml" --zero-torque --t 0.2 --q0 0.3,0.2 --accelerator double --json)
  set(files drift.csv summary.json drift.gp)
  set(plot drift.svg)
elseif(CASE STREQUAL "explore")
  set(out "${DIR}/e${q};touch X;${q} $(touch PWNED)")
  set(cmd explore --robot planar2 --flavour custom --mul 1 --add 1-2 --lat-mul 3 --lat-add 2 --pipelined 1
          --jobs 1)
  set(files explore.csv explore.gp)
  set(plot explore.svg)
elseif(CASE STREQUAL "counts")
  set(out "${DIR}/f${q};touch X;${q} $(touch PWNED)")
  set(cmd counts --nmax 2)
  set(files formulation-counts.json formulation-counts.gp)
  set(plot formulation-counts.svg)
elseif(CASE STREQUAL "campaign")
  set(out "${DIR}/k${q};touch X;${q} $(touch PWNED)")
  set(cmd campaign "${CAMPAIGN}" --local --jobs 2)
  set(files stages/design.tasks report/.done report/report.json)
  set(plot "")
else()
  message(FATAL_ERROR "unknown CASE '${CASE}'")
endif()

# --out last and quoted: the path holds a ';', which a CMake list would split.
execute_process(COMMAND "${EXE}" ${cmd} --out "${out}" WORKING_DIRECTORY "${DIR}" RESULT_VARIABLE rc
                OUTPUT_VARIABLE stdout ERROR_VARIABLE stderr)
if(NOT rc STREQUAL "0")
  message(FATAL_ERROR "${CASE}: exit ${rc}, expected 0\nstdout: ${stdout}\nstderr: ${stderr}")
endif()
foreach(f ${files})
  if(NOT EXISTS "${out}/${f}")
    message(FATAL_ERROR "${CASE}: no ${f} in the directory named by --out (${out})\nstdout: ${stdout}")
  endif()
endforeach()
if(GNUPLOT AND plot AND NOT EXISTS "${out}/${plot}")
  message(FATAL_ERROR "${CASE}: gnuplot is installed but drew no ${plot} in ${out}\nstdout: ${stdout}\nstderr: ${stderr}")
endif()
foreach(bad X PWNED GP)
  file(GLOB_RECURSE hits "${DIR}/${bad}")
  if(hits)
    message(FATAL_ERROR "${CASE}: a command in a path or a title ran: ${hits}")
  endif()
endforeach()
message(STATUS "${CASE}: ok (${out})")
