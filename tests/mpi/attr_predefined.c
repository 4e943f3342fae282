/* Predefined attributes of MPI_COMM_WORLD (MPI-4.0 11.1.2, 11.10.1, 9.5): the value returned by Comm_get_attr is a
 * pointer to an int (attribute_val is a pointer to a pointer to int).
 *  - MPI_TAG_UB, MPI_HOST, MPI_IO, MPI_WTIME_IS_GLOBAL are present (flag true);
 *    TAG_UB >= 32767; HOST is MPI_PROC_NULL or a rank of WORLD; IO is a rank, MPI_ANY_SOURCE or MPI_PROC_NULL;
 *    WTIME_IS_GLOBAL is 0 or 1; TAG_UB, HOST and WTIME_IS_GLOBAL have the same value on every rank;
 *  - MPI_UNIVERSE_SIZE and MPI_APPNUM may be absent; if present, UNIVERSE_SIZE >= 1 and APPNUM == 0 (one program);
 *  - MPI_LASTUSEDCODE is present and >= MPI_ERR_LASTCODE;
 *  - the tag upper bound really works: a message with tag TAG_UB is delivered.
 * Runs on any number of ranks. */
#include "test_util.h"

static int rank, size;

static int get_int_attr(int keyval, int *flag) {
  int *p = NULL;
  *flag = -1;
  CHECK_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, keyval, &p, flag));
  CHECK(*flag == 0 || *flag == 1);
  if (!*flag) return 0;
  CHECK(p != NULL);
  return *p;
}

/* Every rank sends `v` to rank 0, which checks they are equal. */
static void same_everywhere(int v, int tag) {
  if (rank == 0) {
    for (int r = 1; r < size; ++r) {
      int other = -1;
      CHECK_MPI(MPI_Recv(&other, 1, MPI_INT, r, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
      if (other != v) fprintf(stderr, "rank %d has %d, rank 0 has %d (tag %d)\n", r, other, v, tag);
      CHECK(other == v);
    }
  } else {
    CHECK_MPI(MPI_Send(&v, 1, MPI_INT, 0, tag, MPI_COMM_WORLD));
  }
}

int main(int argc, char **argv) {
  CHECK_MPI(MPI_Init(&argc, &argv));
  CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
  CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
  int flag;

  int tag_ub = get_int_attr(MPI_TAG_UB, &flag);
  CHECK(flag == 1 && tag_ub >= 32767);
  same_everywhere(tag_ub, 1);

  int host = get_int_attr(MPI_HOST, &flag);
  CHECK(flag == 1 && (host == MPI_PROC_NULL || (host >= 0 && host < size)));
  same_everywhere(host, 2);

  int io = get_int_attr(MPI_IO, &flag);
  CHECK(flag == 1 && (io == MPI_ANY_SOURCE || io == MPI_PROC_NULL || (io >= 0 && io < size)));

  int wtime_global = get_int_attr(MPI_WTIME_IS_GLOBAL, &flag);
  CHECK(flag == 1 && (wtime_global == 0 || wtime_global == 1));
  same_everywhere(wtime_global, 3);

  int universe = get_int_attr(MPI_UNIVERSE_SIZE, &flag);
  if (flag) CHECK(universe >= 1);
  int appnum = get_int_attr(MPI_APPNUM, &flag);
  if (flag) CHECK(appnum == 0);

  int lastused = get_int_attr(MPI_LASTUSEDCODE, &flag);
  CHECK(flag == 1 && lastused >= MPI_ERR_LASTCODE);

  /* The values are stable: a second query gives the same. */
  CHECK(get_int_attr(MPI_TAG_UB, &flag) == tag_ub && flag == 1);

  /* The largest tag is usable; one above it is not a valid tag (checked in attr_bad_input). */
  int right = (rank + 1) % size, left = (rank - 1 + size) % size, out = rank, in = -1;
  MPI_Status st;
  CHECK_MPI(MPI_Sendrecv(&out, 1, MPI_INT, right, tag_ub, &in, 1, MPI_INT, left, tag_ub, MPI_COMM_WORLD, &st));
  CHECK(in == left && st.MPI_TAG == tag_ub);

  /* A user keyval never collides with the predefined ones. */
  int kv = MPI_KEYVAL_INVALID;
  CHECK_MPI(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &kv, NULL));
  CHECK(kv != MPI_TAG_UB && kv != MPI_HOST && kv != MPI_IO && kv != MPI_WTIME_IS_GLOBAL && kv != MPI_UNIVERSE_SIZE &&
        kv != MPI_APPNUM && kv != MPI_LASTUSEDCODE);
  CHECK_MPI(MPI_Comm_set_attr(MPI_COMM_WORLD, kv, (void *)(intptr_t)5));
  CHECK(get_int_attr(MPI_TAG_UB, &flag) == tag_ub && flag == 1);
  CHECK_MPI(MPI_Comm_delete_attr(MPI_COMM_WORLD, kv));
  CHECK_MPI(MPI_Comm_free_keyval(&kv));

  test_barrier();
  CHECK_MPI(MPI_Finalize());
  return 0;
}
