"""The table of the hostile-input harness (hostile.py): every `neaccel` command, a base command line that is valid and
fast, and for each option the hostile values it is given, one at a time, with the exit codes each may end in.

Paths in arguments: {in}/NAME is an input file of fixtures() (or GENERATED) in the run's input directory, {scratch}
the run's own scratch directory (its working directory), {src} the source tree. A value's expected codes:
  U = {2}      a command-line value that does not parse or is out of range (usage error);
  D = {1}      an input file that is missing, a directory, empty, garbage or otherwise unreadable;
  E = {1, 2}   either reading is fair (a robot spec, a number format, a value whose range is not documented);
  V = {0}      a value that is valid (an --out path with spaces and quotes, a missing parent directory, a 1e200
               position): the command must succeed with it. Where a valid value still fails for another reason,
               the option's `fails` says which codes and why (e.g. an output path a command cannot create).
A value listed in allow.txt may also exit 0 (documented as valid, e.g. `--restarts 0`).

Coverage: hostile.py reads every command and option from `neaccel --list-options` and fails when one is neither given
values here (by its name; a positional as @NAME) nor in EXEMPT with a reason, and when the table names an option
neaccel does not have. Flags (options without a value) are given `--flag=abc` (FLAG, a usage error) automatically.
"""

import random

U, D, E, V = (2,), (1,), (1, 2), (0,)
HELP_NAMES = {"--help", "-h"}  # CLI11's help flag on every command: prints the help and exits 0, never a value

# A path with spaces, quotes and command substitutions: a shell anywhere on the way creates PWNED, whether it puts
# the path in double quotes, in single quotes (the inner pair of quotes ends them) or in none. The quotes are balanced
# so that such a shell runs the command instead of stopping at an unterminated string.
WEIRD = "sp ace$(touch PWNED)'$(touch PWNED)'`touch PWNED`"

INT = [("0", "0", U), ("-1", "-1", U), ("1e9", "1e9", U), ("2^31", "2147483648", U),
       ("2^64", "18446744073709551616", U), ("big", "1000000000", E), ("nan", "nan", U), ("inf", "inf", U),
       ("empty", "", U), ("abc", "abc", U), ("1,,2", "1,,2", U), ("hex", "0x10", U), ("1.5", "1.5", U)]
# An unsigned seed: 0, 2^31 and 10^9 are seeds like any other; negative, 2^64 and text are not.
UINT = [(label, value, V if label in ("0", "2^31", "big") else expect) for label, value, expect in INT]
FLOAT = [("0", "0", U), ("-1", "-1", U), ("1e9", "1e9", E), ("1e308", "1e308", E), ("1e999", "1e999", U),
         ("nan", "nan", U), ("inf", "inf", U), ("-inf", "-inf", U), ("empty", "", U), ("abc", "abc", U),
         ("1,,2", "1,,2", U)]
# Joint vectors of planar2 (2 joints). 1e200 is a fair position, acceleration or torque (sin, cos and products stay
# finite), but as a velocity it squares to infinity: VECQD expects a refusal.
VEC = [("empty", "", U), ("abc", "abc", U), ("1,,2", "1,,2", U), ("nan", "nan,0", U), ("inf", "inf,0", U),
       ("1e999", "1e999,0", U), ("short", "1", U), ("long", "1,2,3", U), ("1e200", "1e200,1e200", V),
       ("trailing", "1,2x", U), ("spaces", " , ", U)]
VECQD = [(label, value, E if label == "1e200" else expect) for label, value, expect in VEC]
# Integer lists of explore (1-4,8).
ILIST = [("0", "0", U), ("-1", "-1", U), ("1e9", "1e9", U), ("2^31", "2147483648", U), ("empty", "", U),
         ("abc", "abc", U), ("1,,2", "1,,2", U), ("huge-range", "1-2147483647", U), ("reversed", "5-1", U),
         ("open", "1-", U), ("dash", "-", U), ("nan", "nan", U)]
ENUM = [("empty", "", U), ("abc", "abc", U), ("shell", "$(touch PWNED)", U), ("list", "a,b", U)]
ROBOT = [("abc", "abc", E), ("empty", "", U), ("random0", "random:0:1", E), ("random-1", "random:-1:1", E),
         ("random1001", "random:1001:1", E), ("random1e9", "random:1e9:1", E), ("random2^31", "random:2147483648:1", E),
         ("randomseed", "random:3:abc", E), ("random-noseed", "random:3", E), ("tree0", "randomtree:0:1", E),
         ("dir", "{in}/dir.yaml", D), ("missing", "{in}/missing.yaml", D), ("emptyfile", "{in}/empty.yaml", D),
         ("garbage", "{in}/garbage.yaml", D), ("garbage-urdf", "{in}/garbage.urdf", D),
         ("weird", "{in}/" + WEIRD + ".yaml", D), ("nan-mass", "{in}/nan_mass.yaml", D),
         ("no-links", "{in}/no_links.yaml", D), ("devnull", "/dev/null", D),
         ("mimic-cycle", "{in}/mimic_cycle.urdf", D), ("mimic-nan", "{in}/mimic_nan.urdf", D)]
FORMAT = [("abc", "abc", E), ("empty", "", U), ("4294967304.8", "fixed:4294967304.8", E), ("0.0", "fixed:0.0", E),
          ("-1.17", "fixed:-1.17", E), ("noF", "fixed:16", E), ("a.b", "fixed:a.b", E), ("3parts", "fixed:16.16.16", E),
          ("33.0", "fixed:33.0", E), ("2^31.1", "fixed:2147483648.1", E), ("fp64", "fp64", E),
          ("trailing", "fixed:16.16x", E)]
