/* MPI_Pack_external / MPI_Unpack_external / MPI_Pack_external_size (MPI-4.0 5.2.3, 13.5.2):
 *  - the bytes of ints, a long and a double, packed one after another at a running position, are the big-endian
 *    ones written out here by hand, at the standard's sizes (a long takes 4 bytes);
 *  - every other long of an array, and a strided struct type {int, double, short} x 300, travel in external32
 *    between ranks (as MPI_BYTE) and unpack into the receiver's strided buffer, gaps untouched;
 *  - bad input: a datarep other than "external32" (MPI_ERR_ARG), too small a buffer (MPI_ERR_TRUNCATE), a position
 *    outside the buffer, NULL size; the call after works.
 * Runs on any number of ranks (rank r sends to r + 1). */
#include <stddef.h>

#include "test_util.h"

enum { kRecords = 300 };

typedef struct {
  int i;
  double d;
  short s;
} record_t;

static void known_bytes(void) {
  unsigned char buf[64];
  MPI_Aint pos = 0, size = -1;
  const int ints[2] = {0x01020304, -2};
  const long one_long = -3;
  const double one_double = 1.5;
  CHECK_MPI(MPI_Pack_external_size("external32", 2, MPI_INT, &size));
  CHECK(size == 8);
  CHECK_MPI(MPI_Pack_external_size("external32", 3, MPI_LONG, &size));
  CHECK(size == 12);
  CHECK_MPI(MPI_Pack_external("external32", ints, 2, MPI_INT, buf, sizeof buf, &pos));
  CHECK_MPI(MPI_Pack_external("external32", &one_long, 1, MPI_LONG, buf, sizeof buf, &pos));
  CHECK_MPI(MPI_Pack_external("external32", &one_double, 1, MPI_DOUBLE, buf, sizeof buf, &pos));
  const unsigned char want[20] = {1, 2, 3, 4, 0xff, 0xff, 0xff, 0xfe, 0xff, 0xff, 0xff, 0xfd,
                                  0x3f, 0xf8, 0, 0, 0, 0, 0, 0};
  CHECK(pos == 20 && memcmp(buf, want, 20) == 0);
  int ints_back[2] = {0, 0};
  long long_back = 0;
  double double_back = 0;
  pos = 0;
  CHECK_MPI(MPI_Unpack_external("external32", buf, 20, &pos, ints_back, 2, MPI_INT));
  CHECK_MPI(MPI_Unpack_external("external32", buf, 20, &pos, &long_back, 1, MPI_LONG));
  CHECK_MPI(MPI_Unpack_external("external32", buf, 20, &pos, &double_back, 1, MPI_DOUBLE));
  CHECK(pos == 20 && ints_back[0] == ints[0] && ints_back[1] == ints[1] && long_back == -3 && double_back == 1.5);
}

static MPI_Datatype strided_records(void) {
  MPI_Datatype record, resized, every_other;
  const int lens[3] = {1, 1, 1};
  const MPI_Aint disps[3] = {offsetof(record_t, i), offsetof(record_t, d), offsetof(record_t, s)};
  const MPI_Datatype types[3] = {MPI_INT, MPI_DOUBLE, MPI_SHORT};
  CHECK_MPI(MPI_Type_create_struct(3, lens, disps, types, &record));
  CHECK_MPI(MPI_Type_create_resized(record, 0, sizeof(record_t), &resized));
  CHECK_MPI(MPI_Type_vector(kRecords, 1, 2, resized, &every_other));
  CHECK_MPI(MPI_Type_commit(&every_other));
  CHECK_MPI(MPI_Type_free(&record));
  CHECK_MPI(MPI_Type_free(&resized));
  return every_other;
}

static void between_ranks(int rank, int size) {
  const int to = (rank + 1) % size, from = (rank + size - 1) % size;
  MPI_Datatype type = strided_records();
  record_t *out = test_malloc(2 * kRecords * sizeof(record_t)), *in = test_malloc(2 * kRecords * sizeof(record_t));
  memset(out, 0, 2 * kRecords * sizeof(record_t));
  for (int k = 0; k < 2 * kRecords; ++k) {
    out[k].i = k % 2 ? -1 : rank * 100000 + k;
    out[k].d = k % 2 ? -1 : rank + k / 4.0;
    out[k].s = (short)(k % 2 ? -1 : k - 300);
    in[k].i = -9, in[k].d = -9, in[k].s = -9;
  }
  MPI_Aint bytes = 0, pos = 0;
  CHECK_MPI(MPI_Pack_external_size("external32", 1, type, &bytes));
  CHECK(bytes == kRecords * (4 + 8 + 2));
  unsigned char *packed = test_malloc((size_t)bytes), *arrived = test_malloc((size_t)bytes);
  CHECK_MPI(MPI_Pack_external("external32", out, 1, type, packed, bytes, &pos));
  CHECK(pos == bytes);
  /* The first record's int, big-endian. */
  const unsigned first = (unsigned)(rank * 100000);
  CHECK(packed[0] == (first >> 24 & 0xff) && packed[3] == (first & 0xff));
  CHECK_MPI(MPI_Sendrecv(packed, (int)bytes, MPI_BYTE, to, 1, arrived, (int)bytes, MPI_BYTE, from, 1, MPI_COMM_WORLD,
                         MPI_STATUS_IGNORE));
  pos = 0;
  CHECK_MPI(MPI_Unpack_external("external32", arrived, bytes, &pos, in, 1, type));
  CHECK(pos == bytes);
  for (int k = 0; k < 2 * kRecords; ++k) {
    if (k % 2) {
      CHECK(in[k].i == -9 && in[k].d == -9 && in[k].s == -9);
    } else {
      CHECK(in[k].i == from * 100000 + k && in[k].d == from + k / 4.0 && in[k].s == (short)(k - 300));
    }
  }
  CHECK_MPI(MPI_Type_free(&type));
  free(out);
  free(in);
  free(packed);
  free(arrived);
}

