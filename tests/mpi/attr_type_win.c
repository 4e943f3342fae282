/* Attributes on datatypes (MPI-4.0 7.7.4) and on windows (7.7.3):
 *  - Type_create_keyval / Type_set_attr / Type_get_attr / Type_delete_attr / Type_free_keyval on derived and
 *    predefined types; MPI_Type_dup runs the copy callbacks (a user one decides with its flag and gets the old type,
 *    the value and the extra_state; MPI_TYPE_DUP_FN copies, MPI_TYPE_NULL_COPY_FN does not); the delete callback
 *    runs on replace, on delete and once per attribute at MPI_Type_free, also after its keyval was freed;
 *  - a failing delete callback fails the call and leaves the attribute in place; a failing copy callback fails
 *    MPI_Type_dup, which returns MPI_DATATYPE_NULL;
 *  - Win_create_keyval / Win_set_attr / Win_get_attr / Win_delete_attr / Win_free_keyval on a shared window, next to
 *    the predefined MPI_WIN_* attributes; MPI_Win_free runs the delete callbacks;
 *  - a keyval works only on the kind of object it was made for (MPI_ERR_KEYVAL otherwise).
 * Every callback call is counted with its arguments and compared with exact expectations. Values differ per rank.
 * Passes on MPICH 4.0.2; Open MPI 4.1 lets MPI_Type_dup succeed although a copy callback failed.
 * Runs on any number of ranks. */
#include "test_util.h"

static int rank, size;

/* A call a callback made fail: MPICH and Open MPI return the callback's code as it is; Strata's names the call. */
static void expect_callback_error(int err, const char *name, int line) {
#ifdef STRATA
  test_expect_error_at(err, MPI_ERR_OTHER, name, name, __FILE__, line);
#else
  int cls = -1;
  if (err != MPI_SUCCESS) CHECK_MPI(MPI_Error_class(err, &cls));
  if (cls != MPI_ERR_OTHER) test_fail(__FILE__, line, name, ": did not fail with MPI_ERR_OTHER");
#endif
}
#define EXPECT_CALLBACK_ERROR(call, name) expect_callback_error((call), (name), __LINE__)

/* The extra_state of each user keyval: what its callbacks do, and what they saw. */
typedef struct {
  int copy_flag; /* copies are made */
  intptr_t add;  /* a copy is the old value + add */
  int fail;      /* callbacks return MPI_ERR_OTHER */
  int copies, deletes;
  MPI_Datatype type; /* the object of the last call */
  MPI_Win win;
  void *value; /* its value */
} book_t;

static int type_copy(MPI_Datatype type, int keyval, void *extra, void *in, void *out, int *flag) {
  (void)keyval;
  book_t *b = extra;
  ++b->copies;
  b->type = type;
  b->value = in;
  int bytes = -1;
  CHECK_MPI(MPI_Type_size(type, &bytes)); /* the old type is still usable from the callback */
  CHECK(bytes >= 0);
  if (b->fail) return MPI_ERR_OTHER;
  *flag = b->copy_flag;
  if (b->copy_flag) *(void **)out = (void *)((intptr_t)in + b->add);
  return MPI_SUCCESS;
}

static int type_delete(MPI_Datatype type, int keyval, void *value, void *extra) {
  (void)keyval;
  book_t *b = extra;
  ++b->deletes;
  b->type = type;
  b->value = value;
  return b->fail ? MPI_ERR_OTHER : MPI_SUCCESS;
}

static int win_delete(MPI_Win win, int keyval, void *value, void *extra) {
  (void)keyval;
  book_t *b = extra;
  ++b->deletes;
  b->win = win;
  b->value = value;
  return b->fail ? MPI_ERR_OTHER : MPI_SUCCESS;
}

static void *type_get(MPI_Datatype type, int keyval, int *flag) {
  void *v = (void *)(intptr_t)-1;
  *flag = -1;
  CHECK_MPI(MPI_Type_get_attr(type, keyval, &v, flag));
  CHECK(*flag == 0 || *flag == 1);
  return v;
}

static void expect_type_value(MPI_Datatype type, int keyval, intptr_t want) {
  int flag;
  void *v = type_get(type, keyval, &flag);
  if (!flag || (intptr_t)v != want)
    fprintf(stderr, "rank %d: type attribute %d: flag %d value %ld, expected %ld\n", rank, keyval, flag,
            (long)(intptr_t)v, (long)want);
  CHECK(flag == 1 && (intptr_t)v == want);
}

