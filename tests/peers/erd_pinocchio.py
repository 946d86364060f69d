#!/usr/bin/env python3
"""Every fixed-root robot of example-robot-data: neaccel against Pinocchio.

The example-robot-data package (in the project's virtual environment, pinned in requirements.txt) carries the URDFs
of real robots: arms, hands, quadrupeds, humanoids. For each URDF that Pinocchio loads with its root fixed
(pin.buildModelFromUrdf, no free flyer) this loads the same file with neaccel and compares, on random states from a
fixed seed, the joint torques (RNEA), the mass matrix (CRBA) and the forward dynamics (ABA), joint by joint (matched
by the name of the link each joint moves). A file neaccel refuses is listed with neaccel's one-line reason.
neaccel loads each file with --urdf-verbatim, the file's values as Pinocchio reads them (without it neaccel snaps
values written to 10-12 digits to exact right angles and zeros, and says by how much that moves the torques).

Usage: erd_pinocchio.py NEACCEL [--tolerance REL] [--states N] [--only NAME] [--markdown] [--expected FILE]
                         [--write-expected FILE]
Exit status: 0 when every compared file agrees within the tolerance and every file is where erd_expected.txt puts
it, 1 otherwise, 77 (skipped) when the virtual environment has neither pin nor example-robot-data (outside CI).

Expected outcome of each file (erd_expected.txt beside this script): every URDF of the pinned package, each either
`compared` or not compared with its reason class (`refused:mimic-joint`, `refused:negative-inertia`, ...,
`pinocchio-refuses`, `no-movable-joint`). A file that moves between classes fails the test, named with both classes
and neaccel's reason: an import regression that refuses every URDF would otherwise pass (a refusal is not a
disagreement), and so would a file Pinocchio stops loading. The test also fails when fewer files are compared than
the list expects, when the package holds a URDF the list does not name, or the list names one the package lacks.
A deliberate change (a refusal lifted, a new package version) is recorded with --write-expected FILE, which writes
the list from this run; the diff of the list is the review of the change.

Agreement: max |neaccel - pinocchio| / max(1, max |pinocchio|) per quantity and state, the largest over the states,
for the torques and the mass matrix. Forward dynamics is judged by its backward error: Pinocchio's RNEA of neaccel's
accelerations against the torques they were computed from (the same measure), because the accelerations themselves
can differ by up to cond(M) times the rounding where the mass matrix is ill-conditioned (hands, fingers); the
forward difference is printed beside it.

No file has an exception: neaccel keeps each joint's placement as the file writes it (no conversion to
Denavit-Hartenberg parameters, which lost up to six digits where consecutive axes are almost parallel).

Mimic joints (a joint following another, gripper fingers): compared in the generalized coordinates, the joints
without a mimic, against Pinocchio's mimic joints (buildModelFromUrdf(path, mimic=True)); where Pinocchio's reader
refuses the order of a file's mimic joints, against Pinocchio with every joint independent and the coupling applied
here (tau = G^T tau(G q + o, G qd, G qdd), M = G^T M G). The detail column says which.
"""
import argparse
import glob
import json
import math
import os
import random
import subprocess
import sys


def venv_dir():
    here = os.path.dirname(os.path.abspath(__file__))
    return os.path.abspath(os.environ.get("NEACCEL_VENV") or os.path.join(here, "..", "..", ".venv"))


def venv_site():
    sites = sorted(glob.glob(os.path.join(venv_dir(), "lib", "python3*", "site-packages")))
    return sites[-1] if sites else None


GLOBAL = []  # neaccel options before the command (--urdf-verbatim)


def run(neaccel, args):
    p = subprocess.run([neaccel] + GLOBAL + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=120)
    if p.returncode != 0:
        lines = [line for line in p.stderr.splitlines() if line.startswith("neaccel: error:")]
        raise RuntimeError(lines[0][len("neaccel: error: "):] if lines else p.stderr.strip()[:300])
    return json.loads(p.stdout)


def csv(v):
    return ",".join(repr(float(x)) for x in v)


def rel(a, b):
    scale = max(1.0, max(abs(x) for x in b) if b else 1.0)
    return max((abs(x - y) for x, y in zip(a, b)), default=0.0) / scale