DEPTH = [("empty", "", U), ("abc", "abc", U), ("la0", "lookahead:0", U), ("la-1", "lookahead:-1", U),
         ("la1e9", "lookahead:1e9", U), ("la2^31", "lookahead:2147483648", U), ("laabc", "lookahead:abc", U),
         ("la-empty", "lookahead:", U), ("list", "on,off", U)]
GRAPHFILE = [("empty", "", U), ("dir", "{in}/dir.json", D), ("missing", "{in}/missing.json", D),
         ("emptyfile", "{in}/empty.json", D), ("garbage", "{in}/garbage.json", D), ("garbage-dot", "{in}/garbage.dot", D),
         ("object", "{in}/object.json", D), ("weird", "{in}/" + WEIRD + ".json", D), ("noext", "{in}/garbage", E)]
# schedule also takes bench:NAME graphs (dfg takes files only: bench:... is a missing file there).
GRAPH = [("random1e8", "bench:random:100000000:1", E), ("random1e9", "bench:random:1e9:1", E),
         ("random0", "bench:random:0:1", E), ("random-1", "bench:random:-1:1", E),
         ("randomseed", "bench:random:10:abc", E), ("bench-abc", "bench:abc", E), ("bench-empty", "bench:", E)]
GRAPH = [v for v in GRAPHFILE if not v[1].startswith("bench:")] + GRAPH
FILE = [("empty", "", U), ("dir", "{in}/dir", D), ("missing", "{in}/missing.txt", D), ("emptyfile", "{in}/empty.txt", D),
        ("garbage", "{in}/garbage.txt", D), ("weird", "{in}/" + WEIRD + ".txt", D), ("devnull", "/dev/null", D)]
VECFILE = FILE + [("badhex", "{in}/vec_badhex.txt", D), ("short", "{in}/vec_short.txt", D),
                  ("longline", "{in}/vec_longline.txt", D), ("fma-fields", "{in}/vec_fma.txt", D)]
TAUFILE = FILE + [("nan", "{in}/tau_nan.csv", D), ("text", "{in}/tau_text.csv", D), ("cols", "{in}/tau_cols.csv", D),
                  ("backwards", "{in}/tau_backwards.csv", D)]
STATESFILE = FILE + [("nan", "{in}/states_nan.txt", D), ("short", "{in}/states_short.txt", D),
                     ("text", "{in}/states_text.txt", D)]
CSVFILE = FILE + [("header-only", "{in}/header_only.csv", D)]
CAMPFILE = FILE + [("bigrange", "{in}/camp_bigrange.yaml", D), ("states", "{in}/camp_states.yaml", D),
                   ("shards", "{in}/camp_shards.yaml", D), ("format", "{in}/camp_format.yaml", D),
                   ("name", "{in}/camp_name.yaml", D), ("deep", "{in}/camp_deep.yaml", D),
                   ("robotfile", "{in}/camp_robotdir.yaml", D)]
DESIGNDIR = [("empty", "", U), ("missing", "{in}/missing-design", D), ("file", "{in}/garbage.txt", D),
             ("emptydir", "{in}/dir", D), ("garbage-manifest", "{in}/design_garbage", D),
             ("object-manifest", "{in}/design_object", D)]
OUTDIR = [("empty", "", U), ("file", "{in}/garbage.txt", E), ("devnull", "/dev/null", E),
          ("proc", "/proc/neaccel-hostile/x", E), ("weird", "{scratch}/" + WEIRD, V), ("nested", "{scratch}/a/b/c", V)]
OUTFILE = [("empty", "", U), ("dir", "{scratch}", E), ("devfull", "/dev/full", E), ("proc", "/proc/neaccel-hostile", E),
           ("weird", "{scratch}/" + WEIRD + ".out", V), ("missing-parent", "{scratch}/no/such/dir/f", V)]
II = [("0", "0", U), ("-1", "-1", U), ("10000", "10000", E), ("1e9", "1e9", U), ("2^31", "2147483648", U),
      ("empty", "", U), ("abc", "abc", U), ("1,,2", "1,,2", U), ("min-x", "minx", U)]
SHARD = [("0/0", "0/0", U), ("1/0", "1/0", U), ("0/3", "0/3", U), ("4/3", "4/3", U), ("-1/3", "-1/3", U),
         ("abc", "abc", U), ("empty", "", U), ("1/2^31", "1/2147483648", U), ("1/", "1/", U), ("/3", "/3", U),
         ("3parts", "1/3/5", U)]
STALLS = [("0,0", "0,0", U), ("-1,1", "-1,1", U), ("1,,2", "1,,2", U), ("abc", "abc", U), ("empty", "", U),
          ("1e9", "1e9,1", U), ("2^31", "2147483648,1", U), ("len>every", "4,5", U), ("one", "4", U)]
PASSES = ENUM + [("double-comma", "fold,,cse", U), ("unknown", "fold,nosuch", U)]
TEXT = [("empty", "", U), ("weird", WEIRD, V), ("newline", "a\nb", V)]
# Links of tests/ref_io/data/rx90.urdf for the top-level --base and --tip (the URDF import options).
LINK = [("empty", "", U), ("unknown", "nosuchlink", E), ("weird", WEIRD, E), ("link2", "link2", V)]
# platforms --batch: a comma list of batch sizes (states per call) 1..10^12.
BATCH = [("0", "0", U), ("-1", "-1", U), ("empty", "", U), ("abc", "abc", U), ("1,,2", "1,,2", U), ("1e9", "1e9", U),
         ("hex", "0x10", U), ("range", "1-4", U), ("1e12+1", "1000000000001", U), ("2^31", "2147483648", E),
         ("list", "1,2", V)]

