/* hybrid.c: node and bridge communicators, shared windows, the two on-node synchronisations and the hybrid
 * allreduce used by the three hybrid MPI+MPI examples. See hybrid.h. */
#define _POSIX_C_SOURCE 200112L /* sched_yield */
#include "hybrid.h"

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void hybrid_create(MPI_Comm comm, hybrid_comm *h) {
  h->comm = comm;
  MPI_Comm_rank(comm, &h->rank);
  MPI_Comm_size(comm, &h->size);
  MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, h->rank, MPI_INFO_NULL, &h->node);
  MPI_Comm_rank(h->node, &h->node_rank);
  MPI_Comm_size(h->node, &h->node_size);
  /* Leaders keyed by their rank in comm: node i is the i-th node in comm rank order, whatever the placement. */
  MPI_Comm_split(comm, h->node_rank == 0 ? 0 : MPI_UNDEFINED, h->rank, &h->bridge);
  int where[2] = {0, 0};
  if (h->bridge != MPI_COMM_NULL) {
    MPI_Comm_rank(h->bridge, &where[0]);
    MPI_Comm_size(h->bridge, &where[1]);
  }
  MPI_Bcast(where, 2, MPI_INT, 0, h->node);
  h->node_index = where[0];
  h->nodes = where[1];

  /* Every rank's node and node rank, so that a rooted operation knows where its root is (paper section 4.3). */
  int mine[2] = {h->node_index, h->node_rank};
  int *all = malloc(sizeof(int) * 2 * (size_t)h->size);
  MPI_Allgather(mine, 2, MPI_INT, all, 2, MPI_INT, comm);
  h->node_of = malloc(sizeof(int) * (size_t)h->size);
  h->rank_on_node = malloc(sizeof(int) * (size_t)h->size);
  for (int r = 0; r < h->size; ++r) {
    h->node_of[r] = all[2 * r];
    h->rank_on_node[r] = all[2 * r + 1];
  }
  free(all);

  hybrid_alloc(h, h->node_rank == 0 ? (MPI_Aint)sizeof(int) : 0, &h->flag_win);
  h->flag = hybrid_part(h->flag_win, 0);
  if (h->node_rank == 0) *h->flag = 0;
  h->flag_seen = 0;
  hybrid_barrier(h, h->flag_win);
}

void hybrid_free(hybrid_comm *h) {
  hybrid_win_free(&h->flag_win);
  free(h->node_of);
  free(h->rank_on_node);
  if (h->bridge != MPI_COMM_NULL) MPI_Comm_free(&h->bridge);
  MPI_Comm_free(&h->node);
}

void *hybrid_alloc(const hybrid_comm *h, MPI_Aint bytes, MPI_Win *win) {
  void *base = NULL;
  MPI_Win_allocate_shared(bytes, 1, MPI_INFO_NULL, h->node, &base, win);
  /* One epoch for the window's whole life: MPI_Win_sync is only allowed inside a passive-target epoch (MPI-3.1
   * 11.5.4), and the on-node processes synchronise by barriers and flags, not by MPI's locks. */
  MPI_Win_lock_all(MPI_MODE_NOCHECK, *win);
  return base;
}

void *hybrid_part(MPI_Win win, int node_rank) {
  MPI_Aint size = 0;
  int disp_unit = 0;
  void *base = NULL;
  MPI_Win_shared_query(win, node_rank, &size, &disp_unit, &base);
  return base;
}

void hybrid_win_free(MPI_Win *win) {
  MPI_Win_unlock_all(*win);
  MPI_Win_free(win);
}

/* Stores before the barrier are visible to loads after it: in the unified memory model MPI_Win_sync orders and
 * publishes the stores, the barrier orders the processes (MPI-4.0 12.7, the advice on MPI_WIN_SYNC). */
void hybrid_barrier(const hybrid_comm *h, MPI_Win win) {
  MPI_Win_sync(win);
  MPI_Barrier(h->node);
  MPI_Win_sync(win);
}

