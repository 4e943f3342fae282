// Group calls (MPI-4.0 section 7.3). The algebra lives in comm/group.*; this file maps handles onto it.
//
// Handles: MPI_GROUP_EMPTY is index 1 of groups(), a static empty Group registered when libmpi is loaded, so no
// other group handle can take that index. Every other group handle owns a heap Group, deleted by MPI_Group_free.
// An empty result is always returned as MPI_GROUP_EMPTY (MPI-4.0 7.3.2 says so for MPI_Group_incl with n = 0; the
// other calls follow suit): make group handles with add_group(), which keeps that rule, and resolve them with
// group_of().
#include <string>
#include <vector>

#include "api/check.hpp"
#include "comm/group.hpp"
#include "runtime/lasting.hpp"
#include "runtime/state.hpp"

using namespace strata;
using namespace strata::api;

static_assert(comm::kUndefined == MPI_UNDEFINED && comm::kProcNull == MPI_PROC_NULL);
static_assert(comm::kIdent == MPI_IDENT && comm::kSimilar == MPI_SIMILAR && comm::kUnequal == MPI_UNEQUAL);

namespace strata::api {

namespace {

void ensure_group_empty() {
  static auto& empty = runtime::lasting<comm::Group>();
  static const bool registered = [] {
    if (groups().get(MPI_GROUP_EMPTY) == nullptr) groups().put(index_of(MPI_GROUP_EMPTY), &empty);
    return true;
  }();
  (void)registered;
}

// Done again when libmpi is loaded, before any call can run: a group handle made anywhere (even straight through
// groups().add) can then never take MPI_GROUP_EMPTY's index.
[[maybe_unused]] const bool g_group_empty_registered = (ensure_group_empty(), true);

}  // namespace

// The group behind a handle (MPI_GROUP_EMPTY included), nullptr for MPI_GROUP_NULL and invalid handles.
comm::Group* group_of(MPI_Group handle) {
  ensure_group_empty();
  return groups().get(handle);
}

// A new handle for `g`: MPI_GROUP_EMPTY if g is empty.
MPI_Group add_group(comm::Group g) {
  ensure_group_empty();
  if (g.world_ranks.empty()) return MPI_GROUP_EMPTY;
  return groups().add(new comm::Group(std::move(g)));
}

std::string describe_group(MPI_Group handle) {
  if (handle == MPI_GROUP_NULL) return "MPI_GROUP_NULL";
  if (handle == MPI_GROUP_EMPTY) return "MPI_GROUP_EMPTY";
  if (kind_of(handle) != STRATA_KIND_GROUP || handle < 0)
    return "handle " + std::to_string(handle) + ", which is not a group handle";
  return "group handle " + std::to_string(handle);
}

}  // namespace strata::api

namespace {

// Argument checks of the group calls, in the style of Check's own (first failure wins).
Check& valid_group(Check& check, MPI_Group handle, comm::Group*& out, const char* what = "group") {
  if (!check.ok()) return check;
  out = group_of(handle);
  if (out == nullptr)
    check.fail(MPI_ERR_GROUP, std::string(what) + " is " +
                                  (handle == MPI_GROUP_NULL ? "MPI_GROUP_NULL"
                                   : kind_of(handle) == STRATA_KIND_GROUP && handle >= 0
                                       ? "group handle " + std::to_string(handle) + ", freed or never created"
                                       : describe_group(handle)));
  return check;
}

// n and the array it counts (ranks or ranges): n >= 0, and the array is not NULL when n > 0.
Check& counted(Check& check, int n, const void* array, const char* what) {
  if (check.ok() && n < 0) check.fail(MPI_ERR_ARG, "negative n " + std::to_string(n));
  if (check.ok() && n > 0 && array == nullptr)
    check.fail(MPI_ERR_ARG, std::string(what) + " is NULL with n " + std::to_string(n));
  return check;
}

// Runs a group constructor that may fail on the ranks; on success stores a handle in *newgroup.
int finish(Check& check, const Status& s, comm::Group&& result, MPI_Group* newgroup) {
  if (!s.ok()) return check.fail(s.error_class, s.message).raise();
  *newgroup = add_group(std::move(result));
  return MPI_SUCCESS;
}

std::vector<comm::RankRange> copy_ranges(int n, int ranges[][3]) {
  std::vector<comm::RankRange> out(n);
  for (int i = 0; i < n; ++i) out[i] = {ranges[i][0], ranges[i][1], ranges[i][2]};
  return out;
}

}  // namespace

STRATA_PMPI(Group_size)
extern "C" int PMPI_Group_size(MPI_Group group, int* size) {
  comm::Group* g = nullptr;
  Check check("MPI_Group_size");
  valid_group(check, group, g).not_null(size, "size");
  if (!check.ok()) return check.raise();
  *size = g->size();
  return MPI_SUCCESS;
}

STRATA_PMPI(Group_rank)
extern "C" int PMPI_Group_rank(MPI_Group group, int* rank) {
  comm::Group* g = nullptr;
  Check check("MPI_Group_rank");
  valid_group(check, group, g).not_null(rank, "rank");
  if (!check.ok()) return check.raise();
  *rank = g->rank_of(runtime::state().world.rank);  // MPI_UNDEFINED when the caller is not a member
  return MPI_SUCCESS;
}

STRATA_PMPI(Group_incl)
extern "C" int PMPI_Group_incl(MPI_Group group, int n, const int ranks[], MPI_Group* newgroup) {
  comm::Group* g = nullptr;
  Check check("MPI_Group_incl");
  counted(valid_group(check, group, g), n, ranks, "ranks").not_null(newgroup, "newgroup");
  if (!check.ok()) return check.raise();
  comm::Group result;
  Status s = comm::incl(*g, {ranks, static_cast<std::size_t>(n)}, result);
  return finish(check, s, std::move(result), newgroup);
}

