// The RMA communication calls on a window (MPI-4.0 12.3-12.4): the checks only the window can make (an access
// epoch covers the target: MPI_ERR_RMA_SYNC; the access lies inside the target's window: MPI_ERR_RMA_RANGE), then
// the operation is done by loads and stores where the window is mapped (rma/direct.hpp), else goes out on the
// window's channel (rma/channel.hpp). A direct get's answer is complete at once (`answer` stays null). Dynamic
// windows' ranges are checked at the target, which alone knows what is attached.
#pragma once
#include "rma/window.hpp"

namespace strata::rma {

// `answer` (put, accumulate): complete once the origin's buffer may be reused (MPI_Rput, MPI_Raccumulate), null
// when it may be at once.
Status put(Window& w, const OriginBuffer& origin, const TargetAccess& at, Answer* answer = nullptr);
Status get(Window& w, const OriginBuffer& origin, const TargetAccess& at, Answer* answer = nullptr);
Status accumulate(Window& w, const OriginBuffer& origin, const TargetAccess& at, int op, Answer* answer = nullptr);
Status get_accumulate(Window& w, const OriginBuffer& origin, const OriginBuffer& result, const TargetAccess& at,
                      int op, Answer* answer = nullptr);
Status compare_swap(Window& w, const void* origin, const void* compare, const OriginBuffer& result,
                    const TargetAccess& at);

}  // namespace strata::rma
