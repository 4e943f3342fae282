/* Many windows open at once, as Global Arrays keeps one per array: every rank is in a lock_all epoch on all of them
 * and sends accumulates and gets to every other rank on each, visiting the windows in a shuffled order. A target
 * applies a window's requests only once it has heard they arrived, so a request lost among the windows (or told to
 * the wrong one) leaves an origin's flush waiting or a slot short. Half the windows are then freed, every other one,
 * and new ones created beside the rest, twice: windows leave and join while others still hold requests. Each slot
 * must hold the sum of what every origin added to it; each get must read what its target wrote before the round.
 * Passes with MPICH 4.0.2. */
#include "test_util.h"

enum { WINDOWS = 48, ROUNDS = 3 };

typedef struct {
  MPI_Win win;
  int *base;  /* slot o: what origin o added; slot size: the target's own mark */
  int generation;
} Window;

static int mark(int rank, int w, int generation) { return rank * 100000 + w * 100 + generation; }
static int added(int origin, int w, int round) { return (origin + 1) * 1000 + w * 10 + round; }

static void create(Window *window, int w, int generation, int rank, int size) {
  window->base = test_malloc(sizeof(int) * (size_t)(size + 1));
  for (int o = 0; o < size; ++o) window->base[o] = 0;
  window->base[size] = mark(rank, w, generation);
  window->generation = generation;
  CHECK_MPI(MPI_Win_create(window->base, (MPI_Aint)(sizeof(int) * (size_t)(size + 1)), sizeof(int), MPI_INFO_NULL,
                           MPI_COMM_WORLD, &window->win));
  CHECK_MPI(MPI_Win_lock_all(0, window->win));
}

static void destroy(Window *window) {
  CHECK_MPI(MPI_Win_unlock_all(window->win));
  CHECK_MPI(MPI_Win_free(&window->win));
  free(window->base);
}

int main(int argc, char **argv) {
  CHECK_MPI(MPI_Init(&argc, &argv));
  int rank, size;
  CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
  CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
  Window windows[WINDOWS];
  for (int w = 0; w < WINDOWS; ++w) create(&windows[w], w, 0, rank, size);
  int *marks = test_malloc(sizeof(int) * (size_t)size * WINDOWS);
  test_rng rng = test_rng_make(17 + (uint64_t)rank);

  for (int round = 0; round < ROUNDS; ++round) {
    int order[WINDOWS];
    for (int w = 0; w < WINDOWS; ++w) order[w] = w;
    for (int w = WINDOWS - 1; w > 0; --w) {
      int j = (int)test_rng_below(&rng, (uint64_t)w + 1), t = order[w];
      order[w] = order[j], order[j] = t;
    }
    for (int i = 0; i < WINDOWS; ++i) {
      const int w = order[i];
      for (int t = 0; t < size; ++t) {
        const int value = added(rank, w, round);
        CHECK_MPI(MPI_Accumulate(&value, 1, MPI_INT, t, rank, 1, MPI_INT, MPI_SUM, windows[w].win));
        CHECK_MPI(MPI_Get(&marks[w * size + t], 1, MPI_INT, t, size, 1, MPI_INT, windows[w].win));
      }
      if (i % 2 == 0) CHECK_MPI(MPI_Win_flush_all(windows[w].win));
    }
    for (int w = 0; w < WINDOWS; ++w) CHECK_MPI(MPI_Win_flush_all(windows[w].win));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));  /* every origin's flush returned: every slot is final */

    for (int w = 0; w < WINDOWS; ++w) {
      for (int t = 0; t < size; ++t) CHECK(marks[w * size + t] == mark(t, w, windows[w].generation));
      CHECK_MPI(MPI_Win_sync(windows[w].win));
      for (int o = 0; o < size; ++o) {
        const int sum = windows[w].base[o];
        int want = 0;  /* rounds this window lived through, since it was created */
        for (int r = windows[w].generation; r <= round; ++r) want += added(o, w, r);
        CHECK(sum == want);
      }
    }
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));  /* all reads done before the windows change */
    for (int w = round % 2; w < WINDOWS; w += 2) {
      destroy(&windows[w]);
      create(&windows[w], w, round + 1, rank, size);
    }
  }
  for (int w = 0; w < WINDOWS; ++w) destroy(&windows[w]);
  free(marks);
  if (rank == 0) printf("rma_many_windows: %d windows, %d ranks OK\n", WINDOWS, size);
  CHECK_MPI(MPI_Finalize());
  return 0;
}
