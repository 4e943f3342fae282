// The header that starts every Strata message on every channel.
//
//   Eager: header + payload (bytes <= the channel's eager limit). `sync` asks for an Ack once matched (MPI_Ssend).
//   Rts:   "I have `bytes` for you" (cookie = the sender's request, `data_tag` = the address of its bytes). The
//          receiver matches it like an eager message. On the same node it may read the bytes itself from the
//          sender's memory and answer Ack; otherwise it posts a tagged receive straight into the user buffer and
//          answers Cts.
//   Cts:   cookie echoed, `bytes` = what it accepts (less when truncating), `data_tag` = the tag to send the data on
//          (between ring peers: the receiver's request, which the Data records name).
//   Data:  between ring peers, one piece of a rendezvous after Cts: cookie = the receiver's request, `data_tag` = its
//          offset, `bytes` = its length. Ranks of one node share no fabric endpoint, so the ring carries the bytes.
//   Ack:   cookie echoed: a synchronous eager send was matched, or a rendezvous was read.
//   More:  between fabric peers, the next piece of an Eager message larger than one fabric message (its header says
//          the whole size): payload only, envelope and cookie as in the message. Nothing else from that peer comes
//          between the pieces of one message.
//   Cancel: MPI_Cancel of a send still waiting for its receiver (Rts, or a synchronous Eager): cookie = the sender's
//          request, envelope as in the message. The receiver takes the message out of its unexpected queue if it is
//          still there, and answers CancelReply with `bytes` = 1; else 0 (matched: the send completes as usual).
//   Credit: between fabric peers, only `credit`: the messages the receiver has taken from its provider (engine.hpp:
//          flow control), when it has no other message to carry them. Never counted itself, so credits never ask for
//          credits.
#pragma once
#include <cstdint>

namespace strata::transport {

enum class MsgKind : uint8_t { Eager = 1, Rts, Cts, Ack, Data, Cancel, CancelReply, More, Credit };

struct Header {
  MsgKind kind;
  uint8_t sync;
  uint16_t credit;    // between fabric peers: how many of its messages the sender has taken since it last said
  int32_t src_world;  // where replies go
  int32_t src_rank;   // the sender's rank in the communicator: what receives match on
  int32_t tag;
  uint32_t context;   // the communicator's context id
  uint32_t seq;       // per-peer order on channels that do not keep it themselves
  uint64_t bytes;
  uint64_t cookie;
  uint64_t data_tag;
};
static_assert(sizeof(Header) == 48);

// How many payload bytes follow the header.
inline uint64_t payload_bytes(const Header& h) {
  return h.kind == MsgKind::Eager || h.kind == MsgKind::Data ? h.bytes : 0;
}

}  // namespace strata::transport
