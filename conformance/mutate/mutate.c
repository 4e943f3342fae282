/* The conformance suite's mutation library: a PMPI wrapper of MPI_Comm_split_type that breaks one property of
 * hardware splits (HW_GUIDED, HW_UNGUIDED; MPI-4.0 7.4.2), chosen by CONFORMANCE_MUTATION, so the mutation test
 * can check that the property's checker notices. Compiled into the program as one more source file; the MPI_
 * symbol defined here overrides the library's (weak or interposable) one, and the real work is PMPI_'s.
 *
 *   drop            every newcomm of size >= 2 loses its last rank (it gets MPI_COMM_NULL)
 *   merge           the two groups whose lowest ranks in comm are smallest become one communicator
 *   no_null         MPI_COMM_NULL everywhere becomes a duplicate of comm
 *   forget_key      HW_UNGUIDED: mpi_hw_resource_type is deleted from the caller's info
 *   different_keys  HW_UNGUIDED: odd ranks of newcomm get another level in mpi_hw_resource_type
 *   reverse_order   every newcomm of size >= 2 has its ranks reversed
 *
 * No hang: every process of comm is in this call together, and each fix-up is decided from what all the
 * processes it involves share (newcomm's size, or data gathered over comm), so they all make the same calls. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#ifdef MPI_COMM_TYPE_HW_GUIDED /* an MPI-3.1 library has no hardware splits: nothing to break */

enum mutation { NONE, DROP, MERGE, NO_NULL, FORGET_KEY, DIFFERENT_KEYS, REVERSE_ORDER, UNKNOWN };

static const char *const mutation_names[] = {"", "drop", "merge", "no_null", "forget_key", "different_keys",
                                             "reverse_order"};

static const char *const type_key = "mpi_hw_resource_type";

/* The README's level names, top to bottom: different_keys replaces a level by the next one (cyclically). */
static const char *const level_names[] = {"Rack",    "Switch",  "Machine", "Package", "NUMANode",
                                          "L3Cache", "L2Cache", "L1Cache", "Core",    "PU"};
enum { level_count = sizeof level_names / sizeof level_names[0] };

static enum mutation chosen_mutation(void) {
  static int read = 0;
  static enum mutation chosen = NONE;
  if (!read) {
    const char *env = getenv("CONFORMANCE_MUTATION");
    chosen = env && *env ? UNKNOWN : NONE;
    for (int m = DROP; env && m < UNKNOWN; ++m)
      if (strcmp(env, mutation_names[m]) == 0) chosen = (enum mutation)m;
    read = 1;
  }
  return chosen;
}

/* *newcomm becomes `made`; the communicator it replaces is freed. */
static int replace(MPI_Comm *newcomm, MPI_Comm made) {
  int rc = MPI_SUCCESS;
  if (*newcomm != MPI_COMM_NULL) rc = PMPI_Comm_free(newcomm);
  *newcomm = made;
  return rc;
}

/* drop: collective over newcomm only, whose members all see the same size. */
static int drop_last(MPI_Comm *newcomm) {
  int size, rank;
  if (*newcomm == MPI_COMM_NULL) return MPI_SUCCESS;
  PMPI_Comm_size(*newcomm, &size);
  PMPI_Comm_rank(*newcomm, &rank);
  if (size < 2) return MPI_SUCCESS;
  MPI_Comm kept;
  int rc = PMPI_Comm_split(*newcomm, rank == size - 1 ? MPI_UNDEFINED : 0, rank, &kept);
  return rc != MPI_SUCCESS ? rc : replace(newcomm, kept);
}

/* reverse_order: collective over newcomm only, as drop. */
static int reverse_ranks(MPI_Comm *newcomm) {
  int size, rank;
  if (*newcomm == MPI_COMM_NULL) return MPI_SUCCESS;
  PMPI_Comm_size(*newcomm, &size);
  PMPI_Comm_rank(*newcomm, &rank);
  if (size < 2) return MPI_SUCCESS;
  MPI_Comm reversed;
  int rc = PMPI_Comm_split(*newcomm, 0, size - 1 - rank, &reversed);
  return rc != MPI_SUCCESS ? rc : replace(newcomm, reversed);
}

/* The lowest rank in comm of part's members: a name for part that all its members compute alike. */
static int lowest_rank_in(MPI_Comm comm, MPI_Comm part) {
  MPI_Group comm_group, part_group;
  int size, lowest = -1;
  PMPI_Comm_group(comm, &comm_group);
  PMPI_Comm_group(part, &part_group);
  PMPI_Group_size(part_group, &size);
  int *ranks = malloc(2 * (size_t)size * sizeof(int));
  int *in_comm = ranks + size;
  for (int i = 0; i < size; ++i) ranks[i] = i;
  PMPI_Group_translate_ranks(part_group, size, ranks, comm_group, in_comm);
  for (int i = 0; i < size; ++i)
    if (in_comm[i] != MPI_UNDEFINED && (lowest < 0 || in_comm[i] < lowest)) lowest = in_comm[i];
  free(ranks);
  PMPI_Group_free(&part_group);
  PMPI_Group_free(&comm_group);
  return lowest;
}

/* merge: collective over comm. Every process learns every group's name, so all agree on the two merged ones (or on
 * doing nothing when there are fewer than two groups); the others keep their communicator. */
