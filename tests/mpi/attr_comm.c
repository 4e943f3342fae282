/* Communicator attributes (MPI-4.0 7.7): Comm_create_keyval, Comm_free_keyval, Comm_set_attr, Comm_get_attr,
 * Comm_delete_attr, with the copy and delete callbacks:
 *  - Comm_dup and Comm_idup call each attribute's copy callback: MPI_COMM_DUP_FN copies the value,
 *    MPI_COMM_NULL_COPY_FN does not, a user copy callback decides with its flag (and gets the keyval, the old
 *    communicator and the extra_state given at keyval creation); other constructors (split, create) copy nothing;
 *  - the delete callback runs on Comm_delete_attr, on Comm_free (once per attribute), and when Comm_set_attr
 *    replaces a value (for the old value); deleting an attribute that is not set does nothing;
 *  - a keyval freed while in use stays valid for the attributes that use it (its delete callback still runs);
 *  - attributes are local to each process (every rank stores different values) and to each communicator;
 *  - the MPI-1 names (MPI_Keyval_create, MPI_Attr_put/get/delete, MPI_Keyval_free, MPI_DUP_FN, MPI_NULL_COPY_FN,
 *    MPI_NULL_DELETE_FN: deprecated since MPI-2.0, still in MPI-4.0 19.1) act on the same keyvals.
 *  - a callback returning an error code the program added makes MPI_Comm_dup / MPI_Comm_delete_attr return it.
 * Every callback invocation is counted and its arguments recorded; the counts are compared with exact expectations.
 * Runs on any number of ranks. */
#include "test_util.h"

static int rank, size;

/* A log of callback invocations. */
enum { MAXLOG = 256 };
typedef struct {
  char kind; /* 'c' copy, 'd' delete */
  MPI_Comm comm;
  int keyval;
  void *value;
  void *extra;
} call_t;
static call_t calls[MAXLOG];
static int ncalls;

static void log_call(char kind, MPI_Comm comm, int keyval, void *value, void *extra) {
  CHECK(ncalls < MAXLOG);
  calls[ncalls].kind = kind;
  calls[ncalls].comm = comm;
  calls[ncalls].keyval = keyval;
  calls[ncalls].value = value;
  calls[ncalls].extra = extra;
  ++ncalls;
}

/* Number of logged calls of `kind` for `keyval` since log position `from`. */
static int count_calls(int from, char kind, int keyval) {
  int n = 0;
  for (int i = from; i < ncalls; ++i)
    if (calls[i].kind == kind && calls[i].keyval == keyval) ++n;
  return n;
}
static const call_t *last_call(char kind, int keyval) {
  for (int i = ncalls - 1; i >= 0; --i)
    if (calls[i].kind == kind && calls[i].keyval == keyval) return &calls[i];
  return NULL;
}

/* extra_state of the user callbacks: decides whether copies are made, and what they contain */
typedef struct {
  int copy_flag;
  intptr_t add; /* the copy is the old value + add */
} extra_t;

static int user_copy(MPI_Comm oldcomm, int keyval, void *extra_state, void *in, void *out, int *flag) {
  extra_t *e = extra_state;
  log_call('c', oldcomm, keyval, in, extra_state);
  /* MPI may call the callback from within MPI; querying the old communicator is allowed */
  int s = -1;
  CHECK_MPI(MPI_Comm_size(oldcomm, &s));
  CHECK(s >= 1);
  *flag = e->copy_flag;
  if (e->copy_flag) *(void **)out = (void *)((intptr_t)in + e->add);
  return MPI_SUCCESS;
}

static int user_delete(MPI_Comm comm, int keyval, void *value, void *extra_state) {
  log_call('d', comm, keyval, value, extra_state);
  return MPI_SUCCESS;
}

