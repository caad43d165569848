package dev.sieve.cli;

import dev.sieve.KeyFilter;
import dev.sieve.SieveFormatException;
import dev.sieve.format.ContainerHeader;
import dev.sieve.format.SieveFormat;
import dev.sieve.registry.FilterType;
import dev.sieve.sst.FilterBlock;
import dev.sieve.sst.FilterBlockReader;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code inspect} and {@code query} on the inputs that are not SSTs: Sieve's own container ({@code
 * .sieve}, {@link SieveFormat}), a raw RocksDB filter block as {@code sieve build} writes it, and
 * the directory of filter partitions {@code sieve build --partition-size} writes.
 */
final class OtherInputs {
  private OtherInputs() {}

  /** The largest raw filter block read into memory (RocksDB caps a filter at 4 GiB; Java at 2). */
  static final long MAX_BLOCK_BYTES = Integer.MAX_VALUE - 64;

  static Map<String, String> describeContainer(Path file) throws IOException {
    KeyFilter f = SieveFormat.map(file, KeyFilter.class);
    ContainerHeader h;
    try (var ch = java.nio.channels.FileChannel.open(file)) {
      ByteBuffer head = ByteBuffer.allocate(SieveFormat.HEADER_BYTES);
      while (head.hasRemaining() && ch.read(head) > 0) {
        // fill
      }
      head.flip();
      h = SieveFormat.readHeader(head, ch.size());
    }
    Map<String, String> m = new LinkedHashMap<>();
    m.put("input_kind", SstCliSupport.jsonString("sieve container"));
    m.put("file_size", Long.toString(Files.size(file)));
    m.put("container_version", Integer.toString(h.version()));
    m.put("filter_type", SstCliSupport.jsonString(h.type().toString()));
    m.put("filter_class", SstCliSupport.jsonString(f.getClass().getSimpleName()));
    m.put("num_keys", Long.toString(f.numKeys()));
    m.put("filter_bytes", Long.toString(f.sizeInBytes()));
    m.put("bits_per_key", SstCliSupport.jsonNumber(f.bitsPerKey()));
    m.put("flags", Integer.toString(h.flags()));
    m.put("key_hash", SstCliSupport.jsonString(keyHash(h.flags())));
    m.put("modelled_fpr", SstCliSupport.jsonNumber(f.modelledFpRate()));
    if (f instanceof dev.sieve.interop.ForeignBloomFilter foreign) {
      // another system's filter kept in its own form: the container's key count is the one it had
      m.put("foreign_format", SstCliSupport.jsonString(ForeignInputs.formOf(f).formatName()));
      m.put(
          "key_hash",
          SstCliSupport.jsonString(
              "the owner's, recorded by the type (query --long/--int: the owner's long entry)"));
      m.put("num_probes", Integer.toString(foreign.numProbes()));
      m.put("fill", SstCliSupport.jsonNumber(foreign.fractionOfBitsSet()));
      m.put("fpr_at_fill", SstCliSupport.jsonNumber(foreign.expectedFpRate()));
    }
    m.put("note", SstCliSupport.jsonString("checksums verified (header and payload CRC32C)"));
    return m;
  }

  /** The flags in a container's header (checked as every reader checks the header). */
  static int containerFlags(Path file) throws IOException {
    try (var ch = java.nio.channels.FileChannel.open(file)) {
      ByteBuffer head = ByteBuffer.allocate(SieveFormat.HEADER_BYTES);
      while (head.hasRemaining() && ch.read(head) > 0) {
        // fill
      }
      head.flip();
      return SieveFormat.readHeader(head, ch.size()).flags();
    }
  }

