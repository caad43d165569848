// The workload, timing and CSV output shared by the native anchors' translation units.
//
// The keys are the JMH benchmarks' keys: dev.sieve.bench.Workload draws them with
// java.util.SplittableRandom from the same seed, and Rng below reproduces that generator (SplitMix64
// with the golden-ratio gamma, its 64-bit and 32-bit finalizers and its rejection loop for a bounded
// int), so a native row and a JMH row with the same n and seed look up the same keys in the same
// order. Standard C++17; no dependency beyond the standard library.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

namespace anchor {

// java.util.SplittableRandom's default gamma (the odd integer nearest 2^64 / phi).
constexpr std::uint64_t kGoldenGamma = 0x9E3779B97F4A7C15ULL;

class Rng {
 public:
  explicit Rng(std::uint64_t seed) : seed_(seed) {}

  std::uint64_t NextLong() { return Mix64(NextSeed()); }

  std::int32_t NextInt() { return Mix32(NextSeed()); }

  // Uniform in [0, bound): the low bits for a power of two, otherwise the largest multiple of bound
  // below 2^31 bounds the accepted draws, so no residue is favoured.
  std::int32_t NextInt(std::int32_t bound) {
    if (bound <= 0) throw std::invalid_argument("bound must be positive, got " + std::to_string(bound));
    std::int32_t r = NextInt();
    const std::int32_t m = bound - 1;
    if ((bound & m) == 0) return r & m;
    std::int32_t u = static_cast<std::int32_t>(static_cast<std::uint32_t>(r) >> 1);
    while (true) {
      r = u % bound;
      // Java's int arithmetic wraps; do the sum in unsigned and read it back as signed.
      const std::int32_t sum = static_cast<std::int32_t>(static_cast<std::uint32_t>(u) +
                                                         static_cast<std::uint32_t>(m) -
                                                         static_cast<std::uint32_t>(r));
      if (sum >= 0) return r;
      u = static_cast<std::int32_t>(static_cast<std::uint32_t>(NextInt()) >> 1);
    }
  }

 private:
  std::uint64_t NextSeed() { return seed_ += kGoldenGamma; }

  static std::uint64_t Mix64(std::uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }

  static std::int32_t Mix32(std::uint64_t z) {
    z = (z ^ (z >> 33)) * 0x62A9D9ED799705F5ULL;
    return static_cast<std::int32_t>(static_cast<std::uint32_t>(((z ^ (z >> 28)) * 0xCB24D0A5C88C35B3ULL) >> 32));
  }

  std::uint64_t seed_;
};

// The length of each query stream; the JMH benchmark's stream has the same length, so both read
// their queries sequentially from 8 MiB arrays.
constexpr std::size_t kQueryStream = std::size_t{1} << 20;
// Lookups handed to a filter at once (the JMH benchmark's batch), which matters for the bulk rows.
constexpr std::size_t kBatch = 1024;

struct Workload {
  std::vector<std::uint64_t> keys;     // n distinct keys, in generation order
  std::vector<std::uint64_t> present;  // kQueryStream keys drawn from keys, with replacement
  std::vector<std::uint64_t> absent;   // kQueryStream keys none of which is in keys
};

inline Workload MakeWorkload(std::size_t n, std::uint64_t seed) {
  if (n < 1 || n > 0x7FFFFFFFu) {
    throw std::invalid_argument("number of keys must be in [1, 2^31 - 1], got " + std::to_string(n));
  }
  Workload w;
  Rng rng(seed);
  w.keys.resize(n);
  for (auto& k : w.keys) k = rng.NextLong();
  std::vector<std::uint64_t> sorted = w.keys;
  auto signed_less = [](std::uint64_t a, std::uint64_t b) {
    return static_cast<std::int64_t>(a) < static_cast<std::int64_t>(b);
  };
  std::sort(sorted.begin(), sorted.end(), signed_less);
  // A duplicate (about one chance in 10^5 at n = 10^7) is replaced by a fresh draw, in the order the
  // Java workload replaces it, so the two key sets stay equal.
  for (bool again = true; again;) {
    again = false;
    for (std::size_t i = 1; i < n; i++) {
      if (sorted[i] != sorted[i - 1]) continue;
      const std::uint64_t fresh = rng.NextLong();
      *std::find(w.keys.begin(), w.keys.end(), sorted[i]) = fresh;
      again = true;
    }
    if (again) {
      sorted = w.keys;
      std::sort(sorted.begin(), sorted.end(), signed_less);
    }
  }
  Rng pick(seed ^ 0x90517173ULL);
  w.present.resize(kQueryStream);
  for (auto& q : w.present) q = w.keys[pick.NextInt(static_cast<std::int32_t>(n))];
  // The JMH workload's absent stream number 1.
  Rng fresh(seed * kGoldenGamma + 1 + 1);
  w.absent.resize(kQueryStream);
  for (auto& q : w.absent) {
    do {
      q = fresh.NextLong();
    } while (std::binary_search(sorted.begin(), sorted.end(), q, signed_less));
  }
  return w;
}

// Nanoseconds per lookup of one pass over a query stream, as the median of `reps` timed passes
// after `warmups` untimed ones. `pass` returns the number of "maybe" answers, which is folded into
// `sink` so the compiler cannot drop the lookups.
template <typename Pass>
double NsPerLookup(Pass&& pass, const std::vector<std::uint64_t>& stream, int warmups, int reps,
                   std::uint64_t& sink) {
  for (int i = 0; i < warmups; i++) sink += pass(stream);
  std::vector<double> ns(static_cast<std::size_t>(reps));
  for (auto& t : ns) {
    const auto start = std::chrono::steady_clock::now();
    sink += pass(stream);
    const auto stop = std::chrono::steady_clock::now();
    t = std::chrono::duration<double, std::nano>(stop - start).count() / static_cast<double>(stream.size());
  }
  std::nth_element(ns.begin(), ns.begin() + reps / 2, ns.end());
  return ns[static_cast<std::size_t>(reps / 2)];
}

struct Options {
  double bits_per_key = 10.0;
  int warmups = 3;
  int reps = 21;
};

// One CSV row: anchor,n,bits_per_key,ns_per_lookup_negative,ns_per_lookup_positive,fpr.
inline void PrintRow(const char* anchor, std::size_t n, double bits_per_key, double ns_negative,
                     double ns_positive, double fpr) {
  std::printf("%s,%zu,%.3f,%.3f,%.3f,%.6f\n", anchor, n, bits_per_key, ns_negative, ns_positive, fpr);
  std::fflush(stdout);
}

// Fails the run: a filter that answers "absent" for an added key is broken, and its timings are
// not worth printing.
[[noreturn]] inline void FalseNegative(const char* anchor, std::uint64_t key) {
  std::fprintf(stderr, "%s: false negative for added key %llu\n", anchor,
               static_cast<unsigned long long>(key));
  std::exit(2);
}

// The split-block rows, in their own translation unit (Arrow's headers need C++20).
void RunArrowRows(const Workload& w, const Options& o, std::uint64_t& sink);

}  // namespace anchor
