/* bpmf_reduction: the reduction at the heart of Bayesian probabilistic matrix factorisation (Salakhutdinov and Mnih
 * 2008), the third kernel of Zhou et al. 2020 (section 5.3.3), in pure MPI and in hybrid MPI+MPI form.
 *
 *   mpiexec -n 4 ./bpmf_reduction [items] [K] [iterations]      defaults: 4000 items, K = 16, 10 iterations
 *
 * Each Gibbs iteration samples a K-vector of latent features per item; the hyperparameters of the next step come
 * from the sufficient statistics over all items: the sum of the vectors (K) and the sum of their outer products
 * (K x K). Every process owns a share of the items, sums its vectors and outer products, and an allreduce gives
 * everyone the totals. (The paper's BPMF code gathers the latent vectors with allgather; this is the reduction that
 * follows.) The latent vectors here are pseudo-random numbers in [-1, 1), a function of (item, feature, iteration).
 *
 * Pure form: each process sums into a private buffer, and MPI_Allreduce gives each process its own copy.
 * Hybrid form: each process sums into its slot of the node's shared window, the leader adds the node's slots and
 * allreduces over the bridge, and the processes read the node's one copy of the totals (hybrid_allreduce). */
#include <float.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hybrid.h"

static long items, lo, hi; /* all items, and this process's share [lo, hi) */
static int K, count;       /* features, and K + K * K statistics */
static double *u;          /* one latent vector */

/* Feature k of item i at iteration t: splitmix64 of the triple, scaled to [-1, 1). */
static double latent(long i, int k, int t) {
  uint64_t x = ((uint64_t)i * 1000003u + (uint64_t)k) * 1000033u + (uint64_t)t;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9u;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebu;
  x ^= x >> 31;
  return (double)(x >> 11) * 0x1p-52 - 1;
}

/* The statistics of items [first, last) at iteration t: sum of the vectors, then sum of their outer products.
 * With `absolute`, of their absolute values (for the error bound). */
static void accumulate(double *stats, long first, long last, int t, int absolute) {
  memset(stats, 0, sizeof(double) * (size_t)count);
  for (long i = first; i < last; ++i) {
    for (int k = 0; k < K; ++k) {
      u[k] = latent(i, k, t);
      if (absolute && u[k] < 0) u[k] = -u[k];
    }
    for (int k = 0; k < K; ++k) {
      stats[k] += u[k];
      for (int l = 0; l < K; ++l) stats[K + k * K + l] += u[k] * u[l];
    }
  }
}

/* What each process does with the totals: the mean variance of the features (trace of the covariance over K),
 * as BPMF's Normal-Wishart update reads the mean and covariance. */
static double mean_variance(const double *stats) {
  double trace = 0;
  for (int k = 0; k < K; ++k) {
    double mean = stats[k] / items;
    trace += stats[K + k * K + k] / items - mean * mean;
  }
  return trace / K;
}

