#include "coll/collective.hpp"

#include "coll/selection.hpp"

namespace strata::coll {

Status Collective::create(Operation op, Args args, const Channel& channel, const std::string& forced,
                          std::unique_ptr<Collective>& out) {
  std::unique_ptr<Collective> c(new Collective);
  if (Status s = choose(op, args, forced, c->choice_); !s.ok()) return s;
  const Algorithm* algorithm = c->choice_.algorithm;
  c->args_ = args;  // as called: CommCache compares them with the next call's
  c->forced_ = forced;
  if (c->choice_.groups > 0) args.groups = c->choice_.groups;
  // Not checked: an intercommunicator's roots differ by side, a neighbourhood's peers by rank.
  if (call_check_enabled() && !args.inter && !neighbourhood(op)) {
    c->check_ = std::make_unique<CallCheck>(op, c->args_);
    Schedule built;
    algorithm->build(args, built);
    c->schedule_.append(built, {c->check_->build(c->schedule_)}, CallCheck::tag_count());
  } else {
    algorithm->build(args, c->schedule_);
  }
  if (c->schedule_.tags() > kTagsPerCollective)
    return strata::error(kErrIntern, std::string("internal: ") + operation_name(op) + " algorithm " +
                                         algorithm->name + " uses " + std::to_string(c->schedule_.tags()) +
                                         " tags, more than its block");
  c->port_ = std::make_unique<TransportPort>(channel);
  c->execution_ = std::make_unique<Execution>(c->schedule_, *c->port_);
  out = std::move(c);
  return Status::success();
}

void Collective::start(int tag_base, uint64_t run) {
  port_->set_run(tag_base, run);
  started_ = true;
  execution_->start();
}

}  // namespace strata::coll
