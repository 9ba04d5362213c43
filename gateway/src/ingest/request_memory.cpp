#include "ingest/request_memory.h"

#include <algorithm>
#include <new>

namespace lqe::gateway::ingest {

// The first block holds the whole body's tree for most requests (the tree is about as large as
// the JSON text); later blocks grow geometrically.
RequestMemory::RequestMemory(std::size_t expected_bytes)
    : arena_(std::max<std::size_t>(expected_bytes, 4096), boost::json::storage_ptr(&upstream_)) {}

boost::json::storage_ptr RequestMemory::Storage() {
  return boost::json::storage_ptr(this);
}

void* RequestMemory::Counted::do_allocate(std::size_t n, std::size_t align) {
  void* p = ::operator new(n, std::align_val_t(align));
  bytes += n;
  return p;
}

void RequestMemory::Counted::do_deallocate(void* p, std::size_t n, std::size_t align) {
  ::operator delete(p, std::align_val_t(align));
  bytes -= n;
}

}  // namespace lqe::gateway::ingest
