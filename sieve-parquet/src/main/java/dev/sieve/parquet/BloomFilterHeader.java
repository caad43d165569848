package dev.sieve.parquet;

/**
 * The parser of Parquet's {@code BloomFilterHeader} struct (apache/parquet-format: parquet.thrift,
 * BloomFilter.md), the Thrift compact header before each filter's bitset: numBytes (field 1) and
 * the three unions algorithm (2), hash (3) and compression (4), each of which must hold its only
 * defined member, field 1 (BLOCK, XXHASH, UNCOMPRESSED). Other fields are skipped. {@link
 * ParquetFile} finds the header and reads the bitset after it; this class only reads the struct.
 */
final class BloomFilterHeader {
  private BloomFilterHeader() {}

  /** Reads a BloomFilterHeader; returns numBytes after checking the three unions. */
  static int read(ThriftCompactReader r) {
    r.enter();
    int numBytes = -1;
    boolean algorithm = false;
    boolean hash = false;
    boolean compression = false;
    int last = 0;
    for (ThriftCompactReader.Field f = r.readField(last); f != null; f = r.readField(last)) {
      switch (f.id()) {
        case 1 -> {
          r.expect(f, ThriftCompactReader.I32, "BloomFilterHeader.numBytes");
          numBytes = r.readI32();
        }
        case 2 -> {
          r.expect(f, ThriftCompactReader.STRUCT, "BloomFilterHeader.algorithm");
          unionIsOne(r, "algorithm", "BLOCK (split-block)");
          algorithm = true;
        }
        case 3 -> {
          r.expect(f, ThriftCompactReader.STRUCT, "BloomFilterHeader.hash");
          unionIsOne(r, "hash", "XXHASH");
          hash = true;
        }
        case 4 -> {
          r.expect(f, ThriftCompactReader.STRUCT, "BloomFilterHeader.compression");
          unionIsOne(r, "compression", "UNCOMPRESSED");
          compression = true;
        }
        default -> r.skip(f.type(), false);
      }
      last = f.id();
    }
    r.leave();
    if (numBytes < 0 || !algorithm || !hash || !compression) {
      throw r.error(
          "BloomFilterHeader lacks a required field (numBytes, algorithm, hash, compression)");
    }
    return numBytes;
  }

  /** A Thrift union whose one set field must be field 1 (the only value Parquet defines). */
  private static void unionIsOne(ThriftCompactReader r, String what, String expected) {
    r.enter();
    int set = 0;
    int last = 0;
    for (ThriftCompactReader.Field f = r.readField(last); f != null; f = r.readField(last)) {
      if (f.id() != 1) {
        throw r.error(
            "Bloom filter "
                + what
                + " is union member "
                + f.id()
                + "; only "
                + expected
                + " (1) is supported");
      }
      r.expect(f, ThriftCompactReader.STRUCT, "Bloom filter " + what);
      r.skipStruct();
      set++;
      last = f.id();
    }
    r.leave();
    if (set != 1) {
      throw r.error("Bloom filter " + what + " union has " + set + " members set, not 1");
    }
  }
}
