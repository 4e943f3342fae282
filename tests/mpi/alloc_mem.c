/* MPI_Alloc_mem and MPI_Free_mem (MPI-4.0 8.2): blocks of several sizes, aligned, usable (also as message
 * buffers), freed in any order; size 0 gives NULL and MPI_Free_mem(NULL) succeeds; bad input is refused (a negative
 * size, a NULL baseptr, an invalid info, an address that did not come from MPI_Alloc_mem or was freed already).
 * Runs on any number of ranks. */
#include "test_util.h"

static int rank, size;
static void still_works(int line) {
  double *p = NULL;
  CHECK_MPI(MPI_Alloc_mem(64, MPI_INFO_NULL, &p));
  p[7] = line;
  CHECK(p[7] == line);
  CHECK_MPI(MPI_Free_mem(p));
}

int main(int argc, char **argv) {
  test_init_returning(&argc, &argv, &rank, &size);
  static const MPI_Aint sizes[] = {1, 7, 64, 1000, 1 << 20, 3 << 20};
  enum { N = sizeof sizes / sizeof sizes[0] };
  unsigned char *blocks[N];
  MPI_Info info;
  CHECK_MPI(MPI_Info_create(&info));
  CHECK_MPI(MPI_Info_set(info, "mpi_minimum_memory_alignment", "64"));
  for (int i = 0; i < N; ++i) {
    CHECK_MPI(MPI_Alloc_mem(sizes[i], i % 2 ? info : MPI_INFO_NULL, &blocks[i]));
    CHECK(blocks[i] != NULL && (uintptr_t)blocks[i] % 64 == 0);
    memset(blocks[i], i + 1, (size_t)sizes[i]);
  }
  for (int i = 0; i < N; ++i)
    CHECK(blocks[i][0] == i + 1 && blocks[i][sizes[i] - 1] == i + 1);

  /* As message buffers: a ring shift of the 1 MiB block. */
  unsigned char *in = NULL;
  CHECK_MPI(MPI_Alloc_mem(1 << 20, MPI_INFO_NULL, &in));
  memset(blocks[4], rank, 1 << 20);
  CHECK_MPI(MPI_Sendrecv(blocks[4], 1 << 20, MPI_BYTE, (rank + 1) % size, 5, in, 1 << 20, MPI_BYTE,
                         (rank + size - 1) % size, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
  CHECK(in[0] == (unsigned char)((rank + size - 1) % size) && in[(1 << 20) - 1] == in[0]);
  CHECK_MPI(MPI_Free_mem(in));
  for (int i = N - 1; i >= 0; i -= 2) CHECK_MPI(MPI_Free_mem(blocks[i]));
  for (int i = 0; i < N; i += 2) CHECK_MPI(MPI_Free_mem(blocks[i]));

  void *zero = (void *)1;
  CHECK_MPI(MPI_Alloc_mem(0, MPI_INFO_NULL, &zero));
  CHECK(zero == NULL);
  CHECK_MPI(MPI_Free_mem(zero));
  CHECK_MPI(MPI_Free_mem(NULL));

  void *p = NULL;
  int on_stack = 0;
  EXPECT_FAILS(MPI_Alloc_mem(-1, MPI_INFO_NULL, &p), MPI_ERR_SIZE, "MPI_Alloc_mem");
  EXPECT_FAILS(MPI_Alloc_mem(8, MPI_INFO_NULL, NULL), MPI_ERR_ARG, "MPI_Alloc_mem");
#ifndef __SANITIZE_ADDRESS__ /* AddressSanitizer ends the process on such a request instead of failing it */
  EXPECT_FAILS(MPI_Alloc_mem(INTPTR_MAX, MPI_INFO_NULL, &p), MPI_ERR_NO_MEM, "MPI_Alloc_mem");
#endif
  MPI_Info freed = info;
  CHECK_MPI(MPI_Info_free(&info));
  EXPECT_FAILS(MPI_Alloc_mem(8, freed, &p), MPI_ERR_INFO, "MPI_Alloc_mem");
  EXPECT_FAILS(MPI_Free_mem(&on_stack), MPI_ERR_BASE, "MPI_Free_mem");
  CHECK_MPI(MPI_Alloc_mem(8, MPI_INFO_NULL, &p));
  CHECK_MPI(MPI_Free_mem(p));
  EXPECT_FAILS(MPI_Free_mem(p), MPI_ERR_BASE, "MPI_Free_mem"); /* freed already */

  if (rank == 0) printf("alloc_mem: %d ranks OK\n", size);
  CHECK_MPI(MPI_Finalize());
  return 0;
}