static void *get(MPI_Comm comm, int keyval, int *flag) {
  void *v = (void *)(intptr_t)-1;
  *flag = -1;
  CHECK_MPI(MPI_Comm_get_attr(comm, keyval, &v, flag));
  CHECK(*flag == 0 || *flag == 1);
  return v;
}

static void expect_value(MPI_Comm comm, int keyval, intptr_t want) {
  int flag;
  void *v = get(comm, keyval, &flag);
  if (!flag || (intptr_t)v != want)
    fprintf(stderr, "rank %d: attribute %d: flag %d value %ld, expected %ld\n", rank, keyval, flag, (long)(intptr_t)v,
            (long)want);
  CHECK(flag == 1 && (intptr_t)v == want);
}

static void expect_absent(MPI_Comm comm, int keyval) {
  int flag;
  get(comm, keyval, &flag);
  CHECK(flag == 0);
}

static void test_set_get_delete(void) {
  extra_t ex = {1, 0};
  int kv = MPI_KEYVAL_INVALID, kv2 = MPI_KEYVAL_INVALID;
  CHECK_MPI(MPI_Comm_create_keyval(user_copy, user_delete, &kv, &ex));
  CHECK(kv != MPI_KEYVAL_INVALID);
  CHECK_MPI(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &kv2, NULL));
  CHECK(kv2 != MPI_KEYVAL_INVALID && kv2 != kv);

  MPI_Comm c;
  CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &c));
  expect_absent(c, kv);
  expect_absent(MPI_COMM_WORLD, kv);

  int from = ncalls;
  intptr_t v1 = 1000 + rank, v2 = 2000 + rank;
  CHECK_MPI(MPI_Comm_set_attr(c, kv, (void *)v1));
  CHECK(ncalls == from); /* setting a new attribute calls nothing */
  expect_value(c, kv, v1);
  expect_absent(MPI_COMM_WORLD, kv); /* attributes belong to one communicator */

  /* Replacing calls the delete callback for the old value. */
  CHECK_MPI(MPI_Comm_set_attr(c, kv, (void *)v2));
  CHECK(count_calls(from, 'd', kv) == 1);
  const call_t *d = last_call('d', kv);
  CHECK(d->comm == c && d->value == (void *)v1 && d->extra == &ex);
  expect_value(c, kv, v2);

  /* Pointers to real data work as values, and a NULL value is a value. */
  static int payload = 42;
  CHECK_MPI(MPI_Comm_set_attr(c, kv2, &payload));
  int flag;
  int *p = get(c, kv2, &flag);
  CHECK(flag == 1 && p == &payload && *p == 42);
  CHECK_MPI(MPI_Comm_set_attr(c, kv2, NULL));
  p = get(c, kv2, &flag);
  CHECK(flag == 1 && p == NULL);

  /* delete_attr: callback with the current value, then absent. */
  from = ncalls;
  CHECK_MPI(MPI_Comm_delete_attr(c, kv));
  CHECK(count_calls(from, 'd', kv) == 1 && ncalls == from + 1);
  d = last_call('d', kv);
  CHECK(d->comm == c && d->value == (void *)v2);
  expect_absent(c, kv);
  /* Deleting what is not there does nothing: no callback, no error (as MPICH; the standard names no error). */
  from = ncalls;
  CHECK_MPI(MPI_Comm_delete_attr(c, kv));
  CHECK(ncalls == from);
  expect_absent(c, kv);

  /* Set again, then free the communicator: one delete call per attribute. */
  CHECK_MPI(MPI_Comm_set_attr(c, kv, (void *)v1));
  from = ncalls;
  MPI_Comm freed = c;
  CHECK_MPI(MPI_Comm_free(&c));
  CHECK(c == MPI_COMM_NULL);
  CHECK(count_calls(from, 'd', kv) == 1 && ncalls == from + 1);
  d = last_call('d', kv);
  CHECK(d->comm == freed && d->value == (void *)v1 && d->extra == &ex);

  /* Attributes on the predefined communicators. */
  from = ncalls;
  CHECK_MPI(MPI_Comm_set_attr(MPI_COMM_WORLD, kv, (void *)(intptr_t)(7 + rank)));
  CHECK_MPI(MPI_Comm_set_attr(MPI_COMM_SELF, kv, (void *)(intptr_t)(8 + rank)));
  expect_value(MPI_COMM_WORLD, kv, 7 + rank);
  expect_value(MPI_COMM_SELF, kv, 8 + rank);
  CHECK_MPI(MPI_Comm_delete_attr(MPI_COMM_WORLD, kv));
  CHECK(count_calls(from, 'd', kv) == 1 && last_call('d', kv)->comm == MPI_COMM_WORLD);
  expect_absent(MPI_COMM_WORLD, kv);
  expect_value(MPI_COMM_SELF, kv, 8 + rank);
  CHECK_MPI(MPI_Comm_delete_attr(MPI_COMM_SELF, kv));
  CHECK(count_calls(from, 'd', kv) == 2 && last_call('d', kv)->comm == MPI_COMM_SELF);

  /* Free the keyvals: the variables become MPI_KEYVAL_INVALID. */
  CHECK_MPI(MPI_Comm_free_keyval(&kv));
  CHECK_MPI(MPI_Comm_free_keyval(&kv2));
  CHECK(kv == MPI_KEYVAL_INVALID && kv2 == MPI_KEYVAL_INVALID);
}

