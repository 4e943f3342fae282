/* summa: SUMMA matrix multiplication C = A B (van de Geijn and Watts 1997) in pure MPI and in hybrid MPI+MPI form,
 * the first kernel of Zhou et al. 2020 (section 5.3.1).
 *
 *   mpiexec -n 6 ./summa [n] [repetitions]      n: matrix order, rounded up to fit the grid (default 32 lcm(pr, pc))
 *
 * The p processes form a pr x pc grid, pr the largest divisor of p not above sqrt(p): a square grid when p is a
 * square, else the squarest rectangle (p = 8: 2 x 4; p prime: 1 x p). Process (i, j) owns block (i, j) of A, B and C,
 * of (n/pr) x (n/pc) elements. Step k broadcasts the k-th panel of b columns of A along the grid rows and the k-th
 * panel of b rows of B along the grid columns, and every process adds the panels' product to its C block;
 * b = gcd(n/pr, n/pc), so every panel lies within one process's block.
 *
 * Pure form: MPI_Bcast of each panel over the row and column communicators, so every process holds its own copy.
 * Hybrid form: A and B blocks live in shared windows. On the owner's node the panel is read in place; another node
 * receives it once, at its leader, over the bridge of its row (column) communicator, into that node's one panel
 * buffer, and its other processes read it there after the leader's flag.
 *
 * Inputs are small integers held in doubles, so every product is exact: both forms are checked bitwise against a
 * serial product, and so against each other. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hybrid.h"

static double a_at(int i, int j) { return (i + j) % 7; }
static double b_at(int i, int j) { return (i % 5) * (j % 5) % 5 - 2; }

static int gcd(int a, int b) { return b ? gcd(b, a % b) : a; }

/* One grid row (it broadcasts A panels) or grid column (B panels), and the panel layout in its members' blocks. */
typedef struct {
  MPI_Comm comm;
  int rank;
  int rows, cols, ld;   /* a panel: rows x cols elements, ld apart in the owner's block */
  MPI_Datatype panel;   /* the panel in the owner's block */
  hybrid_comm h;        /* hybrid form: the line's node and bridge communicators */
  MPI_Win blocks_win;   /* hybrid form: every member's block */
  MPI_Win panel_win;    /* hybrid form: the node's one buffer for panels from other nodes (the leader's) */
  double *panel_buf;    /* pure form: this process's own buffer */
} line;

static void line_create(line *l, MPI_Comm comm, int rows, int cols, int ld) {
  l->comm = comm;
  MPI_Comm_rank(comm, &l->rank);
  l->rows = rows;
  l->cols = cols;
  l->ld = ld;
  MPI_Type_vector(rows, cols, ld, MPI_DOUBLE, &l->panel);
  MPI_Type_commit(&l->panel);
}

/* A C block (m x n) += a (m x kb, leading dimension lda) times b (kb x n, ldb): the same loop in both forms. */
static void multiply_add(double *c, int m, int n, int kb, const double *a, int lda, const double *b, int ldb) {
  for (int i = 0; i < m; ++i)
    for (int k = 0; k < kb; ++k) {
      double aik = a[i * lda + k];
      for (int j = 0; j < n; ++j) c[i * n + j] += aik * b[k * ldb + j];
    }
}

/* Pure form: the owner broadcasts the panel from its block; the others receive a contiguous copy. */
static const double *pure_panel(line *l, int owner, const double *block, int offset, int *ld) {
  if (l->rank == owner) {
    MPI_Bcast((void *)(block + offset), 1, l->panel, owner, l->comm);
    *ld = l->ld;
    return block + offset;
  }
  MPI_Bcast(l->panel_buf, l->rows * l->cols, MPI_DOUBLE, owner, l->comm);
  *ld = l->cols;
  return l->panel_buf;
}

/* Hybrid form (the paper's Wrapper_Hy_Bcast): blocks never change after set-up, so on the owner's node the panel is
 * read in place with no synchronisation, and that node's leader sends it from there over the bridge. */
