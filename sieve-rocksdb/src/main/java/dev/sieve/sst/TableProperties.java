package dev.sieve.sst;

import dev.sieve.SieveFormatException;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.OptionalLong;

/**
 * The table properties of an SST file: the {@code rocksdb.properties} meta block, one entry per
 * property; numbers are varint64s, names and flags are strings (table/meta_blocks.cc, {@code
 * PropertyBlockBuilder}; table/table_properties.cc for the names).
 */
public final class TableProperties {
  // the property names (table/table_properties.cc)
  /** {@value}: entries in the table. */
  public static final String NUM_ENTRIES = "rocksdb.num.entries";

  /** {@value}: entries added to the filter. */
  public static final String NUM_FILTER_ENTRIES = "rocksdb.num.filter_entries";

  /** {@value}: the filter policy's name. */
  public static final String FILTER_POLICY = "rocksdb.filter.policy";

  /** {@value}: the filter's bytes. */
  public static final String FILTER_SIZE = "rocksdb.filter.size";

  /** {@value}: the comparator's name. */
  public static final String COMPARATOR = "rocksdb.comparator";

  /** {@value}: the prefix extractor's name. */
  public static final String PREFIX_EXTRACTOR = "rocksdb.prefix.extractor.name";

  /** {@value}: index keys without sequence numbers. */
  public static final String INDEX_KEY_IS_USER_KEY = "rocksdb.index.key.is.user.key";

  /** {@value}: delta-encoded index values. */
  public static final String INDEX_VALUE_DELTA_ENCODED = "rocksdb.index.value.is.delta.encoded";

  /** {@value}: the number of index partitions. */
  public static final String INDEX_PARTITIONS = "rocksdb.index.partitions";

  /** {@value}: whether the filter holds whole keys. */
  public static final String WHOLE_KEY_FILTERING = "rocksdb.block.based.table.whole.key.filtering";

  /** {@value}: whether the filter holds prefixes. */
  public static final String PREFIX_FILTERING = "rocksdb.block.based.table.prefix.filtering";

  /** {@value}: whether keys keep their user-defined timestamps. */
  public static final String USER_TIMESTAMPS_PERSISTED =
      "rocksdb.user.defined.timestamps.persisted";

  private final Map<String, byte[]> raw;
  private final long blockOffset;

  TableProperties(Map<String, byte[]> raw, long blockOffset) {
    this.raw = Collections.unmodifiableMap(new LinkedHashMap<>(raw));
    this.blockOffset = blockOffset;
  }

  /** {@return every property, name to raw value bytes, in file order} */
  public Map<String, byte[]> raw() {
    return raw;
  }

  /**
   * {@return the property as UTF-8 text, or {@code null} if absent}
   *
   * @param name the property's name
   */
  public String string(String name) {
    byte[] v = raw.get(name);
    return v == null ? null : new String(v, StandardCharsets.UTF_8);
  }

  /**
   * {@return the property as a varint64 number, if present}
   *
   * @param name the property's name
   */
  public OptionalLong number(String name) {
    byte[] v = raw.get(name);
    if (v == null) {
      return OptionalLong.empty();
    }
    ByteCursor c = new ByteCursor(v, 0, v.length, blockOffset);
    long n = c.varint64("table property " + name);
    if (c.remaining() != 0) {
      throw new SieveFormatException(
          blockOffset, "table property " + name + " has bytes after its number");
    }
    return OptionalLong.of(n);
  }

  /** {@return the number of entries (keys, including deletions) in the table} */
  public long numEntries() {
    return number(NUM_ENTRIES).orElse(0);
  }

  /** {@return the number of entries added to the filter(s) (keys and/or prefixes), if recorded} */
  public OptionalLong numFilterEntries() {
    return number(NUM_FILTER_ENTRIES);
  }

  /**
   * {@return the filter policy's name, e.g. {@code bloomfilter} or {@code ribbonfilter}; "" if
   * none}
   */
  public String filterPolicy() {
    String s = string(FILTER_POLICY);
    return s == null ? "" : s;
  }

  /** {@return the filter size the table reports (all partitions and the partition index)} */
  public long filterSize() {
    return number(FILTER_SIZE).orElse(0);
  }

  /** {@return the comparator's name (RocksDB's bytewise comparator when not recorded)} */
  public String comparator() {
    String s = string(COMPARATOR);
    return s == null ? "leveldb.BytewiseComparator" : s;
  }

  /**
   * {@return the prefix extractor's name, or {@code null} where none ({@code nullptr} in the file)}
   */
  public String prefixExtractor() {
    String s = string(PREFIX_EXTRACTOR);
    return s == null || s.equals("nullptr") ? null : s;
  }

  /**
   * {@return whether the filter holds whole keys (RocksDB's default when the property is absent)}
   */
  public boolean wholeKeyFiltering() {
    return !"0".equals(string(WHOLE_KEY_FILTERING));
  }

  /** {@return whether the filter holds prefixes} */
  public boolean prefixFiltering() {
    String s = string(PREFIX_FILTERING);
    return s == null ? prefixExtractor() != null : "1".equals(s);
  }

  /**
   * {@return whether index (and filter-partition index) keys are user keys without sequence
   * numbers}
   */
  public boolean indexKeyIsUserKey() {
    return number(INDEX_KEY_IS_USER_KEY).orElse(0) != 0;
  }

  /**
   * Whether stored keys keep their user-defined timestamps (RocksDB records the property only when
   * they do not).
   *
   * @return true unless the table says the timestamps were stripped
   */
  public boolean userDefinedTimestampsPersisted() {
    return number(USER_TIMESTAMPS_PERSISTED).orElse(1) != 0;
  }

  /** {@return whether index values use the format_version ≥ 4 delta encoding} */
  public boolean indexValueIsDeltaEncoded() {
    return number(INDEX_VALUE_DELTA_ENCODED).orElse(0) != 0;
  }
}