  /** What the container's flags say about how its keys were hashed, for {@code inspect}. */
  static String keyHash(int flags) {
    if ((flags & SieveFormat.FLAG_LONG_KEYS) != 0) {
      return "XXPH3 of long keys' 8 big-endian bytes (built with --long, as"
          + " Filter.mayContain(long)); query takes decimal longs";
    }
    if ((flags & SieveFormat.FLAG_MIX64_LONG_KEYS) != 0) {
      return "long keys through KeyHash.mix64 (key scheme MIX64, as FAST hashes longs; build"
          + " --long records it); query takes decimal longs";
    }
    if ((flags & SieveFormat.FLAG_IDENTITY_LONG_KEYS) != 0) {
      return "long keys as their own hashes (key scheme IDENTITY); query takes decimal longs";
    }
    if ((flags & SieveFormat.FLAG_FAST_KEYS) != 0) {
      return "key scheme FAST (Sieve's default where no format fixes the hash): numbers through"
          + " KeyHash.mix64 (query --long or --int), text and --hex keys by XXPH3 of their bytes";
    }
    if ((flags & SieveFormat.FLAG_PARQUET_XXH64_KEYS) != 0) {
      return "XXH64 of Parquet's plain encoding (key scheme PARQUET_XXH64: --long/--int are"
          + " little-endian INT64/INT32 values, text and --hex the BYTE_ARRAY bytes)";
    }
    return "XXPH3 of the key bytes (key scheme XXPH3; text or --hex bytes; a container built with"
        + " --long records that, and this one does not)";
  }

  static FilterBlock readBlock(Path file) throws IOException {
    long size = Files.size(file);
    if (size > MAX_BLOCK_BYTES) {
      throw new SieveFormatException(
          0, "filter block of " + size + " bytes is larger than the limit of " + MAX_BLOCK_BYTES);
    }
    return FilterBlockReader.read(Files.readAllBytes(file), 0);
  }

  /**
   * Reads a filter block named on the command line. Bytes RocksDB would read as its "always true"
   * fallback (a trailer it does not know: a truncated block, random bytes, a text file named {@code
   * *.block}) are refused unless {@code acceptAlwaysTrue}: inside RocksDB the fallback keeps a
   * damaged block from causing false negatives, but a user who names a file wants to know that it
   * is not a filter.
   *
   * @throws SieveFormatException if the block is RocksDB's fallback and it was not accepted
   */
  static FilterBlock readNamedBlock(Path file, boolean acceptAlwaysTrue) throws IOException {
    FilterBlock b = readBlock(file);
    if (b.kind() == dev.sieve.sst.FilterKind.ALWAYS_TRUE && !acceptAlwaysTrue) {
      throw new SieveFormatException(
          0,
          "not a filter block Sieve recognises ("
              + b.note()
              + "): expected a RocksDB filter block ending in a FastLocalBloom (-1), Ribbon (-2)"
              + " or legacy Bloom 5-byte trailer; RocksDB would read these bytes as an always-true"
              + " filter (every key maybe), which --accept-always-true accepts");
    }
    return b;
  }

  static Map<String, String> describeBlock(Path file, boolean acceptAlwaysTrue) throws IOException {
    FilterBlock b = readNamedBlock(file, acceptAlwaysTrue);
    Map<String, String> m = new LinkedHashMap<>();
    m.put("input_kind", SstCliSupport.jsonString("filter block"));
    m.put("file_size", Long.toString(Files.size(file)));
    m.put("filter_kind", SstCliSupport.jsonString(b.kind().label()));
    m.put("filter_bytes", Integer.toString(b.blockBytes()));
    m.put("filter_bits", Long.toString(b.sizeInBits()));
    if (b.kind().isBloom()) {
      m.put("num_probes", Integer.toString(b.numProbes()));
    }
    if (b.kind().filterType() == FilterType.RIBBON) {
      m.put("ribbon_seed", Integer.toString(b.ribbonSeed()));
      m.put("ribbon_blocks", Integer.toString(b.ribbonBlocks()));
      m.put("ribbon_result_bits", SstCliSupport.jsonNumber(b.ribbonResultBits()));
    }
    m.put(
        "note",
        SstCliSupport.jsonString(
            b.note() != null
                ? b.note()
                : "a raw block records no key count: no bits/key or modelled FPR; no checksum"));
    return m;
  }

  /** The index file of a partitioned-filter directory ({@code build --partition-size}). */
  static final String PARTITION_INDEX = "index.tsv";

