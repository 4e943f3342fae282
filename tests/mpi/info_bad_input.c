/* Bad input to the info calls, with MPI_ERRORS_RETURN on MPI_COMM_WORLD and MPI_COMM_SELF (info calls have no
 * communicator: their errors go to MPI_COMM_SELF): oversized keys and values (MPI_ERR_INFO_KEY, MPI_ERR_INFO_VALUE:
 * errors, never truncation), empty and NULL keys, a missing key for Info_delete (MPI_ERR_INFO_NOKEY), nthkey out of
 * range, negative lengths, null and freed handles, MPI_INFO_ENV and MPI_INFO_NULL passed to Info_free. Each call
 * returns the right class and a message naming the call; the info object is unchanged afterwards (same keys and
 * values, no truncated key or value stored) and still usable. Runs on any number of ranks. */
#include "test_util.h"

static int rank, size;

/* The class for MPI_INFO_NULL where an info object is needed: MPI_ERR_INFO ("invalid info argument") on Strata;
 * MPICH uses MPI_ERR_ARG. */
#ifdef STRATA
#define NULL_INFO_ERR MPI_ERR_INFO
#else
#define NULL_INFO_ERR MPI_ERR_ARG
#endif

static void expect_value(MPI_Info info, const char *key, const char *want) {
  char v[64];
  int flag = -1, buflen = (int)sizeof v;
  CHECK_MPI(MPI_Info_get_string(info, key, &buflen, v, &flag));
  CHECK(flag == 1 && strcmp(v, want) == 0);
}