/* Copy callbacks on Comm_dup / Comm_idup; nothing copied by split or create. */
static void test_copy(void) {
  extra_t copy_yes = {1, 5}, copy_no = {0, 0};
  int k_dupfn, k_nullfn, k_user_yes, k_user_no;
  CHECK_MPI(MPI_Comm_create_keyval(MPI_COMM_DUP_FN, user_delete, &k_dupfn, NULL));
  CHECK_MPI(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, user_delete, &k_nullfn, NULL));
  CHECK_MPI(MPI_Comm_create_keyval(user_copy, user_delete, &k_user_yes, &copy_yes));
  CHECK_MPI(MPI_Comm_create_keyval(user_copy, user_delete, &k_user_no, &copy_no));

  MPI_Comm a;
  CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &a));
  intptr_t base = 100 * (rank + 1);
  CHECK_MPI(MPI_Comm_set_attr(a, k_dupfn, (void *)(base + 1)));
  CHECK_MPI(MPI_Comm_set_attr(a, k_nullfn, (void *)(base + 2)));
  CHECK_MPI(MPI_Comm_set_attr(a, k_user_yes, (void *)(base + 3)));
  CHECK_MPI(MPI_Comm_set_attr(a, k_user_no, (void *)(base + 4)));

  int from = ncalls;
  MPI_Comm b;
  CHECK_MPI(MPI_Comm_dup(a, &b));
  /* the user copy callback ran once per user keyval, with the old communicator, keyval, value and extra_state */
  CHECK(count_calls(from, 'c', k_user_yes) == 1 && count_calls(from, 'c', k_user_no) == 1);
  const call_t *c1 = last_call('c', k_user_yes);
  CHECK(c1->comm == a && c1->value == (void *)(base + 3) && c1->extra == &copy_yes);
  CHECK(last_call('c', k_user_no)->extra == &copy_no);
  CHECK(count_calls(from, 'd', k_dupfn) == 0 && count_calls(from, 'd', k_user_no) == 0); /* nothing deleted */
  expect_value(b, k_dupfn, base + 1);                                                       /* DUP_FN copies */
  expect_absent(b, k_nullfn);                                                               /* NULL_COPY_FN doesn't */
  expect_value(b, k_user_yes, base + 3 + 5);                                                /* flag 1: our copy */
  expect_absent(b, k_user_no);                                                              /* flag 0: none */
  /* the original keeps its values */
  expect_value(a, k_dupfn, base + 1);
  expect_value(a, k_nullfn, base + 2);
  expect_value(a, k_user_yes, base + 3);
  expect_value(a, k_user_no, base + 4);

  /* A copy of the copy: the user callback adds 5 again. */
  MPI_Comm c;
  MPI_Request req;
  from = ncalls;
  CHECK_MPI(MPI_Comm_idup(b, &c, &req));
  CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
  CHECK(count_calls(from, 'c', k_user_yes) == 1 && last_call('c', k_user_yes)->comm == b);
  expect_value(c, k_dupfn, base + 1);
  expect_value(c, k_user_yes, base + 13);
  expect_absent(c, k_nullfn);
  expect_absent(c, k_user_no);

  /* Split and create copy no attributes and call no copy callback. */
  from = ncalls;
  MPI_Comm s, cr;
  MPI_Group g;
  CHECK_MPI(MPI_Comm_split(a, 0, rank, &s));
  CHECK_MPI(MPI_Comm_group(a, &g));
  CHECK_MPI(MPI_Comm_create(a, g, &cr));
  CHECK_MPI(MPI_Group_free(&g));
  CHECK(ncalls == from);
  int ks[4] = {k_dupfn, k_nullfn, k_user_yes, k_user_no};
  for (int i = 0; i < 4; ++i) {
    expect_absent(s, ks[i]);
    expect_absent(cr, ks[i]);
  }

  /* Freeing calls the delete callback once for each attribute present, with that communicator's value. */
  from = ncalls;
  MPI_Comm cc = c;
  CHECK_MPI(MPI_Comm_free(&c));
  CHECK(ncalls == from + 2);
  CHECK(count_calls(from, 'd', k_dupfn) == 1 && count_calls(from, 'd', k_user_yes) == 1);
  CHECK(last_call('d', k_user_yes)->comm == cc && last_call('d', k_user_yes)->value == (void *)(base + 13));
  from = ncalls;
  CHECK_MPI(MPI_Comm_free(&b));
  CHECK(ncalls == from + 2);
  CHECK(last_call('d', k_user_yes)->value == (void *)(base + 8));
  from = ncalls;
  CHECK_MPI(MPI_Comm_free(&s));
  CHECK_MPI(MPI_Comm_free(&cr));
  CHECK(ncalls == from);

  /* A keyval freed while in use: its attributes stay until deleted, with their delete callback. */
  int k_user_yes_value = k_user_yes;
  CHECK_MPI(MPI_Comm_free_keyval(&k_user_yes));
  CHECK(k_user_yes == MPI_KEYVAL_INVALID);
  from = ncalls;
  MPI_Comm a_handle = a;
  CHECK_MPI(MPI_Comm_free(&a));
  CHECK(ncalls == from + 4);
  for (int i = 0; i < 4; ++i) CHECK(count_calls(from, 'd', i == 2 ? k_user_yes_value : ks[i]) == 1);
  const call_t *d = last_call('d', k_user_yes_value);
  CHECK(d->comm == a_handle && d->value == (void *)(base + 3) && d->extra == &copy_yes);

  CHECK_MPI(MPI_Comm_free_keyval(&k_dupfn));
  CHECK_MPI(MPI_Comm_free_keyval(&k_nullfn));
  CHECK_MPI(MPI_Comm_free_keyval(&k_user_no));
}