static void expect_type_absent(MPI_Datatype type, int keyval) {
  int flag;
  type_get(type, keyval, &flag);
  CHECK(flag == 0);
}

static void test_types(void) {
  book_t a = {.copy_flag = 1, .add = 10}, b = {.copy_flag = 1};
  int ka, kb, kc;
  CHECK_MPI(MPI_Type_create_keyval(type_copy, type_delete, &ka, &a));
  CHECK_MPI(MPI_Type_create_keyval(MPI_TYPE_DUP_FN, type_delete, &kb, &b));
  CHECK_MPI(MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, &kc, NULL));
  CHECK(ka != kb && kb != kc && ka != kc && ka != MPI_KEYVAL_INVALID);

  MPI_Datatype t;
  CHECK_MPI(MPI_Type_contiguous(3, MPI_INT, &t));
  CHECK_MPI(MPI_Type_commit(&t));
  expect_type_absent(t, ka);

  static int payload = 42;
  const intptr_t v1 = 100 + rank, v2 = 200 + rank;
  CHECK_MPI(MPI_Type_set_attr(t, ka, (void *)v1));
  CHECK_MPI(MPI_Type_set_attr(t, kb, &payload));
  CHECK_MPI(MPI_Type_set_attr(t, kc, (void *)(intptr_t)7));
  CHECK(a.copies == 0 && a.deletes == 0 && b.deletes == 0); /* setting a new attribute calls nothing */
  expect_type_value(t, ka, v1);
  expect_type_value(t, kb, (intptr_t)&payload);
  expect_type_value(t, kc, 7);

  /* Replacing deletes the old value. */
  CHECK_MPI(MPI_Type_set_attr(t, ka, (void *)v2));
  CHECK(a.deletes == 1 && a.type == t && a.value == (void *)v1);
  expect_type_value(t, ka, v2);

  /* Predefined types hold attributes too, apart from the types made from them. */
  CHECK_MPI(MPI_Type_set_attr(MPI_INT, kc, (void *)(intptr_t)5));
  expect_type_value(MPI_INT, kc, 5);
  expect_type_value(t, kc, 7);
  CHECK_MPI(MPI_Type_delete_attr(MPI_INT, kc));
  expect_type_absent(MPI_INT, kc);
  expect_type_value(t, kc, 7);

  /* MPI_Type_dup: the user callback adds 10, MPI_TYPE_DUP_FN copies, MPI_TYPE_NULL_COPY_FN drops. */
  MPI_Datatype u;
  CHECK_MPI(MPI_Type_dup(t, &u));
  CHECK(a.copies == 1 && a.type == t && a.value == (void *)v2);
  expect_type_value(u, ka, v2 + 10);
  expect_type_value(u, kb, (intptr_t)&payload);
  expect_type_absent(u, kc);
  expect_type_value(t, ka, v2); /* the original keeps its values */

  a.copy_flag = 0; /* the callback declines: no attribute on the copy */
  MPI_Datatype u2;
  CHECK_MPI(MPI_Type_dup(t, &u2));
  CHECK(a.copies == 2);
  expect_type_absent(u2, ka);
  expect_type_value(u2, kb, (intptr_t)&payload);
  a.copy_flag = 1;

  /* delete_attr: the callback sees the copy's value and handle; then the attribute is gone. */
  CHECK_MPI(MPI_Type_delete_attr(u, ka));
  CHECK(a.deletes == 2 && a.type == u && a.value == (void *)(v2 + 10));
  expect_type_absent(u, ka);
  /* Deleting an attribute that is not set: MPI-4.0 is silent; MPICH succeeds and calls nothing, as Strata does
   * (Open MPI fails). */
  CHECK_MPI(MPI_Type_delete_attr(u, ka));
  CHECK(a.deletes == 2);

  /* A keyval freed while in use: its delete callback still runs at MPI_Type_free. The copies go first: MPICH and
   * Open MPI keep a type alive, attributes included, while its dups exist. */
  CHECK_MPI(MPI_Type_free_keyval(&kb));
  CHECK(kb == MPI_KEYVAL_INVALID);
  CHECK_MPI(MPI_Type_free(&u));
  CHECK(u == MPI_DATATYPE_NULL);
  CHECK(a.deletes == 2 && b.deletes == 1 && b.value == &payload); /* u had kb only */
  CHECK_MPI(MPI_Type_free(&u2));
  CHECK(a.deletes == 2 && b.deletes == 2);
  CHECK_MPI(MPI_Type_free(&t));
  CHECK(a.deletes == 3 && a.value == (void *)v2);
  CHECK(b.deletes == 3 && b.value == &payload);

  /* A failing delete callback fails the call and keeps the attribute. */
  MPI_Datatype w;
  CHECK_MPI(MPI_Type_contiguous(2, MPI_DOUBLE, &w));
  CHECK_MPI(MPI_Type_set_attr(w, ka, (void *)v1));
  a.fail = 1;
  EXPECT_CALLBACK_ERROR(MPI_Type_set_attr(w, ka, (void *)v2), "MPI_Type_set_attr");
  expect_type_value(w, ka, v1);
  EXPECT_CALLBACK_ERROR(MPI_Type_delete_attr(w, ka), "MPI_Type_delete_attr");
  expect_type_value(w, ka, v1);
  /* A failing copy callback fails MPI_Type_dup. */
  MPI_Datatype failed = MPI_INT;
  EXPECT_CALLBACK_ERROR(MPI_Type_dup(w, &failed), "MPI_Type_dup");
  CHECK(failed == MPI_DATATYPE_NULL);
  a.fail = 0;
  const int deletes_before = a.deletes;
  CHECK_MPI(MPI_Type_free(&w));
  CHECK(a.deletes == deletes_before + 1 && a.value == (void *)v1);

  CHECK_MPI(MPI_Type_free_keyval(&ka));
  CHECK_MPI(MPI_Type_free_keyval(&kc));
  CHECK(ka == MPI_KEYVAL_INVALID && kc == MPI_KEYVAL_INVALID);
}

