/* hier_summa: SUMMA matrix multiplication C = A B whose panel broadcasts follow the hardware hierarchy, against
 * flat SUMMA (Goglin et al. 2018, section 7.3: hierarchical SUMMA after Quintin, Hasanov and Lastovetsky 2013,
 * with "the hierarchy configuration based on the underlying hardware topology" instead of a configuration file).
 *
 *   mpiexec -n 8 --nodes 4 --topology synthetic:"pack:2 core:2 pu:1" --bind-to core ./hier_summa [n] [repetitions]
 *
 * The p processes form a pr x pc grid in rank order (pr the largest divisor of p not above sqrt(p)); process (i, j)
 * owns block (i, j) of A, B and C, and n is rounded up to a multiple of pr and pc (default 128). Step k broadcasts
 * panel k of A (b columns) along each grid row from the grid column that owns it, and panel k of B (b rows) along
 * each grid column; every process adds the panels' product to its C block (b = gcd(n/pr, n/pc)).
 *
 *   flat          MPI_Bcast over the whole grid row (column) from the owner;
 *   hierarchical  the broadcast goes down the hardware hierarchy of the grid row (column): the communicators
 *                 MPIX_Comm_hierarchy_create makes from it. HSUMMA's groups are the row's nodes, packages, ...: the
 *                 owner sends to one conduit of every other node, each conduit to one per package of its node, and
 *                 so on. The owner changes at every step, so each row keeps one hierarchy per member, made with
 *                 that member as conduit (info key mpix_conduit_rank): the owner is then the conduit of every
 *                 communicator holding it and the broadcast starts from it with no extra hop.
 *
 * Inputs are small integers held in doubles, so every product is exact: rank 0 gathers both C matrices and checks
 * that they are bitwise equal, and (n <= 512) equal to the product it computes directly. Rank 0 prints the time of
 * one multiplication in each form: the largest total over the ranks, and the average time in broadcasts and in
 * arithmetic (the paper's Figures 11 to 13 split the bars the same way). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hier_common.h"

enum { DIRECT_CHECK_MAX_N = 512 };

static double a_at(int i, int j) { return (i + j) % 7; }
static double b_at(int i, int j) { return (i % 5) * (j % 5) % 5 - 2; }

static int gcd(int a, int b) { return b ? gcd(b, a % b) : a; }

/* The rank of `comm`'s process `rank` in `other`, or MPI_UNDEFINED when it is not a member. */
static int translate(MPI_Comm comm, int rank, MPI_Comm other) {
  MPI_Group from, to;
  int result;
  MPI_Comm_group(comm, &from);
  MPI_Comm_group(other, &to);
  MPI_Group_translate_ranks(from, 1, &rank, to, &result);
  MPI_Group_free(&from);
  MPI_Group_free(&to);
  return result;
}

/* The hardware hierarchy of a grid line with one member as conduit, and the root of each broadcast along it. */
typedef struct {
  int depth;
  MPI_Comm level[HIER_MAX_DEPTH], conduits[HIER_MAX_DEPTH];
  int conduit_root[HIER_MAX_DEPTH]; /* the parent's conduit, in conduits[d] */
  MPI_Comm leaf;                    /* level[depth-1], or the line itself */
  int leaf_root, leaf_size;
} owner_tree;

/* Collective over the line. conduits[d] joins the conduits of the depth-d communicators of one parent; its root is
 * the parent's conduit: the owner where the parent holds it, else the parent's rank 0 (conduit of its first child,
 * and so rank 0 of conduits[d], which keeps the line's order). The same rule gives the root in the leaf. */
