// What the tools information interface shows (MPI-4.0 15.3): Strata's control variables (its environment settings),
// performance variables (the point-to-point engine's counters and queue lengths), the enumerations they use and the
// categories that group them. Built once, at the first MPI_T_init_thread; an index never changes or disappears
// (15.3.6, 15.3.7), so MPI_T_category_changed never moves.
#pragma once
#include <mpi.h>

#include <cstdint>
#include <deque>
#include <functional>
#include <string>
#include <utility>
#include <vector>

// An MPI_T_enum points to one of these (mpi.h declares the struct only).
struct strata_mpi_t_enum_s {
  std::string name;
  std::vector<std::pair<int, std::string>> items;  // (value, name)
};

namespace strata::api::tools {

using Enumeration = strata_mpi_t_enum_s;

struct ControlVariable {
  std::string name;  // "strata_coll_bcast": the environment variable's name in lower case
  std::string description;
  int verbosity;
  MPI_Datatype datatype;           // MPI_INT (read through `number`) or MPI_CHAR (through `text`)
  const Enumeration* enumeration;  // MPI_T_ENUM_NULL when none
  int scope;                       // MPI_T_SCOPE_READONLY, or MPI_T_SCOPE_ALL_EQ where `write` is set
  std::function<int()> number;
  std::function<std::string()> text;
  // A writable MPI_CHAR variable: sets the value (MPI_SUCCESS or an MPI_T_ERR_ class), which is at most
  // `longest_value` characters.
  std::function<int(const std::string&)> write;
  std::size_t longest_value = 0;
};

// Every performance variable is an MPI_UNSIGNED_LONG_LONG bound to no object.
struct PerformanceVariable {
  std::string name;
  std::string description;
  int verbosity;
  int var_class;      // MPI_T_PVAR_CLASS_COUNTER or MPI_T_PVAR_CLASS_LEVEL
  bool continuous;    // always active: MPI_T_pvar_start/stop refuse it
  bool readonly;      // MPI_T_pvar_write/reset/readreset refuse it; the others read and reset atomically
  std::uint64_t (*current)();  // the engine's figure now: a count since start-up, or a queue's length
};

struct Category {
  std::string name;
  std::string description;
  std::vector<int> cvars, pvars, categories;  // indices
};

struct Registry {
  std::deque<Enumeration> enumerations;  // a deque: ControlVariable::enumeration points into it
  std::vector<ControlVariable> cvars;
  std::vector<PerformanceVariable> pvars;
  std::vector<Category> categories;
};

const Registry& registry();

}  // namespace strata::api::tools
