/* Helpers of the shared-memory window tests (win_*): the /dev/shm check of segments, and per-rank sizes.
 *
 * Strata names a window's segment /dev/shm/strata_<job>_win..., <job> being the PMIx namespace (singleton-<pid>
 * without a launcher) with every non-alphanumeric character replaced by '_', and unlinks it as soon as every
 * process has mapped it. */
#ifndef STRATA_TESTS_MPI_WIN_UTIL_H
#define STRATA_TESTS_MPI_WIN_UTIL_H

#include <ctype.h>
#include <dirent.h>
#include <unistd.h>

#include "test_util.h"

/* Writes "strata_<job>_<kind>" into prefix ("win": windows, "coll": the collectives' node memory); a singleton's
 * job is "singleton-<pid>". */
static inline void test_segment_prefix(char *prefix, size_t size, const char *kind) {
  char singleton[64];
  const char *ns = getenv("PMIX_NAMESPACE");
  if (ns == NULL || *ns == '\0') {
    snprintf(singleton, sizeof singleton, "singleton-%ld", (long)getpid());
    ns = singleton;
  }
  int n = snprintf(prefix, size, "strata_");
  for (const char *c = ns; *c && n + 2 < (int)size; ++c) prefix[n++] = isalnum((unsigned char)*c) ? *c : '_';
  prefix[n] = '\0';
  strncat(prefix, "_", size - strlen(prefix) - 1);
  strncat(prefix, kind, size - strlen(prefix) - 1);
}

/* How many segments of this kind of this job are in /dev/shm now. */
static inline int test_segments_in_dev_shm(const char *kind) {
  char prefix[512];
  test_segment_prefix(prefix, sizeof prefix, kind);
  DIR *dir = opendir("/dev/shm");
  if (dir == NULL) return 0;
  int count = 0;
  for (struct dirent *e = readdir(dir); e != NULL; e = readdir(dir))
    if (strncmp(e->d_name, prefix, strlen(prefix)) == 0) ++count;
  closedir(dir);
  return count;
}

/* Once every window creation under way has returned, no segment is left in /dev/shm. Collective over
 * MPI_COMM_WORLD: a barrier before the look (all creations done), and one after (none started meanwhile). */
#define CHECK_NO_WINDOW_SEGMENT()                       \
  do {                                                  \
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));             \
    CHECK(test_segments_in_dev_shm("win") == 0);        \
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));             \
  } while (0)

static inline size_t test_page_size(void) { return (size_t)sysconf(_SC_PAGESIZE); }

#endif /* STRATA_TESTS_MPI_WIN_UTIL_H */
