#!/usr/bin/env bash
# Native anchors for the Bloom lookup rows: Boost.Bloom's boost::bloom::filter<std::uint64_t, 1,
# fast_multiblock32<8>> (single and bulk lookups) and Apache Arrow's Parquet split-block check
# (its AVX2 kernel and its portable one), timed by the harness in sieve-bench/native on the JMH
# benchmarks' keys and query streams (same seed, same generator). Boost, Arrow and xsimd are not
# part of this repository: the script compiles them from source trees you give it.
#
# Usage: native-anchors.sh BOOST_SRC ARROW_SRC XSIMD_SRC [SIZES (comma; default 1000000,10000000)]
# (the three trees may instead be given as environment variables of those names)
#   BOOST_SRC  a Boost release root holding boost/bloom/ with the bulk lookups (Boost 1.90 or later;
#              boost_1_90_0.tar.gz from https://www.boost.org/releases/, unpacked; nothing to build:
#              Boost.Bloom and what it includes are headers).
#   ARROW_SRC  an Apache Arrow source tree holding cpp/src/parquet/bloom_filter_avx2.cc (Arrow 25
#              or later: apache-arrow-25.0.1.tar.gz from https://arrow.apache.org/release/, or
#              `git clone --depth 1 -b apache-arrow-25.0.1 https://github.com/apache/arrow`). Only
#              that translation unit is compiled, unmodified, and the harness includes Arrow's
#              headers for the kernels' declarations and the portable check; Arrow itself is not
#              built.
#   XSIMD_SRC  an xsimd source tree holding include/xsimd/xsimd.hpp, the version Arrow pins in
#              cpp/thirdparty/versions.txt (14.2.0 for Arrow 25:
#              https://github.com/xtensor-stack/xsimd/archive/14.2.0.tar.gz); the AVX2 kernel is
#              written in it.
# Environment: CXX (default g++; GCC 12 or later), BENCH_CPUS (taskset list, default 1, as the JMH
# scripts), BITS_PER_KEY (10), REPS (timed passes per figure, median taken: 21), WARMUPS (3), SEED
# (default: the JMH workload's), OUT (default: a temporary directory, printed at the end), BUILD
# (the build directory; default a temporary one).
# Writes OUT/native-anchors.csv (anchor,n,bits_per_key,ns_per_lookup_negative,
# ns_per_lookup_positive,fpr) and OUT/native-anchors-build.txt (compiler, flags, source trees).
# Compiler flags: -O3 -march=native; the harness and Boost at -std=c++17, Arrow's translation unit
# and the harness file that includes Arrow's headers at -std=c++20, the standard Arrow 25 requires.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
native="$root/sieve-bench/native"
boost="${1:-${BOOST_SRC:-}}"
arrow="${2:-${ARROW_SRC:-}}"
xsimd="${3:-${XSIMD_SRC:-}}"
sizes="${4:-1000000,10000000}"
cxx="${CXX:-g++}"

die() { echo "native-anchors.sh: $*" >&2; exit 1; }
need() { # directory, the file it must hold, what to do about it
  [[ -n "$1" ]] || die "$3"
  [[ -f "$1/$2" ]] || die "$1 has no $2: $3"
}
need "$boost" boost/bloom/filter.hpp \
  "BOOST_SRC must be a Boost 1.90+ release root (boost/bloom/filter.hpp); see this script's header"
grep -q bulk_may_contain "$boost/boost/bloom/detail/core.hpp" ||
  die "$boost/boost/bloom has no bulk lookups (bulk_may_contain): Boost 1.90 or later is needed"
need "$arrow" cpp/src/parquet/bloom_filter_avx2.cc \
  "ARROW_SRC must be an Apache Arrow 25+ source tree (cpp/src/parquet/bloom_filter_avx2.cc); see this script's header"
need "$xsimd" include/xsimd/xsimd.hpp \
  "XSIMD_SRC must be an xsimd source tree (include/xsimd/xsimd.hpp), the version Arrow pins; see this script's header"
command -v "$cxx" >/dev/null || die "no C++ compiler '$cxx' (set CXX)"
grep -qw avx2 /proc/cpuinfo || die "this CPU has no AVX2, which Arrow's split-block kernel needs"

build="${BUILD:-$(mktemp -d)}"
out="${OUT:-$(mktemp -d)}"
mkdir -p "$build" "$out"
flags=(-O3 -march=native)
cc() { echo "+ $cxx $*" >&2; "$cxx" "$@"; }
cc "${flags[@]}" -std=c++20 -I"$arrow/cpp/src" -I"$xsimd/include" -c \
  "$arrow/cpp/src/parquet/bloom_filter_avx2.cc" -o "$build/arrow_bloom_filter_avx2.o"
cc "${flags[@]}" -std=c++20 -Wall -Wextra -I"$arrow/cpp/src" -I"$native" -c \
  "$native/arrow_sbbf.cpp" -o "$build/arrow_sbbf.o"
cc "${flags[@]}" -std=c++17 -Wall -Wextra -I"$boost" -I"$native" -c \
  "$native/bloom_anchor.cpp" -o "$build/bloom_anchor.o"
cc "${flags[@]}" "$build/bloom_anchor.o" "$build/arrow_sbbf.o" "$build/arrow_bloom_filter_avx2.o" \
  -o "$build/bloom_anchor"

{
  echo "compiler: $("$cxx" --version | head -n 1)"
  echo "flags: ${flags[*]} (-std=c++17 harness and Boost, -std=c++20 Arrow)"
  echo "BOOST_SRC: $boost"
  echo "ARROW_SRC: $arrow"
  echo "XSIMD_SRC: $xsimd"
  echo "cpus: ${BENCH_CPUS:-1}; load before the run: $(cut -d' ' -f1-3 /proc/loadavg)"
} >"$out/native-anchors-build.txt"

args=(--n "$sizes" --bits-per-key "${BITS_PER_KEY:-10}" --reps "${REPS:-21}" --warmups "${WARMUPS:-3}")
[[ -n "${SEED:-}" ]] && args+=(--seed "$SEED")
taskset -c "${BENCH_CPUS:-1}" "$build/bloom_anchor" "${args[@]}" | tee "$out/native-anchors.csv"
echo "CSV: $out/native-anchors.csv"
