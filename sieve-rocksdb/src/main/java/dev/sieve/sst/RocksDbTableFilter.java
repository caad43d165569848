package dev.sieve.sst;

import dev.sieve.hash.KeyHash;
import dev.sieve.policy.FilterPolicy;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * The filter RocksDB's block-based table builder writes for one table's keys: a full filter block
 * or filter partitions, with whole keys, prefixes or both (table/block_based/full_filter_block.cc,
 * partitioned_filter_block.cc, filter_policy.cc), for format_version ≥ 5 (FastLocalBloom and
 * Ribbon). Keys are user keys without timestamps in the table's order (bytewise for RocksDB's
 * default comparator), distinct, as an SST holds them.
 *
 * <h2>What goes into the filter</h2>
 *
 * Each key adds, in order: with whole-key filtering and a prefix extractor whose domain holds the
 * key, the key's prefix and the key ({@code AddKeyAndAlt}: the prefix is skipped when it equals the
 * previous prefix, the key or the previous entry; the key when it equals the previous entry or the
 * previous prefix); without a prefix in the domain, the key; prefix-only filtering adds the prefix
 * (skipped when equal to the previous entry). Entries are 64-bit XXPH3 hashes; "equal" means equal
 * hashes.
 *
 * <h2>Partitions ({@code partition_filters=true}, decoupled from index partitions as RocksDB 11
 * does by default)</h2>
 *
 * A partition holds up to {@code k} entries, {@code k} = the builder's {@code
 * ApproximateNumEntries} for a filter of {@code ceil(metadata_block_size × 0.9)} bytes (the default
 * {@code block_size_deviation} of 10%), one less with a prefix extractor. Before a key is added, a
 * partition with {@code k} or more entries is cut: with a prefix extractor, the prefix of the next
 * key (when in the domain) is added to it first, and the next partition starts with the prefix of
 * the partition's last key (when in the domain), so prefix seeks crossing the boundary find both.
 * Each partition's separator in the top-level index is its last key.
 *
 * <p>Not modelled: legacy Bloom (format_version &lt; 5) with prefixes or partitions, filter
 * partitions coupled to index partitions ({@code decouple_partitioned_filters=false}), custom
 * prefix extractors, timestamps.
 */
public final class RocksDbTableFilter {

  /** One filter partition: its separator (the user key of its last key) and its block. */
  // arrays by design; equals/hashCode are overridden over the contents
  @SuppressWarnings("ArrayRecordComponent")
  public record Partition(byte[] separator, byte[] block) {
    @Override
    public boolean equals(Object o) {
      return o instanceof Partition other
          && Arrays.equals(separator, other.separator)
          && Arrays.equals(block, other.block);
    }

    @Override
    public int hashCode() {
      return 31 * Arrays.hashCode(separator) + Arrays.hashCode(block);
    }

    @Override
    public String toString() {
      return "Partition[" + separator.length + "-byte separator, " + block.length + " bytes]";
    }
  }

  /** RocksDB's default {@code block_size_deviation}, in percent. */
  public static final int BLOCK_SIZE_DEVIATION = 10;

  private final FilterPolicy policy;
  private final int level;
  private final PrefixExtractor prefix;
  private final boolean wholeKey;

  /**
   * @param policy the filter policy (with its {@code optimize_filters_for_memory} setting)
   * @param level the LSM level the table is for ({@link FilterPolicy#UNKNOWN_LEVEL} for an {@code
   *     SstFileWriter} file), as Ribbon's {@code bloom_before_level} sees it
   * @param prefixExtractor {@code fixed:N}, {@code capped:N}, RocksDB's names ({@code
   *     rocksdb.FixedPrefix.N}, {@code rocksdb.CappedPrefix.N}, {@code rocksdb.Noop}) or {@code
   *     null} for none
   * @param wholeKeyFiltering RocksDB's {@code whole_key_filtering}
   * @throws IllegalArgumentException for an unknown prefix extractor, prefix-only filtering without
   *     an extractor
   */
  public RocksDbTableFilter(
      FilterPolicy policy, int level, String prefixExtractor, boolean wholeKeyFiltering) {
    this.policy = Objects.requireNonNull(policy, "policy");
    this.level = level;
    this.prefix = prefixExtractor == null ? null : parsePrefix(prefixExtractor);
    if (prefix == null && !wholeKeyFiltering) {
      throw new IllegalArgumentException(
          "whole_key_filtering=false needs a prefix extractor: the filter would hold nothing");
    }
    this.wholeKey = wholeKeyFiltering;
  }

