#!/usr/bin/env bash
# CTest `campaign.resume`: a --local campaign killed midway (SIGKILL to its whole process group, tasks included)
# resumes on rerun: finished tasks are skipped (their files untouched), the killed ones redone, and the report is
# the same bytes as an uninterrupted run's. Then a failing task: reported with the path of its log and the command
# that reruns it alone, which works once the cause is gone.
# usage: test_resume.sh NEACCEL CAMPAIGN.yaml WORKDIR
set -u
neaccel="$1" campaign="$2" work="$3"
fail() { echo "FAIL: $*"; exit 1; }
rm -rf "$work"
mkdir -p "$work"

"$neaccel" campaign "$campaign" --out "$work/clean" --local --jobs 1 >/dev/null 2>&1 || fail "uninterrupted run failed"
python3 "$(dirname "$0")/check_report.py" "$work/clean" || fail "the report does not match its data"

# Killed midway: as soon as two designs are done, the campaign and its running task die.
setsid "$neaccel" campaign "$campaign" --out "$work/killed" --local --jobs 1 >/dev/null 2>&1 &
pid=$!
for _ in $(seq 3000); do
  n=$(find "$work/killed/designs" -name .done 2>/dev/null | wc -l)
  [ "$n" -ge 2 ] && break
  kill -0 "$pid" 2>/dev/null || break
  sleep 0.01
done
kill -9 -- "-$pid" 2>/dev/null
wait "$pid" 2>/dev/null
[ -e "$work/killed/report/.done" ] && fail "the campaign finished before it could be killed (make it longer)"
done_before=$(find "$work/killed" -name .done | wc -l)
[ "$done_before" -ge 2 ] || fail "nothing finished before the kill"
first=$(find "$work/killed/designs" -name .done | sort | head -n1)
first_dir=$(dirname "$first")
stamp=$(stat -c '%Y.%Z %i' "$first_dir/task.log" "$first_dir/result.json")
echo "killed with $done_before task(s) done"

"$neaccel" campaign "$campaign" --out "$work/killed" --local --jobs 2 >/dev/null 2>&1 || fail "rerun after the kill failed"
[ "$(stat -c '%Y.%Z %i' "$first_dir/task.log" "$first_dir/result.json")" = "$stamp" ] || fail "a finished task was redone"
for f in report/report.json report/report.md report/report.html explore/merged/explore.csv; do
  cmp -s "$work/clean/$f" "$work/killed/$f" || fail "$f after resuming differs from the uninterrupted run's"
done
echo "resumed: report identical to the uninterrupted run"

# A failing task: a corrupt merged exploration makes the design tasks fail.
d="$work/killed"
cp "$d/explore/merged/explore.json" "$work/explore.json.good"
echo '{"broken' >"$d/explore/merged/explore.json"
rm -f "$d"/designs/*/.done "$d/report/.done"
if "$neaccel" campaign "$campaign" --out "$d" --local --jobs 2 >"$work/fail.out" 2>"$work/fail.err"; then
  fail "a campaign with failing tasks succeeded"
fi
grep -q "task design/3 not done (failed): log $d/designs/003/task.log; rerun alone: neaccel campaign-task run $d design 3" "$work/fail.err" ||
  { cat "$work/fail.err"; fail "failed task not reported with its log and rerun command"; }
grep -q "explore.json" "$d/designs/003/task.log" || fail "the task log does not say what went wrong"
[ -e "$d/designs/003/.failed" ] || fail "no .failed marker"
[ -e "$d/explore/shard-1/.done" ] || fail "finished exploration lost"
cp "$work/explore.json.good" "$d/explore/merged/explore.json"
"$neaccel" campaign-task run "$d" design 3 || fail "rerunning one task alone failed"
[ -e "$d/designs/003/.done" ] && [ ! -e "$d/designs/003/.failed" ] || fail "task rerun alone left no done-marker"
[ -e "$d/designs/004/.done" ] && fail "rerunning task 3 ran others"
"$neaccel" campaign "$campaign" --out "$d" --local >/dev/null 2>&1 || fail "final rerun failed"
cmp -s "$work/clean/report/report.json" "$d/report/report.json" || fail "report after the failure differs"
echo "PASS"
