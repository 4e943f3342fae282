// One-sided communication by messages (MPI-4.0 12.3-12.5) for windows whose memory other processes can not map:
// MPI_Win_create, MPI_Win_allocate and MPI_Win_create_dynamic (and the RMA calls on shared windows, which reach
// the same code). The origin sends each operation to the target as one message (rma/wire.hpp), except that a put
// or an accumulate of 8 KiB or more sends its data as a second message, straight from the origin's buffer, which
// the target receives straight into its memory (a put) or into scratch (an accumulate); the target applies them in
// its progress engine, in the order each origin issued them (an operation whose data is still arriving holds back
// the requests after it), so accumulates are atomic per element with no locking (one process applies them all) and
// the memory model is the unified one.
//
// Progress: the target applies operations whenever it is inside any MPI call that drives progress (a wait, a test,
// a collective, a window synchronisation). Passive-target operations on a process that stays outside MPI wait
// until it calls MPI again, as in MPICH and Open MPI without an asynchronous progress thread.
//
// Completion:
//   - fence: every process waits for its own answers, the processes exchange how many operations each sent to
//     each target, and every target waits until it has applied that many from each origin (the window's barrier
//     then closes the epoch);
//   - lock / unlock: a Lock request waits for the target's grant (rma/lock_queue.hpp); Unlock and Flush are
//     answered once every earlier operation of the origin has been applied;
//   - post / start / complete / wait: Post goes from the target to each origin, Complete from each origin to the
//     target after its operations.
#pragma once
#include <cstdint>
#include <deque>
#include <memory>
#include <vector>

#include "comm/communicator.hpp"
#include "datatype/datatype.hpp"
#include "rma/lock_queue.hpp"
#include "rma/wire.hpp"
#include "transport/request.hpp"

namespace strata::rma {

// Where this process's window memory is: a base, a size and a displacement unit, or, for a dynamic window,
// the regions attached to it (target displacements are then addresses).
struct TargetMemory {
  char* base = nullptr;
  std::size_t size = 0;
  int disp_unit = 1;
  bool dynamic = false;
  std::vector<std::pair<std::uintptr_t, std::size_t>> attached;  // dynamic: (address, bytes)
};

// An origin buffer: `count` elements of `type` at `buf`.
struct OriginBuffer {
  const void* buf;
  std::size_t count;
  datatype::TypeRef type;
};

// The target side of one operation.
struct TargetAccess {
  int target;  // rank in the window
  std::int64_t disp;
  std::size_t count;
  const datatype::Datatype* type;
};

// An operation's answer (the data of a get), complete when it has arrived, or a put's or an accumulate's data sent
// in a message of its own, complete when it has left: request-based operations' requests watch it.
using Answer = std::shared_ptr<transport::Request>;

class Channel {
 public:
  // `c` is the window's private communicator: its point-to-point context carries the operations, its collective
  // context the fence's exchange. `operations`: RMA operations come this way (not on a mapped window, where only
  // post / start / complete / wait use the channel, with small messages).
  Channel(const comm::Communicator& c, TargetMemory memory, bool operations);
  ~Channel();
  Channel(const Channel&) = delete;
  Channel& operator=(const Channel&) = delete;

  TargetMemory& memory() { return memory_; }
  // Waits until no operation's data is landing in `region` (address, bytes): MPI_Win_detach.
  void finish_landing(std::pair<std::uintptr_t, std::size_t> region);

  // Origin side. The caller has checked the arguments and that an epoch covers the target.
  // A put's or an accumulate's answer is its data's own message (kSeparateDataBytes), complete once the buffer may
  // be reused; null when the data went out with the request.
  Answer put(const OriginBuffer& origin, const TargetAccess& at);
  Answer get(const OriginBuffer& origin, const TargetAccess& at);
  Answer accumulate(const OriginBuffer& origin, const TargetAccess& at, int op);
  // MPI_NO_OP sends no data: `origin.count` is 0 then.
  Answer get_accumulate(const OriginBuffer& origin, const OriginBuffer& result, const TargetAccess& at, int op);
  Answer compare_swap(const void* origin, const void* compare, const OriginBuffer& result, const TargetAccess& at);

  // Synchronisation (blocking; each drives progress while it waits).
  // Lock, Unlock or Flush to each of `targets` at once, then every answer: granted, released, or every earlier
  // operation to them complete at origin and target.
  void lock(const std::vector<int>& targets, bool exclusive);
  void unlock(const std::vector<int>& targets);
  void flush(const std::vector<int>& targets);
  void fence();  // the message part of MPI_Win_fence; the caller's barrier follows
  void post(const std::vector<int>& origins);
  void start(const std::vector<int>& targets);      // waits for their posts
  void complete(const std::vector<int>& targets);   // sends Complete, waits for answers
  bool completed(const std::vector<int>& origins);  // MPI_Win_test: every origin's Complete arrived (consumed then)
  void wait_completed(const std::vector<int>& origins);