static void owner_tree_create(MPI_Comm line, int owner, owner_tree *t) {
  MPI_Info info;
  char value[16];
  MPI_Info_create(&info);
  snprintf(value, sizeof value, "%d", owner);
  MPI_Info_set(info, "mpix_conduit_rank", value);
  MPIX_Comm_hierarchy_create(line, info, HIER_MAX_DEPTH, &t->depth, t->level, t->conduits);
  MPI_Info_free(&info);
  for (int d = 0; d < t->depth; ++d) {
    if (t->conduits[d] == MPI_COMM_NULL) continue;
    int root = translate(line, owner, t->conduits[d]);
    t->conduit_root[d] = root == MPI_UNDEFINED ? 0 : root;
  }
  t->leaf = t->depth ? t->level[t->depth - 1] : line;
  int root = translate(line, owner, t->leaf);
  t->leaf_root = root == MPI_UNDEFINED ? 0 : root;
  MPI_Comm_size(t->leaf, &t->leaf_size);
}

static void owner_tree_free(owner_tree *t) {
  for (int d = 0; d < t->depth; ++d) {
    MPI_Comm_free(&t->level[d]);
    if (t->conduits[d] != MPI_COMM_NULL) MPI_Comm_free(&t->conduits[d]);
  }
}

/* Down the hierarchy: each level's conduits from their parent's conduit, then the deepest communicator when the
 * hardware did not split it down to single processes. */
static void hier_bcast(double *buf, int count, const owner_tree *t) {
  for (int d = 0; d < t->depth; ++d)
    if (t->conduits[d] != MPI_COMM_NULL) MPI_Bcast(buf, count, MPI_DOUBLE, t->conduit_root[d], t->conduits[d]);
  if (t->leaf_size > 1) MPI_Bcast(buf, count, MPI_DOUBLE, t->leaf_root, t->leaf);
}

/* One grid row (it broadcasts A panels) or column (B panels). */
typedef struct {
  MPI_Comm comm;
  int rank, size;
  owner_tree *trees; /* trees[o]: the hierarchy with member o as conduit */
} line;

static void line_create(line *l, MPI_Comm comm) {
  l->comm = comm;
  MPI_Comm_rank(comm, &l->rank);
  MPI_Comm_size(comm, &l->size);
  l->trees = malloc(sizeof(owner_tree) * (size_t)l->size);
  for (int o = 0; o < l->size; ++o) owner_tree_create(comm, o, &l->trees[o]);
}

static void line_free(line *l) {
  for (int o = 0; o < l->size; ++o) owner_tree_free(&l->trees[o]);
  free(l->trees);
  MPI_Comm_free(&l->comm);
}

static void broadcast_panel(int hierarchical, double *panel, int count, int owner, const line *l) {
  if (hierarchical)
    hier_bcast(panel, count, &l->trees[owner]);
  else
    MPI_Bcast(panel, count, MPI_DOUBLE, owner, l->comm);
}

/* Copies rows x cols elements, ld apart in `from`, into the contiguous `to`. */
static void pack(double *to, const double *from, int rows, int cols, int ld) {
  for (int i = 0; i < rows; ++i) memcpy(to + (size_t)i * cols, from + (size_t)i * ld, sizeof(double) * cols);
}

/* c (m x n) += a (m x kb) b (kb x n), all contiguous. */
static void multiply_add(double *c, int m, int n, int kb, const double *a, const double *b) {
  for (int i = 0; i < m; ++i)
    for (int k = 0; k < kb; ++k) {
      double aik = a[i * kb + k];
      for (int j = 0; j < n; ++j) c[i * n + j] += aik * b[k * n + j];
    }
}

typedef struct {
  int n, pr, pc, mr, nc, b, gi, gj;
  line row, col;
  double *a, *bb, *a_panel, *b_panel;
} summa;