  /** The most partitions read from one directory's index. */
  static final int MAX_PARTITIONS = 1 << 20;

  /**
   * Describes the directory {@code build --partition-size} writes: each line of {@code index.tsv}
   * ({@code NAME<TAB>SEPARATOR-HEX<TAB>BYTES}) is checked against its block file, which must be a
   * filter block of this directory (no path elsewhere), of the size the line says; then the totals
   * and the kinds, probes and Ribbon parameters across the partitions are reported.
   */
  static Map<String, String> describePartitions(Path dir) throws IOException {
    List<String> lines = Files.readAllLines(dir.resolve(PARTITION_INDEX));
    long bytes = 0;
    long bits = 0;
    int count = 0;
    java.util.Set<String> kinds = new java.util.TreeSet<>();
    java.util.Set<Integer> probes = new java.util.TreeSet<>();
    String first = null;
    String last = null;
    String previous = null;
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i);
      if (line.isEmpty() && i == lines.size() - 1) {
        break;
      }
      String where = PARTITION_INDEX + " line " + (i + 1);
      String[] f = line.split("\t", -1);
      if (f.length != 3) {
        throw new SieveFormatException(
            0, where + " has " + f.length + " fields; expected NAME, SEPARATOR (hex), BYTES");
      }
      if (!f[0].matches("partition-[0-9]{5,}\\.block")) {
        throw new SieveFormatException(
            0, where + " names '" + f[0] + "', not a partition-NNNNN.block of this directory");
      }
      if (++count > MAX_PARTITIONS) {
        throw new SieveFormatException(0, "more than " + MAX_PARTITIONS + " partitions");
      }
      byte[] separator;
      long declared;
      try {
        separator = SstCliSupport.decodeKey(f[1], true);
        declared = Long.parseLong(f[2]);
      } catch (IllegalArgumentException e) {
        throw new SieveFormatException(0, where + ": " + e.getMessage());
      }
      if (previous != null
          && java.util.Arrays.compareUnsigned(SstCliSupport.decodeKey(previous, true), separator)
              > 0) {
        throw new SieveFormatException(
            0, where + ": separator " + f[1] + " is below the one before (" + previous + ")");
      }
      previous = f[1];
      Path part = dir.resolve(f[0]);
      long size = Files.size(part);
      if (size != declared) {
        throw new SieveFormatException(
            0, f[0] + " holds " + size + " bytes, " + where + " says " + declared);
      }
      FilterBlock b;
      try {
        b = readBlock(part);
      } catch (SieveFormatException e) {
        throw new SieveFormatException(e.offset(), f[0] + ": " + e.getMessage(), e);
      }
      kinds.add(b.kind().label());
      if (b.kind().isBloom()) {
        probes.add(b.numProbes());
      }
      bytes += b.blockBytes();
      bits += b.sizeInBits();
      first = first == null ? f[1] : first;
      last = f[1];
    }
    if (count == 0) {
      throw new SieveFormatException(0, PARTITION_INDEX + " lists no partition");
    }
    Map<String, String> m = new LinkedHashMap<>();
    m.put("input_kind", SstCliSupport.jsonString("partitioned filter (build --partition-size)"));
    m.put("num_partitions", Integer.toString(count));
    m.put("filter_kind", SstCliSupport.jsonString(String.join(", ", kinds)));
    m.put("filter_bytes", Long.toString(bytes));
    m.put("filter_bits", Long.toString(bits));
    if (!probes.isEmpty()) {
      StringBuilder p = new StringBuilder();
      probes.forEach(n -> p.append(p.length() == 0 ? "" : ", ").append(n));
      m.put(
          "num_probes", probes.size() == 1 ? p.toString() : SstCliSupport.jsonString(p.toString()));
    }
    m.put("first_separator", SstCliSupport.jsonString(first));
    m.put("last_separator", SstCliSupport.jsonString(last));
    m.put(
        "note",
        SstCliSupport.jsonString(
            "each partition checked against index.tsv and read as a filter block; raw blocks"
                + " record no key count: no bits/key or modelled FPR; no checksum"));
    return m;
  }
}
