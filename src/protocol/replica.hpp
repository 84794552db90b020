#pragma once
// Changes that cross nodes. A cluster's nodes each hold their own registry:
// items with code (a tool's handler, a resource's reader) are registered on
// every node by the application, but a resource whose contents are plain
// data can be recreated anywhere from its JSON, and a removal needs no code.
// The node that made a change logs its replica beside it; every other node
// applies the replica when it reads the change from the log.
#include "cafmcp/json.hpp"

#include "protocol/mutation.hpp"

namespace cafmcp::protocol {

/// The replica of an applied mutation, read from the registry after it:
/// {"put": resource with contents} for a data-only resource added, changed
/// or given new contents; {"remove": {"kind", "key"}} for any removal;
/// null when the change was to an item with code, which cannot cross.
json replica_of(const registry& reg, const mutation_effect& effect);

/// Makes the same change here. Its effect is returned for its `applied`
/// and `problem`; what to announce is the origin's (the logged change), so
/// every node sends the same notifications. Throws nothing: a replica that
/// is not one answers applied=false.
mutation_effect apply_replica(registry& reg, const json& replica);

} // namespace cafmcp::protocol
