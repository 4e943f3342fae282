/* Outcomes and their combination across ranks (report.h). Each rank keeps one fixed-size record per (property,
 * context); a flush gathers them to rank 0 (MPI_Gather of the counts, MPI_Gatherv of the bytes), which merges and
 * prints them in the order they first appear. Plain collectives on WORLD: the splits are under test, not these. */
#include "report.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct record {
  char property[32];
  char context[64];
  int outcome;
  int rank; /* who recorded it, for "rank N: " */
  char reason[REPORT_REASON_MAX + 1];
};

static struct record *records;
static int count, room;

/* fail beats pass beats na; among equals the earlier record (the lower rank) stays. */
static int stronger(int a, int b) {
  static const int weight[] = {[OUTCOME_PASS] = 1, [OUTCOME_FAIL] = 2, [OUTCOME_NA] = 0};
  return weight[a] > weight[b];
}

static void copy_word(char *dst, size_t size, const char *src) {
  snprintf(dst, size, "%s", src);
  for (char *c = dst; *c; ++c)
    if (*c == ' ' || *c == '\t' || *c == '\n' || *c == '\r') *c = '_';
}

/* Merges `r` into `list` (n entries): a new key is appended, a known one keeps the stronger outcome. */
static void merge(struct record *list, int *n, const struct record *r) {
  for (int i = 0; i < *n; ++i)
    if (strcmp(list[i].property, r->property) == 0 && strcmp(list[i].context, r->context) == 0) {
      if (stronger(r->outcome, list[i].outcome)) list[i] = *r;
      return;
    }
  list[(*n)++] = *r;
}

void report_add(const char *property, const char *context, enum outcome o, const char *fmt, ...) {
  struct record r;
  memset(&r, 0, sizeof r);
  copy_word(r.property, sizeof r.property, property);
  copy_word(r.context, sizeof r.context, context);
  r.outcome = o;
  MPI_Comm_rank(MPI_COMM_WORLD, &r.rank);
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(r.reason, sizeof r.reason, fmt, ap);
  va_end(ap);
  for (char *c = r.reason; *c; ++c)
    if (*c == '\n' || *c == '\r') *c = ' ';
  if (count == room) {
    room = room ? 2 * room : 64;
    records = realloc(records, sizeof *records * (size_t)room);
  }
  merge(records, &count, &r);
}

static void print(const struct record *r) {
  static const char *const names[] = {[OUTCOME_PASS] = "pass", [OUTCOME_FAIL] = "fail", [OUTCOME_NA] = "na"};
  char reason[2 * REPORT_REASON_MAX];
  if (r->outcome == OUTCOME_FAIL)
    snprintf(reason, sizeof reason, "rank %d: %s", r->rank, r->reason);
  else
    snprintf(reason, sizeof reason, "%s", r->reason[0] ? r->reason : "-");
  reason[REPORT_REASON_MAX] = '\0';
  printf("RESULT %s %s %s %s\n", r->property, names[r->outcome], r->context, reason);
}

void report_flush(void) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int bytes = count * (int)sizeof(struct record);
  int *sizes = NULL, *displs = NULL;
  char *all = NULL;
  if (rank == 0) {
    sizes = malloc(sizeof *sizes * (size_t)size);
    displs = malloc(sizeof *displs * (size_t)size);
  }
  MPI_Gather(&bytes, 1, MPI_INT, sizes, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    int total = 0;
    for (int r = 0; r < size; ++r) {
      displs[r] = total;
      total += sizes[r];
    }
    all = malloc(total > 0 ? (size_t)total : 1);
  }
  MPI_Gatherv(records, bytes, MPI_BYTE, all, sizes, displs, MPI_BYTE, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    int n_all = 0;
    for (int r = 0; r < size; ++r) n_all += sizes[r] / (int)sizeof(struct record);
    struct record *merged = malloc(sizeof *merged * (size_t)(n_all > 0 ? n_all : 1));
    int n = 0;
    for (int i = 0; i < n_all; ++i) merge(merged, &n, (const struct record *)all + i);
    for (int i = 0; i < n; ++i) print(&merged[i]);
    fflush(stdout);
    free(merged);
  }
  free(sizes);
  free(displs);
  free(all);
  count = 0;
}

void report_mpi_error(int rc, char *buf, size_t len) {
  char text[MPI_MAX_ERROR_STRING];
  int n = 0, cls = rc;
  text[0] = '\0';
  MPI_Error_class(rc, &cls);
  MPI_Error_string(rc, text, &n);
  snprintf(buf, len, "error %d (class %d): %s", rc, cls, text);
}

void report_ranks(const int *ranks, int n, char *buf, size_t len) {
  size_t used = 0;
  buf[0] = '\0';
  for (int i = 0; i < n && used < len; ++i) {
    int j = i;
    while (j + 1 < n && ranks[j + 1] == ranks[j] + 1) ++j;
    int w = j > i ? snprintf(buf + used, len - used, "%s%d-%d", i ? "," : "", ranks[i], ranks[j])
                  : snprintf(buf + used, len - used, "%s%d", i ? "," : "", ranks[i]);
    used += w > 0 ? (size_t)w : 0;
    i = j;
  }
  if (n == 0) snprintf(buf, len, "none");
}

static int ascending(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }

void report_rank_set(const int *ranks, int n, char *buf, size_t len) {
  int *sorted = malloc(sizeof(int) * (size_t)(n > 0 ? n : 1));
  memcpy(sorted, ranks, sizeof(int) * (size_t)n);
  qsort(sorted, (size_t)n, sizeof(int), ascending);
  report_ranks(sorted, n, buf, len);
  free(sorted);
}

/* SHUFFLED's order: r -> (a*r + 1) mod n with a the first of 3, 5, 7, ... coprime to n, a bijection that
 * interleaves the nodes' blocks (n = 8: 1 4 7 2 5 0 3 6). */
static int shuffled_key(int r, int n) {
  int a = 3;
  for (;; a += 2) {
    int x = a, y = n;
    while (y) {
      int t = x % y;
      x = y;
      y = t;
    }
    if (x == 1) break;
  }
  return (int)(((long)a * r + 1) % n);
}

const char *context_make(int i, MPI_Comm *comm) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  switch (i) {
    case 0:
      MPI_Comm_dup(MPI_COMM_WORLD, comm);
      return "WORLD";
    case 1:
      MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, comm);
      return "HALVES";
    default:
      MPI_Comm_split(MPI_COMM_WORLD, 0, shuffled_key(rank, size), comm);
      return "SHUFFLED";
  }
}

void context_free(MPI_Comm *comm) {
  if (*comm != MPI_COMM_NULL) MPI_Comm_free(comm);
}

void report_all_na(const char *const *properties, size_t count, const char *reason) {
  for (size_t p = 0; p < count; ++p) report_add(properties[p], "WORLD/all", OUTCOME_NA, "%s", reason);
  report_flush();
}
