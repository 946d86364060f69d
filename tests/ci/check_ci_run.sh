#!/usr/bin/env bash
# Checks .ci/run's logic without running CI (which takes an hour): a copy of it runs beside a stub ./run (each pass
# advances a stub clock by the minutes it is told and exits with the code it is told), a stub `date` that reads that
# clock and a stub `timeout` that prints its limit and can "stop" a pass (exit 124, as timeout does). Every way a
# pass can fail, be stopped at its limit or not find the time to run must make .ci/run exit non-zero, and the
# measured times (release 28 min, sanitizer 21, fuzzing 6) must pass with the limits the script's comments state.
#   check_ci_run.sh CI_RUN_SCRIPT WORK_DIR
set -uo pipefail
script=$1 work=$2
rm -rf "$work"
mkdir -p "$work/.ci" "$work/bin"
cp "$script" "$work/.ci/run"
cat > "$work/run" <<'STUB'
#!/usr/bin/env bash
case " $* " in *" --sanitize "*) pass=sanitize;; *" fuzz "*) pass=fuzz;; *) pass=release;; esac
min_var=STUB_MIN_$pass rc_var=STUB_RC_$pass
echo $(( $(cat "$CLOCK") + 60 * ${!min_var:-0} )) > "$CLOCK"
exit "${!rc_var:-0}"
STUB
printf '#!/usr/bin/env bash\ncat "$CLOCK"\n' > "$work/bin/date"
cat > "$work/bin/timeout" <<'STUB'
#!/usr/bin/env bash
while [[ "$1" == -* ]]; do shift; done  # timeout's options
limit=$1; shift
case " $* " in *" --sanitize "*) pass=sanitize;; *" fuzz "*) pass=fuzz;; *) pass=release;; esac
echo "stub timeout: $pass limit $limit s"
[ "${STUB_STOP:-}" = "$pass" ] && exit 124
exec "$@"
STUB
chmod +x "$work/run" "$work/bin/date" "$work/bin/timeout" "$work/.ci/run"
failures=0
# scenario WANT_EXIT(0|nonzero) REGEX DESCRIPTION VAR=VALUE...: the output must match REGEX.
scenario() {
  local want=$1 re=$2 what=$3 out rc=0
  shift 3
  echo 1000000 > "$work/clock"
  out=$(cd "$work" && env PATH="$work/bin:$PATH" CLOCK="$work/clock" "$@" .ci/run 2>&1) || rc=$?
  if { [ "$want" = 0 ] && [ "$rc" -ne 0 ]; } || { [ "$want" != 0 ] && [ "$rc" -eq 0 ]; } || ! grep -Eq "$re" <<<"$out"; then
    echo "WRONG: $what: exit $rc (want $want), output:"
    sed 's/^/    /' <<<"$out"
    failures=$((failures + 1))
  else
    echo "ok: $what: exit $rc"
  fi
}
scenario 0 "sanitize limit 2790 s" "the measured times pass (sanitizer limit 85 - 28 - 10 = 47 min)" \
  STUB_MIN_release=28 STUB_MIN_sanitize=21 STUB_MIN_fuzz=6
scenario 0 "sanitize limit 1770 s" "the slowest release pass allowed leaves the sanitizer 30 min" \
  STUB_MIN_release=45 STUB_MIN_sanitize=21 STUB_MIN_fuzz=6
scenario 1 "FAILED: release" "release tests fail" STUB_RC_release=8
scenario 1 "FAILED: release.*stopped at its limit" "release pass stopped at its limit" STUB_STOP=release
scenario 1 "FAILED: sanitizer pass.*exit 2" "sanitizer pass cannot be built or a test fails" STUB_MIN_release=28 STUB_RC_sanitize=2
scenario 1 "FAILED: sanitizer pass.*stopped at its limit" "sanitizer pass stopped at its limit" STUB_MIN_release=28 STUB_STOP=sanitize
scenario 1 "FAILED: the sanitizer pass cannot run" "no time left for the sanitizer pass" STUB_MIN_release=52
scenario 1 "FAILED: fuzzing" "a fuzz target crashes" STUB_MIN_release=28 STUB_MIN_sanitize=21 STUB_RC_fuzz=1
scenario 1 "FAILED: fuzzing.*stopped at its limit" "fuzzing stopped at its limit" STUB_MIN_release=28 STUB_MIN_sanitize=21 STUB_STOP=fuzz
scenario 1 "FAILED: NEACCEL_CI_FUZZ_SECONDS=100" "more fuzz seconds than the reserve holds" NEACCEL_CI_FUZZ_SECONDS=100
[ "$failures" -eq 0 ] || { echo "$failures scenario(s) wrong"; exit 1; }