/* Many keyvals on many communicators: values are per (communicator, keyval); free order is irrelevant. */
static void test_many(void) {
  enum { NK = 20, NC = 6 };
  int kv[NK];
  MPI_Comm c[NC];
  for (int k = 0; k < NK; ++k)
    CHECK_MPI(MPI_Comm_create_keyval(k % 2 ? MPI_COMM_DUP_FN : MPI_COMM_NULL_COPY_FN, user_delete, &kv[k], NULL));
  for (int k = 0; k < NK; ++k)
    for (int j = k + 1; j < NK; ++j) CHECK(kv[k] != kv[j]);
  for (int i = 0; i < NC; ++i) CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &c[i]));
  for (int i = 0; i < NC; ++i)
    for (int k = 0; k < NK; ++k)
      if ((i + k) % 3 != 0) CHECK_MPI(MPI_Comm_set_attr(c[i], kv[k], (void *)(intptr_t)(10000 * rank + 100 * i + k)));
  for (int i = 0; i < NC; ++i)
    for (int k = 0; k < NK; ++k) {
      if ((i + k) % 3 != 0) expect_value(c[i], kv[k], 10000 * rank + 100 * i + k);
      else expect_absent(c[i], kv[k]);
    }
  /* free half of the keyvals before the communicators */
  for (int k = 0; k < NK; k += 2) CHECK_MPI(MPI_Comm_free_keyval(&kv[k]));
  int from = ncalls, expected = 0;
  for (int i = 0; i < NC; ++i)
    for (int k = 0; k < NK; ++k) expected += (i + k) % 3 != 0;
  for (int i = NC - 1; i >= 0; --i) CHECK_MPI(MPI_Comm_free(&c[i]));
  CHECK(ncalls - from == expected);
  for (int k = 1; k < NK; k += 2) CHECK_MPI(MPI_Comm_free_keyval(&kv[k]));
}