static const double *pure_step(double *partial, double *total, int t) {
  accumulate(partial, lo, hi, t, 0);
  MPI_Allreduce(partial, total, count, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  return total;
}

static const double *hybrid_step(hybrid_reduction *r, int t) {
  accumulate(r->mine, lo, hi, t, 0);
  hybrid_allreduce(r);
  return r->result; /* the node's copy: valid until this process's next hybrid_allreduce */
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  items = argc > 1 ? atol(argv[1]) : 4000;
  K = argc > 2 ? atoi(argv[2]) : 16;
  int iterations = argc > 3 ? atoi(argv[3]) : 10;
  if (items < 1 || K < 1 || iterations < 1) MPI_Abort(MPI_COMM_WORLD, 2);
  count = K + K * K;
  lo = items * rank / p;
  hi = items * (rank + 1) / p;
  u = malloc(sizeof(double) * (size_t)K);

  double *partial = malloc(sizeof(double) * (size_t)count), *total = malloc(sizeof(double) * (size_t)count);
  hybrid_comm h;
  hybrid_create(MPI_COMM_WORLD, &h);
  hybrid_reduction sums;
  hybrid_allreduce_create(&h, count, MPI_SUM, &sums);

  double variance[2] = {0, 0}, t_form[2];
  for (int hybrid = 0; hybrid < 2; ++hybrid) {
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    for (int t = 0; t < iterations; ++t)
      variance[hybrid] += mean_variance(hybrid ? hybrid_step(&sums, t) : pure_step(partial, total, t));
    t_form[hybrid] = max_elapsed(MPI_COMM_WORLD, t0) / iterations;
  }

  /* Checks, every iteration again with both forms side by side (rank 0 also sums serially). The per-item products
   * are the same in every form, and each process's partial sums too; only the order in which the partial sums (or,
   * serially, the items) are added differs. Adding N terms x_i in any order is within (N - 1) (DBL_EPSILON / 2)
   * sum |x_i| of the exact sum (Higham, Accuracy and Stability of Numerical Algorithms, section 4.2), so two orders
   * differ by less than N DBL_EPSILON sum |x_i|: that is the tolerance, with sum |x_i| reduced alongside. */
  double *magnitude = malloc(sizeof(double) * (size_t)count), *serial = malloc(sizeof(double) * (size_t)count);
  double worst[3] = {0, 0, 0}; /* largest |difference| / sum |x_i|: hybrid vs pure, hybrid vs serial, pure vs serial */
  for (int t = 0; t < iterations; ++t) {
    const double *pure = pure_step(partial, total, t), *hyb = hybrid_step(&sums, t);
    accumulate(partial, lo, hi, t, 1);
    MPI_Allreduce(partial, magnitude, count, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0) accumulate(serial, 0, items, t, 0);
    for (int e = 0; e < count; ++e) {
      double d[3] = {hyb[e] - pure[e], rank == 0 ? hyb[e] - serial[e] : 0, rank == 0 ? pure[e] - serial[e] : 0};
      for (int c = 0; c < 3; ++c) {
        double rel = d[c] == 0 ? 0 : (d[c] < 0 ? -d[c] : d[c]) / magnitude[e];
        if (rel > worst[c]) worst[c] = rel;
      }
    }
  }
  MPI_Allreduce(MPI_IN_PLACE, worst, 3, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  double tolerance = (double)items * DBL_EPSILON;
  int ok = worst[0] <= tolerance && worst[1] <= tolerance && worst[2] <= tolerance;

  /* Replicated data: the totals (pure: one copy per process; hybrid: one per node). The partial sums are each
   * process's own in either form. */
  double pure_bytes = max_node_bytes(MPI_COMM_WORLD, sizeof(double) * (double)count);
  double hybrid_bytes = max_node_bytes(MPI_COMM_WORLD, h.node_rank == 0 ? sizeof(double) * (double)count : 0);
  if (rank == 0) {
    printf("bpmf_reduction: %ld items, K=%d (%d doubles reduced), %d iterations, %d rank(s) on %d node(s)\n", items,
           K, count, iterations, p, h.nodes);
    printf("bpmf hybrid: mean variance %.6f, %s the serial sums (error %.1e of sum|x|, tolerance %.1e)\n",
           variance[1] / iterations, worst[1] <= tolerance ? "matches" : "DIFFERS FROM", worst[1], tolerance);
    printf("bpmf pure:   mean variance %.6f, %s the serial sums (error %.1e of sum|x|, tolerance %.1e)\n",
           variance[0] / iterations, worst[2] <= tolerance ? "matches" : "DIFFERS FROM", worst[2], tolerance);
    printf("bpmf hybrid vs pure: %s (difference %.1e of sum|x|)\n",
           worst[0] <= tolerance ? "within tolerance" : "BEYOND TOLERANCE", worst[0]);
  }
  print_timing(MPI_COMM_WORLD, "iteration", t_form[1], t_form[0], hybrid_bytes, pure_bytes);

  hybrid_allreduce_free(&sums);
  hybrid_free(&h);
  free(partial), free(total), free(magnitude), free(serial), free(u);
  MPI_Finalize();
  return ok ? 0 : 1;
}