int main(int argc, char **argv) {
  test_init_returning(&argc, &argv, &rank, &size);

  MPI_Info info;
  CHECK_MPI(MPI_Info_create(&info));
  CHECK_MPI(MPI_Info_set(info, "a", "1"));
  CHECK_MPI(MPI_Info_set(info, "b", "2"));

  static char long_key[MPI_MAX_INFO_KEY + 2], long_value[MPI_MAX_INFO_VAL + 2];
  memset(long_key, 'k', MPI_MAX_INFO_KEY + 1);
  long_key[MPI_MAX_INFO_KEY + 1] = '\0'; /* one character too many */
  memset(long_value, 'v', MPI_MAX_INFO_VAL + 1);
  long_value[MPI_MAX_INFO_VAL + 1] = '\0';
  char value[64];
  int flag = -1, n = -1, buflen;

  /* Oversized key or value: an error, nothing stored (not even a truncated key). */
  TEST_EXPECT_ERROR(MPI_Info_set(info, long_key, "x"), MPI_ERR_INFO_KEY, "MPI_Info_set");
  TEST_EXPECT_ERROR(MPI_Info_set(info, "c", long_value), MPI_ERR_INFO_VALUE, "MPI_Info_set");
  TEST_EXPECT_ERROR(MPI_Info_set(info, "a", long_value), MPI_ERR_INFO_VALUE, "MPI_Info_set");
  TEST_EXPECT_ERROR(MPI_Info_get(info, long_key, (int)sizeof value - 1, value, &flag), MPI_ERR_INFO_KEY,
                    "MPI_Info_get");
  buflen = (int)sizeof value;
  TEST_EXPECT_ERROR(MPI_Info_get_string(info, long_key, &buflen, value, &flag), MPI_ERR_INFO_KEY,
                    "MPI_Info_get_string");
  TEST_EXPECT_ERROR(MPI_Info_get_valuelen(info, long_key, &n, &flag), MPI_ERR_INFO_KEY, "MPI_Info_get_valuelen");
  TEST_EXPECT_ERROR(MPI_Info_delete(info, long_key), MPI_ERR_INFO_KEY, "MPI_Info_delete");

  /* Empty and NULL keys, NULL value. */
  TEST_EXPECT_ERROR(MPI_Info_set(info, "", "x"), MPI_ERR_INFO_KEY, "MPI_Info_set");
  TEST_EXPECT_ERROR(MPI_Info_set(info, NULL, "x"), MPI_ERR_INFO_KEY, "MPI_Info_set");
#ifdef STRATA /* the standard names no class for a NULL value; MPICH uses MPI_ERR_ARG */
  TEST_EXPECT_ERROR(MPI_Info_set(info, "c", NULL), MPI_ERR_INFO_VALUE, "MPI_Info_set");
#endif

  /* Missing key for delete; nthkey out of range; negative valuelen. */
  TEST_EXPECT_ERROR(MPI_Info_delete(info, "no such key"), MPI_ERR_INFO_NOKEY, "MPI_Info_delete");
  char key[MPI_MAX_INFO_KEY + 1];
  TEST_EXPECT_ERROR(MPI_Info_get_nthkey(info, 2, key), MPI_ERR_ARG, "MPI_Info_get_nthkey");
  TEST_EXPECT_ERROR(MPI_Info_get_nthkey(info, -1, key), MPI_ERR_ARG, "MPI_Info_get_nthkey");
  TEST_EXPECT_ERROR(MPI_Info_get(info, "a", -1, value, &flag), MPI_ERR_ARG, "MPI_Info_get");
  buflen = -1;
  TEST_EXPECT_ERROR(MPI_Info_get_string(info, "a", &buflen, value, &flag), MPI_ERR_ARG, "MPI_Info_get_string");
  TEST_EXPECT_ERROR(MPI_Info_get_string(info, "a", NULL, value, &flag), MPI_ERR_ARG, "MPI_Info_get_string");

  /* Null, wrong-kind and freed handles. */
  MPI_Info tmp;
  CHECK_MPI(MPI_Info_create(&tmp));
  MPI_Info freed = tmp;
  CHECK_MPI(MPI_Info_free(&tmp));
  CHECK(tmp == MPI_INFO_NULL);
  MPI_Info out = MPI_INFO_NULL;
  TEST_EXPECT_ERROR(MPI_Info_set(MPI_INFO_NULL, "a", "1"), NULL_INFO_ERR, "MPI_Info_set");
  TEST_EXPECT_ERROR(MPI_Info_get_nkeys(MPI_INFO_NULL, &n), NULL_INFO_ERR, "MPI_Info_get_nkeys");
  TEST_EXPECT_ERROR(MPI_Info_dup(MPI_INFO_NULL, &out), NULL_INFO_ERR, "MPI_Info_dup");
  TEST_EXPECT_ERROR(MPI_Info_delete(MPI_INFO_NULL, "a"), NULL_INFO_ERR, "MPI_Info_delete");
  TEST_EXPECT_ERROR(MPI_Info_get_nkeys((MPI_Info)MPI_COMM_WORLD, &n), MPI_ERR_INFO, "MPI_Info_get_nkeys");
#ifdef STRATA /* MPICH does not detect freed info handles */
  TEST_EXPECT_ERROR(MPI_Info_get_nkeys(freed, &n), MPI_ERR_INFO, "MPI_Info_get_nkeys");
  TEST_EXPECT_ERROR(MPI_Info_set(freed, "a", "1"), MPI_ERR_INFO, "MPI_Info_set");
  tmp = freed;
  TEST_EXPECT_ERROR(MPI_Info_free(&tmp), MPI_ERR_INFO, "MPI_Info_free");
#endif
  (void)freed;
  CHECK(out == MPI_INFO_NULL);

  /* Freeing MPI_INFO_NULL and MPI_INFO_ENV (predefined objects must not be freed); MPI_INFO_ENV is read-only. */
  MPI_Info null = MPI_INFO_NULL, env = MPI_INFO_ENV;
  TEST_EXPECT_ERROR(MPI_Info_free(&null), NULL_INFO_ERR, "MPI_Info_free");
#ifdef STRATA /* MPICH 4.0.2 lets MPI_INFO_ENV be freed */
  TEST_EXPECT_ERROR(MPI_Info_free(&env), MPI_ERR_INFO, "MPI_Info_free");
  CHECK(env == MPI_INFO_ENV);
#endif
  (void)env;
  TEST_EXPECT_ERROR(MPI_Info_create(NULL), MPI_ERR_ARG, "MPI_Info_create");

  /* Nothing damaged: the object still holds exactly a=1, b=2; MPI_INFO_ENV is readable; new work succeeds. */
  CHECK_MPI(MPI_Info_get_nkeys(info, &n));
  CHECK(n == 2);
  expect_value(info, "a", "1");
  expect_value(info, "b", "2");
  flag = -1;
  CHECK_MPI(MPI_Info_get_valuelen(info, "c", &n, &flag));
  CHECK(flag == 0);
  long_key[MPI_MAX_INFO_KEY] = '\0'; /* the truncated key must not have been stored */
  flag = -1;
  CHECK_MPI(MPI_Info_get_valuelen(info, long_key, &n, &flag));
  CHECK(flag == 0);
  CHECK_MPI(MPI_Info_set(info, long_key, "fits")); /* at the limit: accepted */
  expect_value(info, long_key, "fits");
  CHECK_MPI(MPI_Info_set(info, "c", "3"));
  CHECK_MPI(MPI_Info_delete(info, "a"));
  CHECK_MPI(MPI_Info_get_nkeys(info, &n));
  CHECK(n == 3);
  CHECK_MPI(MPI_Info_get_nkeys(MPI_INFO_ENV, &n));
  CHECK(n >= 0);
  CHECK_MPI(MPI_Info_dup(info, &out));
  CHECK_MPI(MPI_Info_get_nkeys(out, &n));
  CHECK(n == 3);
  CHECK_MPI(MPI_Info_free(&out));
  CHECK_MPI(MPI_Info_free(&info));

  test_barrier();
  CHECK_MPI(MPI_Finalize());
  return 0;
}
