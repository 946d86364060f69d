#!/usr/bin/env bash
# CTest `campaign.slurm` (label slurm): brings up a one-node Slurm cluster (slurm_cluster.sh), runs the small
# campaign with --slurm (job arrays through the real sbatch, afterok dependencies between stages) and with --local,
# and requires the results to be the same bytes. Then stops the controller and checks that a submission fails with
# a one-line error and loses nothing. Exits 77 (CTest SKIP_RETURN_CODE) when the cluster cannot start.
# usage: test_slurm.sh NEACCEL CAMPAIGN.yaml WORKDIR
set -u
neaccel="$1" campaign="$2" work="$3"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
. "$here/slurm_cluster.sh"

rm -rf "$work"
mkdir -p "$work"
trap cluster_down EXIT
cluster_up "$work/cluster" || exit "$SKIP"
echo "cluster up: $(sinfo -h -o '%N %T %c CPUs')"

fail() { echo "FAIL: $*"; exit 1; }

start=$(date +%s)
"$neaccel" campaign "$campaign" --out "$work/slurm" --slurm --time=10 --array-max=4 --partition=debug --mem=200 \
  --cpus-per-task=1 --sbatch-arg=--nice=1 >"$work/slurm.out" 2>&1 ||
  { cat "$work/slurm.out"; tail -n 20 "$work/cluster/slurmctld.log"; fail "--slurm campaign failed"; }
echo "slurm campaign: $(( $(date +%s) - start )) s"
grep -q "submitted stage explore as job" "$work/slurm/campaign.log" || fail "no job submitted (campaign.log)"
grep -q -- "--dependency=afterok:" "$work/slurm/campaign.log" || fail "stages not chained with afterok"
grep -q -- "--array=0-2%4 --partition=debug --time=10 --mem=200 --cpus-per-task=1 --nice=1 " "$work/slurm/campaign.log" ||
  { cat "$work/slurm/campaign.log"; fail "sbatch options not passed through"; }
ls "$work/slurm/slurm/logs/"slurm-*.out >/dev/null 2>&1 || fail "no Slurm job output files (jobs did not run under Slurm)"

start=$(date +%s)
"$neaccel" campaign "$campaign" --out "$work/local" --local --jobs 2 >"$work/local.out" 2>&1 ||
  { cat "$work/local.out"; fail "--local campaign failed"; }
echo "local campaign: $(( $(date +%s) - start )) s"

# The results: the report, the merged exploration and every design's result.json, byte for byte (the raw tool
# outputs beside them, rtl.json and the logs, name their own directory).
n=0
while IFS= read -r f; do
  cmp -s "$work/local/$f" "$work/slurm/$f" || fail "$f differs between --local and --slurm"
  n=$((n + 1))
done < <(cd "$work/local" && { find report explore/merged -name '*.json' -o -name '*.md' -o -name '*.html' -o -name '*.csv';
                                find designs -name result.json; } | sort)
[ "$n" -ge 10 ] || fail "only $n result files compared"
echo "byte-identical: $n result files"
python3 "$here/check_report.py" "$work/slurm" || fail "the report does not match its data"

# --no-wait, then a rerun: it follows the queued jobs instead of submitting the tasks again; --local meanwhile refuses.
nw="$work/nowait"
"$neaccel" campaign "$campaign" --out "$nw" --slurm --no-wait >"$work/nowait.out" 2>&1 || { cat "$work/nowait.out"; fail "--no-wait"; }
if "$neaccel" campaign "$campaign" --out "$nw" --local >/dev/null 2>"$work/nowait.err"; then
  fail "--local ran while the campaign's Slurm jobs were queued"