static void test_mpi1_names(void) {
  int dup_kv = MPI_KEYVAL_INVALID, null_kv = MPI_KEYVAL_INVALID, flag = -1;
  void *v = NULL;
  CHECK_MPI(MPI_Keyval_create(MPI_DUP_FN, user_delete, &dup_kv, &dup_kv));
  CHECK_MPI(MPI_Keyval_create(MPI_NULL_COPY_FN, MPI_NULL_DELETE_FN, &null_kv, NULL));
  CHECK(dup_kv != MPI_KEYVAL_INVALID && null_kv != MPI_KEYVAL_INVALID && dup_kv != null_kv);
  MPI_Comm c, d;
  CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &c));
  CHECK_MPI(MPI_Attr_put(c, dup_kv, (void *)(intptr_t)(300 + rank)));
  CHECK_MPI(MPI_Attr_put(c, null_kv, (void *)(intptr_t)(400 + rank)));
  CHECK_MPI(MPI_Attr_get(c, dup_kv, &v, &flag));
  CHECK(flag == 1 && v == (void *)(intptr_t)(300 + rank));
  expect_value(c, null_kv, 400 + rank); /* one set of keyvals under both names */

  int from = ncalls;
  CHECK_MPI(MPI_Comm_dup(c, &d));
  expect_value(d, dup_kv, 300 + rank); /* MPI_DUP_FN copies, MPI_NULL_COPY_FN does not */
  expect_absent(d, null_kv);
  CHECK_MPI(MPI_Attr_delete(c, dup_kv));
  CHECK(count_calls(from, 'd', dup_kv) == 1);
  const call_t *del = last_call('d', dup_kv);
  CHECK(del->comm == c && del->value == (void *)(intptr_t)(300 + rank) && del->extra == &dup_kv);
  flag = -1;
  CHECK_MPI(MPI_Attr_get(c, dup_kv, &v, &flag));
  CHECK(flag == 0);
  int kept = dup_kv;
  CHECK_MPI(MPI_Keyval_free(&dup_kv));
  CHECK(dup_kv == MPI_KEYVAL_INVALID);
  CHECK_MPI(MPI_Comm_free(&d)); /* the freed keyval's delete callback still runs for d's copy */
  CHECK(count_calls(from, 'd', kept) == 2);
  CHECK_MPI(MPI_Attr_delete(c, null_kv));
  expect_absent(c, null_kv);
  CHECK_MPI(MPI_Keyval_free(&null_kv));
  CHECK_MPI(MPI_Comm_free(&c));

  int *tag_ub = NULL;
  CHECK_MPI(MPI_Attr_get(MPI_COMM_WORLD, MPI_TAG_UB, &tag_ub, &flag));
  CHECK(flag == 1 && *tag_ub >= 32767);
}