# Options of neaccel (--list-options) that get no hostile values here, each with the reason: (command, option): why.
EXEMPT = {
    ("neaccel", "--version"): "CLI11's version flag: prints the version and exits 0 before any option is read; the "
                              "known case `--version` runs it",
    ("neaccel", "--list-options"): "hidden: the harness's own source of the command and option list (it runs first)",
    ("campaign-task", "@args"): "the words `run DIR STAGE K`: STAGE and K get hostile values as @stage and @k, the "
                                "other forms (design, report, missing and extra words) are known cases",
    ("sim", "--fault-cycle"): "hidden test hook of the co-simulation checker (no help text): it injects a fault so "
                              "that the run fails with exit 3; tests/datapath runs it",
    ("sim", "--rtl-fault-word"): "hidden test hook, likewise on the RTL side (verilator engine)",
    ("sim", "--campaign-checks"): "hidden test hook of --fault-campaign (the checks it counts); tests/datapath runs it",
}

# Consistency groups: the same hostile value of one of these kinds exits alike on every command (for VEC and the
# named ENUM options: of the same option name, e.g. --q abc on dynamics, mass and formulations).
GROUPED = {"ROBOT", "FORMAT", "DEPTH", "GRAPHFILE"}
GROUPED_BY_NAME = {"VEC", "VECQD"}
GROUPED_ENUMS = {"--function", "--form", "--flavour", "--method", "--engine", "--op"}


def group_of(cls, name, label):
    if cls in GROUPED:
        return f"{cls}={label}"
    if cls in GROUPED_BY_NAME or (cls == "ENUM" and name in GROUPED_ENUMS):
        return f"{name}={label}"
    return None


def opt(name, cls, extra=(), drop=(), tag="", skip=(), ok=(), grouped=True, fails=None):
    """One option of a command: `name` (or @NAME, a placeholder in the base) given each value of class `cls`; `extra`
    arguments are added and `drop`ped ones removed from the base to make the option meaningful. `skip`: labels not
    given; `ok`: labels that are valid for this option (exit 0, V); `fails`: {label: (codes, why)} for a value that is
    valid in itself but that this command refuses for the stated reason; grouped=False keeps the option out of the
    consistency groups (where it is refused for another reason, e.g. a conflict)."""
    return {"name": name, "cls": cls, "extra": list(extra), "drop": list(drop), "tag": tag, "skip": set(skip),
            "ok": set(ok), "grouped": grouped, "fails": dict(fails or {})}


