/* One-sided traffic both ways at once between partners, each rank an origin and a target in the same epoch: the
 * even rank of each pair gets a large block from its partner while the odd one puts and accumulates large blocks
 * into the even one, then both swap roles, so one rank's answers (a get's data) and the other's data (a put's or an
 * accumulate's) cross between the same two processes on the same window. A library that tags both kinds of
 * message from one numbering of its own would hand a put's data to a get waiting at its target (rma/wire.hpp).
 * Right after the large accumulate (MPI_SUM) comes a one-int MPI_REPLACE inside its span, which must land after it
 * (accumulates of one origin to one location are ordered, MPI-4.0 12.7.1). Under lock_all the get is an MPI_Rget,
 * which MPI_Cancel refuses (MPI_ERR_REQUEST with Strata and Open MPI; MPICH reports an internal error) and which
 * then completes, and the accumulate an MPI_Raccumulate whose buffer is overwritten as soon as MPI_Wait returns. Windows: MPI_Win_create and MPI_Win_create_dynamic; epochs:
 * MPI_Win_lock_all with flushes, and fence. Every int read and written is checked against a function of the ranks;
 * an odd last rank only synchronises. */
#include "test_util.h"

enum { N = 100000, FLAVORS = 2, EPOCHS = 2, REPLACED = 7, LAST = 42 };

static int value(int rank, int what, int i) { return rank * 1000003 + what * 100019 + i; }

int main(int argc, char **argv) {
  CHECK_MPI(MPI_Init(&argc, &argv));
  int rank, size;
  CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
  CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
  CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));   /* MPI_Cancel's errors: Strata, MPICH */
  CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));  /* and Open MPI's */
  const int partner = (rank % 2 == 0) ? rank + 1 : rank - 1;
  const int paired = partner < size;
  /* The window: [0, N) is read by the partner, [N, 2N) is put into, [2N, 3N) accumulated into. */
  int *mem = malloc(sizeof(int) * 3 * N), *got = malloc(sizeof(int) * N), *src = malloc(sizeof(int) * N);
  int *acc = malloc(sizeof(int) * N);
  const int last = LAST;
  for (int flavor = 0; flavor < FLAVORS; ++flavor)
    for (int epoch = 0; epoch < EPOCHS; ++epoch) {
      MPI_Win win;
      MPI_Aint base = 0, theirs = 0;
      for (int i = 0; i < N; ++i) mem[i] = value(rank, 0, i), mem[N + i] = -1, mem[2 * N + i] = 1;
      for (int i = 0; i < N; ++i) src[i] = acc[i] = value(rank, 1, i), got[i] = -1;
      if (flavor == 0) {
        CHECK_MPI(MPI_Win_create(mem, sizeof(int) * 3 * N, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win));
      } else {
        CHECK_MPI(MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win));
        CHECK_MPI(MPI_Win_attach(win, mem, sizeof(int) * 3 * N));
        CHECK_MPI(MPI_Get_address(mem, &base));
      }
      CHECK_MPI(MPI_Sendrecv(&base, 1, MPI_AINT, paired ? partner : MPI_PROC_NULL, 0, &theirs, 1, MPI_AINT,
                             paired ? partner : MPI_PROC_NULL, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
      /* Displacements in the partner's unit: ints on a created window, bytes from its address on a dynamic one. */
      const MPI_Aint unit = flavor == 0 ? 1 : (MPI_Aint)sizeof(int);
      const MPI_Aint at_read = theirs, at_put = MPI_Aint_add(theirs, N * unit),
                     at_acc = MPI_Aint_add(theirs, 2 * N * unit);
      if (epoch == 0) CHECK_MPI(MPI_Win_lock_all(0, win));
      else CHECK_MPI(MPI_Win_fence(0, win));
      if (paired)
        for (int turn = 0; turn < 2; ++turn) {
          if ((rank % 2 == 0) == (turn == 0)) {
            if (epoch == 0) {
              MPI_Request request;
              CHECK_MPI(MPI_Rget(got, N, MPI_INT, partner, at_read, N, MPI_INT, win, &request));
              const MPI_Request kept = request;
              const int err = MPI_Cancel(&request);
#ifdef STRATA
              test_expect_error_at(err, MPI_ERR_REQUEST, "MPI_Cancel", "MPI_Cancel(&request)", __FILE__, __LINE__);
#else /* MPICH 4.0.2: an internal error; Open MPI 4.1: MPI_ERR_REQUEST, with a message that does not name the call */
              CHECK(err != MPI_SUCCESS);
#endif
              CHECK(request == kept);
              CHECK_MPI(MPI_Wait(&request, MPI_STATUS_IGNORE));
            } else {
              CHECK_MPI(MPI_Get(got, N, MPI_INT, partner, at_read, N, MPI_INT, win));
            }
          } else {
            CHECK_MPI(MPI_Put(src, N, MPI_INT, partner, at_put, N, MPI_INT, win));
            if (epoch == 0) {
              MPI_Request request;
              CHECK_MPI(MPI_Raccumulate(acc, N, MPI_INT, partner, at_acc, N, MPI_INT, MPI_SUM, win, &request));
              CHECK_MPI(MPI_Wait(&request, MPI_STATUS_IGNORE));
              for (int i = 0; i < N; ++i) acc[i] = -999; /* the origin's buffer is free once the request is */
            } else {
              CHECK_MPI(MPI_Accumulate(acc, N, MPI_INT, partner, at_acc, N, MPI_INT, MPI_SUM, win));
            }
            CHECK_MPI(MPI_Accumulate(&last, 1, MPI_INT, partner, MPI_Aint_add(at_acc, REPLACED * unit), 1, MPI_INT,
                                     MPI_REPLACE, win));
          }
          if (epoch == 0) CHECK_MPI(MPI_Win_flush(partner, win));
        }
      if (epoch == 0) CHECK_MPI(MPI_Win_unlock_all(win));
      else CHECK_MPI(MPI_Win_fence(0, win));
      CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
      for (int i = 0; i < N; ++i) {
        CHECK(got[i] == (paired ? value(partner, 0, i) : -1));
        CHECK(mem[i] == value(rank, 0, i));
        CHECK(mem[N + i] == (paired ? value(partner, 1, i) : -1));
        CHECK(mem[2 * N + i] == (!paired ? 1 : i == REPLACED ? LAST : value(partner, 1, i) + 1));
      }
      if (flavor == 1) CHECK_MPI(MPI_Win_detach(win, mem));
      CHECK_MPI(MPI_Win_free(&win));
    }
  free(mem);
  free(got);
  free(src);
  free(acc);
  if (rank == 0) printf("rma_both_ways: %d ranks OK\n", size);
  CHECK_MPI(MPI_Finalize());
  return 0;
}
