/* Context ids under load (issue 3): many communicators created and freed in a loop, many alive at once, and
 * concurrent creation on overlapping communicators, never colliding; freed ids are reused (not observable directly:
 * the loops create far more communicators than are ever alive, so an implementation that never reuses ids runs out
 * of a bounded id space, or at least grows without bound).
 *
 * 1. loop:    `loop` times Comm_dup + Comm_free (parents alternate between WORLD and a long-lived duplicate; every
 *             dup is checked to be congruent, and every 500th carries an exchange).
 * 2. alive:   `alive` duplicates alive at once (parents: WORLD and earlier duplicates), one message on each, received
 *             in reverse order with MPI_ANY_TAG: two duplicates sharing a context would swap messages. Freed in a
 *             shuffled order; then the same count is created again (reusing the freed ids) and checked again.
 * 3. overlap: WORLD split into halves A (low) and B (high), and a middle communicator C overlapping both. For
 *             `rounds` rounds, the members of A dup A then C, the members of B dup C then B (a pattern that collides
 *             if a process picks context ids locally, in creation order, without agreement), plus a split of C and
 *             a Comm_create_group on A∪C members. All of them stay alive and are then used at the same time
 *             (exchanges posted on every communicator before any completes); then they are freed in an
 *             interleaved order and the next round begins.
 *
 * Usage: comm_free_loop [--loop N] [--alive N] [--rounds N] (defaults 10000, 2000, 12). Runs on any number of ranks. */
#include "test_util.h"

static int rank, size;
static int *world_ids;

static void check_congruent_world(MPI_Comm c) {
  int result = -1;
  CHECK_MPI(MPI_Comm_compare(MPI_COMM_WORLD, c, &result));
  CHECK(result == MPI_CONGRUENT);
}

static void phase_loop(int loop) {
  MPI_Comm keep = MPI_COMM_NULL;
  CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &keep));
  for (int i = 0; i < loop; ++i) {
    MPI_Comm c = MPI_COMM_NULL;
    CHECK_MPI(MPI_Comm_dup(i % 2 ? keep : MPI_COMM_WORLD, &c));
    CHECK(c != MPI_COMM_NULL && c != keep && c != MPI_COMM_WORLD);
    if (i % 97 == 0) check_congruent_world(c);
    if (i % 500 == 0 || i == loop - 1) {
      test_comm_exchange(c, world_ids, i, 1);
      test_comm_exchange(keep, world_ids, -i - 1, 1);
    }
    CHECK_MPI(MPI_Comm_free(&c));
    CHECK(c == MPI_COMM_NULL);
  }
  test_comm_exchange(keep, world_ids, -1, 2);
  CHECK_MPI(MPI_Comm_free(&keep));
}

/* One message on each of comms[0..n-1] to the right neighbour, received from the left in reverse order with
 * MPI_ANY_TAG; payload and tag name the communicator. */
static void exchange_all(MPI_Comm *comms, int n, int salt) {
  int right = (rank + 1) % size, left = (rank - 1 + size) % size;
  int *out = test_malloc(sizeof(int) * 2 * (size_t)n), *in = test_malloc(sizeof(int) * 2 * (size_t)n);
  MPI_Request *reqs = test_malloc(sizeof(MPI_Request) * (size_t)n);
  for (int i = 0; i < n; ++i) {
    out[2 * i] = i;
    out[2 * i + 1] = salt;
    CHECK_MPI(MPI_Isend(&out[2 * i], 2, MPI_INT, right, i % 1000, comms[i], &reqs[i]));
  }
  for (int i = n - 1; i >= 0; --i) {
    MPI_Status st;
    in[2 * i] = in[2 * i + 1] = -1;
    CHECK_MPI(MPI_Recv(&in[2 * i], 2, MPI_INT, left, MPI_ANY_TAG, comms[i], &st));
    if (in[2 * i] != i || in[2 * i + 1] != salt || st.MPI_TAG != i % 1000) {
      fprintf(stderr, "rank %d: on communicator #%d got the message of #%d (salt %d, tag %d)\n", rank, i, in[2 * i],
              in[2 * i + 1], st.MPI_TAG);
      CHECK(!"a message crossed over to another communicator");
    }
  }
  CHECK_MPI(MPI_Waitall(n, reqs, MPI_STATUSES_IGNORE));
  free(out);
  free(in);
  free(reqs);
}

