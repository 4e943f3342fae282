/* Property outcomes: recorded by every rank, combined across ranks, printed by rank 0 as README.md's lines
 *   RESULT <PROPERTY-ID> <pass|fail|na> <context> <reason>
 * one per (property, context): fail if any rank failed (the first failing rank's reason, "rank N: ..."), else pass
 * if any rank passed, else na. Also the communicators every program checks, whose names the contexts carry. */
#ifndef CONFORMANCE_REPORT_H
#define CONFORMANCE_REPORT_H

#include <mpi.h>
#include <stddef.h>

enum outcome { OUTCOME_PASS, OUTCOME_FAIL, OUTCOME_NA };

#define REPORT_REASON_MAX 200

/* Records an outcome of this rank; the reason is printf-formatted, cut to one line of REPORT_REASON_MAX chars.
 * Several outcomes for the same (property, context) on one rank merge the same way as across ranks. */
void report_add(const char *property, const char *context, enum outcome o, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Collective on MPI_COMM_WORLD: combines what every rank recorded since the last flush and prints it on rank 0. */
void report_flush(void);

/* For a library that lacks what a program checks: every listed property na in context WORLD/all, flushed. */
void report_all_na(const char *const *properties, size_t count, const char *reason);

/* "MPI_ERR_ARG: invalid argument..." for an MPI return code. */
void report_mpi_error(int rc, char *buf, size_t len);

/* World ranks as ranges, "0-3,6": in the order given (report_ranks), or sorted (report_rank_set). */
void report_ranks(const int *ranks, int n, char *buf, size_t len);
void report_rank_set(const int *ranks, int n, char *buf, size_t len);

/* The communicators checked (README.md): WORLD, HALVES (even and odd world ranks), SHUFFLED (WORLD re-ranked by a
 * fixed permutation). context_make is collective on WORLD and returns the name; context_free releases. */
#define CONTEXT_COUNT 3
const char *context_make(int i, MPI_Comm *comm);
void context_free(MPI_Comm *comm);

#endif
