#!/usr/bin/env python3
"""Hostile-input harness of the `neaccel` CLI (docs/limits.md, "Hostile command lines").

Runs every command with hostile values for each of its options (table.py) and checks each run against the exit-code
contract of the CLI (docs/user-guide.md, "Exit codes"):
  - the exit code is the one the case expects: 2 for a command-line value that does not parse or is out of range,
    1 for an unreadable or corrupt input file, 1 or 2 where either reading is fair; 0, and only 0, for values that
    are valid (the case says so, or allow.txt lists it): a valid value that is refused fails as `not-valid`;
  - no signal, no time-out (--timeout seconds each), no failed allocation under an address-space limit (--mem-mib);
  - a failure prints exactly one `neaccel: error:` line on stderr, a success none;
  - no raw library message (std::, stoi, bad_alloc, what(), terminate called, ...) on stdout or stderr;
  - no file written outside the run's own scratch directory: every run starts in a fresh empty scratch directory
    (its working directory; --out paths point into it), its input files lie in a sibling directory that is compared
    before and after, TMPDIR is a third sibling that must be empty afterwards, and no file PWNED may appear
    anywhere (values carry `$(touch PWNED)` to catch a shell);
  - cases in one consistency group (the same hostile value of the same kind of option, e.g. `--q abc`, on several
    commands) exit with the same code.

Before any run (and whatever the selection), the table is checked against the tool: `neaccel --list-options` lists
every command and option the CLI registers; each must be in the table (given hostile values, a flag `--flag=abc`)
or in table.EXEMPT with a reason, and the table may name none the tool lacks (coverage). An option whose help says
what its 0 means ("0 = ...") must have 0 valid (allow.txt), and a 0 that allow.txt makes valid must be explained by
the help (help). Either failing fails the run, printed as `FAIL [coverage]`.

Modes: by default a fixed, seeded sample (every command's valid base run, every known case, and --sample cases per
command); --all runs every case. Exit status 0 when every run passed, 1 otherwise. Only the standard library.
"""

import argparse
import collections
import concurrent.futures
import fnmatch
import json
import os
import random
import re
import resource
import shlex
import shutil
import signal
import subprocess
import sys
import threading
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import table  # noqa: E402

RAW_RE = re.compile(r"stoi|stoul|stoll|stod|std::|bad_alloc|basic_filebuf|json\.exception|terminate called|what\(\)|"
                    r"Segmentation|Aborted")
ERROR_LINE_RE = re.compile(r"^neaccel: error:", re.M)

# Kinds of failure, in the order a run's first (primary) kind is chosen.
KINDS = ["timeout", "signal", "memory", "shell", "stray-file", "tmp-left", "raw-message", "error-lines",
         "bad-exit-code", "accepted", "wrong-code", "not-valid", "inconsistent"]


def load_allow(path):
    """allow.txt: `CASE-ID-GLOB [rc=N,M]  # why`. Without rc= the case may exit 0; with it, these codes too."""
    rules = []
    if not path or not os.path.exists(path):
        return rules
    with open(path, encoding="utf-8") as f:
        for no, line in enumerate(f, 1):
            text = line.split("#", 1)[0].strip()
            if not text:
                continue
            codes = {0}
            m = re.search(r"\s+rc=([0-9,]+)$", text)
            if m:
                codes = {int(c) for c in m.group(1).split(",")}
                text = text[:m.start()].strip()
            rules.append((text, codes, f"{os.path.basename(path)}:{no}"))
    return rules


def allowed_codes(case_id, rules):
    codes, used = set(), []
    for pattern, c, where in rules:
        if fnmatch.fnmatchcase(case_id, pattern):
            codes |= c
            used.append(where)
    return codes, used


def snapshot(root):
    """Every path under root with (size, mtime, inode): a changed, added or removed file shows."""
    out = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            p = os.path.join(dirpath, name)
            try:
                st = os.lstat(p)
            except OSError:
                continue
            out[os.path.relpath(p, root)] = (st.st_size, st.st_mtime_ns, st.st_ino) if not os.path.isdir(p) else "d"
    return out


