package dev.sieve.spark;

import dev.sieve.bloom.BlockedBloomFilter;
import dev.sieve.bloom.FastLocalBloomSizing;
import dev.sieve.format.SieveFormat;
import java.util.Objects;
import org.apache.spark.sql.Encoder;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.expressions.Aggregator;

/**
 * A Spark {@link Aggregator} building one Sieve {@link BlockedBloomFilter} of a fixed shape over a
 * key column: each partition adds its keys to its own buffer (an empty filter of the shape), {@code
 * merge} ORs two buffers ({@link BlockedBloomFilter#union}), and the result is the filter in the
 * Sieve container format ({@link SieveFormat}), a {@code binary} value.
 *
 * <h2>Shape</h2>
 *
 * Fixed by {@code (expectedItems, fpp)} before any key is seen, so that every partition's buffer
 * has the same shape and buffers can be ORed: RocksDB's sizing for {@code expectedItems} keys at
 * the bits per key whose modelled FPR is at most {@code fpp} ({@link
 * FastLocalBloomSizing#millibitsPerKeyForFpRate}, {@link FastLocalBloomSizing#rocksDbDataBytes}, at
 * least one 64-byte block) and that setting's probe count. Adding more keys than expected raises
 * the FPR as for any Bloom filter (the result's {@code modelledFpRate()} follows its key count).
 *
 * <h2>Determinism</h2>
 *
 * A Bloom filter's bits are the OR of its keys' bits, so the data is the same however Spark splits,
 * orders, merges or retries the work: byte-identical to {@link #singleJvm} over the same keys. The
 * key count in the container is {@code round(approximateElementCount())}, the estimate from the
 * bits that {@link BlockedBloomFilter#union} uses (an OR-mergeable filter cannot count distinct
 * keys exactly), so it too depends on the keys alone.
 *
 * <h2>Nulls</h2>
 *
 * Null keys are skipped, as SQL aggregates skip nulls: a null is never in the filter, and the
 * semi-join filter ({@link SieveSpark#filterBy}) drops null keys, as an inner join would.
 *
 * @param <IN> the input: the key ({@link KeyType}'s Java class), or its Sieve hash ({@code Long})
 */
public final class BloomAggregator<IN> extends Aggregator<IN, BloomBuffer, byte[]> {
  private static final long serialVersionUID = 1L;

  private final KeyType keyType; // null: the input is the key hash
  private final long dataBytes;
  private final int numProbes;

  private BloomAggregator(KeyType keyType, long expectedItems, double fpp) {
    this.keyType = keyType;
    if (expectedItems < 1) {
      throw new IllegalArgumentException("expected items must be at least 1, got " + expectedItems);
    }
    if (!(fpp > 0 && fpp < 1)) {
      throw new IllegalArgumentException("fpp must be in (0, 1), got " + fpp);
    }
    int millibits = FastLocalBloomSizing.millibitsPerKeyForFpRate(fpp);
    long bytes = FastLocalBloomSizing.rocksDbDataBytes(expectedItems, millibits);
    if (bytes > BlockedBloomFilter.MAX_DATA_BYTES) {
      throw new IllegalArgumentException(
          expectedItems
              + " items at fpp "
              + fpp
              + " need "
              + bytes
              + " bytes, past one blocked Bloom filter's "
              + BlockedBloomFilter.MAX_DATA_BYTES
              + "; build a sharded filter (SieveSpark.buildFilter)");
    }
    this.dataBytes = Math.max(BlockedBloomFilter.BLOCK_BYTES, bytes);
    this.numProbes = FastLocalBloomSizing.chooseNumProbes(millibits);
  }

  /** An aggregator over keys of {@code keyType} (input: the key column). */
  public static <T> BloomAggregator<T> overKeys(KeyType keyType, long expectedItems, double fpp) {
    return new BloomAggregator<>(Objects.requireNonNull(keyType), expectedItems, fpp);
  }

  /** An aggregator over Sieve key hashes (input: {@link SieveSpark#keyHash} of the key column). */
  public static BloomAggregator<Long> overHashes(long expectedItems, double fpp) {
    return new BloomAggregator<>(null, expectedItems, fpp);
  }

  /** The encoder of this aggregator's input, for {@code functions.udaf}. */
  public Encoder<IN> inputEncoder() {
    return keyType == null ? castEncoder(Encoders.LONG()) : keyType.encoder();
  }

  @SuppressWarnings("unchecked")
  private static <T> Encoder<T> castEncoder(Encoder<?> e) {
    return (Encoder<T>) e;
  }

  /** The empty filter of this aggregator's shape. */
  public BlockedBloomFilter emptyFilter() {
    return BlockedBloomFilter.withShape(dataBytes, numProbes);
  }

  /**
   * The result this aggregator gives over {@code keyHashes}, built in one JVM: the reference a
   * Spark result is compared with.
   */
  public byte[] singleJvm(long[] keyHashes) {
    BlockedBloomFilter f = emptyFilter();
    for (long h : keyHashes) {
      f.addHash(h);
    }
    return container(f);
  }

  /** The container of a filter, with the key count estimated from its bits (see above). */
  static byte[] container(BlockedBloomFilter f) {
    long estimate = Math.round(f.approximateElementCount());
    return SieveFormat.toBytes(
        BlockedBloomFilter.fromRocksDbFilterBlock(f.toRocksDbFilterBlock(), estimate));
  }

  @Override
  public BloomBuffer zero() {
    return new BloomBuffer(emptyFilter());
  }

  @Override
  public BloomBuffer reduce(BloomBuffer buffer, IN key) {
    if (key != null) {
      buffer.filter().addHash(keyType == null ? (Long) key : keyType.hash(key));
    }
    return buffer;
  }

  /**
   * ORs {@code b2} into {@code b1}.
   *
   * @throws IllegalArgumentException if the buffers differ in shape (size or probes), naming both
   */
  @Override
  public BloomBuffer merge(BloomBuffer b1, BloomBuffer b2) {
    BlockedBloomFilter a = b1.filter();
    BlockedBloomFilter b = b2.filter();
    if (a.numBlocks() != b.numBlocks() || a.numProbes() != b.numProbes()) {
      throw new IllegalArgumentException(
          "cannot merge Bloom buffers of different shapes: "
              + a.sizeInBytes()
              + " bytes and "
              + a.numProbes()
              + " probes with "
              + b.sizeInBytes()
              + " bytes and "
              + b.numProbes()
              + " probes (every partition must use the same expected items and fpp)");
    }
    a.union(b);
    return b1;
  }

  @Override
  public byte[] finish(BloomBuffer buffer) {
    return container(buffer.filter());
  }

  @Override
  public Encoder<BloomBuffer> bufferEncoder() {
    return Encoders.javaSerialization(BloomBuffer.class);
  }

  @Override
  public Encoder<byte[]> outputEncoder() {
    return Encoders.BINARY();
  }
}