# Command name, base argv (valid, fast), options, preparation steps, whether the base runs, whether it is slow.
def commands():
    design = [("copy", "design", "design")]
    camp_plan = [("neaccel", ["campaign", "{in}/camp.yaml", "--out", "{scratch}/camp", "--plan-only"])]
    quick_explore = ["explore", "--robot", "planar2", "--flavour", "general", "--mul", "1", "--add", "1", "--lat-mul",
                     "1", "--lat-add", "1", "--pipelined", "1", "--no-plot", "--no-modulo", "--restarts", "1", "--jobs",
                     "1", "--out", "{scratch}/ex"]
    hal_ilp = dict(drop=["--robot"], extra=["--graph", "bench:hal", "--algo", "ilp"])
    return [
        # the top level: the URDF import options, before or after the command word
        dict(name="neaccel", base=["dynamics", "--robot", "{in}/rx90.urdf"],
             opts=[opt("--base", "LINK"), opt("--tip", "LINK")]),
        dict(name="robot show", base=["robot", "show", "@robot"], opts=[opt("@robot", "ROBOT")]),
        dict(name="robot export", base=["robot", "export", "@robot", "--out", "{scratch}/r.yaml"],
             opts=[opt("@robot", "ROBOT"), opt("--out", "OUTFILE")]),
        dict(name="robot list", base=["robot", "list"], opts=[]),
        dict(name="dynamics", base=["dynamics", "--robot", "planar2"],
             opts=[opt("--robot", "ROBOT"), opt("--q", "VEC"), opt("--qd", "VECQD"), opt("--qdd", "VEC"),
                   opt("--form", "ENUM"), opt("--tau", "VEC", extra=["--forward"]),
                   opt("--method", "ENUM", extra=["--forward", "--tau", "0,0"])]),
        dict(name="mass", base=["mass", "--robot", "planar2"],
             opts=[opt("--robot", "ROBOT"), opt("--q", "VEC"), opt("--method", "ENUM"), opt("--form", "ENUM", grouped=False),
                   opt("--form", "ENUM", extra=["--method", "strobing"], tag="+strobing")]),
        dict(name="simulate", base=["simulate", "--robot", "planar2", "--t", "0.01", "--zero-torque"],
             opts=[opt("--robot", "ROBOT"), opt("--dt", "FLOAT"), opt("--t", "FLOAT"), opt("--q0", "VEC"),
                   opt("--qd0", "VECQD"), opt("--form", "ENUM"), opt("--method", "ENUM"), opt("--out", "OUTFILE"),
                   opt("--tau-file", "TAUFILE", drop=["--zero-torque"]),
                   opt("--accelerator", "FORMAT", extra=["--out", "{scratch}/acc"]),
                   opt("--function", "ENUM", extra=["--accelerator", "fp32", "--out", "{scratch}/acc"])]),
        dict(name="counts", base=["counts", "--nmax", "2"],
             opts=[opt("--nmax", "INT"), opt("--dh", "ENUM"), opt("--robot", "ROBOT", extra=["--dfg"]),
                   opt("--function", "ENUM", extra=["--dfg", "--robot", "planar2"]), opt("--out", "OUTDIR")]),
        dict(name="dfg", base=["dfg", "--robot", "planar2", "--out", "{scratch}/o"],
             opts=[opt("--robot", "ROBOT"), opt("--graph", "GRAPHFILE", drop=["--robot"]), opt("--function", "ENUM"),
                   opt("--form", "ENUM"), opt("--passes", "PASSES"), opt("--depth", "DEPTH"), opt("--lat-mul", "INT"),
                   opt("--lat-add", "INT"), opt("--emit", "ENUM"), opt("--out", "OUTDIR", extra=["--emit", "json"]),
                   opt("--accuracy", "INT"),
                   opt("--fixed", "FORMAT", extra=["--accuracy", "2"]),
                   opt("--near", "INT", extra=["--function", "fd", "--accuracy", "2"]),
                   opt("--target", "FLOAT", extra=["--function", "fd", "--accuracy", "2"], ok=["1e9", "1e308"])]),
        dict(name="formulations counts", base=["formulations", "counts", "--n", "2"],
             opts=[opt("--n", "INT"), opt("--n-max", "INT", drop=["--n"]), opt("--out", "OUTDIR")]),
        dict(name="formulations torque", base=["formulations", "torque", "@robot"],
             opts=[opt("@robot", "ROBOT"), opt("--q", "VEC"), opt("--qd", "VECQD"), opt("--qdd", "VEC")]),
        dict(name="formulations forward", base=["formulations", "forward", "@robot"],
             opts=[opt("@robot", "ROBOT"), opt("--q", "VEC"), opt("--qd", "VECQD"), opt("--tau", "VEC")]),
        dict(name="schedule", base=["schedule", "--robot", "planar2", "--out", "{scratch}/o"],
             opts=[opt("--robot", "ROBOT"), opt("--graph", "GRAPH", drop=["--robot"]), opt("--flavour", "ENUM"),
                   opt("--function", "ENUM"), opt("--div", "INT", extra=["--function", "fd"]),
                   opt("--lat-div", "INT", extra=["--function", "fd"]), opt("--depth", "DEPTH"),
                   opt("--depth-budget", "FLOAT"), opt("--fma", "INT"), opt("--lat-fma", "INT", extra=["--fma", "1"]),
                   opt("--mul", "INT"), opt("--add", "INT"), opt("--lat-mul", "INT"), opt("--lat-add", "INT"),
                   opt("--algo", "ENUM"), opt("--priority", "ENUM"), opt("--restarts", "INT"), opt("--seed", "UINT"),
                   opt("--ii", "INT", drop=["--robot"], extra=["--graph", "bench:hal", "--algo", "modulo"]),
                   opt("--node-limit", "INT", ok=["big", "2^31"], **hal_ilp),
                   opt("--max-columns", "INT", ok=["big"], **hal_ilp),  # 0..10^9
                   opt("--simplex-limit", "INT", ok=["big", "2^31"], **hal_ilp), opt("--max-registers", "INT"),
                   opt("--read-ports", "INT"), opt("--write-ports", "INT"), opt("--out", "OUTDIR"),
                   opt("--time-limit", "FLOAT", **hal_ilp)]),
        dict(name="explore", base=quick_explore,
             opts=[opt("--robot", "ROBOT"), opt("--n", "ILIST"), opt("--function", "ENUM"), opt("--flavour", "ENUM"),
                   opt("--mul", "ILIST"), opt("--add", "ILIST"), opt("--lat-mul", "ILIST"), opt("--lat-add", "ILIST"),
                   opt("--pipelined", "ILIST"), opt("--max-registers", "ILIST"), opt("--fma", "ILIST"),
                   opt("--lat-fma", "ILIST", extra=["--fma", "1"]), opt("--div", "ILIST", extra=["--function", "fd"]),
                   opt("--lat-div", "ILIST", extra=["--function", "fd", "--div", "1"]),
                   opt("--read-ports", "ILIST"), opt("--write-ports", "ILIST"), opt("--in-words", "ILIST"),
                   opt("--restarts", "INT"), opt("--jobs", "INT"), opt("--shard", "SHARD"),
                   opt("--merge", "CSVFILE"), opt("--out", "OUTDIR"), opt("--ilp-worst", "INT"),
                   opt("--ilp-nodes", "INT", extra=["--ilp-worst", "1"]), opt("--depth", "DEPTH"),
                   opt("--n", "ILIST", extra=["--table86"], tag="+table86"), opt("--target", "ENUM"),
                   opt("--arch", "ENUM"), opt("--budget-lut", "INT"), opt("--budget-dsp", "INT")]),
        dict(name="control", base=["control", "--robot", "planar2", "--out", "{scratch}/oc"],
             opts=[opt("--robot", "ROBOT"), opt("--scenario", "ENUM"), opt("--feedback", "ENUM"),
                   opt("--format", "FORMAT"), opt("--lin-format", "FORMAT"), opt("--out", "OUTDIR"),
                   opt("--seed", "UINT")]),
        dict(name="fpcheck", base=["fpcheck", "--op", "add", "--vectors", "{in}/vec_add.txt", "--engine", "systemc"],
             opts=[opt("--op", "ENUM"), opt("--vectors", "VECFILE"), opt("--engine", "ENUM"), opt("--latency", "INT"),
                   opt("--max-report", "INT")]),
        dict(name="fpgen", base=["fpgen", "--op", "add", "--count", "10", "--out", "{scratch}/v.txt"],
             opts=[opt("--op", "ENUM"), opt("--seed", "UINT"), opt("--out", "OUTFILE"),
                   opt("--count", "INT", fails={"0": (U, "0 random vectors without --hard would be an empty file, "
                                                         "which fpcheck refuses")}),
                   opt("--count", "INT", extra=["--hard"], tag="+hard")]),
        dict(name="rtl", base=["rtl", "--robot", "planar2", "--out", "{scratch}/rt"],
             opts=[opt("--robot", "ROBOT"), opt("--flavour", "ENUM"), opt("--mul", "INT"), opt("--add", "INT"),
                   opt("--lat-mul", "INT"), opt("--lat-add", "INT"), opt("--format", "FORMAT"), opt("--ii", "II"),
                   opt("--arch", "ENUM"), opt("--binding", "ENUM"), opt("--regfile", "ENUM"),
                   opt("--max-registers", "INT"), opt("--read-ports", "INT"), opt("--write-ports", "INT"),
                   opt("--params", "ENUM"), opt("--in-words", "INT", extra=["--ii", "min"]), opt("--out", "OUTDIR"),
                   opt("--depth", "DEPTH"), opt("--function", "ENUM"), opt("--div", "INT", extra=["--function", "fd"]),
                   opt("--lat-div", "INT", extra=["--function", "fd", "--div", "1"]), opt("--fma", "INT"),
                   opt("--lat-fma", "INT", extra=["--fma", "1"]), opt("--decode", "ENUM", extra=["--arch", "hardwired"]),
                   opt("--units", "ENUM", extra=["--arch", "hardwired"]),
                   opt("--io", "ENUM", extra=["--arch", "hardwired"])]),
        dict(name="area", base=["area", "--unit", "fx-add", "--latency", "1", "--no-timing", "--out", "{scratch}/ar"],
             slow=True,
             opts=[opt("--unit", "ENUM"), opt("--latency", "INT"), opt("--width", "INT"), opt("--frac", "INT"),
                   opt("--out", "OUTDIR"), opt("--rtl", "FILE"),
                   opt("--keep", "FILE", extra=["--all", "--cached-only"]),
                   opt("--design", "DESIGNDIR"), opt("--target", "ENUM"),
                   # no value here is a valid one (--seed 1..10^6 and --pnr-timeout 1..10^6 are out of the classes'
                   # ranges): no place and route runs in this harness
                   opt("--seed", "INT"), opt("--pnr-timeout", "FLOAT"),
                   # 0..2 transitions per net per cycle, and only with a standard-cell target: every value here is
                   # refused (no value runs the chip flow in this harness)
                   opt("--activity", "FLOAT")]),
        dict(name="sim", base=["sim", "--out", "{scratch}/design", "--engine", "systemc", "--random", "2", "--quiet"],
             prepare=design,
             opts=[opt("--out", "DESIGNDIR"), opt("--engine", "ENUM"),
                   opt("--states", "STATESFILE", drop=["--random"]), opt("--function", "ENUM"), opt("--random", "INT"),
                   opt("--seed", "UINT"),
                   opt("--sink-stalls", "STALLS", drop=["--out"], extra=["--out", "{scratch}/design_bp"]),
                   opt("--robot-change", "ROBOT", drop=["--out", "--random"],
                       extra=["--out", "{scratch}/design_load", "--random", "4"]),
                   opt("--fault-campaign", "INT", extra=["--engine", "cosim"], skip=["big"]),
                   # --vcd is the verilator engine's (minutes to build a model): on the systemc base every value is
                   # refused, the valid paths too; dp.cli.sim_hostile_paths runs the engine with hostile paths
                   opt("--vcd", "OUTFILE", fails={"weird": (U, "--vcd: only with --engine verilator"),
                                                  "missing-parent": (U, "--vcd: only with --engine verilator")})]),
        dict(name="campaign", base=["campaign", "@file", "--out", "{scratch}/camp", "--plan-only"],
             defaults={"@file": "{in}/camp.yaml"},
             opts=[opt("@file", "CAMPFILE"), opt("--out", "OUTDIR"),
                   opt("--jobs", "INT", drop=["--plan-only"], extra=["--local"]),
                   opt("--cpus-per-task", "INT", extra=["--slurm"]), opt("--array-max", "INT", extra=["--slurm"]),
                   opt("--partition", "TEXT", extra=["--slurm"]), opt("--time", "TEXT", extra=["--slurm"]),
                   opt("--mem", "TEXT", extra=["--slurm"]), opt("--account", "TEXT", extra=["--slurm"]),
                   opt("--sbatch-arg", "TEXT", extra=["--slurm"])]),
        dict(name="campaign-task", base=["campaign-task", "run", "{scratch}/camp", "@stage", "@k"],
             defaults={"@stage": "explore", "@k": "0"}, prepare=camp_plan,
             placeholders={"@stage": "STAGE of `run DIR STAGE K`", "@k": "K of `run DIR STAGE K`"},
             opts=[opt("@k", "INT", skip=["0"]), opt("@stage", "ENUM")]),
        # study's base takes a minute: it does not run; only values that must be refused before any work are given.
        dict(name="study", base=["study", "--robot", "planar2", "--quick", "--out", "{scratch}/st"], run_base=False,
             opts=[opt("--robot", "ROBOT"), opt("--states", "INT"), opt("--max-units", "INT"),
                   opt("--budget", "FLOAT", skip=["1e9", "1e308"]),
                   opt("--jobs", "INT"), opt("--function", "ENUM"), opt("--depth", "DEPTH"), opt("--out", "OUTDIR"),
                   opt("--target", "ENUM"), opt("--budget-lut", "INT"), opt("--budget-dsp", "INT"),
                   opt("--pnr-timeout", "FLOAT", extra=["--pnr"]), opt("--fma", "INT"), opt("--lat-fma", "INT")]),
        # the generated kernels of one graph timed on this machine: one batch size, one run, no Pinocchio (fast)
        dict(name="platforms", base=["platforms", "--robot", "planar2", "--function", "id", "--batch", "1", "--scalar",
                                     "double", "--repeats", "1", "--target-ms", "0.01", "--no-pinocchio", "--quiet",
                                     "--out", "{scratch}/pl"],
             opts=[opt("--robot", "ROBOT"), opt("--function", "ENUM"), opt("--out", "OUTDIR"), opt("--batch", "BATCH"),
                   opt("--scalar", "ENUM"), opt("--repeats", "INT"), opt("--target-ms", "FLOAT")]),
    ]


