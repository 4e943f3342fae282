// Sessions (MPI-4.0 11.3): MPI without MPI_Init. A session starts the library if nothing else has (library.hpp)
// and keeps it running until its MPI_Session_finalize (the last one leaves it idle, for later sessions); it offers
// the process sets "mpi://WORLD" and "mpi://SELF", groups of them, and communicators made from a group and a
// string tag (MPI_Comm_create_from_group). Errors in a session call go to the session's error handler.
#include <strings.h>

#include <cstring>
#include <mutex>
#include <string>

#include "api/check.hpp"
#include "api/library.hpp"
#include "comm/group.hpp"
#include "comm/intercomm.hpp"
#include "runtime/info.hpp"
#include "runtime/lasting.hpp"
#include "runtime/state.hpp"

using namespace strata;
using namespace strata::api;

namespace {

struct Session {
  MPI_Errhandler errhandler;
  int thread_level;  // provided
};

// MPI_Session_init is thread safe even before anything started the library (11.3.1), when the library lock is not
// on yet: starting and stopping take this mutex first, then the library lock.
std::mutex g_start_stop;

HandleTable<Session>& sessions() {
  static auto& table = runtime::lasting<HandleTable<Session>>(STRATA_KIND_SESSION);
  return table;
}

const char* const kProcessSets[] = {"mpi://WORLD", "mpi://SELF"};
constexpr int kProcessSetCount = 2;

// Raises `s` on the session's handler, or MPI_COMM_SELF's when the handle is not a session.
int raise_on_session(const char* call, MPI_Session handle, const Status& s) {
  if (s.ok()) return MPI_SUCCESS;
  const Session* session = runtime::state().phase == runtime::Phase::Running ? sessions().get(handle) : nullptr;
  if (session == nullptr) return raise(call, MPI_COMM_SELF, s);
  return run_errhandler(session->errhandler, &handle, make_error(call, s.error_class, s.message));
}

Check& check_session(Check& check, MPI_Session handle, Session*& out) {
  out = check.ok() ? sessions().get(handle) : nullptr;
  if (check.ok() && out == nullptr)
    check.fail(MPI_ERR_SESSION, handle == MPI_SESSION_NULL ? std::string("session is MPI_SESSION_NULL")
                                                           : "invalid session handle " + std::to_string(handle));
  return check;
}

// The world ranks of a process set; false for an unknown name. The built-in names are matched without regard to
// case, as MPICH does ("mpi://self").
bool process_set(const char* name, std::vector<int>& world_ranks) {
  const runtime::World& world = runtime::state().world;
  world_ranks.clear();
  if (strcasecmp(name, "mpi://WORLD") == 0) {
    for (int r = 0; r < world.size; ++r) world_ranks.push_back(r);
  } else if (strcasecmp(name, "mpi://SELF") == 0) {
    world_ranks.push_back(world.rank);
  } else {
    return false;
  }
  return true;
}

Check& check_process_set(Check& check, const char* name, std::vector<int>& world_ranks) {
  check.not_null(name, "pset_name");
  if (check.ok() && !process_set(name, world_ranks))
    check.fail(MPI_ERR_ARG, std::string("unknown process set \"") + name + "\" (there are mpi://WORLD and mpi://SELF)");
  return check;
}

}  // namespace

// Checked without Check: the library may not run yet. Errors go to `errhandler` when it is valid (it is the handler
// "invoked in the event of an error" here), else to the initial error handler.
STRATA_PMPI(Session_init)
extern "C" int PMPI_Session_init(MPI_Info info, MPI_Errhandler errhandler, MPI_Session* session) {
  const std::lock_guard starting(g_start_stop);
  const runtime::CallScope call_scope;
  constexpr const char* call = "MPI_Session_init";
  const bool handler_ok = is_errhandler_for(errhandler, STRATA_KIND_SESSION);
  auto fail = [&](int error_class, const std::string& message) {
    MPI_Session none = MPI_SESSION_NULL;
    const int code = make_error(call, error_class, message);
    return handler_ok ? run_errhandler(errhandler, &none, code) : raise(call, MPI_COMM_NULL, error_class, message);
  };
  if (!handler_ok) return fail(MPI_ERR_ARG, "invalid errhandler " + std::to_string(errhandler) + " (not a session's)");
  if (session == nullptr) return fail(MPI_ERR_ARG, "session is NULL");
  const runtime::Info* hints = info == MPI_INFO_NULL ? nullptr : info_of(info);
  if (info != MPI_INFO_NULL && hints == nullptr) return fail(MPI_ERR_INFO, "invalid info " + std::to_string(info));
  // Without a "thread_level" hint, a session gets the level the library already runs at (MPI-4.0 11.6 lets
  // earlier requests influence what a session is granted; MPICH's threads/init/mult_session expects it).
  const runtime::State& st = runtime::state();
  int required = st.up() ? st.thread_level : MPI_THREAD_SINGLE;
  if (const std::string* level = hints ? hints->get("thread_level") : nullptr) {
    required = runtime::thread_level_of(*level);
    if (required < 0) return fail(MPI_ERR_ARG, "invalid thread_level \"" + *level + "\"");
  }
  if (Status s = start_library(required); !s.ok()) return fail(s.error_class, s.message);
  ++runtime::state().sessions;
  retain_errhandler(errhandler);
  *session = sessions().add(new Session{errhandler, std::min(required, runtime::state().thread_level)});
  return MPI_SUCCESS;
}

