// The messages of one-sided communication between an origin and a target (rma/channel.hpp). Every message from an
// origin to a target travels on the window's point-to-point context with tag kRequestTag, so the transport's
// non-overtaking order (MPI-4.0 3.5) keeps an origin's operations, unlock, flush and complete in the order it
// issued them. Answers (data of a get, a lock grant, an acknowledgement) come back with a tag the origin chose
// for that one request, so it can post their receives straight into its buffers. A large put's or accumulate's
// data goes the other way, from the origin to the target, in a message of its own with a tag the origin chose from
// a range of its own: each process numbers its tags by itself, and a process is the origin of some operations and
// the target of others on one window, so a data tag taken from the answers' range would match an answer the
// target waits for from the same process (a put's data landing in the target's own get).
#pragma once
#include <cstdint>

namespace strata::rma {

constexpr int kRequestTag = 0;
constexpr int kFirstAnswerTag = 1;
constexpr int kLastAnswerTag = (1 << 29) - 1;
constexpr int kFirstDataTag = 1 << 29;
constexpr int kLastDataTag = (1 << 30) - 1;

enum class Kind : std::uint8_t {
  Put,            // + target type + packed data, or its data in a message of its own (data_tag)
  Get,            // + target type; answer: the packed data
  Accumulate,     // + target type + packed data, or its data in a message of its own (data_tag)
  GetAccumulate,  // + target type + packed data; answer: the old packed data
  CompareSwap,    // + target type + compare value + new value; answer: the old value
  Lock,           // answer (empty) when granted
  Unlock,         // answer (empty) once the lock is released, after every operation before it
  Flush,          // answer (empty) after every operation before it
  Post,           // target -> origin: the target's exposure epoch is open to it (MPI_Win_post)
  Complete,       // the origin's access epoch to this target ended (MPI_Win_complete)
};

struct RequestHeader {
  Kind kind;
  std::uint8_t exclusive;  // Lock: 1 for MPI_LOCK_EXCLUSIVE
  std::uint16_t unused = 0;
  std::int32_t op;           // Accumulate, GetAccumulate: the operator (datatype::OpKind)
  std::int32_t answer_tag;   // where an answer goes; 0 when none is due
  std::int32_t data_tag = 0;  // Put, Accumulate: the tag of its data's own message; 0 when it follows the header
  std::int64_t disp;    // target displacement, in the target's disp_unit (absolute address on dynamic windows)
  std::uint64_t count;  // of the target type
};

}  // namespace strata::rma
