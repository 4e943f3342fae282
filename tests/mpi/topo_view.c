/* What a rank sees of its hardware (MPIX_Get_hw_placement), checked against expectations written by hand from
 * the mpiexec options of each scenario (tests/mpi/topo_tests.cmake).
 *
 * Arguments: either one spec for every rank, or one spec per rank (argv[1 + rank]). A spec is a list of
 * "key=value" items separated by spaces ("hwloc://Package=1/2 binding=simulated"); "key=" with nothing after it
 * means the key must be absent, and a value ending in '*' only fixes its beginning. In values, "{expr}" is computed from the rank: r, integers and + - * / % applied
 * left to right ("{r%6/3}"). Then a NULL argument must give MPI_ERR_ARG. */
#include <ctype.h>

#include "test_util.h"

static long eval(const char *expr, int rank) {
  long acc = 0;
  char op = '+';
  for (const char *p = expr; *p && *p != '}';) {
    long v;
    if (*p == 'r') {
      v = rank;
      ++p;
    } else if (isdigit((unsigned char)*p)) {
      v = strtol(p, (char **)&p, 10);
    } else {
      op = *p++;
      continue;
    }
    switch (op) {
      case '+': acc += v; break;
      case '-': acc -= v; break;
      case '*': acc *= v; break;
      case '/': acc /= v; break;
      case '%': acc %= v; break;
      default: CHECK(!"bad operator in expectation");
    }
  }
  return acc;
}

/* `value` with every {expr} replaced by its value for `rank`. */
static void expand(const char *value, int rank, char *out, size_t cap) {
  size_t n = 0;
  for (const char *p = value; *p && n + 24 < cap;) {
    if (*p == '{') {
      n += (size_t)snprintf(out + n, cap - n, "%ld", eval(p + 1, rank));
      p = strchr(p, '}');
      CHECK(p != NULL);
      ++p;
    } else {
      out[n++] = *p++;
    }
  }
  out[n] = '\0';
}

int main(int argc, char **argv) {
  int rank = 0, size = 0;
  CHECK_MPI(MPI_Init(&argc, &argv));
  CHECK_MPI(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
  CHECK_MPI(MPI_Comm_size(MPI_COMM_WORLD, &size));
  CHECK(argc == 2 || argc == size + 1);
  const char *spec = argv[argc == 2 ? 1 : 1 + rank];

  MPI_Info info;
  CHECK_MPI(MPIX_Get_hw_placement(&info));
  char *items = strdup(spec);
  int checked = 0;
  for (char *item = strtok(items, " "); item; item = strtok(NULL, " ")) {
    char *eq = strchr(item, '=');
    CHECK(eq != NULL);
    *eq = '\0';
    char want[MPI_MAX_INFO_VAL], have[MPI_MAX_INFO_VAL];
    expand(eq + 1, rank, want, sizeof want);
    int len = MPI_MAX_INFO_VAL, flag = 0;
    have[0] = '\0';
    CHECK_MPI(MPI_Info_get_string(info, item, &len, have, &flag));
    const size_t fixed = want[0] && want[strlen(want) - 1] == '*' ? strlen(want) - 1 : strlen(want) + 1;
    if (want[0] == '\0' ? flag : !flag || strncmp(have, want, fixed) != 0) {
      char detail[3 * MPI_MAX_INFO_VAL];
      snprintf(detail, sizeof detail, ": key %s is \"%s\"%s, expected %s%s%s", item, have, flag ? "" : " (absent)",
               want[0] ? "\"" : "", want[0] ? want : "absent", want[0] ? "\"" : "");
      test_fail(__FILE__, __LINE__, "placement", detail);
    }
    ++checked;
  }
  CHECK(checked > 0);
  free(items);
  CHECK_MPI(MPI_Info_free(&info));

  /* Bad input: the error goes to MPI_COMM_SELF's handler, and the call still works afterwards. */
  CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
  TEST_EXPECT_ERROR(MPIX_Get_hw_placement(NULL), MPI_ERR_ARG, "MPIX_Get_hw_placement");
  CHECK_MPI(MPIX_Get_hw_placement(&info));
  CHECK_MPI(MPI_Info_free(&info));
  CHECK_MPI(MPI_Finalize());
  return 0;
}