/* Every other long of 2 x kRecords, one way round the ring: each takes 4 bytes in external32. */
static void strided_longs(int rank, int size) {
  const int to = (rank + 1) % size, from = (rank + size - 1) % size;
  MPI_Datatype type;
  CHECK_MPI(MPI_Type_vector(kRecords, 1, 2, MPI_LONG, &type));
  CHECK_MPI(MPI_Type_commit(&type));
  long out[2 * kRecords], in[2 * kRecords];
  for (int k = 0; k < 2 * kRecords; ++k) out[k] = k % 2 ? 99 : (long)(rank - 1) * 1000 - k, in[k] = -9;
  MPI_Aint bytes = 0, pos = 0;
  CHECK_MPI(MPI_Pack_external_size("external32", 1, type, &bytes));
  CHECK(bytes == 4 * kRecords);
  unsigned char packed[4 * kRecords], arrived[4 * kRecords];
  CHECK_MPI(MPI_Pack_external("external32", out, 1, type, packed, bytes, &pos));
  CHECK(pos == bytes);
  CHECK_MPI(MPI_Sendrecv(packed, (int)bytes, MPI_BYTE, to, 2, arrived, (int)bytes, MPI_BYTE, from, 2, MPI_COMM_WORLD,
                         MPI_STATUS_IGNORE));
  pos = 0;
  CHECK_MPI(MPI_Unpack_external("external32", arrived, bytes, &pos, in, 1, type));
  for (int k = 0; k < 2 * kRecords; ++k) CHECK(in[k] == (k % 2 ? -9 : (long)(from - 1) * 1000 - k));
  CHECK_MPI(MPI_Type_free(&type));
}

static void bad_input(void) {
  int v[4] = {1, 2, 3, 4};
  unsigned char buf[8];
  MPI_Aint pos = 0, size;
  TEST_EXPECT_ERROR(MPI_Pack_external_size("external32", 1, MPI_INT, NULL), MPI_ERR_ARG, "MPI_Pack_external_size");
#ifdef STRATA /* MPICH 4.0.2 checks neither datarep, nor the room left, nor the position */
  TEST_EXPECT_ERROR(MPI_Pack_external("native", v, 1, MPI_INT, buf, sizeof buf, &pos), MPI_ERR_ARG,
                    "MPI_Pack_external");
  TEST_EXPECT_ERROR(MPI_Pack_external_size("external64", 1, MPI_INT, &size), MPI_ERR_ARG, "MPI_Pack_external_size");
  TEST_EXPECT_ERROR(MPI_Pack_external("external32", v, 4, MPI_INT, buf, sizeof buf, &pos), MPI_ERR_TRUNCATE,
                    "MPI_Pack_external");
  pos = 9;
  TEST_EXPECT_ERROR(MPI_Unpack_external("external32", buf, sizeof buf, &pos, v, 1, MPI_INT), MPI_ERR_ARG,
                    "MPI_Unpack_external");
#endif
  pos = 0; /* still works */
  CHECK_MPI(MPI_Pack_external("external32", v, 2, MPI_INT, buf, sizeof buf, &pos));
  CHECK(pos == 8 && buf[3] == 1 && buf[7] == 2);
}

int main(int argc, char **argv) {
  int rank, size;
  test_init_returning(&argc, &argv, &rank, &size);
  known_bytes();
  strided_longs(rank, size);
#ifdef STRATA /* MPICH 4.0.2 dies (SIGILL) in MPI_Pack_external_size on this struct type */
  between_ranks(rank, size);
#endif
  bad_input();
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  if (rank == 0) printf("datatype_external32: OK on %d ranks\n", size);
  CHECK_MPI(MPI_Finalize());
  return 0;
}
