/* What each process's hardware really is: the yardstick the conformance programs hold the library's splits
 * against. Never asked of the library under test (README.md, "Truth"):
 * - simulated (--topology DESC ...): every rank computes the placement of every rank itself, from the hwloc
 *   synthetic machine, the node mapping and the cpusets given on the command line;
 * - real (no --topology): each process discovers its machine and binding with hwloc and the records are
 *   exchanged with MPI_Allgather on MPI_COMM_WORLD.
 * A process is confined to an instance of a level when its whole binding lies inside that one instance; an unbound
 * process's binding is its whole node. Instances are named (node, hwloc logical index).
 * Above the node, a simulated scenario may describe network levels (--network, the syntax of Strata's mpiexec):
 * every process is confined to its node's rack and switch, whose indexes are job-wide (no node in the name). */
#ifndef CONFORMANCE_TRUTH_H
#define CONFORMANCE_TRUTH_H

#include <stddef.h>

/* The levels, top to bottom, in the order the unguided properties rely on: the network levels, then the node's. */
enum level {
  LEVEL_RACK,
  LEVEL_SWITCH,
  LEVEL_MACHINE,
  LEVEL_PACKAGE,
  LEVEL_NUMANODE,
  LEVEL_L3CACHE,
  LEVEL_L2CACHE,
  LEVEL_L1CACHE,
  LEVEL_CORE,
  LEVEL_PU,
  LEVEL_COUNT
};

/* Rack and Switch lie above the node: no hwloc object, present only when the scenario describes them. */
#define LEVEL_NETWORK(level) ((level) < LEVEL_MACHINE)

#define TRUTH_NONE (-1)      /* instance of a level the process is confined to none of */
#define TRUTH_CPUSET_TEXT 64 /* room for a binding as an hwloc list, for reasons only (may be cut short) */

struct rank_truth {
  int node;                       /* 0.., in order of first appearance among world ranks */
  int present[LEVEL_COUNT];       /* the level exists on this rank's machine */
  int instance[LEVEL_COUNT];      /* hwloc logical index of the one instance holding the binding, or TRUTH_NONE;
                                     for a network level, the job-wide index of the node's rack or switch */
  char cpuset[TRUTH_CPUSET_TEXT]; /* the binding ("0-3"), or "unbound" */
};

struct truth {
  int size;                    /* world size */
  int simulated;               /* from --topology, else discovered */
  int documented[LEVEL_COUNT]; /* --levels: values the library documents as supported */
  struct rank_truth *rank;     /* [size], by world rank */
};

/* Collective on MPI_COMM_WORLD (call after MPI_Init). Returns 0, or -1 with a message in err (the same verdict on
 * every process). */
int truth_init(struct truth *t, int argc, char **argv, char *err, size_t errlen);

/* What every program does first: MPI_Init, MPI_ERRORS_RETURN on MPI_COMM_WORLD, then truth_init. On a bad command
 * line rank 0 prints "<program>: <why>", MPI is finalised and the exit status (2) is returned; 0 when all is well. */
int truth_start(const char *program, int *argc, char ***argv, struct truth *t);
void truth_free(struct truth *t);

const char *level_name(int level); /* "Rack", "Switch", "Machine", "Package", ..., "PU" */
/* The level a mpi_hw_resource_type value names: hwloc type names, with or without "hwloc://", case-insensitive,
 * common aliases (Node, Socket, NUMA, L3, ...), and the network levels Rack and Switch, with or without Strata's
 * "strata://" (hwloc has no such objects, so no hwloc:// name). -1 if none. */
int level_parse(const char *value);

/* World rank r is confined to one instance of level. */
int truth_confined(const struct truth *t, int r, int level);
/* Ranks a and b are confined to the same instance (same node, same logical index; for a network level the same
 * job-wide index) of level. */
int truth_same_instance(const struct truth *t, int a, int b, int level);
/* The ranks among[0..n-1] (world ranks) confined to the same instance of level as r, kept in their order; returns
 * how many, written to out (room for n). 0 if r is confined to none. */
int truth_group(const struct truth *t, int level, int r, const int *among, int n, int *out);
/* "Package 1 on node 0", "Rack 1 (node 2's)", or "no single Package" / "no Package on its machine" for r. */
void truth_describe(const struct truth *t, int r, int level, char *buf, size_t len);

#endif