/* A copy or delete callback that returns an error code the program added makes the call return that very code
 * (what MPICH's errors/comm/userdup expects of MPI_Comm_dup); any other failure keeps its class. */
static int returned_code;
static int copy_returning(MPI_Comm comm, int keyval, void *extra, void *in, void *out, int *flag) {
  (void)comm, (void)keyval, (void)extra, (void)in, (void)out;
  *flag = 0;
  return returned_code;
}
static int delete_returning(MPI_Comm comm, int keyval, void *value, void *extra) {
  (void)comm, (void)keyval, (void)value, (void)extra;
  return returned_code;
}

static void test_callback_codes(void) {
  int my_class, my_code, kv;
  CHECK_MPI(MPI_Add_error_class(&my_class));
  CHECK_MPI(MPI_Add_error_code(my_class, &my_code));
  CHECK_MPI(MPI_Add_error_string(my_code, "my code"));
  MPI_Comm a, b;
  CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &a));
  CHECK_MPI(MPI_Comm_set_errhandler(a, MPI_ERRORS_RETURN));
  CHECK_MPI(MPI_Comm_create_keyval(copy_returning, delete_returning, &kv, NULL));
  returned_code = MPI_SUCCESS;
  CHECK_MPI(MPI_Comm_set_attr(a, kv, NULL));
  const int codes[3] = {my_class, my_code, MPI_ERR_ARG};
  for (int i = 0; i < 3; ++i) {
    returned_code = codes[i];
    int err = MPI_Comm_dup(a, &b), cls = -1;
    CHECK_MPI(MPI_Error_class(err, &cls));
    if (i < 2)
      CHECK(err == codes[i]); /* the added class or code itself */
    else
      CHECK(cls == MPI_ERR_ARG);
    CHECK(cls == (i < 2 ? my_class : MPI_ERR_ARG));
  }
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  returned_code = my_code;
  int err = MPI_Comm_delete_attr(a, kv);
  CHECK(err == my_code);
  CHECK_MPI(MPI_Error_string(err, text, &len));
  CHECK(strcmp(text, "my code") == 0);
  returned_code = MPI_SUCCESS;
  CHECK_MPI(MPI_Comm_delete_attr(a, kv)); /* the failed delete left the attribute in place */
  CHECK_MPI(MPI_Comm_free_keyval(&kv));
  CHECK_MPI(MPI_Comm_free(&a));
}

int main(int argc, char **argv) {
  CHECK_MPI(MPI_Init(&argc, &argv));
  CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
  CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));

  test_set_get_delete();
  ncalls = 0;
  test_copy();
  ncalls = 0;
  test_many();
  ncalls = 0;
  test_mpi1_names();
  test_callback_codes();

#ifdef STRATA
  /* Strata's predefined callbacks are real functions a program may call (MPICH defines the null ones as null
   * pointers, which the standard allows, so this is not portable). */
  void *out = NULL;
  int flag = -1;
  CHECK(MPI_COMM_DUP_FN(MPI_COMM_WORLD, 0, NULL, (void *)(intptr_t)77, &out, &flag) == MPI_SUCCESS);
  CHECK(flag == 1 && out == (void *)(intptr_t)77);
  flag = -1;
  CHECK(MPI_COMM_NULL_COPY_FN(MPI_COMM_WORLD, 0, NULL, (void *)(intptr_t)77, &out, &flag) == MPI_SUCCESS);
  CHECK(flag == 0);
  CHECK(MPI_COMM_NULL_DELETE_FN(MPI_COMM_WORLD, 0, NULL, NULL) == MPI_SUCCESS);
#endif

  test_barrier();
  CHECK_MPI(MPI_Finalize());
  return 0;
}