# neaccel's one-line refusal of a URDF -> the reason class kept in erd_expected.txt (first match wins). A refusal no
# pattern matches is "refused:other", which no expected entry uses: a new kind of refusal fails until it is named.
REFUSAL_CLASSES = [
    ("mimic-unknown-joint", "no joint of that name"),
    ("mimic-of-mimic", "a mimic of a mimic"),
    ("mimic-joint", "mimic joint"),
    ("negative-inertia", "include a negative one beyond rounding noise"),
    ("triangle-inequality", "triangle inequality"),
    ("floating-joint", "floating"),
    ("planar-joint", "planar"),
    ("zero-axis", "axis of zero length"),
    ("not-a-tree", "not a valid tree"),
]


def has_movable_mimic(path):
    """Whether a non-fixed joint of the URDF has a <mimic> element (Pinocchio then loads it with mimic=True)."""
    import xml.etree.ElementTree as ET
    try:
        root = ET.parse(path).getroot()
    except ET.ParseError:
        return False
    return any(j.find("mimic") is not None and j.get("type") not in (None, "fixed") for j in root.iter("joint"))


def outcome_class(result, detail):
    """The class of one row: compared (agrees or FAIL on the numbers), or why it was not compared."""
    if result in ("agrees", "FAIL"):
        return "compared"
    if result == "refused by neaccel":
        for cls, needle in REFUSAL_CLASSES:
            if needle in detail:
                return "refused:" + cls
        return "refused:other"
    if result == "Pinocchio does not load it":
        return "pinocchio-refuses"
    if result == "no movable joint":
        return "no-movable-joint"
    return "unknown:" + result


def read_expected(path):
    """erd_expected.txt: `FILE CLASS` per line, `#` comments. Returns {file: class}."""
    out = {}
    with open(path, encoding="utf-8") as f:
        for no, line in enumerate(f, 1):
            text = line.split("#", 1)[0].split()
            if not text:
                continue
            if len(text) != 2:
                raise SystemExit(f"erd_pinocchio: {path}:{no}: expected `FILE CLASS`, got {line.strip()!r}")
            if text[0] in out:
                raise SystemExit(f"erd_pinocchio: {path}:{no}: {text[0]} listed twice")
            out[text[0]] = text[1]
    return out