# Cases named in the review that found these bugs, each run in CI mode too. (id, argv, expected codes, prepare)
KNOWN = [
    ("known: schedule --mul 0", ["schedule", "--robot", "puma560", "--mul", "0", "--out", "{scratch}/o"], U),
    ("known: schedule --add ''", ["schedule", "--robot", "puma560", "--add", "", "--out", "{scratch}/o"], U),
    ("known: formulations counts --n 1000", ["formulations", "counts", "--n", "1000"], U),
    ("known: fpgen --count 2^31", ["fpgen", "--op", "add", "--count", "2147483648", "--out", "{scratch}/v.txt"], U),
    ("known: schedule bench:random:1e8", ["schedule", "--graph", "bench:random:100000000:1", "--out", "{scratch}/o"], E),
    ("known: schedule bench:random:1e9", ["schedule", "--graph", "bench:random:1e9:1", "--out", "{scratch}/o"], E),
    ("known: rtl fixed:4294967304.8", ["rtl", "--robot", "planar2", "--format", "fixed:4294967304.8",
                                       "--out", "{scratch}/rt"], E),
    ("known: control fixed:4294967304.8", ["control", "--robot", "planar2", "--format", "fixed:4294967304.8",
                                           "--out", "{scratch}/oc"], E),
    ("known: dfg --fixed fixed:4294967304.8", ["dfg", "--robot", "planar2", "--accuracy", "2", "--fixed",
                                               "fixed:4294967304.8", "--out", "{scratch}/o"], E),
    ("known: simulate --accelerator fixed:4294967304.8",
     ["simulate", "--robot", "planar2", "--t", "0.01", "--zero-torque", "--accelerator", "fixed:4294967304.8",
      "--out", "{scratch}/acc"], E),
    ("known: dynamics --qd 1e200,1e200", ["dynamics", "--robot", "planar2", "--qd", "1e200,1e200"], E),
    ("known: fpcheck empty vectors", ["fpcheck", "--op", "add", "--vectors", "{in}/empty.txt", "--engine", "systemc"],
     D),
    ("known: dynamics --q abc", ["dynamics", "--robot", "planar2", "--q", "abc"], U, "--q=abc"),
    ("known: formulations torque --q abc", ["formulations", "torque", "planar2", "--q", "abc"], U, "--q=abc"),
    ("known: formulations forward --q abc", ["formulations", "forward", "planar2", "--q", "abc"], U, "--q=abc"),
    ("known: mass --q abc", ["mass", "--robot", "planar2", "--q", "abc"], U, "--q=abc"),
    ("known: simulate --q0 abc", ["simulate", "--robot", "planar2", "--t", "0.01", "--zero-torque", "--q0", "abc"], U,
     "--q=abc"),
    ("known: rtl --ii 10000", ["rtl", "--robot", "planar2", "--ii", "10000", "--out", "{scratch}/rt"], E),
    ("known: schedule --ii 10000", ["schedule", "--graph", "bench:hal", "--algo", "modulo", "--ii", "10000",
                                    "--out", "{scratch}/o"], E),
    ("known: mass --form abc", ["mass", "--robot", "planar2", "--form", "abc"], U),
    ("known: area --pnr without --design", ["area", "--pnr"], U),
    ("known: area --fpga without --design", ["area", "--fpga"], U),
    ("known: area --hierarchical without --design", ["area", "--hierarchical"], U),
    ("known: area --timing --no-timing", ["area", "--timing", "--no-timing", "--out", "{scratch}/ar"], U),
    ("known: --version", ["--version"], (0,)),
    ("known: no subcommand", [], U),
    ("known: unknown subcommand", ["nosuchcommand"], U),
    ("known: empty subcommand", [""], U),
    ("known: unknown option", ["--no-such-option"], U),
    ("known: --base unknown link (URDF)", ["--base", "nosuchlink", "dynamics", "--robot", "{in}/rx90.urdf"], E),
    ("known: --tip unknown link (URDF)", ["--tip", "nosuchlink", "dynamics", "--robot", "{in}/rx90.urdf"], E),
    ("known: --base empty (URDF)", ["--base", "", "dynamics", "--robot", "{in}/rx90.urdf"], U),
    ("known: study --fma", ["study", "--fma", "--out", "{scratch}/st"], U),
    ("known: study --lat-fma", ["study", "--lat-fma", "--out", "{scratch}/st"], U),
    ("known: campaign --local --slurm", ["campaign", "{in}/camp.yaml", "--out", "{scratch}/camp", "--local",
                                         "--slurm"], U),
    ("known: campaign-task no args", ["campaign-task"], U),
    ("known: campaign-task bogus", ["campaign-task", "bogus"], U),
    ("known: campaign-task run short", ["campaign-task", "run", "{scratch}/camp"], U),
    ("known: campaign-task run extra", ["campaign-task", "run", "{scratch}/camp", "explore", "0", "x"], U),
    ("known: campaign-task report missing dir", ["campaign-task", "report", "{in}/missing-camp"], D),
    ("known: campaign-task report garbage dir", ["campaign-task", "report", "{in}/dir"], D),
    ("known: campaign-task design 2^31", ["campaign-task", "design", "{scratch}/camp", "2147483648"], U),
    ("known: sim --vcd with systemc", ["sim", "--out", "{scratch}/design", "--engine", "systemc", "--random", "2",
                                       "--vcd", "{scratch}/t.vcd"], U),
    ("known: sim --random 2^31", ["sim", "--out", "{scratch}/design", "--engine", "systemc", "--random",
                                  "2147483648"], U),
    ("known: sim --random 1e7 (time)", ["sim", "--out", "{scratch}/design", "--engine", "systemc", "--random",
                                        "10000000", "--quiet"], U),
    # A valid step, but 10^12 steps of the default 1 s: refused before any work ("more than 1e7 steps"), not run.
    ("known: simulate --dt 1e-12 (time)", ["simulate", "--robot", "planar2", "--zero-torque", "--dt", "1e-12"], U),
    ("known: simulate --t 1e9 (time)", ["simulate", "--robot", "planar2", "--zero-torque", "--t", "1e9"], E),
    # The default time limit is 60 s (longer than a harness run may take): the case checks that a limit ends the
    # search with the best schedule and exit 0; sched.cli.ilp_time_limit checks the same at 2 s.
    ("known: schedule --algo ilp planar2 (time)", ["schedule", "--robot", "planar2", "--algo", "ilp",
                                                   "--time-limit", "5", "--out", "{scratch}/o"], V),
    ("known: explore 10^4 points (time)", ["explore", "--robot", "planar2", "--flavour", "general", "--mul", "1-100",
                                           "--add", "1-100", "--lat-mul", "1", "--lat-add", "1", "--pipelined", "1",
                                           "--no-plot", "--no-modulo", "--restarts", "1", "--jobs", "1",
                                           "--out", "{scratch}/ex"], V),
    ("known: fpgen --out /dev/full", ["fpgen", "--op", "add", "--count", "10", "--out", "/dev/full"], D),
    ("known: robot export --out /dev/full", ["robot", "export", "planar2", "--out", "/dev/full"], D),
    ("known: simulate --out /dev/full", ["simulate", "--robot", "planar2", "--t", "0.01", "--zero-torque",
                                         "--out", "/dev/full"], D),
]
KNOWN_PREPARE = {"sim": [("copy", "design", "design")],
                 "campaign-task": [("neaccel", ["campaign", "{in}/camp.yaml", "--out", "{scratch}/camp",
                                                "--plan-only"])]}
