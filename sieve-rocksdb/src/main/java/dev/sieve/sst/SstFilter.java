package dev.sieve.sst;

import dev.sieve.KeyFilter;
import dev.sieve.hash.KeyHash;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * The filter of one SST file, answering {@link #mayContain(byte[])} for a <em>user key</em> as
 * RocksDB's point lookup ({@code Get}) does with this table's filter
 * (table/block_based/block_based_table_reader.cc {@code FullFilterKeyMayMatch},
 * partitioned_filter_block.cc):
 *
 * <ul>
 *   <li>whole-key filtering: the filter is asked for the user key itself;
 *   <li>prefix-only filtering ({@code whole_key_filtering=false} with a prefix extractor): the
 *       filter is asked for the key's prefix if the key is in the extractor's domain, and says
 *       "maybe" otherwise; {@link #isPrefixFilter()} tells such filters apart. Only RocksDB's
 *       built-in extractors (fixed, capped, noop) can be evaluated; for another one the answer is
 *       always "maybe";
 *   <li>partitioned filters: the partition is the first one whose separator in the top-level index
 *       is at or after the key in the table's key order (RocksDB seeks the partition index with the
 *       lookup's internal key, which carries the highest sequence number, so this is the first
 *       separator whose user key is {@code >=} the key), the last partition if there is none; an
 *       empty partition handle means "absent";
 *   <li>no filter: always "maybe".
 * </ul>
 *
 * <p>The key order is the comparator the table's properties name ({@code rocksdb.comparator},
 * {@link KeyComparator}): bytewise and reverse bytewise, each also with an 8-byte user-defined
 * timestamp ({@code .u64ts}). With a timestamp, the filter holds keys without it and {@link
 * #mayContain(byte[])} takes the key without it (as RocksDB's {@code Get} takes the key and the
 * read timestamp apart); separators are compared without their timestamp, and where a separator
 * carries a timestamp other than the minimum (separators taken from the index, {@code
 * decouple_partitioned_filters=false}), a key equal to it may sit in that partition or the next,
 * depending on the read timestamp, so both are asked. For a comparator Sieve does not know,
 * partition routing is not attempted and a key is "maybe" if any partition says so (never a false
 * negative, but more false positives than RocksDB's own filter); {@link #note()} says so.
 *
 * <p>A {@link KeyFilter}: every key form ({@code byte[]}, {@code long}, text, encoded types) is
 * answered from its bytes, through the prefix extractor where the table has one. {@link
 * #mayContainHash(long)} asks with a precomputed XXPH3 hash of the filtered bytes (key or prefix);
 * for partitioned filters it ORs the partitions; a legacy Bloom filter, which does not use that
 * hash, answers {@code true} to it.
 */
public final class SstFilter implements KeyFilter {

  /**
   * One filter partition: its separator (a user key as the index stores it, with its timestamp
   * where the table's comparator has one and persists it), its handle and the block read from it.
   */
  @SuppressWarnings("ArrayRecordComponent") // key bytes held as read, no copy
  public record Partition(byte[] separatorUserKey, BlockHandle handle, FilterBlock block) {}

  private final FilterKind kind;
  private final String policyName;
  private final BlockHandle handle;
  private final FilterBlock full;
  private final List<Partition> partitions;
  private final boolean wholeKey;
  private final PrefixExtractor prefix;
  private final KeyComparator order;
  private final int separatorTimestampBytes;
  private final long numKeys;
  private final String note;

  private SstFilter(
      FilterKind kind,
      String policyName,
      BlockHandle handle,
      FilterBlock full,
      List<Partition> partitions,
      TableProperties props,
      PrefixExtractor prefix,
      String note) {
    this.kind = kind;
    this.policyName = policyName;
    this.handle = handle;
    this.full = full;
    this.partitions = partitions;
    this.wholeKey = props.wholeKeyFiltering();
    this.prefix = prefix;
    this.order = KeyComparator.parse(props.comparator());
    this.separatorTimestampBytes =
        props.userDefinedTimestampsPersisted() ? order.timestampBytes() : 0;
    this.numKeys = props.numFilterEntries().orElse(props.numEntries());
    if (note == null && !partitions.isEmpty() && !order.known()) {
      note =
          "custom comparator '"
              + order.name()
              + "': every partition is asked (never a false negative, more false positives"
              + " than RocksDB's own lookup)";
    }
    this.note = note;
  }

  static SstFilter full(
      String policy, BlockHandle h, FilterBlock block, TableProperties p, PrefixExtractor pre) {
    return new SstFilter(block.kind(), policy, h, block, List.of(), p, pre, block.note());
  }

  static SstFilter partitioned(
      String policy, BlockHandle h, Partition[] parts, TableProperties p, PrefixExtractor pre) {
    return new SstFilter(
        FilterKind.PARTITIONED,
        policy,
        h,
        null,
        Collections.unmodifiableList(Arrays.asList(parts)),
        p,
        pre,
        null);
  }

  static SstFilter none(String obsoleteKey, TableProperties p, PrefixExtractor pre) {
    return new SstFilter(
        FilterKind.NONE,
        "",
        null,
        null,
        List.of(),
        p,
        pre,
        obsoleteKey == null
            ? "the table has no filter"
            : "obsolete block-based filter '" + obsoleteKey + "' (RocksDB no longer reads it)");
  }

  /** {@return {@link FilterKind#PARTITIONED}, {@link FilterKind#NONE} or the full block's kind} */
  public FilterKind kind() {
    return kind;
  }

  /**
   * The kind of the filter blocks: the full block's kind, or for a partitioned filter the kind of
   * its partitions (the first non-empty one's).
   *
   * @return the blocks' kind
   */
  public FilterKind blockKind() {
    if (full != null) {
      return full.kind();
    }
    for (Partition p : partitions) {
      if (p.block().kind() != FilterKind.ALWAYS_FALSE) {
        return p.block().kind();
      }
    }
    return partitions.isEmpty() ? FilterKind.NONE : FilterKind.ALWAYS_FALSE;
  }

  /** {@return whether the filter is partitioned} */
  public boolean isPartitioned() {
    return kind == FilterKind.PARTITIONED;
  }

  /**
   * {@return whether this filter holds prefixes only (point lookups ask it for the key's prefix)}
   */
  public boolean isPrefixFilter() {
    return !wholeKey && prefix != null;
  }

  /** {@return whether the filter holds whole user keys} */
  public boolean isWholeKeyFilter() {
    return wholeKey;
  }

  /** {@return the prefix extractor's name the table records, or {@code null}} */
  public String prefixExtractorName() {
    return prefix == null ? null : prefix.name();
  }

  /** {@return the name in the metaindex key, e.g. {@code rocksdb.BuiltinBloomFilter}} */
  public String policyName() {
    return policyName;
  }

  /**
   * {@return the handle of the full filter block or of the partition index; {@code null} if none}
   */
  public BlockHandle handle() {
    return handle;
  }

  /** {@return the full filter block, or {@code null} for partitioned or absent filters} */
  public FilterBlock fullBlock() {
    return full;
  }

  /** {@return the partitions in index order (empty unless partitioned)} */
  public List<Partition> partitions() {
    return partitions;
  }

  /**
   * {@return why the filter reads as it does, where notable ("always true" fallbacks, no filter)}
   */
  public String note() {
    return note;
  }

  /**
   * The filter's bytes in the file: the full block, or all partitions plus their index; trailers
   * excluded (as RocksDB's {@code rocksdb.filter.size} property counts them).
   *
   * @return the filter's bytes
   */
  public long filterBytes() {
    if (full != null) {
      return full.blockBytes();
    }
    if (handle == null) {
      return 0;
    }
    long n = handle.size();
    for (Partition p : partitions) {
      n += p.handle().size();
    }
    return n;
  }

  /** {@return the Bloom probe count of the (first) filter block, or -1} */
  public int numProbes() {
    FilterBlock b = representative();
    return b == null ? -1 : b.numProbes();
  }

  /** {@return the Ribbon seed of the (first) filter block, or -1} */
  public int ribbonSeed() {
    FilterBlock b = representative();
    return b == null ? -1 : b.ribbonSeed();
  }

  /** {@return the number of Ribbon blocks over all filter blocks, or -1 if not Ribbon} */
  public long ribbonBlocks() {
    if (blockKind() != FilterKind.RIBBON) {
      return -1;
    }
    if (full != null) {
      return full.ribbonBlocks();
    }
    long n = 0;
    for (Partition p : partitions) {
      n += Math.max(0, p.block().ribbonBlocks());
    }
    return n;
  }

  private FilterBlock representative() {
    if (full != null) {
      return full;
    }
    for (Partition p : partitions) {
      if (p.block().filter() != null) {
        return p.block();
      }
    }
    return null;
  }

  // ---------------------------------------------------------------- queries

  /**
   * The filter block a point lookup of {@code userKey} (without timestamp) consults; {@code null}
   * if none. For a partitioned filter under a comparator Sieve does not know, or where a
   * timestamped separator leaves two candidates, this is the first candidate only; {@link
   * #mayContain(byte[])} asks all of them.
   *
   * @param userKey the key, without timestamp
   * @return the block, or {@code null}
   */
  public FilterBlock blockFor(byte[] userKey) {
    if (full != null) {
      return full;
    }
    if (partitions.isEmpty()) {
      return null;
    }
    return partitions
        .get(
            order.known()
                ? SstPartitions.index(partitions, order, separatorTimestampBytes, userKey)
                : 0)
        .block();
  }

  /** {@return the key order the table's comparator defines, as far as Sieve knows it} */
  public String comparatorName() {
    return order.name();
  }

  /**
   * {@return whether partition routing follows the table's comparator (false: partitions are ORed)}
   */
  public boolean routesPartitions() {
    return order.known();
  }

  /** Answers as RocksDB's point lookup of {@code userKey} consults this table's filter. */
  @Override
  public boolean mayContain(byte[] userKey) {
    byte[] probe;
    if (wholeKey) {
      probe = userKey;
    } else if (prefix != null && prefix.known() && prefix.inDomain(userKey)) {
      probe = prefix.transform(userKey);
    } else {
      return true;
    }
    if (kind == FilterKind.NONE) {
      return true;
    }
    if (isPartitioned()) {
      return SstPartitions.mayContain(partitions, order, separatorTimestampBytes, userKey, probe);
    }
    return full.mayContain(probe);
  }

  @Override
  public boolean mayContain(byte[] key, int off, int len) {
    return mayContain(Arrays.copyOfRange(key, off, off + len));
  }

  /**
   * Tests the XXPH3 hash ({@link KeyHash}) of the bytes the filter holds (the key, or its prefix
   * for a prefix filter); partitions are ORed since a hash does not say which one to ask.
   *
   * @param hash64 the XXPH3 hash of the key (or prefix) bytes
   * @return false if no such key is in the table
   */
  public boolean mayContainHash(long hash64) {
    if (full != null) {
      return !full.hashesWithKeyHash() || full.mayContainHash(hash64);
    }
    if (kind == FilterKind.NONE) {
      return true;
    }
    return SstPartitions.mayContainHash(partitions, hash64);
  }

  /** Entries added to the filter (keys and/or prefixes), from the table properties. */
  @Override
  public long numKeys() {
    return numKeys;
  }

  @Override
  public long sizeInBits() {
    if (full != null) {
      return full.sizeInBits();
    }
    return SstPartitions.sizeInBits(partitions);
  }

  /**
   * The model FPR: the full block's, or for partitions their rates weighted by their (estimated)
   * number of keys; 1 where there is no filter.
   */
  @Override
  public double modelledFpRate() {
    if (full != null) {
      return full.modelledFpRate();
    }
    if (kind == FilterKind.NONE) {
      return 1.0;
    }
    return SstPartitions.modelledFpRate(partitions);
  }

  /**
   * The rate judged from the filter's bits ({@link KeyFilter#expectedFpRate()} of the full block,
   * or of the partitions weighted by their estimated key counts), right also where the table
   * properties give no key count; 1 where there is no filter.
   */
  @Override
  public double expectedFpRate() {
    if (full != null) {
      return full.expectedFpRate();
    }
    if (kind == FilterKind.NONE) {
      return 1.0;
    }
    return SstPartitions.expectedFpRate(partitions);
  }

  @Override
  public String toString() {
    return "SstFilter["
        + kind.label()
        + ", "
        + (isPrefixFilter() ? "prefix" : "whole-key")
        + ", "
        + filterBytes()
        + " bytes]";
  }
}
