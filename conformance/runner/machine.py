"""A simulated node: the instances of each hwloc level as sets of PU numbers, and hwloc's cpu list syntax.

The machine comes from hwloc itself (`lstopo-no-graphics --if synthetic ... --of xml`) rather than from a parser of
our own, so the runner and the programs (which load the same DESC with hwloc) cannot disagree about it. In a
synthetic machine logical and OS PU numbers are the same, and the PUs of any subtree are contiguous.
"""
import functools
import subprocess
import xml.etree.ElementTree as ET

LSTOPO = "lstopo-no-graphics"

# The levels the programs check, top to bottom (README "Levels"), and the names scenarios bind with.
LEVELS = ("Machine", "Package", "NUMANode", "L3Cache", "L2Cache", "L1Cache", "Core", "PU")
BINDING_LEVELS = {"machine": "Machine", "package": "Package", "numa": "NUMANode", "l3": "L3Cache",
                  "l2": "L2Cache", "l1": "L1Cache", "core": "Core", "pu": "PU"}


class BadMachine(Exception):
    pass


class Machine:
    """instances[level]: that level's instances in hwloc logical order, each a frozenset of PU numbers."""

    def __init__(self, desc, instances):
        self.desc = desc
        self.instances = instances
        self.pus = sorted(instances["Machine"][0])

    def has(self, level):
        return bool(self.instances.get(level))


def parse_cpuset(text):
    """hwloc XML bitmap ("0x000000ff" or "0xffffffff,0x0000000f", most significant word first) -> PU set."""
    value = int("".join(word.strip()[2:] for word in text.split(",")), 16)
    return frozenset(bit for bit in range(value.bit_length()) if value >> bit & 1)


@functools.lru_cache(maxsize=None)
def load(desc):
    """The synthetic machine DESC, or BadMachine with hwloc's complaint."""
    try:
        done = subprocess.run([LSTOPO, "--if", "synthetic", "--input", desc, "--of", "xml", "-"],
                              capture_output=True, text=True, timeout=30)
    except FileNotFoundError:
        raise BadMachine(f"{LSTOPO} not found (install hwloc)")
    except subprocess.TimeoutExpired:
        raise BadMachine(f"{LSTOPO} timed out")
    if done.returncode != 0:
        lines = [line for line in done.stderr.splitlines() if line.strip()]
        raise BadMachine(f"hwloc rejects DESC: {lines[0] if lines else 'exit status %d' % done.returncode}")
    instances = {level: [] for level in LEVELS}
    # Document order is depth-first, which is hwloc's logical order within each type.
    for obj in ET.fromstring(done.stdout).iter("object"):
        level = obj.get("type")
        if level in instances:
            instances[level].append(parse_cpuset(obj.get("cpuset")))
    return Machine(desc, instances)


def format_list(pus):
    """{0,1,2,3,8} -> "0-3,8" (hwloc list syntax)."""
    parts, run = [], []
    for pu in sorted(pus):
        if run and pu != run[-1] + 1:
            parts.append(_range(run))
            run = []
        run.append(pu)
    if run:
        parts.append(_range(run))
    return ",".join(parts)


def _range(run):
    return str(run[0]) if len(run) == 1 else f"{run[0]}-{run[-1]}"


def parse_list(text):
    """"0-3,8" -> {0,1,2,3,8}; ValueError on anything else (empty, reversed range, negative)."""
    pus = set()
    for part in text.split(","):
        first, _, last = part.strip().partition("-")
        if not first.isdigit() or (last and not last.isdigit()):
            raise ValueError(f"not an hwloc cpu list: {text!r}")
        low, high = int(first), int(last or first)
        if high < low:
            raise ValueError(f"reversed range in {text!r}")
        pus.update(range(low, high + 1))
    return frozenset(pus)