SLOW_KNOWN = {"known: formulations counts --n 1000", "known: fpgen --count 2^31", "known: schedule bench:random:1e8",
              "known: area --pnr without --design", "known: area --fpga without --design",
              "known: area --hierarchical without --design", "known: area --timing --no-timing",
              "known: sim --random 1e7 (time)", "known: simulate --dt 1e-12 (time)", "known: simulate --t 1e9 (time)",
              "known: schedule --algo ilp planar2 (time)", "known: explore 10^4 points (time)"}


def apply(base, name, value, extra, drop, defaults):
    """The base argv with option `name` set to `value` (replaced, or appended), `drop`ped options (and their values)
    removed and `extra` appended; @placeholders take their default unless `name` is one."""
    flags = {"--plan-only", "--zero-torque", "--forward", "--quick", "--no-plot", "--no-modulo", "--quiet", "--dfg",
             "--local", "--slurm", "--table86", "--all", "--cached-only", "--no-timing"}
    out, i = [], 0
    while i < len(base):
        a = base[i]
        if a in drop:
            i += 1 if a in flags else 2
            continue
        if a == name and not name.startswith("@"):
            out += [a, value]
            i += 2
            continue
        if a.startswith("@"):
            out.append(value if a == name else defaults.get(a, "planar2"))
            i += 1
            continue
        out.append(a)
        i += 1
    # extra options replace the same options in the base
    j = 0
    while j < len(extra):
        e = extra[j]
        has_value = e not in flags
        if e in out and e != name:
            k = out.index(e)
            if has_value:
                out[k + 1] = extra[j + 1]
            j += 2 if has_value else 1
            continue
        out += extra[j:j + (2 if has_value else 1)]
        j += 2 if has_value else 1
    if name and not name.startswith("@") and name not in base:
        out += [name, value]
    return out