static void phase_alive(int alive) {
  if (alive <= 0) return;
  MPI_Comm *c = test_malloc(sizeof(MPI_Comm) * (size_t)alive);
  int *order = test_malloc(sizeof(int) * (size_t)alive);
  for (int pass = 0; pass < 2; ++pass) {
    for (int i = 0; i < alive; ++i) {
      MPI_Comm parent = (i % 3 == 0 || i < 2) ? MPI_COMM_WORLD : c[i / 2];
      CHECK_MPI(MPI_Comm_dup(parent, &c[i]));
      if (i % 199 == 0) check_congruent_world(c[i]);
    }
    for (int i = 0; i < alive; ++i)
      for (int j = i + 1; j < alive && j < i + 3; ++j) CHECK(c[i] != c[j]);
    exchange_all(c, alive, pass);
    test_comm_exchange(c[alive - 1], world_ids, 5, 3);
    /* free in a shuffled order, the same on every rank */
    for (int i = 0; i < alive; ++i) order[i] = i;
    test_rng rng = test_rng_make(1234 + (uint64_t)pass);
    for (int i = alive - 1; i > 0; --i) {
      int j = (int)test_rng_below(&rng, (uint64_t)i + 1), t = order[i];
      order[i] = order[j];
      order[j] = t;
    }
    for (int i = 0; i < alive; ++i) {
      CHECK_MPI(MPI_Comm_free(&c[order[i]]));
      CHECK(c[order[i]] == MPI_COMM_NULL);
    }
  }
  free(c);
  free(order);
}

/* A live communicator of the overlap phase: handle, expected members (world ranks), id. */
typedef struct {
  MPI_Comm comm;
  int n;
  int world[64];
  int id;
} live_t;

static void add_live(live_t *live, int *nlive, MPI_Comm comm, const int *world, int n, int id) {
  CHECK(comm != MPI_COMM_NULL);
  CHECK(n <= 64);
  live[*nlive].comm = comm;
  live[*nlive].n = n;
  memcpy(live[*nlive].world, world, sizeof(int) * (size_t)n);
  live[*nlive].id = id;
  ++*nlive;
}

/* All-pairs exchanges on every live communicator at the same time: every receive (MPI_ANY_SOURCE, same tag on all
 * communicators) and every send is posted before anything is waited for. */
static void exchange_live(live_t *live, int nlive, int tag) {
  int total = 0;
  for (int k = 0; k < nlive; ++k) total += live[k].n;
  int *out = test_malloc(sizeof(int) * 3 * (size_t)total), *in = test_malloc(sizeof(int) * 3 * (size_t)total);
  MPI_Request *reqs = test_malloc(sizeof(MPI_Request) * 2 * (size_t)total);
  MPI_Status *st = test_malloc(sizeof(MPI_Status) * 2 * (size_t)total);
  int q = 0;
  for (int k = 0; k < nlive; ++k)
    for (int r = 0; r < live[k].n; ++r, ++q)
      CHECK_MPI(MPI_Irecv(&in[3 * q], 3, MPI_INT, MPI_ANY_SOURCE, tag, live[k].comm, &reqs[q]));
  q = 0;
  for (int k = 0; k < nlive; ++k)
    for (int r = 0; r < live[k].n; ++r, ++q) {
      out[3 * q] = live[k].id;
      out[3 * q + 1] = rank;
      out[3 * q + 2] = live[k].world[r];
      CHECK_MPI(MPI_Isend(&out[3 * q], 3, MPI_INT, r, tag, live[k].comm, &reqs[total + q]));
    }
  CHECK_MPI(MPI_Waitall(2 * total, reqs, st));
  q = 0;
  for (int k = 0; k < nlive; ++k)
    for (int r = 0; r < live[k].n; ++r, ++q) {
      int src = st[q].MPI_SOURCE;
      int ok = src >= 0 && src < live[k].n && in[3 * q] == live[k].id && in[3 * q + 1] == live[k].world[src] &&
               in[3 * q + 2] == rank;
      if (!ok)
        fprintf(stderr, "rank %d: communicator id %d got {id %d, from %d, to %d} from source %d\n", rank, live[k].id,
                in[3 * q], in[3 * q + 1], in[3 * q + 2], src);
      CHECK(ok);
    }
  free(out);
  free(in);
  free(reqs);
  free(st);
}

