/* hier_common.h: what the hierarchical-model examples (hier_bcast_reduce.c, hier_summa.c, hier_vector.c) share,
 * after Goglin et al., "A hierarchical model to manage hardware topology in MPI applications" (2018):
 * the paper's loop of MPIX_Comm_hsplit_with_roots down the hardware hierarchy (its section 5 and Algorithm 4), a
 * hierarchy made by hand with MPI_Comm_split from the placement the library reports (MPIX_Get_hw_placement), and
 * the timing and pass/fail reporting. C with the Strata MPIX calls declared in mpi.h. */
#ifndef STRATA_EXAMPLES_HIER_COMMON_H
#define STRATA_EXAMPLES_HIER_COMMON_H

#include <mpi.h>
#include <stddef.h>

enum { HIER_MAX_DEPTH = 16 };

/* A hierarchy of communicators below `comm`, the paper's "roots communicators hierarchy":
 *   level[d]  the depth-(d+1) communicator holding the caller (level[0] is a part of comm);
 *   roots[d]  the rank-0 processes of the level-d communicators made from the same parent (level[d-1], or comm),
 *             MPI_COMM_NULL on every other process; its rank 0 is the parent's rank 0;
 *   key[d]    which of its siblings level[d] is (equal keys: the same communicator), for the serial checks;
 *   leaf      the deepest communicator (level[depth-1], or comm when depth is 0): one process when the hardware
 *             tells every process apart (every rank bound to its own core), several when it cannot.
 * Every communicator keeps the rank order of comm. */
typedef struct {
  int depth;
  MPI_Comm level[HIER_MAX_DEPTH], roots[HIER_MAX_DEPTH];
  int key[HIER_MAX_DEPTH];
  MPI_Comm leaf;
} hier_levels;

/* The hardware hierarchy, as the paper builds it: MPIX_Comm_hsplit_with_roots from comm, then from each new
 * communicator, until it returns MPI_COMM_NULL. Collective. Returns 0, or 1 (rank 0 of the parent prints why) when
 * the walk stops for some processes of a communicator and not for others (mixed bindings, which the loops over the
 * levels in these examples do not handle) or goes deeper than HIER_MAX_DEPTH. */
int hier_levels_from_hardware(MPI_Comm comm, hier_levels *h);

/* The same hierarchy made by hand, as a user without the MPIX split calls would: MPI_Comm_split by colours read
 * from MPIX_Get_hw_placement (network levels, then the node, then the levels inside the node from the largest
 * instances to the smallest), skipping a level whose split would not divide the parent (the paper's rule that
 * every new communicator is strictly smaller) and stopping at single processes or where a binding spans several
 * instances. Collective. */
void hier_levels_from_placement(MPI_Comm comm, hier_levels *h);

/* A topology-oblivious hierarchy (the paper's tailor-made H_conf, section 7.4): at depth d the parent's processes
 * are dealt round robin into fanout[d] communicators (by their rank in the parent), for `depth` levels or until
 * single processes. Collective. */
void hier_levels_round_robin(MPI_Comm comm, int depth, const int fanout[], hier_levels *h);

/* Every non-null communicator of h is freed. */
void hier_levels_free(hier_levels *h);

/* "Machine x4 > Core x2": the level names of the caller's branch of a hardware hierarchy (level[0..depth-1], from
 * MPIX_Comm_get_hlevel_info) and how many communicators each split made. Local. */
void hier_describe(const MPI_Comm level[], int depth, char *text, size_t size);

/* The number of nodes comm spans (MPI_COMM_TYPE_SHARED). Collective. */
int hier_node_count(MPI_Comm comm);

/* The largest elapsed time since t0 over comm's processes, in seconds. Collective. */
double hier_max_elapsed(MPI_Comm comm, double t0);

/* The sum of `failures` over comm (each process's count of failed checks). Collective. */
long hier_total_failures(MPI_Comm comm, long failures);

#endif
