// Large blocks of finished requests' arenas, kept for the next requests: a fresh block from the
// heap is fresh pages from the kernel, a page fault per 4 KB the parser touches. Bounded, so the
// gateway's memory stays what the queue allows plus kMaxKeptBytes.
#pragma once

#include <cstddef>
#include <mutex>
#include <vector>

namespace lqe::gateway::ingest {

class ArenaBlocks {
 public:
  static constexpr std::size_t kMinBlock = std::size_t{64} << 10;  // smaller: the heap does well
  static constexpr std::size_t kMaxBlock = std::size_t{32} << 20;  // larger: rare, not kept
  static constexpr std::size_t kMaxKeptBytes = std::size_t{64} << 20;
  // An arena asks for a power of two plus its block header, and gives back the power of two: a
  // class is a power of two, and its blocks have this much more room.
  static constexpr std::size_t kSlack = 64;

  // The size a block for n bytes is made with (n when it is not kept).
  static std::size_t BlockSize(std::size_t n);

  // The process-wide set.
  static ArenaBlocks& Shared();

  // A block of BlockSize(n) bytes, kept or new.
  void* Take(std::size_t n);
  // Gives back a block from Take(n); kept unless the set is full.
  void Give(void* block, std::size_t n);
  std::size_t KeptBytes();

 private:
  std::mutex mutex_;
  std::vector<std::vector<void*>> by_class_;  // index: log2 of the class
  std::size_t kept_bytes_ = 0;
};

}  // namespace lqe::gateway::ingest