static void phase_overlap(int rounds) {
  int half = size / 2; /* A: [0, half) (empty when size is 1: then everybody is in B); B: [half, size) */
  int c_lo = size / 4, c_hi = size - size / 4; /* C: [c_lo, c_hi), overlapping both halves when size >= 2 */
  if (c_hi <= c_lo) c_hi = c_lo + 1;
  int in_a = rank < half, in_c = rank >= c_lo && rank < c_hi;
  int a_world[64], b_world[64], c_world[64], na = 0, nb = 0, nc = 0;
  CHECK(size <= 64);
  for (int r = 0; r < half; ++r) a_world[na++] = r;
  for (int r = half; r < size; ++r) b_world[nb++] = r;
  for (int r = c_lo; r < c_hi; ++r) c_world[nc++] = r;

  MPI_Comm ab = MPI_COMM_NULL, c = MPI_COMM_NULL;
  CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, in_a ? 0 : 1, rank, &ab));
  CHECK_MPI(MPI_Comm_split(MPI_COMM_WORLD, in_c ? 0 : MPI_UNDEFINED, rank, &c));
  CHECK((c != MPI_COMM_NULL) == in_c);
  test_check_comm(ab, in_a ? a_world : b_world, in_a ? na : nb, 1, 4);
  if (in_c) test_check_comm(c, c_world, nc, 2, 4);

  /* The union of A and C, for Comm_create_group (its members call it, after their other creations). */
  int u_world[64], nu = 0;
  for (int r = 0; r < size; ++r)
    if (r < half || (r >= c_lo && r < c_hi)) u_world[nu++] = r;
  MPI_Group world_group;
  CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &world_group));

  enum { MAXLIVE = 1024 };
  live_t *live = test_malloc(sizeof(live_t) * MAXLIVE);
  int nlive = 0, next_id = 10;
  for (int round = 0; round < rounds; ++round) {
    int per_round = 3;
    for (int rep = 0; rep < per_round; ++rep) {
      MPI_Comm x = MPI_COMM_NULL, y = MPI_COMM_NULL;
      int id_ab = next_id++, id_c = next_id++, id_s = next_id++, id_u = next_id++;
      if (in_a) {
        CHECK_MPI(MPI_Comm_dup(ab, &x));
        if (in_c) CHECK_MPI(MPI_Comm_dup(c, &y));
      } else {
        if (in_c) CHECK_MPI(MPI_Comm_dup(c, &y));
        CHECK_MPI(MPI_Comm_dup(ab, &x));
      }
      add_live(live, &nlive, x, in_a ? a_world : b_world, in_a ? na : nb, id_ab + (in_a ? 0 : 100000));
      if (in_c) add_live(live, &nlive, y, c_world, nc, id_c);
      /* A split of C into two interleaved halves, reversed. */
      if (in_c) {
        MPI_Comm s = MPI_COMM_NULL;
        int me_c = rank - c_lo;
        CHECK_MPI(MPI_Comm_split(c, me_c % 2, -me_c, &s));
        int s_world[64], ns = 0;
        for (int r = c_hi - 1; r >= c_lo; --r)
          if ((r - c_lo) % 2 == me_c % 2) s_world[ns++] = r;
        add_live(live, &nlive, s, s_world, ns, id_s + (me_c % 2) * 100000);
      }
      /* Comm_create_group over A ∪ C, called by its members only, with the round as tag. */
      if (test_index_of(u_world, nu, rank) != MPI_UNDEFINED) {
        MPI_Group ug;
        MPI_Comm u = MPI_COMM_NULL;
        CHECK_MPI(MPI_Group_incl(world_group, nu, u_world, &ug));
        CHECK_MPI(MPI_Comm_create_group(MPI_COMM_WORLD, ug, round, &u));
        CHECK_MPI(MPI_Group_free(&ug));
        add_live(live, &nlive, u, u_world, nu, id_u);
      }
      CHECK(nlive <= MAXLIVE - 8);
    }
    exchange_live(live, nlive, 5);
    /* Free about half of the communicators (interleaved in creation order; chosen by id, which all members of a
     * communicator agree on), keep the rest for the next round's exchange, and free all of them every fourth
     * round. */
    int kept = 0;
    for (int k = 0; k < nlive; ++k) {
      if (round % 4 == 3 || live[k].id % 2 == 0) {
        CHECK_MPI(MPI_Comm_free(&live[k].comm));
      } else {
        live[kept++] = live[k];
      }
    }
    nlive = kept;
  }
  for (int k = 0; k < nlive; ++k) CHECK_MPI(MPI_Comm_free(&live[k].comm));
  free(live);
  CHECK_MPI(MPI_Group_free(&world_group));
  CHECK_MPI(MPI_Comm_free(&ab));
  if (c != MPI_COMM_NULL) CHECK_MPI(MPI_Comm_free(&c));
}

int main(int argc, char **argv) {
  int loop = 10000, alive = 2000, rounds = 12;
  for (int i = 1; i + 1 < argc; ++i) {
    if (strcmp(argv[i], "--loop") == 0) loop = atoi(argv[i + 1]);
    if (strcmp(argv[i], "--alive") == 0) alive = atoi(argv[i + 1]);
    if (strcmp(argv[i], "--rounds") == 0) rounds = atoi(argv[i + 1]);
  }
  CHECK_MPI(MPI_Init(&argc, &argv));
  CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
  CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
  world_ids = test_malloc(sizeof(int) * (size_t)size);
  for (int r = 0; r < size; ++r) world_ids[r] = r;

  phase_overlap(rounds);
  phase_alive(alive);
  phase_loop(loop);
  phase_overlap(rounds / 2 + 1); /* again, with ids that have been used and freed many times */

  test_barrier();
  free(world_ids);
  CHECK_MPI(MPI_Finalize());
  return 0;
}
