#include "ingest/request_memory.h"

#include <algorithm>
#include <new>

#include "ingest/arena_blocks.h"

namespace lqe::gateway::ingest {

// The first block holds the whole body's tree for most requests (the tree is about as large as
// the JSON text); later blocks grow geometrically.
RequestMemory::RequestMemory(std::size_t expected_bytes)
    : arena_(std::max<std::size_t>(expected_bytes, 4096), boost::json::storage_ptr(&upstream_)) {}

boost::json::storage_ptr RequestMemory::Storage() {
  return boost::json::storage_ptr(this);
}

// Blocks come from the kept set (arena_blocks.h); an alignment the heap does not give by itself
// (never asked by Boost.JSON) goes to the heap directly.
void* RequestMemory::Counted::do_allocate(std::size_t n, std::size_t align) {
  if (align > __STDCPP_DEFAULT_NEW_ALIGNMENT__) {
    bytes += n;
    return ::operator new(n, std::align_val_t(align));
  }
  bytes += ArenaBlocks::BlockSize(n);
  return ArenaBlocks::Shared().Take(n);
}

void RequestMemory::Counted::do_deallocate(void* p, std::size_t n, std::size_t align) {
  if (align > __STDCPP_DEFAULT_NEW_ALIGNMENT__) {
    bytes -= n;
    ::operator delete(p, std::align_val_t(align));
    return;
  }
  bytes -= ArenaBlocks::BlockSize(n);
  ArenaBlocks::Shared().Give(p, n);
}

}  // namespace lqe::gateway::ingest
