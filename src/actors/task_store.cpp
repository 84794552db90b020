#include "actors/task_store.hpp"

namespace cafmcp::actors {

jsonrpc::error too_many_tasks(std::size_t limit) {
  return {jsonrpc::code::internal_error,
          "Too many tasks on this server (limit " + std::to_string(limit) + "): wait for some to expire",
          std::nullopt};
}

jsonrpc::error too_many_tasks_of_owner(std::size_t limit) {
  return {jsonrpc::code::internal_error,
          "Too many tasks for this client (limit " + std::to_string(limit) + "): wait for some to expire",
          std::nullopt};
}

} // namespace cafmcp::actors
