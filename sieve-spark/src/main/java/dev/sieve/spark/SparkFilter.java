package dev.sieve.spark;

import dev.sieve.Filter;
import dev.sieve.MergeableFilter;
import dev.sieve.format.SieveFormat;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Objects;

/**
 * A Sieve filter together with the {@link KeyType} of its keys: what {@link SieveSpark} builds and
 * what its queries take, so that a filter is never queried with a column of another key type (the
 * container holds hashes, not the type: a {@code string} column queried against a {@code bigint}
 * filter would otherwise answer "absent" for every key, silently).
 */
public final class SparkFilter {
  private final Filter filter;
  private final KeyType keyType;

  private SparkFilter(Filter filter, KeyType keyType) {
    this.filter = Objects.requireNonNull(filter, "filter");
    this.keyType = Objects.requireNonNull(keyType, "keyType");
  }

  /** A filter of any Sieve type whose keys are of {@code keyType}. */
  public static SparkFilter of(Filter filter, KeyType keyType) {
    return new SparkFilter(filter, keyType);
  }

  /**
   * A filter read from a Sieve container (e.g. the value of {@link SieveSpark#bloomFilter}).
   *
   * @throws dev.sieve.SieveFormatException if the bytes are not a valid container
   */
  public static SparkFilter fromBytes(byte[] container, KeyType keyType) {
    return new SparkFilter(SieveFormat.read(container), keyType);
  }

  /**
   * Memory-maps a container file written by {@link #write} (or any Sieve container) and queries it
   * in place ({@link SieveFormat#map}); {@code keyType} must be the type it was built over.
   */
  public static SparkFilter map(Path file, KeyType keyType) throws IOException {
    return new SparkFilter(SieveFormat.map(file), keyType);
  }

  /**
   * Writes the filter as a Sieve container to {@code file}, atomically ({@link
   * SieveFormat#write(Filter, Path)}); any JVM reads it back with {@code SieveFormat.map(file)}.
   */
  public void write(Path file) throws IOException {
    SieveFormat.write(filter, file);
  }

  /** The container bytes. */
  public byte[] toBytes() {
    return SieveFormat.toBytes(filter);
  }

  public Filter filter() {
    return filter;
  }

  public KeyType keyType() {
    return keyType;
  }

  /** Tests one key, a value of {@link #keyType()}'s Java class. */
  public boolean mayContain(Object key) {
    return filter.mayContainHash(keyType.hash(Objects.requireNonNull(key, "key")));
  }

  /**
   * Whether {@link #filter()}'s key count is an estimate: so for the OR-mergeable (Bloom) filters,
   * whose count after a merge is estimated from the set bits ({@link MergeableFilter#union}), as
   * for every result of {@link SieveSpark#bloomFilter} (the container does not say whether a filter
   * was merged, so a Bloom filter's count is always treated as one); exact for the other types,
   * which count the keys they are built from.
   *
   * @return true if the key count is an estimate
   */
  public boolean keyCountEstimated() {
    return filter instanceof MergeableFilter;
  }

  /**
   * The key type, the key count and the filter: an estimated count (a Bloom filter's, {@link
   * #keyCountEstimated()}) reads {@code keys≈1000353 (estimated from the set bits)}; an exact one
   * is the filter's own {@code keys=1000000}.
   */
  @Override
  public String toString() {
    long n = filter.numKeys();
    String described = filter.toString();
    if (!keyCountEstimated()) {
      return "SparkFilter{" + keyType + " keys, " + described + "}";
    }
    // the Bloom filters' own toString labels the count "keys=": drop it, the estimate is above
    String shape = described.replace(", keys=" + n, "");
    return "SparkFilter{"
        + keyType
        + " keys, keys\u2248"
        + n
        + " (estimated from the set bits), "
        + shape
        + "}";
  }
}
