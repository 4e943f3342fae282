#include "tools/mpiexec/node_machine.hpp"

namespace strata::mpiexec {

void load_node_machine(const TopologySpec& spec, topo::Machine& out) {
  Status status;
  switch (spec.kind) {
    case TopologySpec::Kind::real:
      status = topo::Machine::discover(out);
      if (!status.ok()) throw std::runtime_error(status.message);
      return;
    case TopologySpec::Kind::synthetic: status = topo::Machine::from_synthetic(spec.text, out); break;
    case TopologySpec::Kind::xml: status = topo::Machine::from_xml_file(spec.text, out); break;
  }
  // topo's messages already name the description or the file ("invalid synthetic topology \"pack:x\"").
  if (!status.ok()) throw UsageError("--topology: " + status.message);
  if (out.pu_count() == 0) throw UsageError("--topology: the machine has no PUs");
}

}  // namespace strata::mpiexec