static const double *hybrid_panel(line *l, int owner, int offset, int *ld) {
  hybrid_comm *h = &l->h;
  int owner_node = h->node_of[owner];
  if (owner_node == h->node_index) {
    const double *panel = (const double *)hybrid_part(l->blocks_win, h->rank_on_node[owner]) + offset;
    if (h->node_rank == 0 && h->nodes > 1) MPI_Bcast((void *)panel, 1, l->panel, owner_node, h->bridge);
    *ld = l->ld;
    return panel;
  }
  double *buf = hybrid_part(l->panel_win, 0);
  hybrid_barrier(h, l->panel_win); /* every on-node process is done with the buffer's previous panel */
  if (h->node_rank == 0) MPI_Bcast(buf, l->rows * l->cols, MPI_DOUBLE, owner_node, h->bridge);
  hybrid_leader_done(h, l->panel_win); /* only the leader had to receive */
  *ld = l->cols;
  return buf;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &p);

  int pr = 1;
  for (int d = 1; d * d <= p; ++d)
    if (p % d == 0) pr = d;
  int pc = p / pr, lcm = pr / gcd(pr, pc) * pc;
  int n = argc > 1 ? atoi(argv[1]) : 32 * lcm;
  int reps = argc > 2 ? atoi(argv[2]) : 3;
  n = (n + lcm - 1) / lcm * lcm;
  if (n < 1 || reps < 1) MPI_Abort(MPI_COMM_WORLD, 2);
  int mr = n / pr, nc = n / pc, b = gcd(mr, nc), steps = n / b;
  int gi = rank / pc, gj = rank % pc; /* grid row and column: rows hold consecutive ranks */

  MPI_Comm row_comm, col_comm;
  MPI_Comm_split(MPI_COMM_WORLD, gi, gj, &row_comm);
  MPI_Comm_split(MPI_COMM_WORLD, gj, gi, &col_comm);
  line row, col; /* A panels: mr x b inside an mr x nc block; B panels: b x nc, consecutive rows of a block */
  line_create(&row, row_comm, mr, b, nc);
  line_create(&col, col_comm, b, nc, nc);
  size_t block = (size_t)mr * (size_t)nc;

  /* Pure form: private blocks and panel buffers. */
  double *a = malloc(sizeof(double) * block), *bb = malloc(sizeof(double) * block);
  double *c_pure = malloc(sizeof(double) * block), *c_hybrid = malloc(sizeof(double) * block);
  row.panel_buf = malloc(sizeof(double) * (size_t)mr * (size_t)b);
  col.panel_buf = malloc(sizeof(double) * (size_t)b * (size_t)nc);
  /* Hybrid form: blocks in shared windows, and a panel buffer per node when the line spans nodes. */
  hybrid_create(row_comm, &row.h);
  hybrid_create(col_comm, &col.h);
  double *a_shared = hybrid_alloc(&row.h, (MPI_Aint)(sizeof(double) * block), &row.blocks_win);
  double *b_shared = hybrid_alloc(&col.h, (MPI_Aint)(sizeof(double) * block), &col.blocks_win);
  MPI_Aint a_panel = row.h.node_rank == 0 && row.h.nodes > 1 ? (MPI_Aint)sizeof(double) * mr * b : 0;
  MPI_Aint b_panel = col.h.node_rank == 0 && col.h.nodes > 1 ? (MPI_Aint)sizeof(double) * b * nc : 0;
  hybrid_alloc(&row.h, a_panel, &row.panel_win);
  hybrid_alloc(&col.h, b_panel, &col.panel_win);

  for (int i = 0; i < mr; ++i)
    for (int j = 0; j < nc; ++j) {
      a[i * nc + j] = a_shared[i * nc + j] = a_at(gi * mr + i, gj * nc + j);
      bb[i * nc + j] = b_shared[i * nc + j] = b_at(gi * mr + i, gj * nc + j);
    }
  hybrid_barrier(&row.h, row.blocks_win); /* the blocks are written before anyone reads them */
  hybrid_barrier(&col.h, col.blocks_win);

  double t_form[2];
  for (int hybrid = 0; hybrid < 2; ++hybrid) {
    double *c = hybrid ? c_hybrid : c_pure;
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    for (int rep = 0; rep < reps; ++rep) {
      memset(c, 0, sizeof(double) * block);
      for (int k = 0; k < steps; ++k) {
        /* Panel k: columns k b.. of A, owned by grid column k b / nc; rows k b.. of B, by grid row k b / mr. */
        int a_owner = k * b / nc, a_offset = k * b % nc, b_owner = k * b / mr, b_offset = k * b % mr * nc;
        int lda, ldb;
        const double *ap = hybrid ? hybrid_panel(&row, a_owner, a_offset, &lda)
                                  : pure_panel(&row, a_owner, a, a_offset, &lda);
        const double *bp = hybrid ? hybrid_panel(&col, b_owner, b_offset, &ldb)
                                  : pure_panel(&col, b_owner, bb, b_offset, &ldb);
        multiply_add(c, mr, nc, b, ap, lda, bp, ldb);
      }
    }
    t_form[hybrid] = max_elapsed(MPI_COMM_WORLD, t0) / (reps * steps);
  }

  /* Checks: both forms against the serial product of this block, exactly; and a global checksum (exact too). */
  long wrong[2] = {0, 0};
  double sum[2] = {0, 0};
  for (int i = 0; i < mr; ++i)
    for (int j = 0; j < nc; ++j) {
      double expect = 0;
      for (int k = 0; k < n; ++k) expect += a_at(gi * mr + i, k) * b_at(k, gj * nc + j);
      wrong[0] += c_pure[i * nc + j] != expect;
      wrong[1] += c_hybrid[i * nc + j] != expect;
      sum[0] += c_pure[i * nc + j];
      sum[1] += c_hybrid[i * nc + j];
    }
  MPI_Allreduce(MPI_IN_PLACE, wrong, 2, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(MPI_IN_PLACE, sum, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  long differ = 0;
  for (size_t e = 0; e < block; ++e) differ += memcmp(&c_pure[e], &c_hybrid[e], sizeof(double)) != 0;
  MPI_Allreduce(MPI_IN_PLACE, &differ, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);

  /* Replicated data: the panels. Pure: every process's buffers; hybrid: one buffer per line per node, and only for
   * lines that span nodes (the blocks are the distributed data itself, held once in either form). */
  double pure_bytes = max_node_bytes(MPI_COMM_WORLD, sizeof(double) * ((double)mr * b + (double)b * nc));
  double hybrid_bytes = max_node_bytes(MPI_COMM_WORLD, (double)(a_panel + b_panel));
  int nodes;
  {
    hybrid_comm world;
    hybrid_create(MPI_COMM_WORLD, &world);
    nodes = world.nodes;
    hybrid_free(&world);
  }
  if (rank == 0) {
    printf("summa: n=%d on a %dx%d grid, %d node(s), %d steps of b=%d, %d repetition(s)\n", n, pr, pc, nodes, steps,
           b, reps);
    printf("summa hybrid: checksum %.0f, %s the serial product\n", sum[1], wrong[1] ? "DIFFERS FROM" : "equals");
    printf("summa pure:   checksum %.0f, %s the serial product\n", sum[0], wrong[0] ? "DIFFERS FROM" : "equals");
    printf("summa hybrid vs pure: %s\n", differ ? "DIFFERENT" : "bitwise equal");
  }
  print_timing(MPI_COMM_WORLD, "step", t_form[1], t_form[0], hybrid_bytes, pure_bytes);

  hybrid_win_free(&row.panel_win);
  hybrid_win_free(&col.panel_win);
  hybrid_win_free(&row.blocks_win);
  hybrid_win_free(&col.blocks_win);
  hybrid_free(&row.h);
  hybrid_free(&col.h);
  MPI_Type_free(&row.panel);
  MPI_Type_free(&col.panel);
  MPI_Comm_free(&row_comm);
  MPI_Comm_free(&col_comm);
  free(a), free(bb), free(c_pure), free(c_hybrid), free(row.panel_buf), free(col.panel_buf);
  MPI_Finalize();
  return wrong[0] || wrong[1] || differ ? 1 : 0;
}