def find_named(root, name):
    hits = []
    for dirpath, dirnames, filenames in os.walk(root):
        if name in filenames or name in dirnames:
            hits.append(os.path.join(dirpath, name))
    return hits


class Runner:
    def __init__(self, args):
        self.exe = os.path.abspath(args.neaccel)
        self.src = os.path.abspath(args.src)
        self.work = os.path.abspath(args.work)
        self.timeout = args.timeout
        self.mem = args.mem_mib * 1024 * 1024
        self.keep = args.keep
        self.counter = 0
        self.lock = threading.Lock()

    def limits(self):
        """Only where prlimit is missing: preexec_fn runs between fork and exec, which threads make risky."""
        resource.setrlimit(resource.RLIMIT_AS, (self.mem, self.mem))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))

    def popen_args(self):
        prlimit = shutil.which("prlimit")
        if prlimit:  # prlimit execs the command: the pid is neaccel's, its process group the run's own
            return [prlimit, f"--as={self.mem}", "--core=0", "--"], {}
        return [], {"preexec_fn": self.limits}

    def run_case(self, case, fixtures):
        with self.lock:
            self.counter += 1
            n = self.counter
        root = os.path.join(self.work, "runs", f"{n:05d}")
        scratch, inputs, tmp = (os.path.join(root, d) for d in ("scratch", "in", "tmp"))
        shutil.rmtree(root, ignore_errors=True)
        os.makedirs(scratch)
        os.makedirs(tmp)
        # The inputs: hard links to the shared fixtures (cheap); the run must leave them as they are.
        shutil.copytree(fixtures, inputs, copy_function=os.link)
        subst = {"{in}": inputs, "{scratch}": scratch, "{src}": self.src, "{exe}": self.exe}

        def expand(a):
            for k, v in subst.items():
                a = a.replace(k, v)
            return a

        argv = [expand(a) for a in case["argv"]]
        env = dict(os.environ, TMPDIR=tmp, LC_ALL="C")
        prep_error = None
        for step in case.get("prepare", []):
            if step[0] == "copy":  # copy a fixture into the scratch directory (the run may write into it)
                shutil.copytree(os.path.join(inputs, step[1]), os.path.join(scratch, step[2]))
            elif step[0] == "file":  # a file of given text in the scratch directory
                with open(os.path.join(scratch, step[1]), "w", encoding="utf-8") as f:
                    f.write(step[2])
            elif step[0] == "neaccel":  # a valid neaccel run that makes an input (e.g. a planned campaign)
                p = subprocess.run([self.exe] + [expand(a) for a in step[1]], cwd=scratch, env=env,
                                   capture_output=True, timeout=60)
                if p.returncode != 0:
                    prep_error = f"prepare {step[1]} exited {p.returncode}: {p.stderr.decode(errors='replace')[:200]}"
        before_in = snapshot(inputs)
        t0 = time.monotonic()
        timed_out = False
        prefix, extra = self.popen_args()
        proc = subprocess.Popen(prefix + [self.exe] + argv, cwd=scratch, env=env, stdin=subprocess.DEVNULL,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True, **extra)
        try:
            out, err = proc.communicate(timeout=self.timeout)
        except subprocess.TimeoutExpired:
            timed_out = True
            out, err = b"", b""
        try:  # the run's process group: neaccel on a time-out, and any tool it left behind
            os.killpg(proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        if timed_out:
            out, err = proc.communicate()
        elapsed = time.monotonic() - t0
        rc = proc.returncode
        out = out.decode("utf-8", errors="replace")
        err = err.decode("utf-8", errors="replace")

        kinds, notes = [], []
        expect = set(case["expect"])
        allow, used = allowed_codes(case["id"], self.allow_rules)
        ok_codes = expect | allow
        if prep_error:
            kinds.append("not-valid")
            notes.append(prep_error)
        if timed_out:
            kinds.append("timeout")
            notes.append(f"killed after {self.timeout} s")
        elif rc < 0 or rc >= 128:
            kinds.append("signal")
            sig = -rc if rc < 0 else rc - 128
            try:
                notes.append(f"signal {signal.Signals(sig).name}")
            except ValueError:
                notes.append(f"signal {sig}")
        else:
            if rc not in (0, 1, 2, 3):
                kinds.append("bad-exit-code")
            elif rc not in ok_codes:
                if rc == 0:
                    kinds.append("accepted")
                elif case.get("valid"):
                    kinds.append("not-valid")
                else:
                    kinds.append("wrong-code")
                    notes.append("expected " + "/".join(str(c) for c in sorted(ok_codes)))
            nerr = len(ERROR_LINE_RE.findall(err))
            if rc != 0 and nerr != 1:
                kinds.append("error-lines")
                notes.append(f"{nerr} 'neaccel: error:' lines")
            if rc == 0 and nerr != 0:
                kinds.append("error-lines")
                notes.append(f"exit 0 with {nerr} 'neaccel: error:' lines")
        raw = RAW_RE.findall(out + err)
        if raw:
            kinds.append("memory" if "bad_alloc" in raw else "raw-message")
            notes.append("raw: " + ", ".join(sorted(set(raw))))
        pwned = find_named(root, "PWNED") + [p for p in ("/tmp/PWNED", os.path.join(self.src, "PWNED"))
                                             if os.path.exists(p)]
        if pwned:
            kinds.append("shell")
            notes.append("PWNED at " + ", ".join(pwned))
        after_in = snapshot(inputs)
        if after_in != before_in:
            changed = sorted(set(after_in.items()) ^ set(before_in.items()))
            kinds.append("stray-file")
            notes.append("input dir changed: " + ", ".join(sorted({c[0] for c in changed}))[:300])
        left = sorted(os.listdir(tmp))
        if left and not timed_out:  # a run killed at its time limit cannot clean up
            kinds.append("tmp-left")
            notes.append("left in TMPDIR: " + ", ".join(left)[:300])
        extra_root = sorted(set(os.listdir(root)) - {"scratch", "in", "tmp"})
        if extra_root:
            kinds.append("stray-file")
            notes.append("written beside the scratch dir: " + ", ".join(extra_root))
        if not self.keep and not kinds:
            shutil.rmtree(root, ignore_errors=True)

        def show(a):
            for k, v in (("{in}", inputs), ("{scratch}", scratch)):
                a = a.replace(v, k)
            return a

        first = next((ln for ln in err.splitlines() if ln.strip()), "")
        return {
            "id": case["id"], "command": case["command"], "argv": [show(a) for a in argv],
            "rc": None if timed_out else rc, "seconds": round(elapsed, 3), "kinds": kinds, "notes": notes,
            "stderr_first": show(first)[:300], "error_line": show(next((ln for ln in err.splitlines()
                                                                       if ln.startswith("neaccel: error:")), ""))[:300],
            "group": case.get("group"), "known": case.get("known", False), "allowed_by": used,
            "dir": root if (kinds or self.keep) else None,
        }


def snapshot_exe(exe, dest):
    """A private copy of the executable, so that a rebuild while the harness runs changes nothing halfway (neaccel
    re-runs itself through /proc/self/exe, so the copy is what every run uses). Waits for a link in progress."""
    for _ in range(60):
        try:
            st = os.stat(exe)
            time.sleep(1)
            if os.stat(exe).st_mtime_ns == st.st_mtime_ns:
                shutil.copy2(exe, dest)
                if subprocess.run([dest, "--help"], capture_output=True, timeout=30).returncode == 0:
                    return dest
        except (OSError, subprocess.SubprocessError):
            pass
        time.sleep(4)
    sys.exit(f"hostile: {exe} does not run (a build in progress?)")


def make_fixtures(runner, dest):
    """The input files every case may name as {in}/NAME (table.FIXTURES), and a design written by `neaccel rtl`."""
    shutil.rmtree(dest, ignore_errors=True)
    os.makedirs(dest)
    for name, content in table.fixtures(runner.src).items():
        p = os.path.join(dest, name)
        if content is None:
            os.makedirs(p, exist_ok=True)
            continue
        os.makedirs(os.path.dirname(p), exist_ok=True)
        mode = "wb" if isinstance(content, bytes) else "w"
        with open(p, mode) as f:
            f.write(content)
    for name, argv in table.GENERATED:
        p = subprocess.run([runner.exe] + [a.replace("{in}", dest) for a in argv], cwd=dest,
                           capture_output=True, timeout=120)
        if p.returncode != 0:
            print(f"hostile: fixture {name}: neaccel {' '.join(argv)} exited {p.returncode}: "
                  f"{p.stderr.decode(errors='replace').strip()}", file=sys.stderr)


def tool_options(exe):
    """The commands and options neaccel registers (`neaccel --list-options`, cli/main.cpp): {command: [option]},
    command "" for the top level and "robot show" for a nested one, each option a dict with its names, kind (flag,
    value, positional), hidden and help. Only commands without subcommands of their own (and the top level) run."""
    p = subprocess.run([exe, "--list-options"], capture_output=True, timeout=60)
    if p.returncode != 0:
        sys.exit(f"hostile: `neaccel --list-options` exited {p.returncode}: {p.stderr.decode(errors='replace')[:300]}")
    listing = json.loads(p.stdout)
    out = {}
    for c in listing:
        if c["command"] and c["subcommands"]:  # a group such as `robot`: only its --help, its commands run
            extra = [o for o in c["options"] if not set(o["names"]) & table.HELP_NAMES]
            if extra:
                sys.exit(f"hostile: the group command '{c['command']}' has options of its own "
                         f"({', '.join(extra[0]['names'])}): add it to the table")
            continue
        out[c["command"]] = c["options"]
    return out


def coverage(options):
    """Problems of the table against the tool's own list (one line each) and the number of commands covered: every
    command the tool registers is in the table, and each of its options is given hostile values there (by name, a
    positional as @NAME; a flag by the generated FLAG cases) or exempted in table.EXEMPT with a reason; the table
    names no command or option the tool does not have."""
    problems = []
    cmds = {c["name"]: c for c in table.commands()}
    tool_cmds = {("neaccel" if k == "" else k) for k in options}
    for name in sorted(tool_cmds - set(cmds)):
        problems.append(f"command '{name}' is not in the table (table.py commands())")
    for name in sorted(set(cmds) - tool_cmds):
        problems.append(f"the table has command '{name}', which neaccel does not register")
    for (cmd, name), why in sorted(table.EXEMPT.items()):
        if not why.strip():
            problems.append(f"EXEMPT {cmd} {name}: no reason given")
    for cmd in sorted(set(cmds) & tool_cmds):
        opts = options["" if cmd == "neaccel" else cmd]
        tool_names = {n for o in opts for n in o["names"]}
        tabled = {o["name"] for o in cmds[cmd]["opts"]} - set(cmds[cmd].get("placeholders", {}))
        for o in opts:
            names = set(o["names"])
            if o["kind"] == "flag" or names & tabled or names & table.HELP_NAMES:
                continue
            if any((cmd, n) in table.EXEMPT for n in names):
                continue
            problems.append(f"{cmd} {'/'.join(o['names'])}: registered by neaccel ({o['kind']}"
                            f"{', hidden' if o['hidden'] else ''}) but neither given hostile values in table.py nor "
                            f"exempted there (EXEMPT) with a reason")
        for n in sorted(tabled - tool_names):
            problems.append(f"the table gives {cmd} {n} values, but neaccel {cmd} has no such option")
        for (c, n) in table.EXEMPT:
            if c == cmd and n not in tool_names:
                problems.append(f"EXEMPT names {cmd} {n}, which neaccel {cmd} does not have")
    covered = len(tool_cmds & set(cmds))
    return problems, covered, len(tool_cmds)


# An option's help says what its 0 means when it reads "0 = ...": then 0 is a valid value (exit 0).
ZERO_HELP_RE = re.compile(r"(?<![\d.])0 = ")


def help_agrees(options, cases, rules):
    """Problems where an option's help and the harness disagree on 0: allow.txt makes `CMD OPT=0` valid but the help
    does not say what 0 means, or the help says "0 = ..." but the table expects 0 to be refused. With the runs
    (which hold allow.txt to the exit code) the help and the behaviour agree."""
    problems = []
    helps = {}
    for cmd, opts in options.items():
        for o in opts:
            for n in o["names"]:
                helps[("neaccel" if cmd == "" else cmd, n)] = o["help"]
    for c in cases:
        opt = c.get("option")
        if (not opt or c.get("label") != "0" or c.get("cls") == "UINT" or c.get("why")
                or (c["command"], opt) not in helps):
            continue  # (a seed's 0 is a seed like any other: its help need not explain it)
        text = helps[(c["command"], opt)]
        allowed, where = allowed_codes(c["id"], rules)
        valid = 0 in set(c["expect"]) | allowed
        says = bool(ZERO_HELP_RE.search(text))
        if valid and not says:
            problems.append(f"{c['id']}: 0 is valid ({', '.join(where) or 'table.py'}) but the help of {c['command']} "
                            f"{opt} does not say what 0 means (\"0 = ...\"): {text!r}")
        if says and not valid:
            problems.append(f"{c['id']}: the help of {c['command']} {opt} says what 0 means ({text!r}) but the table "
                            f"expects 0 to be refused (exit {'/'.join(map(str, c['expect']))}); allow.txt lists the "
                            f"valid ones")
    return problems


def select(cases, mode_all, sample, seed):
    if mode_all:
        return cases
    rng = random.Random(seed)
    chosen = [c for c in cases if c.get("known") or c.get("base")]
    by_cmd = collections.defaultdict(list)
    for c in cases:
        if not (c.get("known") or c.get("base")) and not c.get("all_only"):
            by_cmd[c["command"]].append(c)
    for cmd in sorted(by_cmd):
        pool = sorted(by_cmd[cmd], key=lambda c: c["id"])
        chosen += rng.sample(pool, min(sample, len(pool)))
    return chosen


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("neaccel", help="the neaccel executable")
    ap.add_argument("--src", default=os.path.normpath(os.path.join(here, "..", "..")), help="source tree")
    ap.add_argument("--work", default="hostile-work", help="work directory (emptied first)")
    ap.add_argument("--all", action="store_true", help="every case (default: the seeded CI sample)")
    ap.add_argument("--sample", type=int, default=5, help="CI mode: random cases per command (default 5)")
    ap.add_argument("--seed", type=int, default=1, help="CI mode: seed of the sample (default 1)")
    ap.add_argument("--jobs", type=int, default=2, help="runs at once (default 2)")
    ap.add_argument("--timeout", type=float, default=20, help="seconds per run (default 20)")
    ap.add_argument("--mem-mib", type=int, default=2048, help="address-space limit per run in MiB (default 2048)")
    ap.add_argument("--allow", default=os.path.join(here, "allow.txt"), help="allow-list file")
    ap.add_argument("--filter", default="", help="only cases whose id matches this regex")
    ap.add_argument("--list", action="store_true", help="print the selected case ids and exit")
    ap.add_argument("--keep", action="store_true", help="keep every run's directory (default: failing ones)")
    ap.add_argument("--report", default="", help="write the results as JSON here (default WORK/results.json)")
    args = ap.parse_args()

    runner = Runner(args)
    runner.allow_rules = load_allow(args.allow)
    options = tool_options(os.path.abspath(args.neaccel))
    cases = table.cases(options)
    static = coverage(options)
    static_problems = static[0] + help_agrees(options, cases, runner.allow_rules)
    ids = [c["id"] for c in cases]
    dup = [i for i, n in collections.Counter(ids).items() if n > 1]
    if dup:
        sys.exit(f"hostile: duplicate case ids: {dup[:5]}")
    chosen = select(cases, args.all, args.sample, args.seed)
    if args.filter:
        chosen = [c for c in chosen if re.search(args.filter, c["id"])]
    if args.list:
        for c in chosen:
            print(c["id"], "::", " ".join(shlex.quote(a) for a in c["argv"]))
        return 0
    commands = sorted({c["command"] for c in cases})
    missing = sorted(set(commands) - {c["command"] for c in chosen})
    _, n_covered, n_tool = static

    shutil.rmtree(runner.work, ignore_errors=True)
    os.makedirs(runner.work)
    runner.exe = snapshot_exe(runner.exe, os.path.join(runner.work, "neaccel"))
    fixtures = os.path.join(runner.work, "fixtures")
    make_fixtures(runner, fixtures)

    t0 = time.monotonic()
    results = []
    # Longest-known cases first, so the slow ones overlap the quick ones.
    order = sorted(chosen, key=lambda c: (not c.get("slow"), c["id"]))
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futures = [pool.submit(runner.run_case, c, fixtures) for c in order]
        for f in concurrent.futures.as_completed(futures):
            results.append(f.result())
    wall = time.monotonic() - t0

    # Consistency: one group, one exit code.
    groups = collections.defaultdict(list)
    for r in results:
        if r["group"] and r["rc"] is not None:
            groups[r["group"]].append(r)
    for g, rs in groups.items():
        codes = {r["rc"] for r in rs}
        if len(codes) > 1:
            detail = ", ".join(f"{r['command']}={r['rc']}" for r in sorted(rs, key=lambda r: r["id"]))
            for r in rs:
                r["kinds"].append("inconsistent")
                r["notes"].append(f"group {g}: {detail}")

    results.sort(key=lambda r: r["id"])
    failed = [r for r in results if r["kinds"]]
    by_kind = collections.Counter()
    for r in failed:
        for k in dict.fromkeys(r["kinds"]):
            by_kind[k] += 1

    print(f"hostile: {'all cases' if args.all else f'CI sample (seed {args.seed}, {args.sample} per command)'}; "
          f"limits {args.timeout:g} s, {args.mem_mib} MiB address space per run; {args.jobs} at once")
    # Grouped by the first kind of failure (the order of KINDS), then by command.
    failed.sort(key=lambda r: (min(KINDS.index(k) for k in r["kinds"]), r["command"], r["id"]))
    for r in failed:
        print(f"FAIL [{','.join(dict.fromkeys(r['kinds']))}] {r['id']}")
        print(f"     neaccel {' '.join(shlex.quote(a) for a in r['argv'])}")
        print(f"     exit {r['rc'] if r['rc'] is not None else 'timeout'}, {r['seconds']} s; "
              f"{'; '.join(r['notes'])}")
        if r["stderr_first"]:
            print(f"     stderr: {r['stderr_first']}")
    print()
    print(f"hostile: {len(results)} invocations, {len(results) - len(failed)} passed, {len(failed)} failed, "
          f"{wall:.1f} s wall, {sum(r['seconds'] for r in results):.1f} s in runs")
    if by_kind:
        print("hostile: failures by kind: " + ", ".join(f"{k} {by_kind[k]}" for k in KINDS if by_kind[k]))
    for p in static_problems:
        print(f"FAIL [coverage] {p}")
    print(f"hostile: commands covered: {n_covered}/{n_tool} of those neaccel registers (--list-options)"
          + (f"; not run in this selection: {', '.join(missing)}" if missing else ""))
    print(f"hostile: {len(static_problems)} coverage and help problems (table.py against --list-options, allow.txt "
          "against the help texts)")
    report = args.report or os.path.join(runner.work, "results.json")
    with open(report, "w", encoding="utf-8") as f:
        json.dump({"mode": "all" if args.all else "ci", "seed": args.seed, "wall_s": round(wall, 1),
                   "invocations": len(results), "failed": len(failed), "by_kind": dict(by_kind),
                   "coverage_problems": static_problems, "results": results}, f, indent=1)
    print(f"hostile: results in {report}")
    return 1 if failed or static_problems or (missing and not args.filter) else 0


if __name__ == "__main__":
    sys.exit(main())
