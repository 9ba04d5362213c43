// The memory of one ingest request's JSON (the parsed body and the events formed from it): one
// arena, so parsing and forming allocate no node on its own and the whole request is freed at
// once when it is answered, and its size is known, so the queue counts the bytes it really holds.
#pragma once

#include <boost/json/memory_resource.hpp>
#include <boost/json/monotonic_resource.hpp>
#include <boost/json/storage_ptr.hpp>
#include <cstddef>

namespace lqe::gateway::ingest {

class RequestMemory final : public boost::json::memory_resource {
 public:
  // expected_bytes: the first block's size (the body's size is a good guess).
  explicit RequestMemory(std::size_t expected_bytes);
  // The bytes the arena took from the heap so far.
  std::size_t Bytes() const { return upstream_.bytes; }

  // The storage for values made in the arena. It does not own the arena: every such value must
  // be gone (or never used again) before the arena is. In return no value made in it is taken
  // apart node by node when it dies, and copying the storage costs no reference count.
  boost::json::storage_ptr Storage();

 private:
  // The heap, counted.
  class Counted final : public boost::json::memory_resource {
   public:
    std::size_t bytes = 0;

   private:
    void* do_allocate(std::size_t n, std::size_t align) override;
    void do_deallocate(void* p, std::size_t n, std::size_t align) override;
    bool do_is_equal(const memory_resource& other) const noexcept override {
      return this == &other;
    }
  };

  void* do_allocate(std::size_t n, std::size_t align) override { return arena_.allocate(n, align); }
  void do_deallocate(void* /*p*/, std::size_t /*n*/, std::size_t /*align*/) override {}
  bool do_is_equal(const memory_resource& other) const noexcept override { return this == &other; }

  Counted upstream_;  // first: the arena hands its blocks back to it
  boost::json::monotonic_resource arena_;
};

}  // namespace lqe::gateway::ingest

// Freeing inside the arena does nothing, so Boost.JSON may skip destroying its values.
template <>
struct boost::json::is_deallocate_trivial<lqe::gateway::ingest::RequestMemory> {
  static constexpr bool value = true;
};
