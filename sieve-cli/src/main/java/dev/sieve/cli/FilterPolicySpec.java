package dev.sieve.cli;

import dev.sieve.Filter;
import dev.sieve.bloom.BlockedBloomFilter;
import dev.sieve.ribbon.RibbonSizing;
import dev.sieve.ribbon.Standard128RibbonFilter;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * A RocksDB filter policy as the CLI spells it: {@code bloom:BITS} (RocksDB's {@code
 * bloomfilter:BITS}, FastLocalBloom) or {@code ribbon:BITS} (RocksDB's {@code ribbonfilter:BITS},
 * Standard128Ribbon at that bloom-equivalent bits/key, with RocksDB's Bloom fallbacks).
 */
record FilterPolicySpec(String kind, double bitsPerKey) {

  /** Builds the filter RocksDB's policy builds for these key hashes, in this order. */
  Filter build(long[] hashes) {
    if (kind.equals("bloom")) {
      double sanitized = RibbonSizing.sanitizeBitsPerKey(bitsPerKey);
      return BlockedBloomFilter.buildRocksDb(
          hashes, hashes.length, BlockedBloomFilter.rocksDbMillibitsPerKey(sanitized));
    }
    return Standard128RibbonFilter.buildRocksDb(hashes, hashes.length, bitsPerKey);
  }

  /** The RocksDB filter block of a filter built by {@link #build}. */
  static byte[] rocksDbBlock(Filter filter) {
    if (filter instanceof Standard128RibbonFilter) {
      return ((Standard128RibbonFilter) filter).toRocksDbFilterBlock();
    }
    return ((BlockedBloomFilter) filter).toRocksDbFilterBlock();
  }

  /** Parses {@code bloom:BITS} / {@code ribbon:BITS}. */
  static final class Converter implements ITypeConverter<FilterPolicySpec> {
    @Override
    public FilterPolicySpec convert(String value) {
      int colon = value.indexOf(':');
      String kind = colon < 0 ? value : value.substring(0, colon);
      if (colon < 0 || !(kind.equals("bloom") || kind.equals("ribbon"))) {
        throw new TypeConversionException(
            "policy must be bloom:BITS or ribbon:BITS, got '" + value + "'");
      }
      double bits;
      try {
        bits = Double.parseDouble(value.substring(colon + 1));
      } catch (NumberFormatException e) {
        throw new TypeConversionException(
            "bits per key must be a number, got '" + value.substring(colon + 1) + "'");
      }
      if (!(bits >= 1.0 && bits < 100.0)) {
        throw new TypeConversionException("bits per key must be in [1, 100), got " + bits);
      }
      return new FilterPolicySpec(kind, bits);
    }
  }
}