  /** Parses {@code fixed:N}, {@code capped:N} or one of RocksDB's built-in extractor names. */
  static PrefixExtractor parsePrefix(String spec) {
    String s = spec.trim();
    String name = s;
    int colon = s.indexOf(':');
    if (colon > 0) {
      String kind = s.substring(0, colon);
      String n = s.substring(colon + 1);
      int len;
      try {
        len = Integer.parseInt(n);
      } catch (NumberFormatException e) {
        len = -1;
      }
      if (len < 1) {
        throw new IllegalArgumentException(
            "prefix extractor '" + spec + "': the length must be an integer >= 1");
      }
      if (kind.equals("fixed")) {
        name = "rocksdb.FixedPrefix." + len;
      } else if (kind.equals("capped")) {
        name = "rocksdb.CappedPrefix." + len;
      } else {
        name = null;
      }
    }
    PrefixExtractor p = name == null ? null : PrefixExtractor.parse(name);
    if (p == null || !p.known()) {
      throw new IllegalArgumentException(
          "prefix extractor '" + spec + "': expected fixed:N or capped:N (N >= 1)");
    }
    return p;
  }

  /**
   * As {@link #filterBlock(FilterPolicy, Iterable, int, int)} for the latest format and an unknown
   * level.
   *
   * @param policy the filter policy
   * @param keys the keys in the order RocksDB adds them
   * @return the filter block
   */
  public static byte[] filterBlock(FilterPolicy policy, Iterable<byte[]> keys) {
    return filterBlock(policy, keys, Footer.MAX_FORMAT_VERSION, FilterPolicy.UNKNOWN_LEVEL);
  }

  /**
   * The full filter block (its 5-byte metadata included; the SST block trailer is not, as it
   * depends on the file offset) that RocksDB writes for {@code keys} under {@code policy} in a
   * table of {@code formatVersion} at {@code level}, without prefixes or partitions: the Bloom
   * policy's legacy Bloom for format_version &lt; 5, else the filter {@link FilterPolicy#build}
   * chooses. Keys are given in the order RocksDB adds them to the filter (sorted key order within
   * an SST); only consecutive duplicate hashes are merged, as RocksDB does.
   *
   * <p>rocksdbjni's Linux library links no allocator of its own: it imports {@code
   * malloc_usable_size} from glibc, so in a JVM the allocator is glibc's malloc (verified: sizes of
   * rocksdbjni-written filters for 1 to 300,000 keys at 7.3, 10 and 16.9 bits/key all equal the
   * heap-chunk model below; jemalloc's size classes would have grown e.g. the 1,000-key 10 bits/key
   * block from 1,285 to 1,477 bytes). A glibc heap chunk's usable size exceeds the request by 8 to
   * 15 bytes, or by 16 more where glibc hands out a free chunk whose remainder would be below its
   * 32-byte minimum. For FastLocalBloom neither reaches another 64-byte cache line, so the length
   * never grows, the balance stays 0 and no filter shrinks: what the option changes is the probe
   * count (1,000 keys at 10 bits/key: 1,285 bytes either way, 7 probes instead of 6), also for
   * Ribbon's Bloom fallback, and Sieve's blocks are byte-identical. A Ribbon filter grows by one
   * 16-byte segment in the second case, which the heap's state decides, not the keys (0 or 1 of
   * about 190 Ribbon blocks per test run); Sieve writes the usual length. Not reproduced either:
   * allocations glibc serves by {@code mmap} (above its dynamic mmap threshold, 128 KiB to 32 MiB,
   * when the heap cannot serve them), which round to 4 KiB pages, and everything after a filter
   * grew (the balance then lets later filters of the same policy, e.g. the next partitions,
   * shrink); other allocators (musl's, or jemalloc/tcmalloc preloaded). rocksdbjni was seen serving
   * filters of up to 634 KB from the heap.
   *
   * @param policy the filter policy
   * @param keys the keys in the order RocksDB adds them
   * @param formatVersion the table's format_version
   * @param level {@link FilterPolicy#FLUSH}, a level ≥ 0 or {@link FilterPolicy#UNKNOWN_LEVEL}
   * @return the filter block; RocksDB's 0-byte block for no keys
   */
  public static byte[] filterBlock(
      FilterPolicy policy, Iterable<byte[]> keys, int formatVersion, int level) {
    Objects.requireNonNull(policy, "policy");
    Objects.requireNonNull(keys, "keys");
    if (!policy.isRibbonPolicy() && formatVersion < 5) {
      return LegacyLocalityBloomFilter.buildRocksDbFilterBlock(
          keys, (policy.millibitsPerKey() + 500) / 1000);
    }
    List<byte[]> list = new ArrayList<>();
    keys.forEach(list::add);
    long[] hashes = new long[list.size()];
    for (int i = 0; i < hashes.length; i++) {
      hashes[i] = KeyHash.hash64(Objects.requireNonNull(list.get(i), "key"));
    }
    return finishEntries(policy, hashes, level);
  }

