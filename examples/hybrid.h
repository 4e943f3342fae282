/* hybrid.h: the hybrid MPI+MPI set-up shared by summa.c, poisson.c and bpmf_reduction.c (Zhou et al., "Collectives
 * in hybrid MPI+MPI code", Parallel Computing 2020, section 4.1, whose wrapper primitives this mirrors).
 *
 * A communicator is split twice: `node`, the processes that share memory (MPI_Comm_split_type with
 * MPI_COMM_TYPE_SHARED), and `bridge`, one leader per node (node rank 0). Replicated data lives once per node in an
 * MPI-3 shared window; the leaders alone talk across nodes, and on-node processes read the window directly.
 *
 * The two on-node synchronisations of the paper (section 4.5, Fig. 10):
 *   hybrid_barrier      every on-node process must have written (red sync): MPI_Win_sync, MPI_Barrier, MPI_Win_sync;
 *   hybrid_leader_done  only the leader must have finished (yellow sync): the leader bumps a flag in shared memory,
 *                       the children spin on it (MPI_Win_sync, then yield the core) until it reaches the value
 *                       they expect (Fig. 11).
 * Portable MPI-3 C: no Strata extension. */
#ifndef STRATA_EXAMPLES_HYBRID_H
#define STRATA_EXAMPLES_HYBRID_H

#include <mpi.h>

typedef struct {
  MPI_Comm comm;            /* the parent communicator (not owned) */
  MPI_Comm node;            /* its processes on this node */
  MPI_Comm bridge;          /* the node leaders; MPI_COMM_NULL on the children */
  int rank, size;           /* in comm */
  int node_rank, node_size; /* in node */
  int node_index, nodes;    /* this node's rank in bridge, and the number of nodes (known on every process) */
  int *node_of;             /* node_of[r]: the node index of comm rank r (the paper's translation tables) */
  int *rank_on_node;        /* rank_on_node[r]: the node rank of comm rank r */
  MPI_Win flag_win;         /* the leader-to-children flag (an int owned by the leader) */
  volatile int *flag;
  int flag_seen; /* children: the flag value they last waited for */
} hybrid_comm;

void hybrid_create(MPI_Comm comm, hybrid_comm *h);
void hybrid_free(hybrid_comm *h);

/* Collective over h->node: a shared window to which this process contributes `bytes` (0 allowed), inside a
 * passive-target epoch (MPI_Win_lock_all) so that MPI_Win_sync may be called. Returns this process's part. */
void *hybrid_alloc(const hybrid_comm *h, MPI_Aint bytes, MPI_Win *win);
/* The part of `win` contributed by node rank `node_rank` (MPI_Win_shared_query). */
void *hybrid_part(MPI_Win win, int node_rank);
void hybrid_win_free(MPI_Win *win);

void hybrid_barrier(const hybrid_comm *h, MPI_Win win);
void hybrid_leader_done(hybrid_comm *h, MPI_Win win);

/* Allreduce of doubles with one copy of the result per node (paper section 4.4, "method 2"): every process writes
 * its contribution to r.mine, then calls hybrid_allreduce; afterwards r.result holds the result on every process
 * of the node. The result stays valid until the next hybrid_allreduce on r: read it before calling again.
 *   barrier (all contributions written) -> leader reduces them in node-rank order and allreduces over the bridge
 *   -> flag (children wait for the leader only). */
typedef struct {
  hybrid_comm *h;
  int count;
  MPI_Op op;
  MPI_Win win;
  double *slots;        /* node_size contributions of count doubles, then the result */
  double *mine;         /* this process's slot */
  const double *result; /* the node's one copy of the result */
} hybrid_reduction;

void hybrid_allreduce_create(hybrid_comm *h, int count, MPI_Op op, hybrid_reduction *r);
void hybrid_allreduce(hybrid_reduction *r);
void hybrid_allreduce_free(hybrid_reduction *r);

/* Reporting shared by the examples, collective over comm. The largest elapsed time over the ranks since t0, and the
 * largest sum of `bytes` over the processes of one node. */
double max_elapsed(MPI_Comm comm, double t0);
double max_node_bytes(MPI_Comm comm, double bytes);
/* Rank 0 prints the timing table: time per iteration and replicated data per node for each form. */
void print_timing(MPI_Comm comm, const char *what, double hybrid_s, double pure_s, double hybrid_bytes,
                  double pure_bytes);

#endif