fi
grep -q "still queued or running" "$work/nowait.err" || { cat "$work/nowait.err"; fail "--local: wrong error"; }
"$neaccel" campaign "$campaign" --out "$nw" --slurm >/dev/null 2>&1 || fail "following the --no-wait jobs"
grep -q "following jobs still in the queue" "$nw/campaign.log" || fail "the rerun did not follow the queued jobs"
[ "$(grep -c 'submitted stage explore' "$nw/campaign.log")" -eq 1 ] || fail "tasks submitted twice"
cmp -s "$work/local/report/report.json" "$nw/report/report.json" || fail "--no-wait report differs"
echo "--no-wait: followed by the rerun, nothing submitted twice"

# A failing stage under Slurm: the design tasks fail (a corrupt merged exploration), the report job's afterok
# dependency can never be met; the campaign cancels it, lists the failed tasks with their logs, exits 1. Then the
# cause is removed and a rerun through Slurm finishes with the same bytes.
s="$work/slurm"
cp "$s/explore/merged/explore.json" "$work/explore.json.good"
echo '{"broken' >"$s/explore/merged/explore.json"
rm -f "$s"/designs/*/.done "$s/report/.done"
if timeout 300 "$neaccel" campaign "$campaign" --out "$s" --slurm >"$work/fail.out" 2>"$work/fail.err"; then
  fail "--slurm with failing tasks succeeded"
fi
grep -q "task design/0 not done (failed): log $s/designs/000/task.log" "$work/fail.err" ||
  { cat "$work/fail.err"; fail "failed Slurm task not reported with its log"; }
grep -q "cancelled jobs whose dependency failed" "$s/campaign.log" || fail "the report job was not cancelled"
[ -z "$(squeue -h)" ] || { squeue; fail "jobs left in the queue"; }
cp "$work/explore.json.good" "$s/explore/merged/explore.json"
"$neaccel" campaign "$campaign" --out "$s" --slurm >/dev/null 2>&1 || fail "--slurm rerun after fixing the cause failed"
cmp -s "$work/local/report/report.json" "$s/report/report.json" || fail "report after the Slurm rerun differs"
echo "failing stage under Slurm: reported, dependants cancelled, rerun identical"

# Controller down: a campaign that needs a submission fails with one line and keeps every finished task.
controller_down
rm "$work/slurm/report/.done"
before=$(find "$work/slurm" -name .done | wc -l)
if timeout 120 "$neaccel" campaign "$campaign" --out "$work/slurm" --slurm >"$work/down.out" 2>"$work/down.err"; then
  fail "--slurm with the controller down succeeded"
fi
[ "$(wc -l <"$work/down.err")" -eq 1 ] || { cat "$work/down.err"; fail "controller down: not a one-line error"; }
# (this campaign has jobs on record, so squeue is asked first whether they still run)
grep -q -e "squeue failed" -e "sbatch failed" "$work/down.err" || { cat "$work/down.err"; fail "controller down: error names neither squeue nor sbatch"; }
after=$(find "$work/slurm" -name .done | wc -l)
[ "$before" -eq "$after" ] || fail "controller down: done-markers lost ($before -> $after)"
# A new campaign goes straight to sbatch.
if timeout 120 "$neaccel" campaign "$campaign" --out "$work/down-new" --slurm >/dev/null 2>"$work/down-new.err"; then
  fail "--slurm (new campaign) with the controller down succeeded"
fi
[ "$(wc -l <"$work/down-new.err")" -eq 1 ] || { cat "$work/down-new.err"; fail "controller down: not a one-line error"; }
grep -q "sbatch failed for stage explore" "$work/down-new.err" || { cat "$work/down-new.err"; fail "controller down: error does not name sbatch"; }
echo "controller down: $(cat "$work/down.err")"
echo "controller down (new campaign): $(cat "$work/down-new.err")"
# ... and the rest finishes locally from where Slurm left it.
"$neaccel" campaign "$campaign" --out "$work/slurm" --local >/dev/null 2>&1 || fail "resuming locally after the failed submission"
cmp -s "$work/local/report/report.json" "$work/slurm/report/report.json" || fail "report after resuming differs"
echo "PASS"
