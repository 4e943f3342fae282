"""A scenario's checks and its per-rank cpusets.

A scenario is a plain dict (scenarios.py, or a JSON file given with --scenario-file):
  simulated: name, kind="simulated", np, desc (hwloc synthetic), nodes (default 1), map_by slot|node (default
             slot), binding: "none", a level name (BINDING_LEVELS), "random" (with an integer seed), or a list of
             np hwloc cpu lists (PU numbers of the node's machine, one per world rank); network (optional):
             levels above the nodes in the syntax of Strata's `mpiexec --network` ("rack:2 switch:2",
             "switch:3,1,1,1"). Only Strata's mpiexec simulates, so every simulated scenario is Strata's alone.
  real:      name, kind="real", np, binding "core"|"none", oversubscribe (bool, default false).
resolve() turns one into the launch settings, or raises BadScenario with the reason shown in the results table.
"""
import random
import re

from runner import machine

SIMULATED_KEYS = {"name", "kind", "np", "desc", "nodes", "map_by", "binding", "seed", "network"}
REAL_KEYS = {"name", "kind", "np", "binding", "oversubscribe"}


class BadScenario(Exception):
    pass


def node_of(rank, np, nodes, map_by):
    """(node, local index on it) of a world rank: blocks of np/nodes ranks (slot) or round robin (node)."""
    if map_by == "node":
        return rank % nodes, rank // nodes
    per_node = np // nodes
    return rank // per_node, rank % per_node


def resolve(s):
    """The checked scenario with defaults filled in and `cpusets` (a list of np cpu lists, or None: unbound)."""
    if not isinstance(s, dict):
        raise BadScenario("not a JSON object")
    name = s.get("name")
    if not isinstance(name, str) or not re.fullmatch(r"[A-Za-z0-9._+-]+", name):
        raise BadScenario(f"name must be a word of letters, digits, . _ + - (got {name!r})")
    kind = s.get("kind")
    if kind not in ("simulated", "real"):
        raise BadScenario(f"kind must be simulated or real (got {kind!r})")
    unknown = sorted(set(s) - (SIMULATED_KEYS if kind == "simulated" else REAL_KEYS))
    if unknown:
        raise BadScenario(f"unknown key{'s' if len(unknown) > 1 else ''} {', '.join(unknown)}")
    np = s.get("np")
    if not _is_int(np) or np < 1:
        raise BadScenario(f"np must be a positive integer (got {np!r})")
    return _resolve_simulated(dict(s)) if kind == "simulated" else _resolve_real(dict(s))


def _resolve_real(s):
    s.setdefault("oversubscribe", False)
    if s.get("binding") not in ("core", "none"):
        raise BadScenario(f"a real scenario's binding is core or none (got {s.get('binding')!r})")
    if not isinstance(s["oversubscribe"], bool):
        raise BadScenario("oversubscribe must be true or false")
    s["cpusets"] = None
    return s


def _resolve_simulated(s):
    s.setdefault("nodes", 1)
    s.setdefault("map_by", "slot")
    np, nodes = s["np"], s["nodes"]
    if not isinstance(s.get("desc"), str) or not s["desc"].strip():
        raise BadScenario("desc (an hwloc synthetic description) is missing")
    if not _is_int(nodes) or nodes < 1:
        raise BadScenario(f"nodes must be a positive integer (got {nodes!r})")
    if np % nodes:
        raise BadScenario(f"{nodes} nodes do not divide np {np}")
    if s["map_by"] not in ("slot", "node"):
        raise BadScenario(f"map_by must be slot or node (got {s['map_by']!r})")
    # Whether the tree fits the node count is for mpiexec and the programs to say (one line each, exit status 2):
    # a third parser here could only disagree with them.
    if "network" in s and (not isinstance(s["network"], str) or not s["network"].strip()):
        raise BadScenario(f"network must be a non-empty description such as \"rack:2 switch:2\" (got {s['network']!r})")
    if "seed" in s and (s.get("binding") != "random" or not _is_int(s["seed"])):
        raise BadScenario("seed is an integer, and only with binding random")
    try:
        node = machine.load(s["desc"])
    except machine.BadMachine as e:
        raise BadScenario(str(e))
    s["cpusets"] = _cpusets(s, node)
    return s


def _cpusets(s, node):
    binding, np = s.get("binding"), s["np"]
    local = [node_of(r, np, s["nodes"], s["map_by"])[1] for r in range(np)]
    if binding == "none":
        return None
    if binding == "random":
        rng = random.Random(s.get("seed", 0))
        return [machine.format_list(random_binding(node, rng, r)) for r in range(np)]
    if isinstance(binding, str) and binding in machine.BINDING_LEVELS:
        level = machine.BINDING_LEVELS[binding]
        if not node.has(level):
            raise BadScenario(f"binding {binding}: the machine has no {level}")
        # Local rank i -> instance i, wrapping around when a node has more ranks than instances.
        instances = node.instances[level]
        return [machine.format_list(instances[i % len(instances)]) for i in local]
    if isinstance(binding, list):
        if len(binding) != np:
            raise BadScenario(f"{len(binding)} cpu lists for np {np}")
        for text in binding:
            try:
                pus = machine.parse_list(text) if isinstance(text, str) else None
            except ValueError as e:
                raise BadScenario(str(e))
            if pus is None:
                raise BadScenario(f"cpu list {text!r} is not a string")
            if not pus <= set(node.pus):
                raise BadScenario(f"cpu list {text} is outside the machine's PUs 0-{node.pus[-1]}")
        return list(binding)
    levels = ", ".join(machine.BINDING_LEVELS)
    raise BadScenario(f"binding must be none, random, one of {levels}, or a list of cpu lists (got {binding!r})")


def random_binding(node, rng, rank):
    """A non-uniform binding: one PU, PUs inside one core or one L2, or PUs spanning two packages.

    The kind cycles with the rank so that any four consecutive ranks cover all of them; the instances and PUs
    are drawn from rng.
    """
    kind = ("pu", "core", "l2", "span")[rank % 4]
    inst = node.instances
    if kind == "core":
        core = rng.choice(inst["Core"])
        if len(core) > 1:
            return _some(rng, core)
        kind = "l2"
    if kind == "l2":
        group = rng.choice(inst["L2Cache"] or inst["L3Cache"] or inst["Package"] or inst["Machine"])
        return _some(rng, group)
    if kind == "span":
        if len(inst["Package"]) >= 2:
            a, b = rng.sample(inst["Package"], 2)
            return frozenset({rng.choice(sorted(a)), rng.choice(sorted(b))})
        return inst["Machine"][0]
    return frozenset({rng.choice(node.pus)})


def _some(rng, pus):
    """At least two PUs of `pus` (all of them when it has two or fewer)."""
    pus = sorted(pus)
    if len(pus) <= 2:
        return frozenset(pus)
    return frozenset(rng.sample(pus, rng.randint(2, len(pus))))


def _is_int(value):
    return isinstance(value, int) and not isinstance(value, bool)
