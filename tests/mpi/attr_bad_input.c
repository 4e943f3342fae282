/* Bad input to the attribute calls, with MPI_ERRORS_RETURN on MPI_COMM_WORLD and MPI_COMM_SELF: invalid keyvals
 * (MPI_KEYVAL_INVALID, a freed keyval, a handle of another kind), the predefined keyvals where a user keyval is
 * needed (set, delete, free), null communicators, NULL pointers; one above MPI_TAG_UB as a tag. Each call returns
 * the right class and a message naming the call; the attributes already set are unchanged and the keyvals still
 * work afterwards. A keyval freed while an attribute still uses it cannot be freed again or set, but still reads and
 * deletes that attribute, whose delete callback runs once. Runs on any number of ranks. */
#include "test_util.h"

static int rank, size, deletes;

static int count_delete(MPI_Comm comm, int keyval, void *value, void *extra) {
  (void)comm;
  (void)keyval;
  (void)value;
  (void)extra;
  ++deletes;
  return MPI_SUCCESS;
}

int main(int argc, char **argv) {
  test_init_returning(&argc, &argv, &rank, &size);

  MPI_Comm d;
  CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &d));
  int kv = MPI_KEYVAL_INVALID;
  CHECK_MPI(MPI_Comm_create_keyval(MPI_COMM_DUP_FN, count_delete, &kv, NULL));
  CHECK_MPI(MPI_Comm_set_attr(d, kv, (void *)(intptr_t)(50 + rank)));

  int tmp;
  CHECK_MPI(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &tmp, NULL));
  int freed_kv = tmp;
  CHECK_MPI(MPI_Comm_free_keyval(&tmp));
  CHECK(tmp == MPI_KEYVAL_INVALID);

  void *v = NULL;
  int flag = -1;
  /* Invalid keyvals. */
  TEST_EXPECT_ERROR(MPI_Comm_get_attr(d, MPI_KEYVAL_INVALID, &v, &flag), MPI_ERR_KEYVAL, "MPI_Comm_get_attr");
  TEST_EXPECT_ERROR(MPI_Comm_set_attr(d, MPI_KEYVAL_INVALID, v), MPI_ERR_KEYVAL, "MPI_Comm_set_attr");
  TEST_EXPECT_ERROR(MPI_Comm_delete_attr(d, MPI_KEYVAL_INVALID), MPI_ERR_KEYVAL, "MPI_Comm_delete_attr");
#ifdef STRATA /* MPICH does not detect freed keyvals */
  TEST_EXPECT_ERROR(MPI_Comm_set_attr(d, freed_kv, v), MPI_ERR_KEYVAL, "MPI_Comm_set_attr");
  TEST_EXPECT_ERROR(MPI_Comm_get_attr(d, freed_kv, &v, &flag), MPI_ERR_KEYVAL, "MPI_Comm_get_attr");
#endif
  TEST_EXPECT_ERROR(MPI_Comm_get_attr(d, (int)MPI_INFO_ENV, &v, &flag), MPI_ERR_KEYVAL, "MPI_Comm_get_attr");
  tmp = MPI_KEYVAL_INVALID;
  TEST_EXPECT_ERROR(MPI_Comm_free_keyval(&tmp), MPI_ERR_KEYVAL, "MPI_Comm_free_keyval");
#ifdef STRATA
  tmp = freed_kv;
  TEST_EXPECT_ERROR(MPI_Comm_free_keyval(&tmp), MPI_ERR_KEYVAL, "MPI_Comm_free_keyval");
