package dev.sieve.cli;

import dev.sieve.KeyFilter;
import dev.sieve.interop.CassandraBloomFilter;
import dev.sieve.interop.DataSketchesBloomFilter;
import dev.sieve.interop.ForeignBloomFilter;
import dev.sieve.interop.GuavaBloomFilter;
import dev.sieve.interop.SparkBloomFilter;
import dev.sieve.registry.FilterType;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Locale;

/**
 * The filter forms of other systems that {@code inspect}, {@code query} and {@code convert} take,
 * one constant each: its {@code --format} name, its registry type (the container's record of its
 * hash scheme), a recognizer over the first bytes and the size (tried in declaration order by
 * {@link InputKind#FOREIGN}) and a reader. A new form is one more constant.
 */
enum ForeignFormat {
  /** Guava's {@code BloomFilter.writeTo}: [strategy 0|1][k][int words] + words, big-endian. */
  GUAVA("guava", FilterType.GUAVA_BLOOM) {
    @Override
    boolean matches(ByteBuffer head, long size) {
      if (size < 14 || head.limit() < 6) {
        return false;
      }
      int strategy = head.get(0);
      int k = head.get(1) & 0xff;
      long words = head.getInt(2);
      return (strategy == 0 || strategy == 1) && k >= 1 && words >= 1 && size == 6 + words * 8;
    }

    @Override
    ForeignBloomFilter read(byte[] bytes) {
      return GuavaBloomFilter.readFrom(bytes);
    }

    @Override
    long claimedBytes(ByteBuffer head) {
      return head.limit() < 6 ? -1 : 6 + 8L * head.getInt(2);
    }
  },
  /** Spark's sketch {@code BloomFilter.writeTo}, V1 or V2 (also {@code bloom_filter_agg}). */
  SPARK("spark", FilterType.SPARK_BLOOM) {
    @Override
    boolean matches(ByteBuffer head, long size) {
      if (head.limit() < 16) {
        return false;
      }
      int version = head.getInt(0);
      int k = head.getInt(4);
      if (k < 1 || k > SparkBloomFilter.MAX_PROBES) {
        return false;
      }
      if (version == 1) {
        long words = head.getInt(8);
        return words >= 1 && size == 12 + words * 8;
      }
      long words = head.getInt(12);
      return version == 2 && words >= 1 && size == 16 + words * 8;
    }

    @Override
    ForeignBloomFilter read(byte[] bytes) {
      return SparkBloomFilter.readFrom(bytes);
    }

    @Override
    long claimedBytes(ByteBuffer head) {
      int version = head.limit() < 4 ? 0 : head.getInt(0);
      if (version == 1 && head.limit() >= 12) {
        return 12 + 8L * head.getInt(8);
      }
      return version == 2 && head.limit() >= 16 ? 16 + 8L * head.getInt(12) : -1;
    }
  },
  /** DataSketches' {@code BloomFilter.toByteArray}: little-endian, family id 21. */
  DATASKETCHES("datasketches", FilterType.DATASKETCHES_BLOOM) {
    @Override
    boolean matches(ByteBuffer head, long size) {
      if (head.limit() < 16 || size < 24) {
        return false;
      }
      int preLongs = head.get(0);
      return (preLongs == 3 || preLongs == 4) && head.get(1) == 1 && head.get(2) == 21;
    }

    @Override
    ForeignBloomFilter read(byte[] bytes) {
      return DataSketchesBloomFilter.readFrom(bytes);
    }

    @Override
    long claimedBytes(ByteBuffer head) {
      if (head.limit() < 20) {
        return -1;
      }
      boolean empty = (head.get(3) & 4) != 0;
      return empty ? 24 : 32 + 8L * head.duplicate().order(ByteOrder.LITTLE_ENDIAN).getInt(16);
    }

    @Override
    long maxBytes() {
      return 32 + 8L * DataSketchesBloomFilter.MAX_WORDS;
    }
  },
  /**
   * Cassandra's SSTable {@code Filter.db} (4.0 and later): [int k][int words] + the bit set's
   * bytes, no magic. Recognized by its file name ({@code *-Filter.db}, whatever the structure says)
   * or, tried last, by structure: {@code k} in [1, 64] (Cassandra's sizing gives at most 14), at
   * least one word and the exact length. Neither a Guava form (its second byte, {@code k}, is not
   * 0), a Spark V1 form (its length is 4 more than a multiple of 8) nor a DataSketches one (first
   * byte 3 or 4) fits that; a Spark V2 form can, and is tried first.
   */
  CASSANDRA("cassandra", FilterType.CASSANDRA_BLOOM) {
    @Override
    boolean matches(ByteBuffer head, long size) {
      if (head.limit() < 8 || size < 16) {
        return false;
      }
      int k = head.getInt(0);
      long words = head.getInt(4);
      return k >= 1 && k <= 64 && words >= 1 && size == 8 + words * 8;
    }

    @Override
    ForeignBloomFilter read(byte[] bytes) {
      return CassandraBloomFilter.readFrom(bytes);
    }

    @Override
    long claimedBytes(ByteBuffer head) {
      return cassandraClaimedBytes(head);
    }

    @Override
    byte[] write(ForeignBloomFilter f) {
      return ((CassandraBloomFilter) f).toByteArray(CassandraBloomFilter.Layout.CURRENT);
    }
  },
  /**
   * Cassandra 3.x's {@code Filter.db} (SSTable versions {@code ma} to {@code me}): the same header
   * and hash, every 8 bytes of the bit set reversed ({@link CassandraBloomFilter.Layout#LEGACY}).
   * Its structure is the same as {@link #CASSANDRA}'s, so the bytes cannot tell the two apart: it
   * is taken by {@code --format cassandra3}, or by the SSTable version in a {@code
   * <version>-<generation>-big-Filter.db} name ({@link #recognize}), never by structure alone.
   */
  CASSANDRA3("cassandra3", FilterType.CASSANDRA_BLOOM) {
    @Override
    boolean matches(ByteBuffer head, long size) {
      return false; // the bytes look exactly like the current layout's
    }

    @Override
    ForeignBloomFilter read(byte[] bytes) {
      return CassandraBloomFilter.readFrom(bytes, CassandraBloomFilter.Layout.LEGACY);
    }

    @Override
    long claimedBytes(ByteBuffer head) {
      return cassandraClaimedBytes(head);
    }

    @Override
    byte[] write(ForeignBloomFilter f) {
      return ((CassandraBloomFilter) f).toByteArray(CassandraBloomFilter.Layout.LEGACY);
    }
  };