static int merge_first_two(MPI_Comm comm, int key, MPI_Comm *newcomm) {
  int size, first = -1, second = -1;
  int mine = *newcomm == MPI_COMM_NULL ? -1 : lowest_rank_in(comm, *newcomm);
  PMPI_Comm_size(comm, &size);
  int *names = malloc((size_t)size * sizeof(int));
  int rc = PMPI_Allgather(&mine, 1, MPI_INT, names, 1, MPI_INT, comm);
  for (int i = 0; rc == MPI_SUCCESS && i < size; ++i) {
    int n = names[i];
    if (n < 0 || n == first || n == second) continue;
    if (first < 0 || n < first) {
      second = first;
      first = n;
    } else if (second < 0 || n < second) {
      second = n;
    }
  }
  free(names);
  if (rc != MPI_SUCCESS || second < 0) return rc;
  int merged_member = mine >= 0 && (mine == first || mine == second);
  MPI_Comm merged;
  rc = PMPI_Comm_split(comm, merged_member ? first : MPI_UNDEFINED, key, &merged);
  if (rc != MPI_SUCCESS || !merged_member) return rc;
  return replace(newcomm, merged);
}

/* no_null: collective over comm; the dup happens only when all agree that nobody got a communicator. */
static int null_to_dup(MPI_Comm comm, MPI_Comm *newcomm) {
  int got_null = *newcomm == MPI_COMM_NULL, all_null = 0;
  int rc = PMPI_Allreduce(&got_null, &all_null, 1, MPI_INT, MPI_LAND, comm);
  if (rc != MPI_SUCCESS || !all_null) return rc;
  return PMPI_Comm_dup(comm, newcomm);
}

static int has_type_key(MPI_Info info) {
  int nkeys = 0;
  char key[MPI_MAX_INFO_KEY + 1];
  if (info == MPI_INFO_NULL) return 0;
  PMPI_Info_get_nkeys(info, &nkeys);
  for (int i = 0; i < nkeys; ++i)
    if (PMPI_Info_get_nthkey(info, i, key) == MPI_SUCCESS && strcmp(key, type_key) == 0) return 1;
  return 0;
}

/* forget_key: local. */
static int forget_type_key(MPI_Info info) {
  return has_type_key(info) ? PMPI_Info_delete(info, type_key) : MPI_SUCCESS;
}

/* different_keys: local. The level after the one in the value, keeping a prefix such as "hwloc://" or
 * "strata://"; "Core" for a value that names no known level. */
static int change_type_key_on_odd_ranks(MPI_Info info, MPI_Comm newcomm) {
  int rank, flag = 0, buflen = MPI_MAX_INFO_VAL + 1;
  char value[MPI_MAX_INFO_VAL + 1], changed[MPI_MAX_INFO_VAL + 1];
  if (newcomm == MPI_COMM_NULL || !has_type_key(info)) return MPI_SUCCESS;
  PMPI_Comm_rank(newcomm, &rank);
  if (rank % 2 == 0) return MPI_SUCCESS;
  int rc = PMPI_Info_get_string(info, type_key, &buflen, value, &flag);
  if (rc != MPI_SUCCESS || !flag) return rc;
  const char *slash = strrchr(value, '/');
  const char *name = slash ? slash + 1 : value;
  snprintf(changed, sizeof changed, "Core");
  for (int l = 0; l < level_count; ++l)
    if (strcasecmp(name, level_names[l]) == 0)
      snprintf(changed, sizeof changed, "%.*s%s", (int)(name - value), value, level_names[(l + 1) % level_count]);
  return PMPI_Info_set(info, type_key, changed);
}

/* The mutation, once the real split has succeeded. */
static int mutate(MPI_Comm comm, int split_type, int key, MPI_Info info, MPI_Comm *newcomm) {
  enum mutation m = chosen_mutation();
  if (split_type != MPI_COMM_TYPE_HW_GUIDED && split_type != MPI_COMM_TYPE_HW_UNGUIDED) return MPI_SUCCESS;
  int unguided = split_type == MPI_COMM_TYPE_HW_UNGUIDED;
  switch (m) {
    case NONE: return MPI_SUCCESS;
    case DROP: return drop_last(newcomm);
    case MERGE: return merge_first_two(comm, key, newcomm);
    case NO_NULL: return null_to_dup(comm, newcomm);
    case FORGET_KEY: return unguided ? forget_type_key(info) : MPI_SUCCESS;
    case DIFFERENT_KEYS: return unguided ? change_type_key_on_odd_ranks(info, *newcomm) : MPI_SUCCESS;
    case REVERSE_ORDER: return reverse_ranks(newcomm);
    case UNKNOWN: break;
  }
  // Loud, so a misspelt name never passes for a mutation nobody caught.
  fprintf(stderr, "mutate.c: unknown CONFORMANCE_MUTATION \"%s\" (drop, merge, no_null, forget_key, "
                  "different_keys, reverse_order)\n", getenv("CONFORMANCE_MUTATION"));
  return PMPI_Abort(comm, 2);
}

#endif

int MPI_Comm_split_type(MPI_Comm comm, int split_type, int key, MPI_Info info, MPI_Comm *newcomm) {
  int rc = PMPI_Comm_split_type(comm, split_type, key, info, newcomm);
#ifdef MPI_COMM_TYPE_HW_GUIDED
  // A failed split is returned untouched: its error is decided collectively, so nobody goes on to a fix-up alone.
  if (rc == MPI_SUCCESS) rc = mutate(comm, split_type, key, info, newcomm);
#endif
  return rc;
}