STRATA_PMPI(Group_excl)
extern "C" int PMPI_Group_excl(MPI_Group group, int n, const int ranks[], MPI_Group* newgroup) {
  comm::Group* g = nullptr;
  Check check("MPI_Group_excl");
  counted(valid_group(check, group, g), n, ranks, "ranks").not_null(newgroup, "newgroup");
  if (!check.ok()) return check.raise();
  comm::Group result;
  Status s = comm::excl(*g, {ranks, static_cast<std::size_t>(n)}, result);
  return finish(check, s, std::move(result), newgroup);
}

STRATA_PMPI(Group_range_incl)
extern "C" int PMPI_Group_range_incl(MPI_Group group, int n, int ranges[][3], MPI_Group* newgroup) {
  comm::Group* g = nullptr;
  Check check("MPI_Group_range_incl");
  counted(valid_group(check, group, g), n, ranges, "ranges").not_null(newgroup, "newgroup");
  if (!check.ok()) return check.raise();
  comm::Group result;
  Status s = comm::range_incl(*g, copy_ranges(n, ranges), result);
  return finish(check, s, std::move(result), newgroup);
}

STRATA_PMPI(Group_range_excl)
extern "C" int PMPI_Group_range_excl(MPI_Group group, int n, int ranges[][3], MPI_Group* newgroup) {
  comm::Group* g = nullptr;
  Check check("MPI_Group_range_excl");
  counted(valid_group(check, group, g), n, ranges, "ranges").not_null(newgroup, "newgroup");
  if (!check.ok()) return check.raise();
  comm::Group result;
  Status s = comm::range_excl(*g, copy_ranges(n, ranges), result);
  return finish(check, s, std::move(result), newgroup);
}

STRATA_PMPI(Group_union)
extern "C" int PMPI_Group_union(MPI_Group group1, MPI_Group group2, MPI_Group* newgroup) {
  comm::Group *g1 = nullptr, *g2 = nullptr;
  Check check("MPI_Group_union");
  valid_group(check, group1, g1, "group1");
  valid_group(check, group2, g2, "group2").not_null(newgroup, "newgroup");
  if (!check.ok()) return check.raise();
  *newgroup = add_group(comm::set_union(*g1, *g2));
  return MPI_SUCCESS;
}

STRATA_PMPI(Group_intersection)
extern "C" int PMPI_Group_intersection(MPI_Group group1, MPI_Group group2, MPI_Group* newgroup) {
  comm::Group *g1 = nullptr, *g2 = nullptr;
  Check check("MPI_Group_intersection");
  valid_group(check, group1, g1, "group1");
  valid_group(check, group2, g2, "group2").not_null(newgroup, "newgroup");
  if (!check.ok()) return check.raise();
  *newgroup = add_group(comm::set_intersection(*g1, *g2));
  return MPI_SUCCESS;
}

STRATA_PMPI(Group_difference)
extern "C" int PMPI_Group_difference(MPI_Group group1, MPI_Group group2, MPI_Group* newgroup) {
  comm::Group *g1 = nullptr, *g2 = nullptr;
  Check check("MPI_Group_difference");
  valid_group(check, group1, g1, "group1");
  valid_group(check, group2, g2, "group2").not_null(newgroup, "newgroup");
  if (!check.ok()) return check.raise();
  *newgroup = add_group(comm::set_difference(*g1, *g2));
  return MPI_SUCCESS;
}

STRATA_PMPI(Group_translate_ranks)
extern "C" int PMPI_Group_translate_ranks(MPI_Group group1, int n, const int ranks1[], MPI_Group group2,
                                          int ranks2[]) {
  comm::Group *g1 = nullptr, *g2 = nullptr;
  Check check("MPI_Group_translate_ranks");
  counted(valid_group(check, group1, g1, "group1"), n, ranks1, "ranks1");
  counted(valid_group(check, group2, g2, "group2"), n, ranks2, "ranks2");
  if (!check.ok()) return check.raise();
  const auto count = static_cast<std::size_t>(n);
  Status s = comm::translate_ranks(*g1, {ranks1, count}, *g2, {ranks2, count});
  if (!s.ok()) return check.fail(s.error_class, "ranks1: " + s.message).raise();
  return MPI_SUCCESS;
}

STRATA_PMPI(Group_compare)
extern "C" int PMPI_Group_compare(MPI_Group group1, MPI_Group group2, int* result) {
  comm::Group *g1 = nullptr, *g2 = nullptr;
  Check check("MPI_Group_compare");
  valid_group(check, group1, g1, "group1");
  valid_group(check, group2, g2, "group2").not_null(result, "result");
  if (!check.ok()) return check.raise();
  *result = comm::compare(*g1, *g2);
  return MPI_SUCCESS;
}

STRATA_PMPI(Group_free)
extern "C" int PMPI_Group_free(MPI_Group* group) {
  comm::Group* g = nullptr;
  Check check("MPI_Group_free");
  check.not_null(group, "group");
  if (check.ok()) valid_group(check, *group, g);
  if (!check.ok()) return check.raise();
  // MPI_GROUP_EMPTY is what MPI_Group_incl with n = 0 (and any empty result) returns, and correct programs free
  // every group they are handed: so freeing it is allowed (as in MPICH and Open MPI) and only resets the handle.
  if (*group != MPI_GROUP_EMPTY) {
    groups().remove(*group);
    delete g;
  }
  *group = MPI_GROUP_NULL;
  return MPI_SUCCESS;
}