static void test_windows(void) {
  MPI_Comm shm;
  CHECK_MPI(MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &shm));
  double *base = NULL;
  MPI_Win win;
  CHECK_MPI(MPI_Win_allocate_shared(8 * sizeof(double), sizeof(double), MPI_INFO_NULL, shm, &base, &win));
  CHECK_MPI(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));

  book_t k = {0};
  int kw, kn;
  CHECK_MPI(MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, win_delete, &kw, &k));
  CHECK_MPI(MPI_Win_create_keyval(MPI_WIN_DUP_FN, MPI_WIN_NULL_DELETE_FN, &kn, NULL));
  void *v = NULL;
  int flag = -1;
  CHECK_MPI(MPI_Win_get_attr(win, kw, &v, &flag));
  CHECK(flag == 0);

  const intptr_t v1 = 300 + rank, v2 = 400 + rank;
  CHECK_MPI(MPI_Win_set_attr(win, kw, (void *)v1));
  CHECK_MPI(MPI_Win_set_attr(win, kn, (void *)v2));
  CHECK_MPI(MPI_Win_get_attr(win, kw, &v, &flag));
  CHECK(flag == 1 && v == (void *)v1);
  CHECK_MPI(MPI_Win_get_attr(win, kn, &v, &flag));
  CHECK(flag == 1 && v == (void *)v2);
  /* The predefined attributes are still there, and read-only. */
  CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_BASE, &v, &flag));
  CHECK(flag == 1 && v == base);
  TEST_EXPECT_ERROR(MPI_Win_set_attr(win, MPI_WIN_BASE, NULL), MPI_ERR_KEYVAL, "MPI_Win_set_attr");
  TEST_EXPECT_ERROR(MPI_Win_delete_attr(win, MPI_WIN_SIZE), MPI_ERR_KEYVAL, "MPI_Win_delete_attr");

  /* Replace, delete, set again. */
  CHECK_MPI(MPI_Win_set_attr(win, kw, (void *)v2));
  CHECK(k.deletes == 1 && k.win == win && k.value == (void *)v1);
  CHECK_MPI(MPI_Win_delete_attr(win, kw));
  CHECK(k.deletes == 2 && k.value == (void *)v2);
  CHECK_MPI(MPI_Win_get_attr(win, kw, &v, &flag));
  CHECK(flag == 0);
  CHECK_MPI(MPI_Win_delete_attr(win, kn));
  CHECK_MPI(MPI_Win_set_attr(win, kw, (void *)v1));

  /* A failing delete callback keeps the attribute. */
  k.fail = 1;
  EXPECT_CALLBACK_ERROR(MPI_Win_delete_attr(win, kw), "MPI_Win_delete_attr");
  CHECK_MPI(MPI_Win_get_attr(win, kw, &v, &flag));
  CHECK(flag == 1 && v == (void *)v1);
  k.fail = 0;

  /* MPI_Win_free deletes it, with the window's handle; the keyval outlives its user handle. */
  CHECK_MPI(MPI_Win_free_keyval(&kw));
  CHECK(kw == MPI_KEYVAL_INVALID);
  const MPI_Win freed = win;
  const int deletes_before = k.deletes;
  CHECK_MPI(MPI_Win_free(&win));
  CHECK(win == MPI_WIN_NULL);
  CHECK(k.deletes == deletes_before + 1 && k.win == freed && k.value == (void *)v1);
  CHECK_MPI(MPI_Win_free_keyval(&kn));
  CHECK_MPI(MPI_Comm_free(&shm));
}

