/* MPI-4.0 11.4.1, Table 11.1: the calls that work at any time, before MPI is initialised and after it is finalised.
 * Each is made before MPI_Session_init, and again after MPI_Session_finalize (or MPI_Finalize with the argument
 * "world"), and must succeed with its documented result. Between the two, a session error handler made before
 * MPI_Session_init is given to it, called once through MPI_Session_call_errhandler, and freed while the session
 * lives, which is how a session's handler has to be made. A refused call aborts (the initial handler is fatal), so
 * the test fails either way. */
#include "test_util.h"

static int handler_calls = 0;
static MPI_Session the_session = MPI_SESSION_NULL;

static void on_session_error(MPI_Session *session, int *code, ...) {
  CHECK(*session == the_session && *code == MPI_ERR_OTHER);
  ++handler_calls;
}

static void any_time_calls(int initialized_expected, int finalized_expected) {
  int flag = -1;
  CHECK_MPI(MPI_Initialized(&flag));
  CHECK(flag == initialized_expected);
  CHECK_MPI(MPI_Finalized(&flag));
  CHECK(flag == finalized_expected);

  int version = 0, subversion = -1, len = 0;
  CHECK_MPI(MPI_Get_version(&version, &subversion));
  CHECK(version == MPI_VERSION && subversion == MPI_SUBVERSION);
  char library[MPI_MAX_LIBRARY_VERSION_STRING];
  CHECK_MPI(MPI_Get_library_version(library, &len));
  CHECK(len > 0 && len == (int)strlen(library));

  MPI_Info info, copy;
  CHECK_MPI(MPI_Info_create(&info));
  CHECK_MPI(MPI_Info_set(info, "colour", "blue"));
  CHECK_MPI(MPI_Info_dup(info, &copy));
  CHECK_MPI(MPI_Info_delete(info, "colour"));
  int nkeys = -1;
  CHECK_MPI(MPI_Info_get_nkeys(info, &nkeys));
  CHECK(nkeys == 0);
  CHECK_MPI(MPI_Info_get_nkeys(copy, &nkeys));
  CHECK(nkeys == 1);
  char key[MPI_MAX_INFO_KEY + 1], value[16];
  CHECK_MPI(MPI_Info_get_nthkey(copy, 0, key));
  CHECK(strcmp(key, "colour") == 0);
  int valuelen = -1, buflen = (int)sizeof value;
  CHECK_MPI(MPI_Info_get_valuelen(copy, "colour", &valuelen, &flag));
  CHECK(flag == 1 && valuelen == 4);
  CHECK_MPI(MPI_Info_get_string(copy, "colour", &buflen, value, &flag));
  CHECK(flag == 1 && strcmp(value, "blue") == 0);
  CHECK(MPI_Info_f2c(MPI_Info_c2f(copy)) == copy);
  CHECK_MPI(MPI_Info_free(&copy));
  CHECK_MPI(MPI_Info_free(&info));
  CHECK(info == MPI_INFO_NULL);
  MPI_Info env;
  CHECK_MPI(MPI_Info_create_env(0, NULL, &env));
  CHECK_MPI(MPI_Info_free(&env));

  MPI_Errhandler eh = MPI_ERRHANDLER_NULL;
  CHECK_MPI(MPI_Session_create_errhandler(on_session_error, &eh));
  CHECK(eh != MPI_ERRHANDLER_NULL);
  CHECK(MPI_Errhandler_f2c(MPI_Errhandler_c2f(eh)) == eh);
  CHECK_MPI(MPI_Errhandler_free(&eh));
  CHECK(eh == MPI_ERRHANDLER_NULL);

  int error_class = -1;
  CHECK_MPI(MPI_Error_class(MPI_ERR_TAG, &error_class));
  CHECK(error_class == MPI_ERR_TAG);
  char text[MPI_MAX_ERROR_STRING];
  CHECK_MPI(MPI_Error_string(MPI_ERR_TAG, text, &len));
  CHECK(len > 0 && len == (int)strlen(text));
}

int main(int argc, char **argv) {
  const int world = argc > 1 && strcmp(argv[1], "world") == 0;
  any_time_calls(0, 0);

  MPI_Errhandler eh = MPI_ERRHANDLER_NULL;
  CHECK_MPI(MPI_Session_create_errhandler(on_session_error, &eh));
  CHECK_MPI(MPI_Session_init(MPI_INFO_NULL, eh, &the_session));
  CHECK_MPI(MPI_Errhandler_free(&eh)); /* the session keeps its own reference */
  CHECK_MPI(MPI_Session_call_errhandler(the_session, MPI_ERR_OTHER));
  CHECK(handler_calls == 1);
  if (world) {
    CHECK_MPI(MPI_Init(&argc, &argv));
    CHECK_MPI(MPI_Finalize());
  }
  CHECK_MPI(MPI_Session_finalize(&the_session));

  any_time_calls(world, world);
  return 0;
}
