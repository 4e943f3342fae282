/* User-defined error classes, codes and strings (MPI-4.0 9.6): Add_error_class, Add_error_code, Add_error_string,
 * then MPI_Error_class and MPI_Error_string on them; the MPI_LASTUSEDCODE attribute of MPI_COMM_WORLD follows the
 * largest error class in use (the standard's definition, despite the name); a code without a string has the empty string; a second Add_error_string replaces
 * the first; new codes can belong to predefined classes; user codes reach user error handlers through
 * Comm_call_errhandler. Classes and codes are local (each rank may get different values), so nothing is compared
 * across ranks. Runs on any number of ranks. */
#include "test_util.h"

static int rank, size;
static int handled_code = -1, handled_calls;

static void handler(MPI_Comm *comm, int *code, ...) {
  (void)comm;
  handled_code = *code;
  ++handled_calls;
}

static int lastused(void) {
  int *p = NULL, flag = -1;
  CHECK_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_LASTUSEDCODE, &p, &flag));
  CHECK(flag == 1 && p != NULL);
  return *p;
}

static int class_of(int code) {
  int cls = -1;
  CHECK_MPI(MPI_Error_class(code, &cls));
  return cls;
}

static const char *string_of(int code) {
  static char s[MPI_MAX_ERROR_STRING];
  int len = -1;
  memset(s, 'x', sizeof s);
  CHECK_MPI(MPI_Error_string(code, s, &len));
  CHECK(len >= 0 && len < MPI_MAX_ERROR_STRING && s[len] == '\0' && (int)strlen(s) == len);
  return s;
}

int main(int argc, char **argv) {
  CHECK_MPI(MPI_Init(&argc, &argv));
  CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
  CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));

  int last0 = lastused();
  CHECK(last0 >= MPI_ERR_LASTCODE);

  /* Two new classes: distinct, not predefined, each its own class, and covered by LASTUSEDCODE. */
  int c1 = -1, c2 = -1;
  CHECK_MPI(MPI_Add_error_class(&c1));
  CHECK_MPI(MPI_Add_error_class(&c2));
  CHECK(c1 != c2 && c1 > MPI_SUCCESS && c2 > MPI_SUCCESS);
  /* MPI-4.0 9.6: Add_error_string is erroneous for values <= MPI_ERR_LASTCODE, so user classes and codes (which
   * take strings) lie above it. */
  CHECK(c1 > MPI_ERR_LASTCODE && c2 > MPI_ERR_LASTCODE);
  CHECK(class_of(c1) == c1 && class_of(c2) == c2);
  CHECK(lastused() >= c1 && lastused() >= c2 && lastused() >= last0);

  /* Codes in the new classes and in a predefined class. */
  int e1 = -1, e2 = -1, e3 = -1, e4 = -1;
  CHECK_MPI(MPI_Add_error_code(c1, &e1));
  CHECK_MPI(MPI_Add_error_code(c1, &e2));
  CHECK_MPI(MPI_Add_error_code(c2, &e3));
  CHECK_MPI(MPI_Add_error_code(MPI_ERR_RANK, &e4));
  int all[6] = {c1, c2, e1, e2, e3, e4};
  for (int i = 0; i < 6; ++i)
    for (int j = i + 1; j < 6; ++j) CHECK(all[i] != all[j]);
  CHECK(class_of(e1) == c1 && class_of(e2) == c1 && class_of(e3) == c2 && class_of(e4) == MPI_ERR_RANK);
  CHECK(e1 > MPI_ERR_LASTCODE && e2 > MPI_ERR_LASTCODE && e3 > MPI_ERR_LASTCODE);
#ifdef STRATA /* MPICH 4.0.2 gives a code of a predefined class a small value (the same bug as its string below) */
  CHECK(e4 > MPI_ERR_LASTCODE);
#endif
  int last = lastused(); /* MPI-4.0 9.6: "the current maximum error class including the user-defined ones" */
  CHECK(last >= c1 && last >= c2);

  /* Strings: empty until set; set; replaced; a class and its code have independent strings; the predefined
   * strings are unchanged. */
  CHECK(strcmp(string_of(e1), "") == 0);
  CHECK(strcmp(string_of(c1), "") == 0);
  char msg[64];
  snprintf(msg, sizeof msg, "user code one on rank %d", rank);
  CHECK_MPI(MPI_Add_error_string(e1, msg));
  CHECK(strcmp(string_of(e1), msg) == 0);
  CHECK_MPI(MPI_Add_error_string(e1, "replaced"));
  CHECK(strcmp(string_of(e1), "replaced") == 0);
  CHECK_MPI(MPI_Add_error_string(c1, "user class one"));
  CHECK(strcmp(string_of(c1), "user class one") == 0);
  CHECK(strcmp(string_of(e1), "replaced") == 0);
  CHECK(strcmp(string_of(e2), "") == 0);
  CHECK_MPI(MPI_Add_error_string(e4, "a rank problem of our own"));
#ifdef STRATA /* MPICH 4.0.2 returns an unrelated internal message for a user code in a predefined class (a bug) */
  CHECK(strcmp(string_of(e4), "a rank problem of our own") == 0);
#endif
  char before[MPI_MAX_ERROR_STRING];
  strcpy(before, string_of(MPI_ERR_RANK));
  CHECK(strlen(before) > 0 && strcmp(before, "a rank problem of our own") != 0);
  /* the longest allowed string: MPI_MAX_ERROR_STRING-1 characters */
  char longest[MPI_MAX_ERROR_STRING];
  for (int i = 0; i < MPI_MAX_ERROR_STRING - 1; ++i) longest[i] = (char)('a' + i % 26);
  longest[MPI_MAX_ERROR_STRING - 1] = '\0';
  CHECK_MPI(MPI_Add_error_string(e3, longest));
  CHECK(strcmp(string_of(e3), longest) == 0);

  /* User codes through a user error handler. */
  MPI_Errhandler eh;
  MPI_Comm d;
  CHECK_MPI(MPI_Comm_create_errhandler(handler, &eh));
  CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &d));
  CHECK_MPI(MPI_Comm_set_errhandler(d, eh));
  CHECK_MPI(MPI_Errhandler_free(&eh));
  CHECK(MPI_Comm_call_errhandler(d, e2) == MPI_SUCCESS);
  CHECK(handled_calls == 1 && handled_code == e2);
  CHECK(MPI_Comm_call_errhandler(d, c2) == MPI_SUCCESS);
  CHECK(handled_calls == 2 && handled_code == c2);
  CHECK_MPI(MPI_Comm_free(&d));

  /* More (50: Strata has room for 67 user classes): LASTUSEDCODE keeps up. */
  int maxclass = last;
  for (int i = 0; i < 50; ++i) {
    int c, e;
    CHECK_MPI(MPI_Add_error_class(&c));
    CHECK_MPI(MPI_Add_error_code(c, &e));
    CHECK(class_of(e) == c);
    if (c > maxclass) maxclass = c;
  }
  CHECK(lastused() >= maxclass);

  test_barrier();
  CHECK_MPI(MPI_Finalize());
  return 0;
}