 private:
  struct Message {  // a request or an answer in flight, as bytes
    transport::Request request;
    std::vector<char> bytes;
  };
  struct Pending {  // an answer this origin waits for
    int target;
    Answer request;
  };

  static bool poll(void*);             // the one poller of every channel
  static void on_arrival(void* self);  // the transport's Watcher of our context
  void list_busy();                    // requests to apply or sends to finish: the poller visits us until done
  bool sends_done();                   // drops the completed sends from outgoing_; true when none is left
  bool take_requests();
  bool apply_arrived();
  bool landed();  // no operation's data is still arriving (one whose data has arrived is applied then)
  static bool ends_access(const Message& m);  // an Unlock or a Complete
  bool answers_leaving(int origin) const;  // a send of ours to `origin` is not complete yet
  void apply(int origin, const char* bytes, std::size_t len);
  // False while the operation is not complete: its data is still arriving (land).
  bool apply_operation(int origin, const RequestHeader& h, const char* rest, std::size_t len);
  char* target_address(const RequestHeader& h, const datatype::Datatype& type) const;

  static std::vector<char> request_bytes(const RequestHeader& h, const TargetAccess* at, const OriginBuffer* data);
  void send(int to, std::vector<char> bytes, int tag);
  // A get's answer, straight from the window's memory (`count` elements of `type` at `addr`), without a packed copy:
  // 4*10^4 gets of 128 KiB in a row held 5 GB of copies waiting for the network. Safe because the origin's
  // synchronization (flush, unlock, complete, fence) waits for the answer, and no process may change those bytes
  // before it has synchronized with the origin (MPI-4.0 12.7). The messages that end the origin's access here (Unlock,
  // whose lock may pass on, and Complete, which MPI_Win_wait waits for) come before the origin has its answers: they
  // wait here until the answers have left (apply_arrived).
  void send_from(int to, char* addr, std::size_t count, datatype::TypeRef type, int tag);
  void start_send(int to, std::unique_ptr<Message> out);
  // A transport request over m's bytes, on this window's context; `rank`: ours for a send, the source for a receive.
  void bytes_request(Message& m, transport::RequestKind kind, int tag, int rank) const;
  Answer expect_answer(int target, void* buf, std::size_t count, datatype::TypeRef type, int tag);
  // A put or an accumulate: its request with the data packed behind it, or, from kSeparateDataBytes, followed by the
  // data in a message of its own (send_data).
  Answer send_with_data(Kind kind, int op, const OriginBuffer& origin, const TargetAccess& at);
  // A put's or an accumulate's data straight from the origin's buffer, watched like an answer (the synchronisation
  // calls wait for it).
  Answer send_data(int target, const OriginBuffer& data, int tag);
  // The target's receive of a put's or an accumulate's data: a put's straight into `addr`, an accumulate's into
  // scratch, applied once complete (addr nullptr: an access outside a dynamic window's memory, whose bytes are
  // dropped); the requests after it wait until it has landed.
  void land(int origin, const RequestHeader& h, char* addr, datatype::TypeRef type);
  int next_answer_tag();
  int next_data_tag();
  void await_answers(int target);  // -1: all targets
  void request_each(const std::vector<int>& targets, Kind kind, bool exclusive);
  bool all_completed(const std::vector<int>& origins) const;  // each origin's Complete arrived

  const comm::Communicator& comm_;
  TargetMemory memory_;
  bool operations_;
  bool listed_arrived_ = false;  // in the poller's list of channels told of an arrival
  bool listed_busy_ = false;     // in its list of channels with requests to apply or sends to finish
  std::deque<std::unique_ptr<Message>> incoming_;  // requests in arrival order, applied from the front
  std::deque<std::unique_ptr<Message>> outgoing_;  // sends not yet complete
  struct Landing {  // the receive of a put's or an accumulate's data, until it completes
    Message message;
    int origin;
    RequestHeader header;
    char* addr;
    datatype::TypeRef type;
  };
  std::unique_ptr<Landing> landing_;
  std::vector<Pending> pending_;
  std::uint64_t pending_erasures_ = 0;  // times await_answers erased from pending_
  int answer_tag_ = kFirstAnswerTag;
  int data_tag_ = kFirstDataTag;
  std::vector<std::uint64_t> sent_to_;       // operations sent to each target, ever
  std::vector<std::uint64_t> applied_from_;  // operations applied from each origin, ever
  std::vector<int> posts_from_;              // Post messages arrived from each target, not yet consumed
  std::vector<int> completes_from_;          // Complete messages arrived from each origin, not yet consumed
  LockQueue lock_;
};

}  // namespace strata::rma