  /**
   * The filter block for hash entries collected as RocksDB's builder collects them (no two equal
   * neighbours), format_version ≥ 5; the 0-byte block for none.
   */
  static byte[] finishEntries(FilterPolicy policy, long[] entries, int level) {
    if (entries.length == 0) {
      return new byte[0];
    }
    return policy.build(level, entries, entries.length).toRocksDbFilterBlock();
  }

  /**
   * {@return the full filter block RocksDB writes for {@code keys} (0 bytes if nothing was added)}
   *
   * @param keys the table's keys, in key order
   */
  public byte[] buildFullBlock(Iterable<byte[]> keys) {
    Entries e = new Entries();
    for (byte[] k : keys) {
      Objects.requireNonNull(k, "key");
      add(e, k);
    }
    return finishEntries(policy, e.toArray(), level);
  }

  /**
   * The filter partitions RocksDB writes for {@code keys} with {@code partition_filters=true} and
   * {@code metadata_block_size = metadataBlockSize}, in index order.
   *
   * @param keys the table's keys, in key order
   * @param metadataBlockSize RocksDB's {@code metadata_block_size}
   * @return the partitions
   * @throws IllegalArgumentException unless {@code 1 <= metadataBlockSize <= 2^31}
   */
  public List<Partition> buildPartitions(Iterable<byte[]> keys, long metadataBlockSize) {
    long perPartition = entriesPerPartition(metadataBlockSize);
    List<Partition> out = new ArrayList<>();
    Entries e = new Entries();
    byte[] prev = null;
    for (byte[] key : keys) {
      Objects.requireNonNull(key, "key");
      boolean cut = e.size() >= perPartition;
      byte[] keyPrefix = prefix != null && prefix.inDomain(key) ? prefix.transform(key) : null;
      if (cut) {
        if (keyPrefix != null) {
          if (wholeKey) {
            e.addKeyAndAlt(keyPrefix, keyPrefix);
          } else {
            e.addKey(keyPrefix);
          }
        }
        out.add(new Partition(prev, finishEntries(policy, e.toArray(), level)));
        e.reset();
        if (prefix != null && prefix.inDomain(prev)) {
          e.addKey(prefix.transform(prev));
        }
      }
      add(e, key);
      prev = key;
    }
    if (e.size() > 0) {
      out.add(new Partition(prev, finishEntries(policy, e.toArray(), level)));
    }
    return Collections.unmodifiableList(out);
  }

