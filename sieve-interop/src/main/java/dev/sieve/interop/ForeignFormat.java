package dev.sieve.interop;

import dev.sieve.SieveFormatException;
import dev.sieve.registry.FilterType;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Locale;
import java.util.Objects;

/**
 * The serialized forms of other systems' Bloom filters that this package reads and writes, one
 * constant each: its name ({@link #formatName()}), its registry type (the Sieve container's record
 * of its hash scheme), a recognizer over the first bytes and the size, a reader and a writer. It
 * answers "which of these is this file?" for a file of unknown form: {@link #recognize(ByteBuffer,
 * long)} tries the forms in declaration order and returns the first that matches.
 *
 * <h2>What each recognizer checks</h2>
 *
 * Over the first bytes ({@link #HEAD_BYTES} are enough) and the file's size:
 *
 * <ul>
 *   <li>{@link #GUAVA}: the strategy byte 0 or 1, {@code k} (one byte) at least 1, at least one
 *       word, and the size exactly {@code 6 + 8 · words}.
 *   <li>{@link #SPARK}: version 1 or 2, {@code k} in [1, {@link SparkBloomFilter#MAX_PROBES}], at
 *       least one word, and the size exactly {@code 12 + 8 · words} (V1) or {@code 16 + 8 · words}
 *       (V2).
 *   <li>{@link #DATASKETCHES}: preamble longs 3 or 4, serial version 1 and family id 21 (its own
 *       magic), and at least its 24-byte header; a size that disagrees with the header is left to
 *       its reader, which refuses it.
 *   <li>{@link #CASSANDRA}: no magic; {@code k} in [1, 64] (Cassandra's sizing gives at most 14),
 *       at least one word, and the size exactly {@code 8 + 8 · words}. Tried last: no Guava form
 *       fits (its {@code k} byte would be 0), nor a Spark V1 form (its size is 4 more than a
 *       multiple of 8) nor a DataSketches one (first byte 3 or 4); a Spark V2 form can, and is
 *       tried first.
 *   <li>{@link #CASSANDRA3}: never by its bytes, which look exactly like {@link #CASSANDRA}'s; by
 *       its name ({@link #named}) or by the SSTable version in its file name ({@link
 *       #recognize(String, ByteBuffer, long)}).
 * </ul>
 *
 * Recognition is a heuristic over the header and the size, not a proof: crafted bytes can fit a
 * form they are not. The form's reader ({@link #read}) is the authority: it checks every field and
 * throws a {@link SieveFormatException} naming the field and its limit on bad bytes.
 */
public enum ForeignFormat {
  /** Guava's {@code BloomFilter.writeTo}: [strategy 0|1][k][int words] + words, big-endian. */
  GUAVA("guava", FilterType.GUAVA_BLOOM),
  /** Spark's sketch {@code BloomFilter.writeTo}, V1 or V2 (also SQL's {@code bloom_filter_agg}). */
  SPARK("spark", FilterType.SPARK_BLOOM),
  /** DataSketches' {@code BloomFilter.toByteArray}: little-endian, family id 21. */
  DATASKETCHES("datasketches", FilterType.DATASKETCHES_BLOOM),
  /**
   * Cassandra's SSTable {@code Filter.db} (4.0 and later, {@link
   * CassandraBloomFilter.Layout#CURRENT CURRENT}): [int k][int words] + the bit set's bytes, no
   * magic.
   */
  CASSANDRA("cassandra", FilterType.CASSANDRA_BLOOM),
  /**
   * Cassandra 3.x's {@code Filter.db} (SSTable versions {@code ma} to {@code me}): the same header
   * and hash, every 8 bytes of the bit set reversed ({@link CassandraBloomFilter.Layout#LEGACY
   * LEGACY}). Never recognized by its bytes alone.
   */
  CASSANDRA3("cassandra3", FilterType.CASSANDRA_BLOOM);

  /** The most first bytes any recognizer or {@link #claimedBytes} looks at. */
  public static final int HEAD_BYTES = 24;

  /** The largest foreign filter read: one Java array. */
  public static final long MAX_BYTES = Integer.MAX_VALUE - 8;

  /** The suffix of Cassandra's SSTable filter component ({@code nb-1-big-Filter.db}). */
  private static final String CASSANDRA_FILTER_SUFFIX = "-Filter.db";

  private final String formatName;
  private final FilterType type;

  ForeignFormat(String formatName, FilterType type) {
    this.formatName = formatName;
    this.type = type;
  }

  /** {@return the form's lower-case name: guava, spark, datasketches, cassandra, cassandra3} */
  public String formatName() {
    return formatName;
  }

