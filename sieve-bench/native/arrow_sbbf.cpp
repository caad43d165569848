// The split-block rows: Apache Arrow's Parquet split-block Bloom check on a filter laid out as the
// Parquet format specifies it (256-bit blocks of eight 32-bit words, one bit per word from the
// spec's eight salts, the block chosen by multiply-shift of the hash's upper half).
//
// What is Arrow's: the block checks, parquet::internal::FindHashBlockAvx2 (its own translation
// unit, cpp/src/parquet/bloom_filter_avx2.cc, compiled unmodified by native-anchors.sh and linked,
// so each lookup calls it out of line as Arrow's dispatch does) and FindHashBlockImpl (the portable
// check Arrow falls back to without AVX2, an inline function of its header). What is this file's:
// the block array, the insert and the block index, written from the format's description, as
// Arrow's filter class needs Arrow's memory pool and I/O library to build.
//
// Arrow takes hashes, not values, so the keys are used as the hashes (they are uniformly random
// 64-bit words). The filter holds ceil(n * bits_per_key / 256) blocks: the check works on any block
// count, where Arrow's own sizing would round the bitset up to a power of two and so give these
// rows a different bits/key from the other anchors'.
//
// C++20: Arrow's headers use std::span.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <span>

#include "anchor_common.h"
#include "parquet/bloom_filter_avx2_internal.h"
#include "parquet/bloom_filter_block_impl_internal.h"

namespace anchor {
namespace {

constexpr int kWords = parquet::BlockSplitBloomFilter::kBitsSetPerBlock;

// The Parquet format's salts, one per word of a block.
alignas(32) constexpr std::uint32_t kSalt[kWords] = {0x47b6137bU, 0x44974d91U, 0x8824ad5bU,
                                                     0xa2b7289dU, 0x705495c7U, 0x2df1424bU,
                                                     0x9efc4947U, 0x5c6bfb31U};

using Block = std::span<const std::uint32_t, kWords>;
using Check = bool (*)(Block, Block, std::uint32_t);

struct FreeDeleter {
  void operator()(std::uint32_t* p) const { std::free(p); }
};

class SplitBlock {
 public:
  SplitBlock(std::size_t n, double bits_per_key)
      : blocks_(static_cast<std::uint32_t>(
            std::ceil(static_cast<double>(n) * bits_per_key / (kWords * 32)))) {
    const std::size_t bytes = static_cast<std::size_t>(blocks_) * kWords * 4;
    words_.reset(static_cast<std::uint32_t*>(std::aligned_alloc(64, (bytes + 63) / 64 * 64)));
    if (!words_) throw std::bad_alloc();
    std::fill(words_.get(), words_.get() + static_cast<std::size_t>(blocks_) * kWords, 0u);
  }

  void Insert(std::uint64_t hash) {
    std::uint32_t* block = BlockOf(hash);
    const auto key = static_cast<std::uint32_t>(hash);
    for (int i = 0; i < kWords; i++) block[i] |= std::uint32_t{1} << ((key * kSalt[i]) >> 27);
  }

  template <Check check>
  bool Find(std::uint64_t hash) const {
    return check(Block(BlockOf(hash), kWords), Block(kSalt, kWords), static_cast<std::uint32_t>(hash));
  }

  double BitsPerKey(std::size_t n) const {
    return static_cast<double>(blocks_) * kWords * 32 / static_cast<double>(n);
  }

 private:
  std::uint32_t* BlockOf(std::uint64_t hash) const {
    const auto index = static_cast<std::uint32_t>(((hash >> 32) * blocks_) >> 32);
    return words_.get() + static_cast<std::size_t>(index) * kWords;
  }

  std::uint32_t blocks_;
  std::unique_ptr<std::uint32_t[], FreeDeleter> words_;
};

template <Check check>
std::size_t Lookups(const SplitBlock& f, const std::vector<std::uint64_t>& stream) {
  std::size_t hits = 0;
  for (std::uint64_t hash : stream) hits += f.Find<check>(hash);
  return hits;
}

template <Check check>
void TimeRow(const char* anchor, const SplitBlock& f, const Workload& w, const Options& o,
             std::uint64_t& sink) {
  for (std::uint64_t key : w.keys) {
    if (!f.Find<check>(key)) FalseNegative(anchor, key);
  }
  auto pass = [&f](const std::vector<std::uint64_t>& s) { return Lookups<check>(f, s); };
  const double fpr = static_cast<double>(pass(w.absent)) / static_cast<double>(w.absent.size());
  const double negative = NsPerLookup(pass, w.absent, o.warmups, o.reps, sink);
  const double positive = NsPerLookup(pass, w.present, o.warmups, o.reps, sink);
  const std::size_t n = w.keys.size();
  PrintRow(anchor, n, f.BitsPerKey(n), negative, positive, fpr);
}

}  // namespace

void RunArrowRows(const Workload& w, const Options& o, std::uint64_t& sink) {
  SplitBlock f(w.keys.size(), o.bits_per_key);
  for (std::uint64_t key : w.keys) f.Insert(key);
  // Arrow's two checks read the same layout, so they must agree on every query.
  for (std::uint64_t hash : w.absent) {
    if (f.Find<parquet::internal::FindHashBlockAvx2>(hash) !=
        f.Find<parquet::internal::FindHashBlockImpl>(hash)) {
      std::fprintf(stderr, "arrow-sbbf: the AVX2 and portable checks disagree on hash %llu\n",
                   static_cast<unsigned long long>(hash));
      std::exit(2);
    }
  }
  TimeRow<parquet::internal::FindHashBlockAvx2>("arrow-sbbf-avx2", f, w, o, sink);
  TimeRow<parquet::internal::FindHashBlockImpl>("arrow-sbbf-scalar", f, w, o, sink);
}

}  // namespace anchor