  /** The suffix of Cassandra's SSTable filter component ({@code nb-1-big-Filter.db}). */
  static final String CASSANDRA_FILTER_SUFFIX = "-Filter.db";

  /** The largest foreign filter file read (one Java array). */
  static final long MAX_BYTES = Integer.MAX_VALUE - 8;

  private final String cliName;
  private final FilterType type;

  ForeignFormat(String cliName, FilterType type) {
    this.cliName = cliName;
    this.type = type;
  }

  /** Whether the first (up to 16) bytes {@code head}, big-endian, and the size fit this form. */
  abstract boolean matches(ByteBuffer head, long size);

  /** Reads the form (bounded: a typed error naming the field and its limit). */
  abstract ForeignBloomFilter read(byte[] bytes);

  /**
   * The length of the whole filter as the header in {@code head} (the first bytes, big-endian)
   * gives it, or -1 when {@code head} is too short to say. Unchecked: the reader judges the fields.
   */
  abstract long claimedBytes(ByteBuffer head);

  /** The largest file of this form Sieve reads: the form's own limit, within one Java array. */
  long maxBytes() {
    return MAX_BYTES;
  }

  private static long cassandraClaimedBytes(ByteBuffer head) {
    return head.limit() < 8 ? -1 : 8 + 8L * head.getInt(4);
  }

  /** The form's bytes of {@code f}, a filter of this form's family ({@link #type()}). */
  byte[] write(ForeignBloomFilter f) {
    return f.toByteArray();
  }

  String cliName() {
    return cliName;
  }

  FilterType type() {
    return type;
  }

  /** The form whose registry type is {@code type}, or {@code null}. */
  static ForeignFormat ofType(FilterType type) {
    for (ForeignFormat f : values()) {
      if (f.type == type) {
        return f;
      }
    }
    return null;
  }

  /**
   * The form named {@code name}.
   *
   * @throws IllegalArgumentException naming the known forms
   */
  static ForeignFormat named(String name) {
    StringBuilder known = new StringBuilder();
    for (ForeignFormat f : values()) {
      if (f.cliName.equals(name.toLowerCase(Locale.ROOT))) {
        return f;
      }
      known.append(known.length() == 0 ? "" : ", ").append(f.cliName);
    }
    throw new IllegalArgumentException("unknown format '" + name + "' (known: " + known + ")");
  }

  /**
   * The form {@code file} has by its name (Cassandra's {@code *-Filter.db}) or structure, or {@code
   * null}.
   */
  static ForeignFormat recognize(Path file) throws IOException {
    if (!Files.isRegularFile(file)) {
      return null;
    }
    Path name = file.getFileName();
    if (name != null && name.toString().endsWith(CASSANDRA_FILTER_SUFFIX)) {
      return cassandraByName(name.toString());
    }
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
      long size = ch.size();
      ByteBuffer head = ByteBuffer.allocate((int) Math.min(16, size));
      while (head.hasRemaining() && ch.read(head) > 0) {
        // fill
      }
      head.flip();
      for (ForeignFormat f : values()) {
        if (f.matches(head, size)) {
          return f;
        }
      }
      return null;
    }
  }

  /**
   * The layout of a {@code *-Filter.db} by the SSTable version its name carries: Cassandra 3.0 to
   * 3.11 name their files {@code <version>-<generation>-big-Filter.db} with versions {@code ma} to
   * {@code me}, written in the legacy layout ({@link #CASSANDRA3}); 4.0 and later ({@code na} on,
   * and the {@code bti} format) in the current one. Versions before {@code ma} (Cassandra 2.x:
   * {@code la-1-big-Filter.db}, {@code ks-table-ka-1-Filter.db}) also probe in the pre-3.0 order,
   * which Sieve does not read: refused, naming the version. A name that carries no version is read
   * in the current layout.
   *
   * @throws dev.sieve.SieveFormatException for a pre-3.0 version
   */
  static ForeignFormat cassandraByName(String name) {
    String[] parts = name.substring(0, name.length() - CASSANDRA_FILTER_SUFFIX.length()).split("-");
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
      throw new dev.sieve.SieveFormatException(
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

  /** Reads {@code file} as this form, the read bounded by {@link #maxBytes()}. */
  ForeignBloomFilter readFile(Path file) throws IOException {
    return ForeignFileReader.read(file, this);
  }

  /** The form of a filter read from a container, or {@code null} if it is not foreign. */
  static ForeignFormat of(KeyFilter f) {
    FilterType t = FilterType.forClass(f.getClass());
    return t == null ? null : ofType(t);
  }
}