def cases(options=None):
    """Every case; `options` is hostile.tool_options() (neaccel --list-options), which adds the FLAG cases."""
    classes = globals()
    out = []
    for c in commands():
        prepare = c.get("prepare", [])
        defaults = c.get("defaults", {})
        cmd = c["name"]
        if cmd == "sim":  # the backpressure and parameters-loaded-once designs for --sink-stalls, --robot-change
            prepare = prepare + [("copy", "design_bp", "design_bp"), ("copy", "design_load", "design_load")]
        base = apply(c["base"], "", "", [], [], defaults)
        if c.get("run_base", True):
            out.append(dict(id=f"{cmd} (base)", command=cmd, argv=base, expect=(0,), prepare=prepare, base=True,
                            valid=True, slow=c.get("slow", False)))
        # every command: an unknown option and an extra positional argument are usage errors
        out.append(dict(id=f"{cmd} --no-such-option", command=cmd, argv=base + ["--no-such-option"], expect=U,
                        prepare=prepare))
        out.append(dict(id=f"{cmd} extra-positional", command=cmd, argv=base + ["extra-positional"], expect=U,
                        prepare=prepare))
        for o in c["opts"]:
            for label, value, expect in classes[o["cls"]]:
                if label in o["skip"]:
                    continue
                if label in o["ok"]:
                    expect = V
                valid = expect == V
                why = ""
                if label in o["fails"]:  # valid in itself, refused by this command for the stated reason
                    expect, why = o["fails"][label]
                    valid = False
                if not c.get("run_base", True) and 0 in expect:
                    continue  # a valid value would run the whole (slow) command
                argv = apply(c["base"], o["name"], value, o["extra"], o["drop"], defaults)
                group = group_of(o["cls"], o["name"], label) if o["grouped"] else None
                out.append(dict(id=f"{cmd} {o['name']}{o['tag']}={label}", command=cmd, argv=argv, expect=expect,
                                prepare=prepare, group=group, slow=c.get("slow", False), valid=valid, why=why,
                                option=o["name"], label=label, cls=o["cls"]))
        # every flag neaccel registers for the command (--list-options): given a value, a usage error
        tool = (options or {}).get("" if cmd == "neaccel" else cmd, [])
        for f in tool:
            if f["kind"] != "flag" or set(f["names"]) & HELP_NAMES or (cmd, f["names"][0]) in EXEMPT:
                continue
            flag = f["names"][0]
            out.append(dict(id=f"{cmd} {flag}=abc", command=cmd, argv=base + [flag + "=abc"], expect=U,
                            prepare=prepare, slow=c.get("slow", False), option=flag, label="abc", cls="FLAG"))
    names = {c["name"] for c in commands()}
    for k in KNOWN:
        cid, argv, expect = k[0], k[1], k[2]
        group = k[3] if len(k) > 3 else None
        command = " ".join(argv[:2]) if argv[:1] in (["robot"], ["formulations"]) else (argv[0] if argv else "")
        if command not in names:  # global options, no or an unknown subcommand
            command = "neaccel"
        out.append(dict(id=cid, command=command, argv=argv, expect=expect, known=True, group=group,
                        prepare=KNOWN_PREPARE.get(command, []), slow=cid in SLOW_KNOWN, valid=expect == V))
    return out


