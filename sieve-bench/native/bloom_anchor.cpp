// Native anchors for the Bloom lookup benchmarks: Boost.Bloom's fast_multiblock32 filter and Apache
// Arrow's Parquet split-block check, timed on the JMH benchmarks' keys and query streams and printed
// as CSV (anchor,n,bits_per_key,ns_per_lookup_negative,ns_per_lookup_positive,fpr).
//
// Usage: bloom_anchor [--n 1000000,10000000] [--bits-per-key 10] [--reps 21] [--warmups 3]
//                     [--seed 0x51e7e2026] [--anchors boost,arrow]
//
// Each figure is the median over the timed passes of the nanoseconds per lookup of one pass over a
// 2^20-key query stream (present keys for the positive column, absent keys for the negative one),
// the lookups independent of each other like the JMH rows', so the CPU may overlap their memory
// accesses. The FPR is the share of the absent stream answered "maybe".
//
// Boost rows use boost::hash<std::uint64_t>, the filter's default, which Boost.Bloom mixes
// itself because that hash does not avalanche. Standard C++17.
//
// sieve-bench/scripts/native-anchors.sh builds and runs it from Boost, Arrow and xsimd source trees
// (none of which is part of this repository); docs/report.md says how to set its rows beside the
// JMH rows.
#include <boost/bloom/fast_multiblock32.hpp>
#include <boost/bloom/filter.hpp>

#include <cstdint>
#include <exception>
#include <sstream>
#include <string>
#include <vector>

#include "anchor_common.h"

namespace anchor {
namespace {

// K = 8 bits in one 256-bit block per key: the shape of Parquet's split block and of Sieve's
// split-block filter, so the rows differ in code, not in layout.
using BoostFilter = boost::bloom::filter<std::uint64_t, 1, boost::bloom::fast_multiblock32<8>>;

std::size_t SingleLookups(const BoostFilter& f, const std::vector<std::uint64_t>& stream) {
  std::size_t hits = 0;
  for (std::uint64_t key : stream) hits += f.may_contain(key);
  return hits;
}

// The bulk API in runs of kBatch keys, as the JMH rows hand their batch APIs a run at a time.
std::size_t BulkLookups(const BoostFilter& f, const std::vector<std::uint64_t>& stream) {
  std::size_t hits = 0;
  for (std::size_t at = 0; at < stream.size(); at += kBatch) {
    const auto first = stream.begin() + static_cast<std::ptrdiff_t>(at);
    f.may_contain(first, first + static_cast<std::ptrdiff_t>(kBatch),
                  [&hits](std::uint64_t, bool maybe) { hits += maybe; });
  }
  return hits;
}

template <typename Pass>
void TimeRow(const char* anchor, const BoostFilter& f, Pass pass, const Workload& w,
             const Options& o, std::uint64_t& sink) {
  if (pass(f, w.present) != w.present.size()) {
    for (std::uint64_t key : w.present) {
      if (!f.may_contain(key)) FalseNegative(anchor, key);
    }
    // every single lookup said "maybe", so the pass itself lost a key
    std::fprintf(stderr, "%s: the lookups answered \"absent\" for an added key\n", anchor);
    std::exit(2);
  }
  const double fpr = static_cast<double>(pass(f, w.absent)) / static_cast<double>(w.absent.size());
  auto bound = [&f, &pass](const std::vector<std::uint64_t>& s) { return pass(f, s); };
  const double negative = NsPerLookup(bound, w.absent, o.warmups, o.reps, sink);
  const double positive = NsPerLookup(bound, w.present, o.warmups, o.reps, sink);
  const std::size_t n = w.keys.size();
  PrintRow(anchor, n, static_cast<double>(f.capacity()) / static_cast<double>(n), negative, positive,
           fpr);
}

void RunBoostRows(const Workload& w, const Options& o, std::uint64_t& sink) {
  const std::size_t n = w.keys.size();
  BoostFilter f(static_cast<std::size_t>(static_cast<double>(n) * o.bits_per_key));
  for (std::uint64_t key : w.keys) f.insert(key);
  for (std::uint64_t key : w.keys) {
    if (!f.may_contain(key)) FalseNegative("boost-fast-multiblock32-8", key);
  }
  TimeRow("boost-fast-multiblock32-8", f, SingleLookups, w, o, sink);
  TimeRow("boost-fast-multiblock32-8-bulk", f, BulkLookups, w, o, sink);
}

// A flag's value as a number in [lo, hi]; anything else (trailing text included) names the flag.
template <typename T>
T ParseNumber(const std::string& flag, const std::string& text, T lo, T hi) {
  std::istringstream in(text);
  T v{};
  if (text.rfind("0x", 0) == 0 || text.rfind("0X", 0) == 0) in >> std::hex;
  in >> v;
  if (text.empty() || in.fail() || !in.eof() || v < lo || v > hi) {
    std::ostringstream why;
    why << flag << " must be a number in [" << lo << ", " << hi << "], got '" << text << "'";
    throw std::invalid_argument(why.str());
  }
  return v;
}

std::vector<std::string> Split(const std::string& list) {
  std::vector<std::string> items;
  std::istringstream in(list);
  for (std::string item; std::getline(in, item, ',');) items.push_back(item);
  return items;
}

int Main(int argc, char** argv) {
  Options o;
  std::vector<std::size_t> sizes = {1000000, 10000000};
  std::uint64_t seed = 0x51e7e2026ULL;  // the JMH workload's default seed
  bool boost = true, arrow = true;
  for (int i = 1; i < argc; i++) {
    const std::string flag = argv[i];
    if (i + 1 >= argc) throw std::invalid_argument("flag " + flag + " needs a value");
    const std::string value = argv[++i];
    if (flag == "--n") {
      sizes.clear();
      for (const std::string& item : Split(value)) {
        sizes.push_back(ParseNumber<std::size_t>(flag, item, 1, 0x7FFFFFFF));
      }
      if (sizes.empty()) throw std::invalid_argument("--n names no key count");
    } else if (flag == "--bits-per-key") {
      o.bits_per_key = ParseNumber<double>(flag, value, 1, 64);
    } else if (flag == "--reps") {
      o.reps = ParseNumber<int>(flag, value, 1, 100000);
    } else if (flag == "--warmups") {
      o.warmups = ParseNumber<int>(flag, value, 0, 100000);
    } else if (flag == "--seed") {
      seed = ParseNumber<std::uint64_t>(flag, value, 0, UINT64_MAX);
    } else if (flag == "--anchors") {
      boost = arrow = false;
      for (const std::string& item : Split(value)) {
        if (item == "boost") {
          boost = true;
        } else if (item == "arrow") {
          arrow = true;
        } else {
          throw std::invalid_argument("--anchors takes boost and arrow, got '" + item + "'");
        }
      }
    } else {
      throw std::invalid_argument("unknown flag " + flag);
    }
  }
  std::uint64_t sink = 0;
  std::printf("anchor,n,bits_per_key,ns_per_lookup_negative,ns_per_lookup_positive,fpr\n");
  for (std::size_t n : sizes) {
    const Workload w = MakeWorkload(n, seed);
    if (boost) RunBoostRows(w, o, sink);
    if (arrow) RunArrowRows(w, o, sink);
  }
  std::fprintf(stderr, "(checksum %llu)\n", static_cast<unsigned long long>(sink));
  return 0;
}

}  // namespace
}  // namespace anchor

int main(int argc, char** argv) {
  try {
    return anchor::Main(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bloom_anchor: %s\n", e.what());
    return 1;
  }
}