STRATA_PMPI(Session_finalize)
extern "C" int PMPI_Session_finalize(MPI_Session* session) {
  const std::lock_guard stopping(g_start_stop);
  Check check("MPI_Session_finalize");
  Session* s = nullptr;
  check.not_null(session, "session");
  check_session(check, session ? *session : MPI_SESSION_NULL, s);
  if (!check.ok()) return raise_on_session("MPI_Session_finalize", session ? *session : 0, check.status());
  release_errhandler(s->errhandler);
  sessions().remove(*session);
  delete s;
  *session = MPI_SESSION_NULL;
  runtime::State& st = runtime::state();
  if (--st.sessions == 0 && !st.world_model) idle_library();
  return MPI_SUCCESS;
}

STRATA_PMPI(Session_get_num_psets)
extern "C" int PMPI_Session_get_num_psets(MPI_Session session, MPI_Info info, int* npset_names) {
  Check check("MPI_Session_get_num_psets");
  Session* s = nullptr;
  runtime::Info* hints = nullptr;
  check_session(check, session, s).info(info, hints, true).not_null(npset_names, "npset_names");
  if (!check.ok()) return raise_on_session("MPI_Session_get_num_psets", session, check.status());
  *npset_names = kProcessSetCount;
  return MPI_SUCCESS;
}

// With *pset_len == 0 only the length is returned; either way *pset_len ends as the name's length + 1.
STRATA_PMPI(Session_get_nth_pset)
extern "C" int PMPI_Session_get_nth_pset(MPI_Session session, MPI_Info info, int n, int* pset_len, char* pset_name) {
  Check check("MPI_Session_get_nth_pset");
  Session* s = nullptr;
  runtime::Info* hints = nullptr;
  check_session(check, session, s).info(info, hints, true).not_null(pset_len, "pset_len");
  if (check.ok() && (n < 0 || n >= kProcessSetCount))
    check.fail(MPI_ERR_ARG, "n " + std::to_string(n) + " is not below the number of process sets, " +
                                std::to_string(kProcessSetCount));
  if (check.ok() && *pset_len < 0) check.fail(MPI_ERR_ARG, "negative pset_len " + std::to_string(*pset_len));
  if (check.ok() && *pset_len > 0) check.not_null(pset_name, "pset_name");
  if (!check.ok()) return raise_on_session("MPI_Session_get_nth_pset", session, check.status());
  const std::size_t length = std::strlen(kProcessSets[n]);
  if (*pset_len > 0) {
    const std::size_t copied = std::min(length, static_cast<std::size_t>(*pset_len) - 1);
    std::memcpy(pset_name, kProcessSets[n], copied);
    pset_name[copied] = '\0';
  }
  *pset_len = static_cast<int>(length) + 1;
  return MPI_SUCCESS;
}

STRATA_PMPI(Session_get_info)
extern "C" int PMPI_Session_get_info(MPI_Session session, MPI_Info* info_used) {
  Check check("MPI_Session_get_info");
  Session* s = nullptr;
  check_session(check, session, s).not_null(info_used, "info_used");
  if (!check.ok()) return raise_on_session("MPI_Session_get_info", session, check.status());
  runtime::Info info;
  info.set("thread_level", runtime::thread_level_name(s->thread_level));
  *info_used = add_info(std::move(info));
  return MPI_SUCCESS;
}

STRATA_PMPI(Session_get_pset_info)
extern "C" int PMPI_Session_get_pset_info(MPI_Session session, const char* pset_name, MPI_Info* info) {
  Check check("MPI_Session_get_pset_info");
  Session* s = nullptr;
  std::vector<int> members;
  check_process_set(check_session(check, session, s), pset_name, members).not_null(info, "info");
  if (!check.ok()) return raise_on_session("MPI_Session_get_pset_info", session, check.status());
  runtime::Info out;
  out.set("mpi_size", std::to_string(members.size()));
  *info = add_info(std::move(out));
  return MPI_SUCCESS;
}

STRATA_PMPI(Group_from_session_pset)
extern "C" int PMPI_Group_from_session_pset(MPI_Session session, const char* pset_name, MPI_Group* newgroup) {
  Check check("MPI_Group_from_session_pset");
  Session* s = nullptr;
  std::vector<int> members;
  check_process_set(check_session(check, session, s), pset_name, members).not_null(newgroup, "newgroup");
  if (!check.ok()) return raise_on_session("MPI_Group_from_session_pset", session, check.status());
  *newgroup = add_group(comm::Group{std::move(members)});
  return MPI_SUCCESS;
}