/* One multiplication into c; adds its time in broadcasts and in arithmetic to the timers. */
static void multiply(int hierarchical, summa *s, double *c, double *bcast_s, double *compute_s) {
  memset(c, 0, sizeof(double) * (size_t)s->mr * s->nc);
  for (int k = 0; k < s->n / s->b; ++k) {
    /* Panel k: columns k b.. of A, owned by grid column k b / nc; rows k b.. of B, by grid row k b / mr. */
    int a_owner = k * s->b / s->nc, a_col = k * s->b % s->nc, b_owner = k * s->b / s->mr, b_row = k * s->b % s->mr;
    double t0 = MPI_Wtime();
    if (s->gj == a_owner) pack(s->a_panel, s->a + a_col, s->mr, s->b, s->nc);
    if (s->gi == b_owner) pack(s->b_panel, s->bb + (size_t)b_row * s->nc, s->b, s->nc, s->nc);
    broadcast_panel(hierarchical, s->a_panel, s->mr * s->b, a_owner, &s->row);
    broadcast_panel(hierarchical, s->b_panel, s->b * s->nc, b_owner, &s->col);
    double t1 = MPI_Wtime();
    multiply_add(c, s->mr, s->nc, s->b, s->a_panel, s->b_panel);
    *bcast_s += t1 - t0;
    *compute_s += MPI_Wtime() - t1;
  }
}

/* Rank 0: the whole n x n matrix from every rank's block (rank r holds block (r / pc, r % pc)). */
static double *gather_matrix(const summa *s, const double *c, int rank, int p) {
  size_t block = (size_t)s->mr * s->nc;
  double *blocks = rank == 0 ? malloc(sizeof(double) * block * p) : NULL;
  MPI_Gather(c, (int)block, MPI_DOUBLE, blocks, (int)block, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  if (rank != 0) return NULL;
  double *m = malloc(sizeof(double) * (size_t)s->n * s->n);
  for (int r = 0; r < p; ++r)
    for (int i = 0; i < s->mr; ++i)
      memcpy(m + (size_t)(r / s->pc * s->mr + i) * s->n + (size_t)(r % s->pc) * s->nc, blocks + r * block + i * s->nc,
             sizeof(double) * s->nc);
  free(blocks);
  return m;
}

/* Rank 0: the elements of m that differ from the directly computed product. */
static long direct_check(const double *m, int n) {
  long wrong = 0;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      double expect = 0;
      for (int k = 0; k < n; ++k) expect += a_at(i, k) * b_at(k, j);
      wrong += m[(size_t)i * n + j] != expect;
    }
  return wrong;
}

