"""Building the programs with an MPI's mpicc and launching a scenario with its mpiexec.

Three launcher styles: Strata's mpiexec (which also simulates machines), MPICH's hydra and Open MPI's mpirun.
Only Strata can run a simulated scenario; the others run the real ones, with their own binding options.
"""
import os
import re
import signal
import subprocess
import time

STYLES = ("strata", "hydra", "openmpi")
# Bounded so that the runner itself cannot hang on a wrapper; builds and version queries are short.
BUILD_TIMEOUT = 300
# Strata's mpiexec enforces the timeout itself (exit 124); the runner's own deadline comes this much later.
GRACE = 15


def guess_style(mpiexec):
    """hydra or openmpi from the name or the --version banner; anything else is taken for Strata's mpiexec."""
    name = os.path.basename(mpiexec).lower()
    if "mpich" in name or "hydra" in name:
        return "hydra"
    if "openmpi" in name or "orterun" in name or "prterun" in name:
        return "openmpi"
    try:
        banner = subprocess.run([mpiexec, "--version"], capture_output=True, text=True, timeout=20).stdout
    except (OSError, subprocess.TimeoutExpired):
        return "strata"
    if "HYDRA" in banner:
        return "hydra"
    if "Open MPI" in banner or "OpenRTE" in banner or "open-mpi" in banner:
        return "openmpi"
    return "strata"


def supports(style, s):
    """Simulated scenarios, network levels included, need Strata's mpiexec (--topology, --nodes, --network)."""
    return s["kind"] == "real" or style == "strata"


def program_args(s):
    """What the program is told (README "The programs' contract"): the same settings as the launcher got."""
    if s["kind"] == "real":
        return []
    cpusets = ";".join(s["cpusets"]) if s["cpusets"] else "none"
    args = ["--topology", s["desc"], "--nodes", str(s["nodes"]), "--map-by", s["map_by"], "--cpusets", cpusets]
    return args + (["--network", s["network"]] if s.get("network") else [])


def command(style, mpiexec, s, program, timeout, mutation=None):
    np = str(s["np"])
    core = s.get("binding") == "core"
    if style == "strata":
        cmd = [mpiexec, "-n", np, "--timeout", str(timeout)]
        if s["kind"] == "simulated":
            cmd += ["--topology", "synthetic:" + s["desc"], "--nodes", str(s["nodes"]), "--map-by", s["map_by"]]
            cmd += ["--cpu-list", ";".join(s["cpusets"])] if s["cpusets"] else []
            cmd += ["--network", s["network"]] if s.get("network") else []
        else:
            cmd += ["--bind-to", s["binding"]] + (["--oversubscribe"] if s["oversubscribe"] else [])
        cmd += ["-x", f"CONFORMANCE_MUTATION={mutation}"] if mutation else []
    elif style == "hydra":
        # Hydra binds round robin when there are more ranks than cores: no option needed to oversubscribe.
        cmd = [mpiexec, "-n", np, "-bind-to", s["binding"]]
        cmd += ["-genv", "CONFORMANCE_MUTATION", mutation] if mutation else []
    else:
        overload = core and s["oversubscribe"]
        cmd = [mpiexec, "-n", np, "--oversubscribe", "--bind-to", "core:overload-allowed" if overload else s["binding"]]
        cmd += ["--allow-run-as-root"] if os.geteuid() == 0 else []
        cmd += ["-x", f"CONFORMANCE_MUTATION={mutation}"] if mutation else []
    return cmd + [program] + program_args(s)


def run(cmd, timeout, stdout_path, stderr_path):
    """Run cmd in its own process group, output to files. Returns (exit status or None on timeout, seconds)."""
    start = time.monotonic()
    with open(stdout_path, "wb") as out, open(stderr_path, "wb") as err:
        proc = subprocess.Popen(cmd, stdout=out, stderr=err, stdin=subprocess.DEVNULL, start_new_session=True)
        try:
            status = proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            status = None
            # The launcher first, so that it can stop and reap its ranks; whatever is left is killed below.
            proc.terminate()
            try:
                proc.wait(timeout=3)
            except subprocess.TimeoutExpired:
                pass
        # Also after a normal exit: a launcher may leave ranks or daemons behind in its group.
        _signal_group(proc.pid, signal.SIGKILL)
        proc.wait()
    return status, time.monotonic() - start


def _signal_group(pgid, sig):
    try:
        os.killpg(pgid, sig)
    except (ProcessLookupError, PermissionError):
        pass


def build(mpicc, sources, output, log_path):
    """Compile and link one program (README: `<mpicc> -O1 -o PROG ... -lhwloc`). None, or the first error line."""
    cmd = [mpicc, "-O1", "-o", output] + sources + ["-lhwloc"]
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=BUILD_TIMEOUT)
    except subprocess.TimeoutExpired:
        return f"build timed out after {BUILD_TIMEOUT} s"
    with open(log_path, "w") as log:
        log.write(" ".join(cmd) + "\n" + done.stdout + done.stderr)
    if done.returncode == 0:
        return None
    # Paths relative to the sources' folder keep the message short: "hw_resource_info.c:12:5: error: ...".
    folder = os.path.dirname(sources[0]) + os.sep
    lines = [line.strip().replace(folder, "") for line in done.stderr.splitlines() if line.strip()]
    # The compiler's first error, or the linker's first undefined symbol (not collect2's summary).
    errors = [line for line in lines if re.search(r"\berror:|undefined reference", line)]
    return (errors or lines or [f"{os.path.basename(mpicc)} exit status {done.returncode}"])[0]


def stderr_tail(path):
    """The last non-empty line of a run's stderr, for error cells."""
    try:
        with open(path, errors="replace") as f:
            # Skip banner rules ("-----") that Open MPI's messages end with.
            lines = [line.strip() for line in f if any(c.isalnum() for c in line)]
    except OSError:
        return ""
    return lines[-1] if lines else ""