  /** {@return the registry type of a filter of this form (both Cassandra layouts share one)} */
  public FilterType type() {
    return type;
  }

  /**
   * Whether the first bytes of a file, {@code head} (from its position to its limit; its position,
   * limit and byte order are left as they are), and the file's {@code size} fit this form. A head
   * shorter than the form's header does not fit.
   */
  public boolean matches(ByteBuffer head, long size) {
    ByteBuffer h = bigEndian(head);
    int n = h.limit();
    return switch (this) {
      case GUAVA -> {
        if (size < 14 || n < 6) {
          yield false;
        }
        long words = h.getInt(2);
        yield (h.get(0) == 0 || h.get(0) == 1)
            && (h.get(1) & 0xff) >= 1
            && words >= 1
            && size == 6 + words * 8;
      }
      case SPARK -> {
        if (n < 16) {
          yield false;
        }
        int version = h.getInt(0);
        int k = h.getInt(4);
        long words = h.getInt(version == 1 ? 8 : 12);
        yield k >= 1
            && k <= SparkBloomFilter.MAX_PROBES
            && (version == 1 || version == 2)
            && words >= 1
            && size == (version == 1 ? 12 : 16) + words * 8;
      }
      case DATASKETCHES ->
          n >= 16
              && size >= 24
              && (h.get(0) == 3 || h.get(0) == 4)
              && h.get(1) == 1
              && h.get(2) == 21;
      case CASSANDRA -> {
        if (n < 8 || size < 16) {
          yield false;
        }
        int k = h.getInt(0);
        long words = h.getInt(4);
        yield k >= 1 && k <= 64 && words >= 1 && size == 8 + words * 8;
      }
      case CASSANDRA3 -> false; // the bytes look exactly like the current layout's
    };
  }

  /**
   * The length of the whole filter as the header in {@code head} (the first bytes, from its
   * position) gives it, or -1 when {@code head} is too short to say or is no header of this form.
   * Unchecked beyond that: a reader of a stream stops there, and {@link #read} judges the fields.
   */
  public long claimedBytes(ByteBuffer head) {
    ByteBuffer h = bigEndian(head);
    int n = h.limit();
    return switch (this) {
      case GUAVA -> n < 6 ? -1 : 6 + 8L * h.getInt(2);
      case SPARK -> {
        int version = n < 4 ? 0 : h.getInt(0);
        if (version == 1 && n >= 12) {
          yield 12 + 8L * h.getInt(8);
        }
        yield version == 2 && n >= 16 ? 16 + 8L * h.getInt(12) : -1;
      }
      case DATASKETCHES -> {
        if (n < 20) {
          yield -1;
        }
        boolean empty = (h.get(3) & 4) != 0;
        yield empty ? 24 : 32 + 8L * h.order(ByteOrder.LITTLE_ENDIAN).getInt(16);
      }
      case CASSANDRA, CASSANDRA3 -> n < 8 ? -1 : 8 + 8L * h.getInt(4);
    };
  }

  /** {@return the largest filter of this form read: the form's own limit, within one array} */
  public long maxBytes() {
    return this == DATASKETCHES ? 32 + 8L * DataSketchesBloomFilter.MAX_WORDS : MAX_BYTES;
  }

  /**
   * Reads {@code bytes}, exactly, as this form.
   *
   * @throws SieveFormatException naming the field and its limit when the bytes are not this form
   */
  public ForeignBloomFilter read(byte[] bytes) {
    return switch (this) {
      case GUAVA -> GuavaBloomFilter.readFrom(bytes);
      case SPARK -> SparkBloomFilter.readFrom(bytes);
      case DATASKETCHES -> DataSketchesBloomFilter.readFrom(bytes);
      case CASSANDRA -> CassandraBloomFilter.readFrom(bytes, CassandraBloomFilter.Layout.CURRENT);
      case CASSANDRA3 -> CassandraBloomFilter.readFrom(bytes, CassandraBloomFilter.Layout.LEGACY);
    };
  }

  /**
   * The bytes of {@code filter} in this form: its own {@code toByteArray()}, in this form's layout
   * for a Cassandra filter.
   *
   * @throws IllegalArgumentException if {@code filter} is not of this form's {@link #type()}: a
   *     filter of another family hashes its keys differently, and its bits mean nothing here
   */
  public byte[] write(ForeignBloomFilter filter) {
    FilterType of = FilterType.forClass(filter.getClass());
    if (of != type) {
      throw new IllegalArgumentException(
          "a "
              + (of == null ? filter.getClass().getSimpleName() : of.cliName())
              + " filter cannot be written as a "
              + formatName
              + " filter, a "
              + type.cliName()
              + ": rebuild it from the keys");
    }
    return switch (this) {
      case CASSANDRA ->
          ((CassandraBloomFilter) filter).toByteArray(CassandraBloomFilter.Layout.CURRENT);
      case CASSANDRA3 ->
          ((CassandraBloomFilter) filter).toByteArray(CassandraBloomFilter.Layout.LEGACY);
      default -> filter.toByteArray();
    };
  }

