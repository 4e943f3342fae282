/* poisson: Jacobi iterations for the 2D Poisson equation -lap(u) = 1 on the unit square, u = 0 on the boundary, in
 * pure MPI and in hybrid MPI+MPI form: the second kernel of Zhou et al. 2020 (section 5.3.2).
 *
 *   mpiexec -n 4 ./poisson [n] [iterations]     n x n interior points (default 32), iterations (default 100)
 *
 * The grid is split by rows: process r owns a band of consecutive rows (n / p, one more on the first n % p ranks).
 * Every iteration updates each point from its four neighbours, then an allreduce finds the largest change.
 *
 * Pure form: every process exchanges its edge rows with both neighbours (MPI_Sendrecv into ghost rows), and
 * MPI_Allreduce(MPI_MAX) gives every process its copy of the largest change.
 * Hybrid form: the bands live in a shared window, so a neighbour on the same node is read in place; only rows across
 * a node boundary travel by MPI. A barrier ends each sweep (every process has written the rows its neighbours read
 * next), and the largest change comes from hybrid_allreduce, once per node.
 *
 * Both forms do the same arithmetic on every point, and a maximum does not depend on the order of its operands, so
 * their grids, largest changes and residuals are bitwise equal, and equal to a serial run on rank 0. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hybrid.h"

static int n, p;

static int band_rows(int r) { return n / p + (r < n % p); }

/* One Jacobi sweep over a band of `rows` rows of width n + 2 (zero boundary columns); above and below are the rows
 * next to the band. Returns the largest change. */
static double sweep(const double *in, double *out, const double *above, const double *below, int rows) {
  int w = n + 2;
  double h2 = 1.0 / ((n + 1.0) * (n + 1.0)), change = 0;
  for (int i = 0; i < rows; ++i) {
    const double *up = i > 0 ? in + (i - 1) * w : above, *down = i < rows - 1 ? in + (i + 1) * w : below;
    const double *mid = in + i * w;
    double *res = out + i * w;
    for (int j = 1; j <= n; ++j) {
      res[j] = 0.25 * (up[j] + down[j] + mid[j - 1] + mid[j + 1] + h2);
      double d = res[j] > mid[j] ? res[j] - mid[j] : mid[j] - res[j];
      if (d > change) change = d;
    }
  }
  return change;
}

/* The largest |1 + lap(u)| over the band (the discrete residual). */
static double residual(const double *u, const double *above, const double *below, int rows) {
  int w = n + 2;
  double inv_h2 = (n + 1.0) * (n + 1.0), worst = 0;
  for (int i = 0; i < rows; ++i) {
    const double *up = i > 0 ? u + (i - 1) * w : above, *down = i < rows - 1 ? u + (i + 1) * w : below;
    const double *mid = u + i * w;
    for (int j = 1; j <= n; ++j) {
      double r = 1 - (4 * mid[j] - up[j] - down[j] - mid[j - 1] - mid[j + 1]) * inv_h2;
      if (r < 0) r = -r;
      if (r > worst) worst = r;
    }
  }
  return worst;
}