// Collective over the group's members, who all give the same string tag; no parent communicator, so argument errors
// go to MPI_COMM_SELF's handler and `errhandler` becomes the new communicator's.
STRATA_PMPI(Comm_create_from_group)
extern "C" int PMPI_Comm_create_from_group(MPI_Group group, const char* stringtag, MPI_Info info,
                                           MPI_Errhandler errhandler, MPI_Comm* newcomm) {
  constexpr const char* call = "MPI_Comm_create_from_group";
  Check check(call, MPI_COMM_NULL);
  const comm::Group* g = check.ok() ? group_of(group) : nullptr;
  if (check.ok() && g == nullptr) check.fail(MPI_ERR_GROUP, "invalid group handle " + std::to_string(group));
  const bool empty = check.ok() && g->world_ranks.empty();
  if (check.ok() && !empty && g->rank_of(runtime::state().world.rank) == comm::kUndefined)
    check.fail(MPI_ERR_GROUP, "the calling process is not a member of the group (only members may call it)");
  runtime::Info* hints = nullptr;
  check.not_null(stringtag, "stringtag").info(info, hints, true).not_null(newcomm, "newcomm");
  if (check.ok() && std::strlen(stringtag) >= MPI_MAX_STRINGTAG_LEN)
    check.fail(MPI_ERR_ARG, "stringtag is longer than MPI_MAX_STRINGTAG_LEN - 1 characters");
  if (check.ok() && !is_errhandler_for(errhandler, STRATA_KIND_COMM))
    check.fail(MPI_ERR_ARG, "invalid errhandler " + std::to_string(errhandler) + " (not a communicator's)");
  if (!check.ok()) return check.raise();
  if (empty) {  // MPI-4.0 7.4.2: a local call
    *newcomm = MPI_COMM_NULL;
    return MPI_SUCCESS;
  }
  std::unique_ptr<comm::Communicator> fresh;
  if (Status s = comm::create_from_string_tag(g->world_ranks, stringtag, fresh); !s.ok())
    return raise(call, MPI_COMM_NULL, s);
  fresh->errhandler = errhandler;
  retain_errhandler(errhandler);
  if (hints) fresh->hints = hints->dup();
  *newcomm = comms().add(fresh.release());
  return MPI_SUCCESS;
}

// Allowed at any time (Table 11.1), since MPI_Session_init takes the handler.
STRATA_PMPI(Session_create_errhandler)
extern "C" int PMPI_Session_create_errhandler(MPI_Session_errhandler_function* function,
                                              MPI_Errhandler* errhandler) {
  Check check("MPI_Session_create_errhandler", MPI_COMM_SELF, Check::kAnyTime);
  check.not_null(reinterpret_cast<void*>(function), "session_errhandler_fn").not_null(errhandler, "errhandler");
  if (!check.ok()) return check.raise();
  // The same C type as a communicator's handler: every handle is an int.
  *errhandler = errhandlers().add(
      new ErrhandlerObject{reinterpret_cast<MPI_Comm_errhandler_function*>(function), 1, STRATA_KIND_SESSION});
  return MPI_SUCCESS;
}

STRATA_PMPI(Session_set_errhandler)
extern "C" int PMPI_Session_set_errhandler(MPI_Session session, MPI_Errhandler errhandler) {
  Check check("MPI_Session_set_errhandler");
  Session* s = nullptr;
  check_session(check, session, s);
  if (check.ok() && !is_errhandler_for(errhandler, STRATA_KIND_SESSION))
    check.fail(MPI_ERR_ARG, "invalid errhandler " + std::to_string(errhandler) + " (not a session's)");
  if (!check.ok()) return raise_on_session("MPI_Session_set_errhandler", session, check.status());
  retain_errhandler(errhandler);
  release_errhandler(s->errhandler);
  s->errhandler = errhandler;
  return MPI_SUCCESS;
}

STRATA_PMPI(Session_get_errhandler)
extern "C" int PMPI_Session_get_errhandler(MPI_Session session, MPI_Errhandler* errhandler) {
  Check check("MPI_Session_get_errhandler");
  Session* s = nullptr;
  check_session(check, session, s).not_null(errhandler, "errhandler");
  if (!check.ok()) return raise_on_session("MPI_Session_get_errhandler", session, check.status());
  retain_errhandler(s->errhandler);  // a new reference: the caller frees it with MPI_Errhandler_free
  *errhandler = s->errhandler;
  return MPI_SUCCESS;
}

STRATA_PMPI(Session_call_errhandler)
extern "C" int PMPI_Session_call_errhandler(MPI_Session session, int errorcode) {
  Check check("MPI_Session_call_errhandler", MPI_COMM_SELF, Check::kAnyTime);
  Session* s = nullptr;
  check_session(check, session, s);
  if (!check.ok()) return raise_on_session("MPI_Session_call_errhandler", session, check.status());
  run_errhandler(s->errhandler, &session, errorcode);
  return MPI_SUCCESS;  // the handler returned (MPI-4.0 9.5)
}