  /**
   * The first form, in declaration order, whose recognizer {@link #matches} {@code head} and {@code
   * size}, or {@code null}. By structure alone: a Cassandra 3.x {@code Filter.db} is taken for
   * {@link #CASSANDRA}; {@link #recognize(String, ByteBuffer, long)} tells it by its file name.
   */
  public static ForeignFormat recognize(ByteBuffer head, long size) {
    Objects.requireNonNull(head, "head");
    for (ForeignFormat f : values()) {
      if (f.matches(head, size)) {
        return f;
      }
    }
    return null;
  }

  /**
   * The form of a file by its name, then its structure: a name ending {@code -Filter.db} is
   * Cassandra's SSTable filter component whatever its bytes, its layout given by the SSTable
   * version the name carries. Cassandra 3.0 to 3.11 name the file {@code
   * <version>-<generation>-big-Filter.db} with versions {@code ma} to {@code me} ({@link
   * #CASSANDRA3}); 4.0 and later ({@code na} on, and the {@code bti} format) are {@link
   * #CASSANDRA}, as is a name that carries no version. Any other name: {@link
   * #recognize(ByteBuffer, long)}.
   *
   * @param fileName the file's name without its directory, or {@code null} to go by structure
   * @throws SieveFormatException for a version before {@code ma} (Cassandra 2.x: {@code
   *     la-1-big-Filter.db}, {@code ks-table-ka-1-Filter.db}), whose filters probe in the pre-3.0
   *     order, which this package does not read
   */
  public static ForeignFormat recognize(String fileName, ByteBuffer head, long size) {
    if (fileName != null && fileName.endsWith(CASSANDRA_FILTER_SUFFIX)) {
      return cassandraByName(fileName);
    }
    return recognize(head, size);
  }

  private static ForeignFormat cassandraByName(String name) {
    String stem = name.substring(0, name.length() - CASSANDRA_FILTER_SUFFIX.length());
    // trailing empty fields dropped ("ma-1-big-" is "ma-1-big"), as String.split(String) does
    String[] parts = stem.split("-", -1);
    int n = parts.length;
    while (n > 0 && parts[n - 1].isEmpty()) {
      n--;
    }
    parts = Arrays.copyOf(parts, n);
    String version = null;
    String big = "big";
    if (parts.length >= 3 && isVersion(parts[parts.length - 3])) { // ma-1-big, nb-7-big, da-1-bti
      version = parts[parts.length - 3];
      big = parts[parts.length - 1];
    } else if (parts.length >= 4 && isVersion(parts[parts.length - 2])) { // ks-table-ka-1 (2.x)
      version = parts[parts.length - 2];
    }
    if (version == null || !big.equals("big")) {
      return CASSANDRA;
    }
    if (version.compareTo("ma") < 0) {
      throw new SieveFormatException(
          0,
          "SSTable version "
              + version
              + " (before ma, Cassandra 2.x) probes in the pre-3.0 order (h0 and h1 swapped),"
              + " which Sieve does not read");
    }
    return version.compareTo("na") < 0 ? CASSANDRA3 : CASSANDRA;
  }

  private static boolean isVersion(String s) {
    return s.length() == 2
        && s.charAt(0) >= 'a'
        && s.charAt(0) <= 'z'
        && s.charAt(1) >= 'a'
        && s.charAt(1) <= 'z';
  }

  /**
   * The form named {@code name} ({@link #formatName()}, any case).
   *
   * @throws IllegalArgumentException naming the known forms
   */
  public static ForeignFormat named(String name) {
    String lower = name.toLowerCase(Locale.ROOT);
    StringBuilder known = new StringBuilder();
    for (ForeignFormat f : values()) {
      if (f.formatName.equals(lower)) {
        return f;
      }
      known.append(known.length() == 0 ? "" : ", ").append(f.formatName);
    }
    throw new IllegalArgumentException("unknown format '" + name + "' (known: " + known + ")");
  }

  /** {@code head}'s remaining bytes as a big-endian buffer from index 0, {@code head} untouched. */
  private static ByteBuffer bigEndian(ByteBuffer head) {
    return head.slice().order(ByteOrder.BIG_ENDIAN);
  }
}