def check_expected(rows, expected, only):
    """The failures of the run against the expected classes (one line each, naming the file), and the counts."""
    problems = []
    got = {r[0]: (outcome_class(r[1], r[2]), r[2]) for r in rows}
    want = {f: c for f, c in expected.items() if not only or only in f}
    for f in sorted(set(want) | set(got)):
        if f not in got:
            problems.append(f"{f}: listed as {want[f]} in the expected list, but the package has no such URDF")
        elif f not in want:
            problems.append(f"{f}: {got[f][0]}, but not in the expected list (a new file: add it)")
        elif got[f][0] != want[f]:
            problems.append(f"moved: {f}: expected {want[f]}, now {got[f][0]}" +
                            (f" ({got[f][1][:200]})" if got[f][1] and got[f][0] != "compared" else ""))
    n_want = sum(1 for c in want.values() if c == "compared")
    n_got = sum(1 for c, _ in got.values() if c == "compared")
    if n_got < n_want:
        problems.append(f"{n_got} files compared, fewer than the {n_want} the expected list compares")
    return problems, n_got, n_want


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("neaccel")
    ap.add_argument("--tolerance", type=float, default=1e-12)
    ap.add_argument("--states", type=int, default=3)
    ap.add_argument("--only", default="")
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--snapped", action="store_true",
                    help="let neaccel snap near-exact values (default --urdf-verbatim: the file's values, as Pinocchio)")
    ap.add_argument("--expected", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "erd_expected.txt"),
                    help="the expected class of every file (default: erd_expected.txt beside this script)")
    ap.add_argument("--write-expected", default="",
                    help="write this run's classes to FILE (after a deliberate change; review its diff)")
    a = ap.parse_args()
    if not a.snapped:
        GLOBAL.append("--urdf-verbatim")
    # Pinocchio's Python module is set up by the virtual environment's own interpreter (its .pth files): run there.
    python = os.path.join(venv_dir(), "bin", "python3")
    if os.path.exists(python) and os.path.abspath(sys.prefix) != venv_dir():
        os.execv(python, [python] + sys.argv)
    site = venv_site()
    try:
        import numpy as np
        import pinocchio as pin
    except ImportError as e:
        print(f"erd_pinocchio: {'failed' if os.environ.get('CI') == 'true' else 'skipped'}: {e} "
              "(./run setup installs pin into .venv)")
        return 1 if os.environ.get("CI") == "true" else 77
    root = os.path.join(site or "", "cmeel.prefix", "share", "example-robot-data", "robots")
    files = sorted(glob.glob(os.path.join(root, "**", "*.urdf"), recursive=True))
    if not files:
        print(f"erd_pinocchio: {'failed' if os.environ.get('CI') == 'true' else 'skipped'}: no example-robot-data "
              f"URDFs under {root} (./run setup installs it)")
        return 1 if os.environ.get("CI") == "true" else 77
    rows, failures = [], 0
    for path in files:
        name = os.path.relpath(path, root)
        if a.only and a.only not in name:
            continue
        projected = False  # Pinocchio without its mimic joints, coupled by this script (see below)
        try:
            # A movable joint with <mimic>: Pinocchio's mimic joints (coupled to the joint they follow, no
            # coordinate of their own), as neaccel models them. Other files load as before. Pinocchio's URDF reader
            # refuses a mimic joint met before the joint it follows in its depth-first walk ("The parent joint of
            # the mimic joint is not in the kinematic tree"); such a file is loaded with every joint independent and
            # the coupling applied here: tau = G^T tau_free(G q + o, G qd, G qdd), M = G^T M_free G, which is what
            # Pinocchio's mimic joints compute.
            if has_movable_mimic(path):
                try:
                    model = pin.buildModelFromUrdf(path, mimic=True)
                except Exception as e:
                    if "not in the kinematic tree" not in str(e):
                        raise
                    model = pin.buildModelFromUrdf(path)
                    projected = True
            else:
                model = pin.buildModelFromUrdf(path)
        except Exception as e:  # Pinocchio does not load it: not compared
            rows.append((name, "Pinocchio does not load it", str(e).splitlines()[0][:120] if str(e) else ""))
            continue
        if model.nv == 0:
            rows.append((name, "no movable joint", ""))
            continue
        try:
            robot = run(a.neaccel, ["robot", "show", path, "--json"])
        except RuntimeError as e:
            rows.append((name, "refused by neaccel", str(e)))
            continue
        except subprocess.TimeoutExpired:
            rows.append((name, "FAIL", "neaccel did not answer in 120 s"))
            failures += 1
            continue
        # Pinocchio's joint (and its q / v indices) for each neaccel link, by the name of the link it moves.
        order = []
        bad = ""
        for link in robot["links"]:
            fid = model.getFrameId(link["name"], pin.FrameType.BODY)
            if fid >= len(model.frames):
                bad = f"Pinocchio has no frame '{link['name']}'"
                break
            frame = model.frames[fid]
            jid = frame.parentJoint if hasattr(frame, "parentJoint") else frame.parent
            order.append(jid)
        if not bad and (len(set(order)) != len(order) or len(order) != model.njoints - 1):
            bad = f"joints do not match ({len(order)} neaccel links, {model.njoints - 1} Pinocchio joints)"
        if bad:
            rows.append((name, "FAIL", bad))
            failures += 1
            continue
        # The generalized coordinates: neaccel's links without a mimic (robot.hpp Mimic), in link order; Pinocchio's
        # mimic joints have no velocity index of their own (nv = 0) and must be the same joints.
        links = robot["links"]
        coords = [k for k, link in enumerate(links) if "mimic" not in link]
        if any((model.joints[jid].nv == 0) != ("mimic" in link and not projected) for jid, link in zip(order, links)):
            rows.append((name, "FAIL", "neaccel and Pinocchio couple different joints"))
            failures += 1
            continue
        mimic = len(coords) < len(order)
        full_order = order
        order = [order[k] for k in coords]
        # projected: G (links x coordinates) and the offsets, from neaccel's description of each mimic joint.
        G = np.zeros((len(links), len(coords)))
        offset = np.zeros(len(links))
        for k, link in enumerate(links):
            if "mimic" in link:
                G[k, coords.index(link["mimic"]["link"])] = link["mimic"]["multiplier"]
                offset[k] = link["mimic"]["offset"]
            else:
                G[k, coords.index(k)] = 1.0
        rng = random.Random(20261126)
        worst = {"tau": 0.0, "M": 0.0, "fd": 0.0, "qdd": 0.0}
        fd_note = ""
        data = model.createData()
        try:
            for _ in range(a.states):
                n = len(order)
                q = [rng.uniform(-1, 1) for _ in range(n)]
                qd = [rng.uniform(-1, 1) for _ in range(n)]
                qdd = [rng.uniform(-1, 1) for _ in range(n)]
                qp = np.zeros(model.nq)
                vp, ap_, = np.zeros(model.nv), np.zeros(model.nv)
                if projected:  # every link's joint, mimic joints at G q + offset
                    n_links = len(full_order)
                    qf = list(G @ np.array(q) + offset)
                    qdf, qddf = list(G @ np.array(qd)), list(G @ np.array(qdd))
                    for k, jid in enumerate(full_order):
                        j = model.joints[jid]
                        if j.nq == 2:
                            qp[j.idx_q], qp[j.idx_q + 1] = math.cos(qf[k]), math.sin(qf[k])
                        else:
                            qp[j.idx_q] = qf[k]
                        vp[j.idx_v], ap_[j.idx_v] = qdf[k], qddf[k]
                    fidx = [model.joints[jid].idx_v for jid in full_order]
                    tau_f = pin.rnea(model, data, qp, vp, ap_).copy()
                    M_f = pin.crba(model, data, qp)
                    M_f = np.triu(M_f) + np.triu(M_f, 1).T
                    Mfl = np.array([[M_f[fidx[r], fidx[c]] for c in range(n_links)] for r in range(n_links)])
                    M_r = G.T @ Mfl @ G
                    tau_r = G.T @ np.array([tau_f[i] for i in fidx])
                    h_f = pin.rnea(model, data, qp, vp, np.zeros(model.nv)).copy()
                    h_r = G.T @ np.array([h_f[i] for i in fidx])
                    tau_pin = [float(x) for x in tau_r]
                    tau_n = run(a.neaccel, ["dynamics", "--robot", path, "--q", csv(q), "--qd", csv(qd), "--qdd",
                                            csv(qdd), "--json"])["tau"]
                    m_n = run(a.neaccel, ["mass", "--robot", path, "--q", csv(q), "--json"])
                    m_n = m_n["M"] if "M" in m_n else m_n["mass_matrix"]
                    worst["tau"] = max(worst["tau"], rel(tau_n, tau_pin))
                    worst["M"] = max(worst["M"], rel([m_n[r][c] for r in range(n) for c in range(n)],
                                                     [float(M_r[r, c]) for r in range(n) for c in range(n)]))
                    try:
                        qdd_n = run(a.neaccel, ["dynamics", "--robot", path, "--forward", "--q", csv(q), "--qd",
                                                csv(qd), "--tau", csv(tau_pin), "--json"])["qdd"]
                    except RuntimeError as e:
                        if "singular" not in str(e):
                            raise
                        fd_note = "forward dynamics refused: " + str(e)[:100]
                        continue
                    qdd_r = np.linalg.solve(M_r, tau_r - h_r)
                    an = np.zeros(model.nv)
                    for k, i in enumerate(fidx):
                        an[i] = float(G[k] @ np.array(qdd_n))
                    back = pin.rnea(model, data, qp, vp, an)
                    back_r = G.T @ np.array([back[i] for i in fidx])
                    worst["fd"] = max(worst["fd"], rel([float(x) for x in back_r], tau_pin))
                    worst["qdd"] = max(worst["qdd"], rel(qdd_n, [float(x) for x in qdd_r]))
                    continue
                for k, jid in enumerate(order):
                    j = model.joints[jid]
                    if j.nq == 2:  # continuous joint: (cos, sin)
                        qp[j.idx_q], qp[j.idx_q + 1] = math.cos(q[k]), math.sin(q[k])
                    else:
                        qp[j.idx_q] = q[k]
                    vp[j.idx_v], ap_[j.idx_v] = qd[k], qdd[k]
                tau_p = pin.rnea(model, data, qp, vp, ap_)
                M_p = pin.crba(model, data, qp)
                M_p = np.triu(M_p) + np.triu(M_p, 1).T
                idx = [model.joints[jid].idx_v for jid in order]
                tau_pin = [float(tau_p[i]) for i in idx]
                if mimic:  # Pinocchio's ABA does not take mimic joints: its CRBA and RNEA, solved
                    h_p = pin.rnea(model, data, qp, vp, np.zeros(model.nv))
                    qdd_p = np.linalg.solve(M_p, tau_p - h_p)
                else:
                    qdd_p = pin.aba(model, data, qp, vp, tau_p).copy()
                tau_n = run(a.neaccel, ["dynamics", "--robot", path, "--q", csv(q), "--qd", csv(qd), "--qdd", csv(qdd),
                                        "--json"])["tau"]
                m_n = run(a.neaccel, ["mass", "--robot", path, "--q", csv(q), "--json"])
                m_n = m_n["M"] if "M" in m_n else m_n["mass_matrix"]
                worst["tau"] = max(worst["tau"], rel(tau_n, tau_pin))
                m_flat_n = [m_n[r][c] for r in range(n) for c in range(n)]
                m_flat_p = [float(M_p[idx[r], idx[c]]) for r in range(n) for c in range(n)]
                worst["M"] = max(worst["M"], rel(m_flat_n, m_flat_p))
                try:
                    qdd_n = run(a.neaccel, ["dynamics", "--robot", path, "--forward", "--q", csv(q), "--qd", csv(qd),
                                            "--tau", csv(tau_pin), "--json"])["qdd"]
                except RuntimeError as e:
                    if "singular" not in str(e):
                        raise
                    fd_note = "forward dynamics refused: " + str(e)[:100]
                    continue
                an = np.zeros(model.nv)
                for k, i in enumerate(idx):
                    an[i] = qdd_n[k]
                back = pin.rnea(model, data, qp, vp, an)
                worst["fd"] = max(worst["fd"], rel([float(back[i]) for i in idx], tau_pin))
                worst["qdd"] = max(worst["qdd"], rel(qdd_n, [float(qdd_p[i]) for i in idx]))
        except (RuntimeError, subprocess.TimeoutExpired, KeyError) as e:
            rows.append((name, "FAIL", f"neaccel: {e}"))
            failures += 1
            continue
        err = max(worst["tau"], worst["M"], worst["fd"])
        ok = err <= a.tolerance
        failures += not ok
        result = "agrees" if ok else "FAIL"
        rows.append((name, result,
                     f"{len(order)} joints; tau {worst['tau']:.1e}, M {worst['M']:.1e}, forward dynamics "
                     f"{worst['fd']:.1e} (qdd itself {worst['qdd']:.1e})" +
                     (f"; {fd_note}" if fd_note else "") +
                     (f"; {len(links) - len(coords)} mimic joints" + (
                         ", Pinocchio's mimic joints" if not projected else
                         ", Pinocchio without mimic joints (it refuses their order), coupled by G") if mimic else "")))
    if a.markdown:
        print("| file | result | detail |\n|---|---|---|")
        for r in rows:
            print(f"| `{r[0]}` | {r[1]} | {r[2]} |")
    else:
        for r in rows:
            print(f"{r[1]:<28} {r[0]}: {r[2]}")
    compared = sum(1 for r in rows if r[1] in ("agrees", "FAIL"))
    print(f"erd_pinocchio: {compared} files compared, {failures} outside {a.tolerance:g} relative "
          f"({len(rows) - compared} not compared, reasons above)")
    if a.write_expected:
        with open(a.write_expected, "w", encoding="utf-8") as f:
            f.write(EXPECTED_HEADER)
            for r in sorted(rows):
                f.write(f"{r[0]} {outcome_class(r[1], r[2])}\n")
        print(f"erd_pinocchio: wrote the classes of {len(rows)} files to {a.write_expected}")
    problems, n_got, n_want = check_expected(rows, read_expected(a.expected), a.only)
    for p in problems:
        print(f"erd_pinocchio: {p}")
    print(f"erd_pinocchio: {n_got} compared of the {n_want} the expected list compares "
          f"({os.path.basename(a.expected)}); {len(problems)} files or counts differ from it")
    return 1 if failures or problems else 0


EXPECTED_HEADER = """\
# The expected outcome of every URDF of example-robot-data (the version pinned in requirements.txt) in
# tests/peers/erd_pinocchio.py: `FILE CLASS`. compared: neaccel and Pinocchio both load it with its root fixed and the
# test compares torques, mass matrix and forward dynamics (a disagreement fails on its own). Not compared:
# refused:CLASS (neaccel refuses the file; the class is read from its one-line reason, REFUSAL_CLASSES in the
# script), pinocchio-refuses (Pinocchio does not load it), no-movable-joint (nothing to compare). The test fails when
# a file's class differs from this list (naming the file), when fewer files are compared than listed here, or when
# a file is missing from either side. Written by `erd_pinocchio.py NEACCEL --write-expected FILE` after a deliberate
# change; docs/robot-format.md ("Real robots") gives the reasons in full.
"""


if __name__ == "__main__":
    sys.exit(main())