/* The leader is the only writer of the flag. Children wait for equality, not for "at least": MPI does not make
 * concurrent multi-byte updates atomic, so the paper polls for a change to one known value (section 4.5). The flag
 * never skips a value a child waits for, because every use puts a hybrid_barrier between two hybrid_leader_done
 * calls, and a child reaches that barrier only after it has seen the flag. A barrier in place of the flag would also
 * be correct, but would make every child wait for every other child. */
void hybrid_leader_done(hybrid_comm *h, MPI_Win win) {
  if (h->node_size == 1) return;
  if (h->node_rank == 0) {
    MPI_Win_sync(win); /* the leader's (and the bridge collective's) stores to win, before the flag */
    *h->flag = *h->flag + 1;
    MPI_Win_sync(h->flag_win);
  } else {
    ++h->flag_seen;
    /* Yield while spinning: with more processes than cores (a laptop, a CI runner) a pure spin can keep the
     * leader off its core for a whole time slice per wait (seen with Open MPI on 2 cores: 100x slower). */
    while (MPI_Win_sync(h->flag_win), *h->flag != h->flag_seen) sched_yield();
    MPI_Win_sync(win);
  }
}

void hybrid_allreduce_create(hybrid_comm *h, int count, MPI_Op op, hybrid_reduction *r) {
  r->h = h;
  r->count = count;
  r->op = op;
  /* The leader allocates the whole region and the children use their portion of it (paper section 3.2.3). */
  MPI_Aint bytes = h->node_rank == 0 ? (MPI_Aint)sizeof(double) * (h->node_size + 1) * count : 0;
  hybrid_alloc(h, bytes, &r->win);
  r->slots = hybrid_part(r->win, 0);
  r->mine = r->slots + (size_t)h->node_rank * (size_t)count;
  r->result = r->slots + (size_t)h->node_size * (size_t)count;
}

void hybrid_allreduce(hybrid_reduction *r) {
  hybrid_comm *h = r->h;
  size_t n = (size_t)r->count;
  hybrid_barrier(h, r->win); /* every contribution is written */
  if (h->node_rank == 0) {
    double *result = r->slots + (size_t)h->node_size * n;
    memcpy(result, r->slots, sizeof(double) * n);
    for (int s = 1; s < h->node_size; ++s) MPI_Reduce_local(r->slots + s * n, result, r->count, MPI_DOUBLE, r->op);
    if (h->nodes > 1) MPI_Allreduce(MPI_IN_PLACE, result, r->count, MPI_DOUBLE, r->op, h->bridge);
  }
  hybrid_leader_done(h, r->win); /* only the leader had work left */
}

void hybrid_allreduce_free(hybrid_reduction *r) { hybrid_win_free(&r->win); }

double max_elapsed(MPI_Comm comm, double t0) {
  double t = MPI_Wtime() - t0;
  MPI_Allreduce(MPI_IN_PLACE, &t, 1, MPI_DOUBLE, MPI_MAX, comm);
  return t;
}

double max_node_bytes(MPI_Comm comm, double bytes) {
  MPI_Comm node;
  MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  MPI_Allreduce(MPI_IN_PLACE, &bytes, 1, MPI_DOUBLE, MPI_SUM, node);
  MPI_Allreduce(MPI_IN_PLACE, &bytes, 1, MPI_DOUBLE, MPI_MAX, comm);
  MPI_Comm_free(&node);
  return bytes;
}

void print_timing(MPI_Comm comm, const char *what, double hybrid_s, double pure_s, double hybrid_bytes,
                  double pure_bytes) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  if (rank != 0) return;
  printf("          time/%-10s replicated data per node\n", what);
  printf("  hybrid  %10.1f us   %10.1f KiB\n", hybrid_s * 1e6, hybrid_bytes / 1024);
  printf("  pure    %10.1f us   %10.1f KiB\n", pure_s * 1e6, pure_bytes / 1024);
}