/* Edge rows to the neighbours up and down (MPI_PROC_NULL: none, or not by message), into the ghost rows. */
static void exchange(const double *band, int rows, int up, int down, double *ghost_up, double *ghost_down) {
  int w = n + 2;
  MPI_Sendrecv(band, w, MPI_DOUBLE, up, 0, ghost_down, w, MPI_DOUBLE, down, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Sendrecv(band + (rows - 1) * w, w, MPI_DOUBLE, down, 1, ghost_up, w, MPI_DOUBLE, up, 1, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
}

/* Hybrid form: this process's two bands in the shared window, and where the rows next to them are. */
typedef struct {
  double *band[2];
  const double *up_band, *down_band; /* the neighbours' bands when they are on this node, else NULL */
  int up_rows, down_rows;
  int up, down; /* the neighbours reached by message: across a node boundary, else MPI_PROC_NULL */
  double *ghost_up, *ghost_down;
} hybrid_bands;

/* The rows next to band g: read in place from a neighbour on this node, received from one on another node. */
static void hybrid_halo(const hybrid_bands *b, int g, int rows, const double **above, const double **below) {
  size_t w = (size_t)n + 2;
  exchange(b->band[g], rows, b->up, b->down, b->ghost_up, b->ghost_down);
  *above = b->up_band ? b->up_band + ((size_t)g * b->up_rows + b->up_rows - 1) * w : b->ghost_up;
  *below = b->down_band ? b->down_band + (size_t)g * b->down_rows * w : b->ghost_down;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  n = argc > 1 ? atoi(argv[1]) : 32;
  int iterations = argc > 2 ? atoi(argv[2]) : 100;
  if (n < p || iterations < 1) {
    if (rank == 0) fprintf(stderr, "poisson: need n >= ranks (%d) and iterations >= 1\n", p);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  int w = n + 2, rows = band_rows(rank);
  int up = rank > 0 ? rank - 1 : MPI_PROC_NULL, down = rank < p - 1 ? rank + 1 : MPI_PROC_NULL;
  size_t band = (size_t)rows * (size_t)w;
  double *zeros = calloc((size_t)w, sizeof(double));

  /* Pure form: two private bands (this sweep's input and output) and two ghost rows, zero at the domain's edge. */
  double *pure[2] = {calloc(band, sizeof(double)), calloc(band, sizeof(double))};
  double *ghost_up = calloc((size_t)w, sizeof(double)), *ghost_down = calloc((size_t)w, sizeof(double));

  /* Hybrid form: both bands in this process's part of a shared window; ghost rows only towards other nodes. */
  hybrid_comm h;
  hybrid_create(MPI_COMM_WORLD, &h);
  MPI_Win win;
  hybrid_bands hb;
  hb.band[0] = hybrid_alloc(&h, (MPI_Aint)(sizeof(double) * 2 * band), &win);
  hb.band[1] = hb.band[0] + band;
  memset(hb.band[0], 0, sizeof(double) * 2 * band);
  int up_here = up != MPI_PROC_NULL && h.node_of[up] == h.node_index;
  int down_here = down != MPI_PROC_NULL && h.node_of[down] == h.node_index;
  hb.up_band = up_here ? hybrid_part(win, h.rank_on_node[up]) : NULL;
  hb.down_band = down_here ? hybrid_part(win, h.rank_on_node[down]) : NULL;
  hb.up_rows = up_here ? band_rows(up) : 0;
  hb.down_rows = down_here ? band_rows(down) : 0;
  hb.up = up_here ? MPI_PROC_NULL : up;
  hb.down = down_here ? MPI_PROC_NULL : down;
  hb.ghost_up = hb.up == MPI_PROC_NULL ? zeros : calloc((size_t)w, sizeof(double));
  hb.ghost_down = hb.down == MPI_PROC_NULL ? zeros : calloc((size_t)w, sizeof(double));
  hybrid_reduction largest;
  hybrid_allreduce_create(&h, 1, MPI_MAX, &largest);
  hybrid_barrier(&h, win); /* the zeroed bands, before a neighbour reads them */

  double change[2] = {0, 0}, t_form[2];
  const double *above, *below;
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();
  for (int it = 0; it < iterations; ++it) {
    int in = it % 2;
    exchange(pure[in], rows, up, down, ghost_up, ghost_down);
    double local = sweep(pure[in], pure[1 - in], ghost_up, ghost_down, rows);
    MPI_Allreduce(&local, &change[0], 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  }
  t_form[0] = max_elapsed(MPI_COMM_WORLD, t0) / iterations;

  MPI_Barrier(MPI_COMM_WORLD);
  t0 = MPI_Wtime();
  for (int it = 0; it < iterations; ++it) {
    int in = it % 2;
    hybrid_halo(&hb, in, rows, &above, &below);
    *largest.mine = sweep(hb.band[in], hb.band[1 - in], above, below, rows);
    /* Every band must be written before the next sweep reads its neighbours' edges: the allreduce's barrier tells
     * that too, so MPI_Win_sync on the bands around it stands in for a second barrier (hybrid_barrier). */
    MPI_Win_sync(win);
    hybrid_allreduce(&largest);
    MPI_Win_sync(win);
    change[1] = *largest.result;
  }
  t_form[1] = max_elapsed(MPI_COMM_WORLD, t0) / iterations;

  /* Residuals of the final grids: the halo once more, then a maximum in each form. */
  int last = iterations % 2;
  double res[2];
  exchange(pure[last], rows, up, down, ghost_up, ghost_down);
  double local = residual(pure[last], ghost_up, ghost_down, rows);
  MPI_Allreduce(&local, &res[0], 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  hybrid_halo(&hb, last, rows, &above, &below);
  *largest.mine = residual(hb.band[last], above, below, rows);
  hybrid_allreduce(&largest);
  res[1] = *largest.result;

  long differ = memcmp(pure[last], hb.band[last], sizeof(double) * band) != 0;
  MPI_Allreduce(MPI_IN_PLACE, &differ, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);

  /* Replicated data: ghost rows and the allreduce result (pure: every process's; hybrid: node boundaries only, and
   * one result per node). */
  double pure_bytes = max_node_bytes(MPI_COMM_WORLD, sizeof(double) * (2.0 * w + 1));
  double hybrid_bytes = max_node_bytes(
      MPI_COMM_WORLD, sizeof(double) * (w * ((hb.ghost_up != zeros) + (hb.ghost_down != zeros)) + (h.node_rank == 0)));

  int ok = !differ;
  if (rank == 0) {
    /* The serial reference: the whole grid as one band, with the same sweep and residual. */
    size_t all = (size_t)n * (size_t)w;
    double *s[2] = {calloc(all, sizeof(double)), calloc(all, sizeof(double))}, s_change = 0;
    for (int it = 0; it < iterations; ++it) s_change = sweep(s[it % 2], s[1 - it % 2], zeros, zeros, n);
    double s_res = residual(s[last], zeros, zeros, n);
    printf("poisson: %dx%d grid, %d iterations, %d rank(s) on %d node(s)\n", n, n, iterations, p, h.nodes);
    const char *form[2] = {"pure:  ", "hybrid:"};
    for (int f = 1; f >= 0; --f) {
      int same = change[f] == s_change && res[f] == s_res;
      ok = ok && same;
      printf("poisson %s last change %.6e, residual %.6e, %s the serial run\n", form[f], change[f], res[f],
             same ? "equal to" : "DIFFERENT FROM");
    }
    printf("poisson hybrid vs pure: %s\n", differ ? "DIFFERENT grids" : "bitwise equal grids");
    free(s[0]), free(s[1]);
  }
  MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
  print_timing(MPI_COMM_WORLD, "iteration", t_form[1], t_form[0], hybrid_bytes, pure_bytes);

  hybrid_allreduce_free(&largest);
  hybrid_win_free(&win);
  hybrid_free(&h);
  if (hb.ghost_up != zeros) free(hb.ghost_up);
  if (hb.ghost_down != zeros) free(hb.ghost_down);
  free(pure[0]), free(pure[1]), free(ghost_up), free(ghost_down), free(zeros);
  MPI_Finalize();
  return ok ? 0 : 1;
}