/* Rank 0 prints one row of the table: the largest total over the ranks, the average broadcast and arithmetic. */
static double report(const char *form, double bcast_s, double compute_s, int reps, int rank, int p) {
  double total = bcast_s + compute_s, sums[2] = {bcast_s, compute_s}, longest;
  MPI_Allreduce(MPI_IN_PLACE, sums, 2, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(&total, &longest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  if (rank == 0)
    printf("%14s %11.3f %11.3f %11.3f\n", form, longest / reps * 1e3, sums[0] / p / reps * 1e3,
           sums[1] / p / reps * 1e3);
  return longest;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &p);

  summa s;
  s.pr = 1;
  for (int d = 1; d * d <= p; ++d)
    if (p % d == 0) s.pr = d;
  s.pc = p / s.pr;
  int lcm = s.pr / gcd(s.pr, s.pc) * s.pc, reps = argc > 2 ? atoi(argv[2]) : 3;
  s.n = argc > 1 ? atoi(argv[1]) : 128;
  s.n = (s.n + lcm - 1) / lcm * lcm;
  if (s.n < 1 || reps < 1) MPI_Abort(MPI_COMM_WORLD, 2);
  s.mr = s.n / s.pr, s.nc = s.n / s.pc, s.b = gcd(s.mr, s.nc);
  s.gi = rank / s.pc, s.gj = rank % s.pc;

  MPI_Comm row_comm, col_comm;
  MPI_Comm_split(MPI_COMM_WORLD, s.gi, s.gj, &row_comm);
  MPI_Comm_split(MPI_COMM_WORLD, s.gj, s.gi, &col_comm);
  line_create(&s.row, row_comm);
  line_create(&s.col, col_comm);

  size_t block = (size_t)s.mr * s.nc;
  s.a = malloc(sizeof(double) * block), s.bb = malloc(sizeof(double) * block);
  s.a_panel = malloc(sizeof(double) * (size_t)s.mr * s.b), s.b_panel = malloc(sizeof(double) * (size_t)s.b * s.nc);
  double *c_flat = malloc(sizeof(double) * block), *c_hier = malloc(sizeof(double) * block);
  for (int i = 0; i < s.mr; ++i)
    for (int j = 0; j < s.nc; ++j) {
      s.a[i * s.nc + j] = a_at(s.gi * s.mr + i, s.gj * s.nc + j);
      s.bb[i * s.nc + j] = b_at(s.gi * s.mr + i, s.gj * s.nc + j);
    }

  int nodes = hier_node_count(MPI_COMM_WORLD);
  if (rank == 0) {
    char row_levels[512], col_levels[512];
    hier_describe(s.row.trees[0].level, s.row.trees[0].depth, row_levels, sizeof row_levels);
    hier_describe(s.col.trees[0].level, s.col.trees[0].depth, col_levels, sizeof col_levels);
    printf("hier_summa: n=%d on a %dx%d grid, %d rank(s) on %d node(s), %d steps of b=%d, %d repetition(s)\n", s.n,
           s.pr, s.pc, p, nodes, s.n / s.b, s.b, reps);
    printf("hier_summa: hierarchy of grid row 0: %s; of grid column 0: %s\n", row_levels, col_levels);
    printf("%14s %11s %11s %11s\n", "form", "total ms", "bcast ms", "compute ms");
  }

  /* The forms alternate, so that both see the same load on a shared machine; the barrier keeps one form's stragglers
   * out of the other's time. */
  double bcast_s[2] = {0, 0}, compute_s[2] = {0, 0};
  for (int rep = 0; rep < reps; ++rep)
    for (int hierarchical = 0; hierarchical < 2; ++hierarchical) {
      MPI_Barrier(MPI_COMM_WORLD);
      multiply(hierarchical, &s, hierarchical ? c_hier : c_flat, &bcast_s[hierarchical], &compute_s[hierarchical]);
    }
  double flat_s = report("flat", bcast_s[0], compute_s[0], reps, rank, p);
  double hier_s = report("hierarchical", bcast_s[1], compute_s[1], reps, rank, p);

  double *flat = gather_matrix(&s, c_flat, rank, p), *hier = gather_matrix(&s, c_hier, rank, p);
  long failures = 0;
  if (rank == 0) {
    printf("hier_summa: flat/hierarchical total time: %.2f\n", flat_s / hier_s);
    size_t n2 = (size_t)s.n * s.n;
    long differ = 0;
    double checksum = 0;
    for (size_t e = 0; e < n2; ++e) {
      differ += memcmp(&flat[e], &hier[e], sizeof(double)) != 0;
      checksum += hier[e];
    }
    failures += differ;
    printf("hier_summa: hierarchical vs flat: %s (checksum %.0f)\n", differ ? "FAILED, they differ" : "bitwise equal",
           checksum);
    if (s.n <= DIRECT_CHECK_MAX_N) {
      long wrong = direct_check(hier, s.n) + direct_check(flat, s.n);
      failures += wrong;
      printf("hier_summa: direct product on rank 0: %s\n", wrong ? "FAILED, differs" : "equal to both");
    } else {
      printf("hier_summa: direct product on rank 0: skipped (n > %d)\n", DIRECT_CHECK_MAX_N);
    }
    printf("hier_summa: %s\n", failures ? "FAILED" : "PASSED");
  }
  failures = hier_total_failures(MPI_COMM_WORLD, failures);

  line_free(&s.row);
  line_free(&s.col);
  free(s.a), free(s.bb), free(s.a_panel), free(s.b_panel), free(c_flat), free(c_hier), free(flat), free(hier);
  MPI_Finalize();
  return failures ? 1 : 0;
}