# Input files of the runs (content None: a directory).
def fixtures(src):
    rng = random.Random(20261126)
    garbage = bytes(rng.randrange(256) for _ in range(4096)) + b"\0\xff\xfe{[<"
    planar2 = open(f"{src}/data/robots/planar2.yaml", encoding="utf-8").read()
    camp = ("name: hostile\nrobots:\n  - planar2\nflavours: [custom]\nformats: [fp32]\nunits: {mul: 1, add: 1}\n"
            "latencies: {mul: 1, add: 1}\npipelined: [1]\narchitectures: [microcoded]\n"
            "explore: {shards: 1, restarts: 1}\ndesigns:\n  choose: [fastest]\n  verify: [systemc]\n  states: 2\n")
    files = {
        "dir": None, "dir.yaml": None, "dir.json": None,
        "empty.txt": "", "empty.yaml": "", "empty.json": "", "empty.csv": "",
        "garbage": garbage, "garbage.txt": garbage, "garbage.yaml": garbage, "garbage.urdf": garbage,
        "garbage.json": garbage, "garbage.dot": garbage, "garbage.csv": garbage,
        WEIRD + ".yaml": garbage, WEIRD + ".json": garbage, WEIRD + ".txt": garbage,
        "object.json": "{}\n",
        "nan_mass.yaml": planar2.replace("mass: 2.0", "mass: .nan"),
        "no_links.yaml": "name: nolinks\ndh: standard\ngravity: [0, 0, -9.81]\nlinks: []\n",
        "rx90.urdf": open(f"{src}/tests/ref_io/data/rx90.urdf", encoding="utf-8").read(),
        "mimic_cycle.urdf": open(f"{src}/tests/ref_io/data/urdf/mimic_cycle.urdf", encoding="utf-8").read(),
        "mimic_nan.urdf": open(f"{src}/tests/ref_io/data/urdf/mimic_nan.urdf", encoding="utf-8").read(),
        "vec_badhex.txt": "3F80000G 3F800000 40000000 00\n",
        "vec_short.txt": "3F800000 3F800000\n",
        "vec_longline.txt": "3F800000 " * 200000 + "\n",
        "vec_fma.txt": "3F800000 3F800000 3F800000 40000000 00\n",
        "tau_nan.csv": "0,nan,0\n1,0,0\n",
        "tau_text.csv": "t,tau1,tau2\nabc,1,2\n",
        "tau_cols.csv": "0,1\n1,2\n",
        "tau_backwards.csv": "1,0,0\n0,0,0\n",
        "states_nan.txt": "nan 0 0 0 0 0\n",
        "states_short.txt": "1 2\n",
        "states_text.txt": "a b c d e f\n",
        "header_only.csv": "robot,flavour,mul,add,lat_mul,lat_add,pipelined\n",
        "camp.yaml": camp,
        "camp_bigrange.yaml": camp.replace("units: {mul: 1, add: 1}", "units: {mul: 1-2147483647, add: 1}"),
        "camp_states.yaml": camp.replace("states: 2", "states: 2147483648"),
        "camp_shards.yaml": camp.replace("shards: 1,", "shards: 1e9,"),
        "camp_format.yaml": camp.replace("formats: [fp32]", "formats: [\"fixed:4294967304.8\"]"),
        "camp_name.yaml": camp.replace("name: hostile", "name: \"$(touch PWNED)\""),
        "camp_deep.yaml": camp.replace("pipelined: [1]", "pipelined: " + "[" * 100000 + "]" * 100000),
        "camp_robotdir.yaml": camp.replace("  - planar2", "  - file: dir"),
        "design_garbage/manifest.json": garbage,
        "design_object/manifest.json": "{}\n",
    }
    return files


# Inputs written by neaccel itself before the runs (valid ones): vectors, and designs for sim and area --design.
GENERATED = [
    ("vec_add.txt", ["fpgen", "--op", "add", "--count", "20", "--out", "{in}/vec_add.txt"]),
    ("design", ["rtl", "--robot", "planar2", "--out", "{in}/design"]),
    ("design_bp", ["rtl", "--robot", "planar2", "--ii", "min", "--backpressure", "--out", "{in}/design_bp"]),
    ("design_load", ["rtl", "--robot", "planar2", "--params", "load", "--out", "{in}/design_load"]),
]
