package dev.sieve.sst;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.policy.FilterPolicy;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Differential tests against the real RocksDB (rocksdbjni 11.8.1). Each case draws a key set
 * (counts log-uniform from 1 to 10^5 with two cases at exactly 10^5, keys 0..200 bytes of random
 * bytes or UTF-8 text) and a fractional bits/key in [1, 24], writes an SST with RocksDB's {@code
 * SstFileWriter}, reads it with Sieve and checks:
 *
 * <ol>
 *   <li>(a) every stored key is "maybe" for Sieve's reader of the file;
 *   <li>(b) Sieve's own build of the same keys under the same policy gives byte-identical filter
 *       blocks (for partitioned filters: each partition, built from the keys routed to it; for
 *       prefix filters: {@link RocksDbTableFilter}'s blocks, partitions and separators);
 *   <li>(c) on up to 1000 absent keys inside the file's key range, Sieve's answer equals RocksDB's
 *       own: a DB opened with the same options ingests the file and looks each key up, and the
 *       {@code BLOOM_FILTER_USEFUL} ticker says whether RocksDB's filter rejected it.
 * </ol>
 *
 * Seeds are fixed per case, so a failure names a reproducible case.
 */
class RocksDbDifferentialTest {
  @TempDir static Path dir;

  private static final int CASES_PER_KIND = 30;
  private static final int MAX_KEYS = 100_000;
  private static final int ABSENT_SAMPLE = 1000;
  private static final java.util.Map<String, int[]> TALLY = new java.util.TreeMap<>();

  enum Kind {
    BLOOM,
    RIBBON,
    RIBBON_OPTIMIZE_FOR_MEMORY,
    BLOOM_PARTITIONED,
    RIBBON_PARTITIONED,
    LEGACY_BLOOM_FV4,
    LEGACY_BLOOM_FV2_PARTITIONED,
    BLOOM_PREFIX_ONLY,
    BLOOM_PREFIX_ONLY_PARTITIONED,
    BLOOM_PREFIX_AND_WHOLE_KEY,
    BLOOM_OPTIMIZE_FOR_MEMORY
  }

  static Stream<Arguments> cases() {
    List<Arguments> out = new ArrayList<>();
    for (Kind kind : Kind.values()) {
      int n = kind == Kind.BLOOM || kind == Kind.RIBBON ? CASES_PER_KIND : CASES_PER_KIND / 3;
      IntStream.range(0, n).forEach(i -> out.add(Arguments.of(kind, i)));
    }
    return out.stream();
  }

  @ParameterizedTest(name = "{0} case {1}")
  @MethodSource("cases")
  void matchesRocksDb(Kind kind, int caseIndex) throws Exception {
    long seed = 0x5eed0000L + kind.ordinal() * 1000L + caseIndex;
    Random rnd = new Random(seed * 0x9E3779B97F4A7C15L); // adjacent seeds: uncorrelated draws
    int count;
    if (caseIndex < 2 && (kind == Kind.BLOOM || kind == Kind.RIBBON)) {
      count = MAX_KEYS;
    } else {
      count = (int) Math.round(Math.exp(rnd.nextDouble() * Math.log(MAX_KEYS)));
    }
    boolean text = rnd.nextBoolean();
    double bits = Math.round((1.0 + rnd.nextDouble() * 23.0) * 1000.0) / 1000.0;
    RocksDbOracle.Spec spec = spec(kind, bits, rnd);
    List<byte[]> keys = RocksDbOracle.randomKeys(rnd, count, text, 200);
    String label =
        kind
            + " case "
            + caseIndex
            + " (seed "
            + seed
            + ", "
            + count
            + " keys, "
            + bits
            + " bits/key)";

    Path sst = RocksDbOracle.writeSst(dir, kind + "-" + caseIndex, keys, spec);
    SstFile file = SstFile.open(sst);
    SstFilter filter = file.filter();
    assertEquals(kind.name().contains("PARTITIONED"), filter.isPartitioned(), label);
    FilterKind expectedBlockKind =
        kind.name().startsWith("LEGACY")
            ? FilterKind.LEGACY_BLOOM
            : kind.name().startsWith("RIBBON") ? null : FilterKind.FAST_LOCAL_BLOOM;
    if (expectedBlockKind != null) {
      assertEquals(expectedBlockKind, filter.blockKind(), label);
    } else if (count >= 20_000 && !filter.isPartitioned()) {
      // large Ribbon tables are really Ribbon (small ones may take RocksDB's Bloom fallback)
      assertEquals(FilterKind.RIBBON, filter.blockKind(), label);
    }
    assertEquals(spec.ribbon() ? "ribbonfilter" : "bloomfilter", file.properties().filterPolicy());
    assertEquals(file.properties().filterSize(), filter.filterBytes(), label + ": filter size");

    // (a) no false negatives
    for (byte[] k : keys) {
      assertTrue(filter.mayContain(k), () -> label + ": stored key reported absent");
    }

    // (b) byte-identical builds
    boolean identical = false;
    FilterPolicy policy =
        (spec.ribbon() ? FilterPolicy.ribbon(bits, 0) : FilterPolicy.bloom(bits))
            .withOptimizeFiltersForMemory(spec.optimizeForMemory());
    if (spec.fixedPrefix() > 0) {
      // prefix filters: the table builder's entries and partition cuts (RocksDbTableFilter)
      RocksDbTableFilter table =
          new RocksDbTableFilter(
              policy, FilterPolicy.UNKNOWN_LEVEL, "fixed:" + spec.fixedPrefix(), spec.wholeKey());
      if (!filter.isPartitioned()) {
        RocksDbOracle.assertSameBlock(
            table.buildFullBlock(keys), filter.fullBlock(), spec.optimizeForMemory(), label);
      } else {
        List<RocksDbTableFilter.Partition> mine =
            table.buildPartitions(keys, spec.metadataBlockSize());
        List<SstFilter.Partition> parts = filter.partitions();
        assertEquals(parts.size(), mine.size(), label + ": partitions");
        for (int p = 0; p < parts.size(); p++) {
          assertTrue(
              Arrays.equals(parts.get(p).separatorUserKey(), mine.get(p).separator()),
              label + ": separator " + p);
          RocksDbOracle.assertSameBlock(
              mine.get(p).block(),
              parts.get(p).block(),
              false,
              label + ": partition " + p + " of " + parts.size() + " differs");
        }
      }
      identical = true;
    } else {
      if (!filter.isPartitioned()) {
        RocksDbOracle.assertSameBlock(
            RocksDbTableFilter.filterBlock(
                policy, keys, spec.formatVersion(), FilterPolicy.UNKNOWN_LEVEL),
            filter.fullBlock(),
            spec.optimizeForMemory(),
            label + ": filter block differs");
      } else {
        List<SstFilter.Partition> parts = filter.partitions();
        int k = 0;
        for (int p = 0; p < parts.size(); p++) {
          List<byte[]> routed = new ArrayList<>();
          while (k < keys.size()
              && (p == parts.size() - 1
                  || Arrays.compareUnsigned(keys.get(k), parts.get(p).separatorUserKey()) <= 0)) {
            routed.add(keys.get(k++));
          }
          RocksDbOracle.assertSameBlock(
              RocksDbTableFilter.filterBlock(
                  policy, routed, spec.formatVersion(), FilterPolicy.UNKNOWN_LEVEL),
              parts.get(p).block(),
              spec.optimizeForMemory(),
              label + ": partition " + p + " of " + parts.size() + " differs");
        }
        assertEquals(keys.size(), k, label);
      }
      identical = true;
    }

    // (c) the same answers as RocksDB on absent keys inside the key range
    List<byte[]> absent = RocksDbOracle.absentKeysInRange(rnd, keys, ABSENT_SAMPLE, text);
    boolean[] rejected = RocksDbOracle.rocksDbRejects(dir, sst, spec, absent);
    int falsePositives = 0;
    for (int i = 0; i < absent.size(); i++) {
      boolean sieve = filter.mayContain(absent.get(i));
      assertEquals(!rejected[i], sieve, label + ": absent key " + i + " answered differently");
      if (sieve) {
        falsePositives++;
      }
    }
    synchronized (TALLY) {
      int[] t = TALLY.computeIfAbsent(kind.name(), x -> new int[6]);
      t[0]++;
      t[1] += identical ? 1 : 0;
      t[2] += absent.size();
      t[3] += falsePositives;
      t[4] += filter.blockKind() == FilterKind.RIBBON ? 1 : 0;
      t[5] = Math.max(t[5], count);
    }
  }

  private static final org.rocksdb.ChecksumType[] CHECKSUMS = {
    org.rocksdb.ChecksumType.kNoChecksum,
    org.rocksdb.ChecksumType.kCRC32c,
    org.rocksdb.ChecksumType.kxxHash,
    org.rocksdb.ChecksumType.kxxHash64,
    org.rocksdb.ChecksumType.kXXH3
  };

  private static RocksDbOracle.Spec spec(Kind kind, double bits, Random rnd) {
    switch (kind) {
      case BLOOM:
        return RocksDbOracle.Spec.bloom(bits)
            .formatVersion(5 + rnd.nextInt(3))
            .checksum(CHECKSUMS[rnd.nextInt(CHECKSUMS.length)]);
      case RIBBON:
        return RocksDbOracle.Spec.ribbon(bits, false)
            .formatVersion(5 + rnd.nextInt(3))
            .checksum(CHECKSUMS[rnd.nextInt(CHECKSUMS.length)]);
      case RIBBON_OPTIMIZE_FOR_MEMORY:
        return RocksDbOracle.Spec.ribbon(bits, true);
      case BLOOM_OPTIMIZE_FOR_MEMORY:
        return RocksDbOracle.Spec.bloom(bits).optimizeForMemory(true);
      case BLOOM_PARTITIONED:
        return RocksDbOracle.Spec.bloom(bits).partitioned(256L << rnd.nextInt(5));
      case RIBBON_PARTITIONED:
        return RocksDbOracle.Spec.ribbon(bits, false).partitioned(256L << rnd.nextInt(5));
      case LEGACY_BLOOM_FV4:
        return RocksDbOracle.Spec.bloom(bits).formatVersion(4);
      case LEGACY_BLOOM_FV2_PARTITIONED:
        return RocksDbOracle.Spec.bloom(bits)
            .formatVersion(2)
            .checksum(org.rocksdb.ChecksumType.kCRC32c)
            .partitioned(512);
      case BLOOM_PREFIX_ONLY:
        return RocksDbOracle.Spec.bloom(bits).prefix(1 + rnd.nextInt(4), false);
      case BLOOM_PREFIX_ONLY_PARTITIONED:
        return RocksDbOracle.Spec.bloom(bits).prefix(2 + rnd.nextInt(4), false).partitioned(512);
      case BLOOM_PREFIX_AND_WHOLE_KEY:
        return RocksDbOracle.Spec.bloom(bits).prefix(1 + rnd.nextInt(4), true);
      default:
        throw new AssertionError(kind);
    }
  }

  @AfterAll
  static void report() {
    TALLY.forEach(
        (k, t) ->
            System.out.printf(
                "differential %-30s cases=%d byte-identical=%d absent-keys=%d sieve==rocksdb,"
                    + " false-positives=%d ribbon-blocks=%d max-keys=%d%n",
                k, t[0], t[1], t[2], t[3], t[4], t[5]));
  }
}