  /**
   * The top-level index block RocksDB writes after the partitions (its contents; the SST block
   * trailer is not included), for partitions written one after another from file offset {@code
   * firstPartitionOffset}, each followed by its 5-byte block trailer, as RocksDB writes them.
   *
   * <p>The block is RocksDB's key/value block ({@link KeyValueBlock}) with one entry per partition:
   * the separator as key (with an 8-byte internal-key footer of sequence 0 and type deletion, all
   * zero bytes, unless {@code userKeys}: the table property {@code rocksdb.index.key.is.user.key},
   * set where no two data blocks share a user key, as in every {@code SstFileWriter} file), the
   * partition's block handle as value; keys share prefixes and handles are delta-encoded within a
   * restart interval of {@code restartInterval} entries ({@code index_block_restart_interval},
   * default 1, i.e. never); {@code valueDeltaEncoded} (format_version ≥ 4) drops the value length.
   *
   * @param parts the partitions, in index order
   * @param firstPartitionOffset the file offset of the first partition
   * @param userKeys whether index keys are user keys (no internal-key footer)
   * @param valueDeltaEncoded whether values are delta-encoded (format_version ≥ 4)
   * @param restartInterval {@code index_block_restart_interval}
   * @return the index block
   * @throws IllegalArgumentException if {@code parts} is empty, the offset negative or the interval
   *     below 1
   */
  public static byte[] partitionIndexBlock(
      List<Partition> parts,
      long firstPartitionOffset,
      boolean userKeys,
      boolean valueDeltaEncoded,
      int restartInterval) {
    return PartitionIndexBlock.write(
        parts, firstPartitionOffset, userKeys, valueDeltaEncoded, restartInterval);
  }

  /**
   * The entries a partition holds before RocksDB cuts it, for {@code metadata_block_size}: the
   * builder's {@code ApproximateNumEntries} of {@code ceil(size × 0.9)} bytes (growing the size by
   * a quarter at a time where that is below one entry), less one with a prefix extractor.
   */
  long entriesPerPartition(long metadataBlockSize) {
    if (metadataBlockSize < 1 || metadataBlockSize > (1L << 31)) {
      throw new IllegalArgumentException(
          "metadata block (partition) size must be in [1, 2^31] bytes, got " + metadataBlockSize);
    }
    long partitionSize = Math.max(1, (metadataBlockSize * (100 - BLOCK_SIZE_DEVIATION) + 99) / 100);
    long k = policy.approximateNumEntries(partitionSize, level);
    if (k < 1) {
      long larger = Math.max(partitionSize + 4, 16);
      while (true) {
        k = policy.approximateNumEntries(larger, level);
        if (k >= 1) {
          break;
        }
        larger += larger / 4;
        if (larger > 100_000) {
          k = partitionSize;
          break;
        }
      }
    }
    if (k > 1 && prefix != null) {
      k--;
    }
    return k;
  }

  private void add(Entries e, byte[] key) {
    if (prefix != null && prefix.inDomain(key)) {
      byte[] p = prefix.transform(key);
      if (wholeKey) {
        e.addKeyAndAlt(key, p);
      } else {
        e.addKey(p);
      }
    } else if (wholeKey) {
      e.addKey(key);
    }
  }

  /** The hash entries of one filter as RocksDB's builder collects them. */
  private static final class Entries {
    private long[] hashes = new long[64];
    private int n;
    private boolean hasPrevAlt;
    private long prevAlt;

    int size() {
      return n;
    }

    void addKey(byte[] key) {
      long h = KeyHash.hash64(key);
      if (n == 0 || h != hashes[n - 1]) {
        push(h);
      }
    }

    void addKeyAndAlt(byte[] key, byte[] alt) {
      long keyHash = KeyHash.hash64(key);
      long altHash = KeyHash.hash64(alt);
      boolean hasPrevKey = n > 0;
      long prevKey = hasPrevKey ? hashes[n - 1] : 0;
      boolean hadPrevAlt = hasPrevAlt;
      long oldPrevAlt = prevAlt;
      if (!(hadPrevAlt && altHash == oldPrevAlt)
          && altHash != keyHash
          && !(hasPrevKey && altHash == prevKey)) {
        push(altHash);
      }
      hasPrevAlt = true;
      prevAlt = altHash;
      if (!(hasPrevKey && keyHash == prevKey) && !(hadPrevAlt && keyHash == oldPrevAlt)) {
        push(keyHash);
      }
    }

    private void push(long h) {
      if (n == hashes.length) {
        hashes = Arrays.copyOf(hashes, n * 2);
      }
      hashes[n++] = h;
    }

    long[] toArray() {
      return Arrays.copyOf(hashes, n);
    }

    void reset() {
      n = 0;
      hasPrevAlt = false;
    }
  }
}
