"""The scenario matrix: the papers' machines, seeded random ones and network levels above the nodes, simulated by
Strata; real runs for every MPI.

Not the full cross product (machines x nodes x placement x binding x np): each dimension is covered (every machine
at least twice, every binding on several machines, 1, 2 and 4 nodes, slot and node placement) while the whole
Strata run stays within a few minutes on a 2-core machine. Scenario fields: runner/scenario.py.
"""
import random

from runner import machine

# The hierarchical-model paper's node (Goglin et al. 2018, Figure 1): 2 packages, each with its NUMA node and L3,
# an L2 per pair of cores, 8 cores.
HIER = "pack:2 [numa] l3:1 l2:2 l1:2 core:1 pu:1"
# The persistent-collectives paper's Figure 3 node (Bouhrour et al.): 2 NUMA nodes of 3 cores; no caches given.
MPC = "pack:2 [numa] core:3 pu:1"
# Its test machine's Sandy Bridge node: "two 8-core sockets" (one NUMA node each); again no caches given.
SNB = "pack:2 [numa] core:8 pu:1"

SEED = 20240611
RANDOM_MACHINES = 7
MAX_PUS = 64


def random_desc(rng, index):
    """A random machine; the index fixes the features every sample must show across the set (some without L3,
    some with several NUMA nodes per package) and rng draws the fan-outs, cache sharing and PUs per core."""
    with_l3 = index % 3 != 2
    numa_per_package = rng.choice([2, 3]) if index % 2 else 1
    while True:
        levels = [f"pack:{rng.choice([1, 2, 2, 4])}"]
        if numa_per_package > 1:
            # Several NUMA nodes per package: below one L3 each, or below an hwloc Group when there is no L3.
            levels += [f"l3:{numa_per_package} [numa]"] if with_l3 else [f"numa:{numa_per_package}"]
        else:
            levels += ["[numa]"] + ([f"l3:{rng.choice([1, 1, 2])}"] if with_l3 else [])
        cores = rng.choice([1, 2, 4])
        if rng.random() < 0.75:
            levels.append(f"l2:{rng.choice([1, 2, 3, 4])}")
        else:
            cores = rng.choice([2, 3, 4, 6])
        levels += [f"l1:{cores} core:1"] if rng.random() < 0.6 else [f"core:{cores}"]
        levels.append(f"pu:{rng.choice([1, 1, 2, 4])}")
        desc = " ".join(levels)
        # Loading it checks that hwloc accepts it (BadMachine otherwise: a bug here, reported by the runner).
        if 4 <= len(machine.load(desc).pus) <= MAX_PUS:
            return desc


def simulated(name, desc, nodes, map_by, binding, np, **extra):
    """A simulated scenario named machine-nNODES-MAP-BINDING-npNP (an explicit cpu list binding needs a label),
    with network levels machine-nNODES-NETWORK-MAP-...: "rack:2 switch:3,1,1,1" reads rack2-switch3.1.1.1."""
    label = binding if isinstance(binding, str) else extra.pop("label")
    network = extra.get("network")
    tree = "-" + network.replace(":", "").replace(",", ".").replace(" ", "-") if network else ""
    return dict(name=f"{name}-n{nodes}{tree}-{map_by}-{label}-np{np}", kind="simulated", np=np, desc=desc,
                nodes=nodes, map_by=map_by, binding=binding, **extra)


def papers():
    return [
        # Goglin et al. section 5.1: 32 ranks on 4 nodes, rank 8k+i on core i of node k.
        simulated("hier", HIER, 4, "slot", "core", 32),
        # Section 5.2: ranks 0,1 on cores 0,1; ranks 2,3 on L2 #1; ranks 4..7 on NUMA node 1.
        simulated("hier", HIER, 1, "slot", ["0", "1", "2-3", "2-3", "4-7", "4-7", "4-7", "4-7"], 8, label="paper52"),
        simulated("hier", HIER, 2, "node", "l2", 8),
        simulated("hier", HIER, 1, "slot", "none", 4),
        simulated("hier", HIER, 4, "node", "l3", 8),
        simulated("hier", HIER, 2, "slot", "random", 8, seed=1),
        # Bouhrour et al. Figure 3: 18 ranks on 3 nodes of 2 NUMA nodes x 3 cores.
        simulated("mpc", MPC, 3, "slot", "core", 18),
        simulated("mpc", MPC, 2, "node", "package", 8),
        simulated("mpc", MPC, 1, "slot", "random", 6, seed=2),
        simulated("snb", SNB, 1, "slot", "core", 12),
        simulated("snb", SNB, 2, "node", "package", 4),
    ]


def randoms():
    """Scenarios on the random machines: the binding, node count and placement cycle across them so that every
    value meets several machines; a binding the machine lacks (no L3) moves on to the next one."""
    rng = random.Random(SEED)
    bindings = ["core", "l2", "l3", "package", "random", "none"]
    out, k = [], 0
    for index in range(RANDOM_MACHINES):
        desc = random_desc(rng, index)
        node = machine.load(desc)
        for _ in range(3):
            nodes, map_by = (1, 2, 4)[k % 3], ("slot", "node")[k // 3 % 2]
            binding = bindings[k % len(bindings)]
            while binding in machine.BINDING_LEVELS and not node.has(machine.BINDING_LEVELS[binding]):
                k += 1
                binding = bindings[k % len(bindings)]
            np = nodes * rng.randint(2 if nodes == 1 else 1, {1: 8, 2: 6, 4: 4}[nodes])
            extra = {"seed": rng.randrange(1000)} if binding == "random" else {}
            out.append(simulated(f"rand{index}", desc, nodes, map_by, binding, np, **extra))
            k += 1
    return out


def networks():
    """Network levels above the nodes (Strata's mpiexec --network; simulated, so Strata's alone): the walk from
    WORLD starts at Rack, then Switch, then the node. A regular tree, an uneven one (the hierarchical-model paper's
    NTW24E5 has switches of 12, 6, 4 and 2 nodes) with ranks dealt round robin so that every group of WORLD is
    interleaved, and unbound processes under switches alone."""
    return [
        # 2 racks of 2 switches, one node each: Switch and Node coincide, and the walk must not report both.
        simulated("hier", HIER, 4, "slot", "core", 8, network="rack:2 switch:2"),
        # Rack 0: switches of 3 and 1 nodes; rack 1: two switches of 1 node. 12 ranks, rank r on node r % 6.
        simulated("hier", HIER, 6, "node", "random", 12, seed=3, network="rack:2 switch:3,1,1,1"),
        # Switches of 2 nodes each, no racks; 2 unbound ranks per node.
        simulated("mpc", MPC, 4, "slot", "none", 8, network="switch:2"),
    ]


def real():
    """This machine, for every MPI: bound to cores, unbound, and 4 ranks bound to cores oversubscribed."""
    return [
        dict(name="real-core-np2", kind="real", np=2, binding="core"),
        dict(name="real-none-np2", kind="real", np=2, binding="none"),
        dict(name="real-core-oversub-np4", kind="real", np=4, binding="core", oversubscribe=True),
    ]


def all_scenarios():
    return papers() + randoms() + networks() + real()
