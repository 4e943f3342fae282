/* Accumulates of the padded pair types (MPI-4.0 6.9.4: MPI_DOUBLE_INT, MPI_LONG_DOUBLE_INT, MPI_SHORT_INT, whose
 * elements have a gap between value and index) with MPI_MAXLOC and MPI_MINLOC, on MPI_Win_create and MPI_Win_allocate
 * windows: every rank accumulates into rank 0's window N elements (a contiguous count) and, through a vector type,
 * every other element of a second region; the values rise with the origin's rank on even elements and fall on odd
 * ones, so each element's winner is known in advance. Rank 0 checks every element after a fence, and that the vector's
 * gaps are untouched. Also: an accumulate of an empty derived type (MPI_Type_contiguous(0, ...)) with MPI_SUM, which
 * moves no data and so is no error (MPICH's badrma). Any number of ranks. */
#include "test_util.h"

enum { N = 9, VEC = 2 * N };

typedef struct { double value; int index; } double_int;
typedef struct { long double value; int index; } long_double_int;
typedef struct { short value; int index; } short_int;

/* Origin o's value for element i: rising with o on even i, falling on odd i; 0 .. 999. */
static int value_of(int o, int i, int size) { return (i % 2 == 0 ? o : size - 1 - o) * 10 + i; }

#define PAIR_CASE(name, type_t, mpi_type)                                                                      \
  static void name(int rank, int size, int allocate) {                                                         \
    type_t *mem = NULL;                                                                                        \
    MPI_Win win;                                                                                               \
    const MPI_Aint bytes = (MPI_Aint)sizeof(type_t) * (N + VEC);                                               \
    if (allocate) {                                                                                            \
      CHECK_MPI(MPI_Win_allocate(bytes, sizeof(type_t), MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win));           \
    } else {                                                                                                   \
      mem = malloc((size_t)bytes);                                                                             \
      CHECK_MPI(MPI_Win_create(mem, bytes, sizeof(type_t), MPI_INFO_NULL, MPI_COMM_WORLD, &win));              \
    }                                                                                                          \
    for (int i = 0; i < N + VEC; ++i) mem[i].value = i < N ? -1 : 5000, mem[i].index = -1;                    \
    MPI_Datatype every_other;                                                                                  \
    CHECK_MPI(MPI_Type_vector(N, 1, 2, mpi_type, &every_other));                                               \
    CHECK_MPI(MPI_Type_commit(&every_other));                                                                  \
    type_t mine[VEC];                                                                                          \
    for (int i = 0; i < VEC; ++i) mine[i].value = value_of(rank, i, size), mine[i].index = rank;              \
    CHECK_MPI(MPI_Win_fence(0, win));                                                                          \
    CHECK_MPI(MPI_Accumulate(mine, N, mpi_type, 0, 0, N, mpi_type, MPI_MAXLOC, win));                          \
    CHECK_MPI(MPI_Accumulate(mine, 1, every_other, 0, N, 1, every_other, MPI_MINLOC, win));                    \
    CHECK_MPI(MPI_Win_fence(0, win));                                                                          \
    if (rank == 0) {                                                                                           \
      for (int i = 0; i < N; ++i) { /* MAXLOC: the highest value; all values differ by origin */               \
        const int winner = i % 2 == 0 ? size - 1 : 0;                                                         \
        CHECK(mem[i].value == value_of(winner, i, size) && mem[i].index == winner);                           \
      }                                                                                                        \
      for (int i = 0; i < VEC; ++i) { /* MINLOC through the vector: mine[i] onto element N + i, i even */      \
        const type_t got = mem[N + i];                                                                         \
        if (i % 2 == 1)                                                                                        \
          CHECK(got.value == 5000 && got.index == -1); /* a gap of the vector: untouched */                   \
        else                                                                                                   \
          CHECK(got.value == value_of(0, i, size) && got.index == 0); /* even i: rising, origin 0 lowest */   \
      }                                                                                                        \
    }                                                                                                          \
    CHECK_MPI(MPI_Win_fence(0, win));                                                                          \
    CHECK_MPI(MPI_Type_free(&every_other));                                                                    \
    CHECK_MPI(MPI_Win_free(&win));                                                                             \
    if (!allocate) free(mem);                                                                                  \
  }

PAIR_CASE(double_int_case, double_int, MPI_DOUBLE_INT)
PAIR_CASE(long_double_int_case, long_double_int, MPI_LONG_DOUBLE_INT)
PAIR_CASE(short_int_case, short_int, MPI_SHORT_INT)

static void empty_type_case(int rank, int size) {
  int mem[4] = {1, 2, 3, 4}, none[1] = {99};
  MPI_Win win;
  MPI_Datatype empty;
  CHECK_MPI(MPI_Type_contiguous(0, MPI_INT, &empty));
  CHECK_MPI(MPI_Type_commit(&empty));
  CHECK_MPI(MPI_Win_create(mem, sizeof mem, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win));
  CHECK_MPI(MPI_Win_fence(0, win));
  CHECK_MPI(MPI_Accumulate(none, 1, empty, (rank + 1) % size, 0, 1, empty, MPI_SUM, win));
  CHECK_MPI(MPI_Win_fence(0, win));
  for (int i = 0; i < 4; ++i) CHECK(mem[i] == i + 1);
  CHECK_MPI(MPI_Win_free(&win));
  CHECK_MPI(MPI_Type_free(&empty));
}

int main(int argc, char **argv) {
  CHECK_MPI(MPI_Init(&argc, &argv));
  int rank, size;
  CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
  CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
  for (int allocate = 0; allocate < 2; ++allocate) {
    double_int_case(rank, size, allocate);
    long_double_int_case(rank, size, allocate);
    short_int_case(rank, size, allocate);
  }
  empty_type_case(rank, size);
  if (rank == 0) printf("rma_pair_types: %d ranks OK\n", size);
  CHECK_MPI(MPI_Finalize());
  return 0;
}