#endif
  (void)freed_kv;

  /* Predefined keyvals cannot be set, deleted or freed by the user. */
  int fake = 1;
  TEST_EXPECT_ERROR(MPI_Comm_set_attr(MPI_COMM_WORLD, MPI_TAG_UB, &fake), MPI_ERR_KEYVAL, "MPI_Comm_set_attr");
  TEST_EXPECT_ERROR(MPI_Comm_delete_attr(MPI_COMM_WORLD, MPI_TAG_UB), MPI_ERR_KEYVAL, "MPI_Comm_delete_attr");
  TEST_EXPECT_ERROR(MPI_Comm_set_attr(MPI_COMM_WORLD, MPI_HOST, &fake), MPI_ERR_KEYVAL, "MPI_Comm_set_attr");
  tmp = MPI_TAG_UB;
  TEST_EXPECT_ERROR(MPI_Comm_free_keyval(&tmp), MPI_ERR_KEYVAL, "MPI_Comm_free_keyval");
  CHECK(tmp == MPI_TAG_UB);
  tmp = MPI_WTIME_IS_GLOBAL;
  TEST_EXPECT_ERROR(MPI_Comm_free_keyval(&tmp), MPI_ERR_KEYVAL, "MPI_Comm_free_keyval");

  /* Null communicators; NULL pointers. */
  TEST_EXPECT_ERROR(MPI_Comm_set_attr(MPI_COMM_NULL, kv, v), MPI_ERR_COMM, "MPI_Comm_set_attr");
  TEST_EXPECT_ERROR(MPI_Comm_get_attr(MPI_COMM_NULL, kv, &v, &flag), MPI_ERR_COMM, "MPI_Comm_get_attr");
  TEST_EXPECT_ERROR(MPI_Comm_delete_attr(MPI_COMM_NULL, kv), MPI_ERR_COMM, "MPI_Comm_delete_attr");
  TEST_EXPECT_ERROR(MPI_Comm_get_attr(d, kv, &v, NULL), MPI_ERR_ARG, "MPI_Comm_get_attr");
  TEST_EXPECT_ERROR(MPI_Comm_get_attr(d, kv, NULL, &flag), MPI_ERR_ARG, "MPI_Comm_get_attr");
  TEST_EXPECT_ERROR(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, NULL, NULL), MPI_ERR_ARG,
                    "MPI_Comm_create_keyval");
  TEST_EXPECT_ERROR(MPI_Comm_free_keyval(NULL), MPI_ERR_ARG, "MPI_Comm_free_keyval");
  /* The MPI-1 names report themselves. */
  TEST_EXPECT_ERROR(MPI_Attr_put(d, MPI_KEYVAL_INVALID, v), MPI_ERR_KEYVAL, "MPI_Attr_put");
  TEST_EXPECT_ERROR(MPI_Attr_get(MPI_COMM_NULL, kv, &v, &flag), MPI_ERR_COMM, "MPI_Attr_get");
  TEST_EXPECT_ERROR(MPI_Attr_delete(MPI_COMM_WORLD, MPI_TAG_UB), MPI_ERR_KEYVAL, "MPI_Attr_delete");
  TEST_EXPECT_ERROR(MPI_Keyval_create(MPI_NULL_COPY_FN, MPI_NULL_DELETE_FN, NULL, NULL), MPI_ERR_ARG,
                    "MPI_Keyval_create");
  tmp = MPI_KEYVAL_INVALID;
  TEST_EXPECT_ERROR(MPI_Keyval_free(&tmp), MPI_ERR_KEYVAL, "MPI_Keyval_free");

  /* A tag above MPI_TAG_UB. */
  int *tag_ub = NULL;
  CHECK_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &tag_ub, &flag));
  CHECK(flag == 1);
  if (*tag_ub < 0x7fffffff) {
    int x = 0;
    TEST_EXPECT_ERROR(MPI_Send(&x, 1, MPI_INT, rank, *tag_ub + 1, MPI_COMM_WORLD), MPI_ERR_TAG, "MPI_Send");
  }

  /* Nothing damaged: the attribute is intact, no delete callback ran, the keyval still works, TAG_UB is
   * unchanged, a dup copies the attribute (MPI_COMM_DUP_FN). */
  CHECK(deletes == 0);
  flag = -1;
  CHECK_MPI(MPI_Comm_get_attr(d, kv, &v, &flag));
  CHECK(flag == 1 && v == (void *)(intptr_t)(50 + rank));
  int *ub2 = NULL;
  CHECK_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &ub2, &flag));
  CHECK(flag == 1 && *ub2 == *tag_ub && *ub2 >= 32767);
  MPI_Comm d2;
  CHECK_MPI(MPI_Comm_dup(d, &d2));
  CHECK_MPI(MPI_Comm_get_attr(d2, kv, &v, &flag));
  CHECK(flag == 1 && v == (void *)(intptr_t)(50 + rank));
  CHECK_MPI(MPI_Comm_free(&d2));
  CHECK(deletes == 1);
  CHECK_MPI(MPI_Comm_delete_attr(d, kv));
  CHECK(deletes == 2);
  CHECK_MPI(MPI_Comm_free_keyval(&kv));
  CHECK_MPI(MPI_Comm_free(&d));

  /* Freed while in use: the keyval lives on for its attribute, which a saved copy of the handle may still read and
   * delete (MPI-4.0 7.7.2; MPICH attr/fkeyval), but not set anew or free again. */
  MPI_Comm e;
  CHECK_MPI(MPI_Comm_dup(MPI_COMM_SELF, &e));
  int in_use = MPI_KEYVAL_INVALID;
  CHECK_MPI(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, count_delete, &in_use, NULL));
  CHECK_MPI(MPI_Comm_set_attr(e, in_use, &rank));
  const int copy = in_use;
  CHECK_MPI(MPI_Comm_free_keyval(&in_use));
  tmp = copy;
  TEST_EXPECT_ERROR(MPI_Comm_free_keyval(&tmp), MPI_ERR_KEYVAL, "MPI_Comm_free_keyval");
  TEST_EXPECT_ERROR(MPI_Comm_set_attr(e, copy, NULL), MPI_ERR_KEYVAL, "MPI_Comm_set_attr");
  int *got = NULL, found = 0;
  CHECK_MPI(MPI_Comm_get_attr(e, copy, &got, &found));
  CHECK(found && got == &rank);
  CHECK(deletes == 2);
  CHECK_MPI(MPI_Comm_free(&e));
  CHECK(deletes == 3);
  /* The same, deleted through the copy: the delete callback runs once, and the keyval then goes for good. */
  CHECK_MPI(MPI_Comm_dup(MPI_COMM_SELF, &e));
  CHECK_MPI(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, count_delete, &in_use, NULL));
  CHECK_MPI(MPI_Comm_set_attr(e, in_use, NULL));
  const int copy2 = in_use;
  CHECK_MPI(MPI_Comm_free_keyval(&in_use));
  CHECK_MPI(MPI_Comm_delete_attr(e, copy2));
  CHECK(deletes == 4);
  TEST_EXPECT_ERROR(MPI_Comm_get_attr(e, copy2, &got, &found), MPI_ERR_KEYVAL, "MPI_Comm_get_attr");
  CHECK_MPI(MPI_Comm_free(&e));
  CHECK(deletes == 4);

  test_barrier();
  CHECK_MPI(MPI_Finalize());
  return 0;
}
