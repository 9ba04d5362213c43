#include "ingest/arena_blocks.h"

#include <bit>
#include <new>

namespace lqe::gateway::ingest {
namespace {

// The power of two of n's class: 2^k for every n in (2^(k-1) + kSlack, 2^k + kSlack].
std::size_t ClassOf(std::size_t n) {
  return std::bit_ceil(n - ArenaBlocks::kSlack);
}

// Decided by the class, so the sizes an arena asks and gives back for one block agree.
bool Kept(std::size_t n) {
  if (n <= ArenaBlocks::kSlack || n > ArenaBlocks::kMaxBlock + ArenaBlocks::kSlack) return false;
  const std::size_t size = ClassOf(n);
  return size >= ArenaBlocks::kMinBlock && size <= ArenaBlocks::kMaxBlock;
}

}  // namespace

std::size_t ArenaBlocks::BlockSize(std::size_t n) {
  return Kept(n) ? ClassOf(n) + kSlack : n;
}

ArenaBlocks& ArenaBlocks::Shared() {
  static ArenaBlocks* const blocks = new ArenaBlocks();  // never destroyed: used until exit
  return *blocks;
}

void* ArenaBlocks::Take(std::size_t n) {
  if (Kept(n)) {
    const auto index = static_cast<std::size_t>(std::countr_zero(ClassOf(n)));
    std::lock_guard lock(mutex_);
    if (index < by_class_.size() && !by_class_[index].empty()) {
      void* block = by_class_[index].back();
      by_class_[index].pop_back();
      kept_bytes_ -= BlockSize(n);
      return block;
    }
  }
  return ::operator new(BlockSize(n));
}

void ArenaBlocks::Give(void* block, std::size_t n) {
  if (Kept(n)) {
    const auto index = static_cast<std::size_t>(std::countr_zero(ClassOf(n)));
    std::lock_guard lock(mutex_);
    if (kept_bytes_ + BlockSize(n) <= kMaxKeptBytes) {
      if (index >= by_class_.size()) by_class_.resize(index + 1);
      by_class_[index].push_back(block);
      kept_bytes_ += BlockSize(n);
      return;
    }
  }
  ::operator delete(block);
}

std::size_t ArenaBlocks::KeptBytes() {
  std::lock_guard lock(mutex_);
  return kept_bytes_;
}

}  // namespace lqe::gateway::ingest
