/* MPI_Allgather of large blocks (256 KiB and more), in place and not, with MPI_INT and a strided derived type, called
 * several times with new contents each time. Run on simulated machines whose ranks are scattered over nodes or
 * packages, it covers the hierarchical allgather's block-by-block exchange among leaders (coll/algorithms/
 * hierarchical.cpp, blockwise_exchange), whose blocks go from and into their places in recvbuf; its first version
 * broadcast a leader's buffer before its own part was in place. Every expectation is computed here from the ranks,
 * the round and the element index. */
#include <stdlib.h>

#include "test_util.h"

enum { ROUNDS = 3, COUNT = (256 * 1024) / (int)sizeof(int) + 5, STRIDE = 5 };

static int rank, size;

static int value(int r, int round, int i) { return 1000000 * round + 10 * i + r; }

/* One case: `count` elements of `type` per rank, each element `ints` ints `apart` ints apart, `extent` ints long. */
static void allgather_case(MPI_Datatype type, int ints, int apart, int extent, int in_place) {
  const size_t block = (size_t)COUNT * (size_t)extent;
  int *recv = malloc(sizeof(int) * block * (size_t)size), *send = malloc(sizeof(int) * block);
  CHECK(recv != NULL && send != NULL);
  for (int round = 0; round < ROUNDS; ++round) {
    for (size_t i = 0; i < block * (size_t)size; ++i) recv[i] = -1;
    for (int e = 0; e < COUNT; ++e)
      for (int k = 0; k < ints; ++k) {
        const size_t at = (size_t)e * (size_t)extent + (size_t)(k * apart);
        send[at] = value(rank, round, (int)at);
        if (in_place) recv[(size_t)rank * block + at] = send[at];
      }
    if (in_place)
      CHECK_MPI(MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, recv, COUNT, type, MPI_COMM_WORLD));
    else
      CHECK_MPI(MPI_Allgather(send, COUNT, type, recv, COUNT, type, MPI_COMM_WORLD));
    for (int r = 0; r < size; ++r)
      for (int e = 0; e < COUNT; ++e)
        for (int k = 0; k < ints; ++k) {
          const size_t at = (size_t)e * (size_t)extent + (size_t)(k * apart);
          if (recv[(size_t)r * block + at] != value(r, round, (int)at)) {
            fprintf(stderr, "rank %d: round %d, %s, block of rank %d, int %zu is %d, expected %d\n", rank, round,
                    in_place ? "in place" : "not in place", r, at, recv[(size_t)r * block + at],
                    value(r, round, (int)at));
            CHECK(0);
          }
        }
  }
  free(recv);
  free(send);
}

int main(int argc, char **argv) {
  test_init_returning(&argc, &argv, &rank, &size);
  MPI_Datatype vector, strided;  /* 2 ints, 3 apart, in an extent of STRIDE ints */
  CHECK_MPI(MPI_Type_vector(2, 1, 3, MPI_INT, &vector));
  CHECK_MPI(MPI_Type_create_resized(vector, 0, (MPI_Aint)(STRIDE * sizeof(int)), &strided));
  CHECK_MPI(MPI_Type_commit(&strided));
  for (int in_place = 0; in_place <= 1; ++in_place) {
    allgather_case(MPI_INT, 1, 0, 1, in_place);
    allgather_case(strided, 2, 3, STRIDE, in_place);
  }
  CHECK_MPI(MPI_Type_free(&strided));
  CHECK_MPI(MPI_Type_free(&vector));
  CHECK_MPI(MPI_Finalize());
  if (rank == 0) printf("coll_allgather_large: ok\n");
  return 0;
}