/* Keyvals of one kind of object refused on the others. */
static void test_kinds(void) {
  int kcomm, ktype, kwin;
  CHECK_MPI(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &kcomm, NULL));
  CHECK_MPI(MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, &ktype, NULL));
  CHECK_MPI(MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, MPI_WIN_NULL_DELETE_FN, &kwin, NULL));
  void *v = NULL;
  int flag;
  TEST_EXPECT_ERROR(MPI_Type_set_attr(MPI_INT, kcomm, NULL), MPI_ERR_KEYVAL, "MPI_Type_set_attr");
  TEST_EXPECT_ERROR(MPI_Type_get_attr(MPI_INT, MPI_TAG_UB, &v, &flag), MPI_ERR_KEYVAL, "MPI_Type_get_attr");
  TEST_EXPECT_ERROR(MPI_Comm_set_attr(MPI_COMM_WORLD, ktype, NULL), MPI_ERR_KEYVAL, "MPI_Comm_set_attr");
  TEST_EXPECT_ERROR(MPI_Comm_get_attr(MPI_COMM_WORLD, kwin, &v, &flag), MPI_ERR_KEYVAL, "MPI_Comm_get_attr");
  int k = kcomm;
  TEST_EXPECT_ERROR(MPI_Type_free_keyval(&k), MPI_ERR_KEYVAL, "MPI_Type_free_keyval");
  CHECK(k == kcomm);
  k = ktype;
  TEST_EXPECT_ERROR(MPI_Win_free_keyval(&k), MPI_ERR_KEYVAL, "MPI_Win_free_keyval");
  /* Bad handles and pointers. */
  TEST_EXPECT_ERROR(MPI_Type_set_attr(MPI_DATATYPE_NULL, ktype, NULL), MPI_ERR_TYPE, "MPI_Type_set_attr");
  TEST_EXPECT_ERROR(MPI_Type_get_attr(MPI_INT, ktype, &v, NULL), MPI_ERR_ARG, "MPI_Type_get_attr");
  TEST_EXPECT_ERROR(MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, NULL, NULL), MPI_ERR_ARG,
                    "MPI_Type_create_keyval");
  TEST_EXPECT_ERROR(MPI_Win_set_attr(MPI_WIN_NULL, kwin, NULL), MPI_ERR_WIN, "MPI_Win_set_attr");
  /* All three still work. */
  CHECK_MPI(MPI_Type_set_attr(MPI_INT, ktype, (void *)(intptr_t)3));
  CHECK_MPI(MPI_Type_get_attr(MPI_INT, ktype, &v, &flag));
  CHECK(flag == 1 && v == (void *)(intptr_t)3);
  CHECK_MPI(MPI_Type_delete_attr(MPI_INT, ktype));
  CHECK_MPI(MPI_Comm_free_keyval(&kcomm));
  CHECK_MPI(MPI_Type_free_keyval(&ktype));
  CHECK_MPI(MPI_Win_free_keyval(&kwin));
}

int main(int argc, char **argv) {
  test_init_returning(&argc, &argv, &rank, &size);
  test_types();
  test_windows();
  test_kinds();
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  if (rank == 0) printf("attr_type_win: OK on %d ranks\n", size);
  CHECK_MPI(MPI_Finalize());
  return 0;
}
