package dev.sieve.bloom;

import dev.sieve.KeyScheme;
import java.nio.ByteBuffer;

/**
 * The scalable Bloom filter's payload without the container, for the tests of other packages (the
 * fuzz targets, the parameter checks): the form is package-private, users persist through {@code
 * SieveFormat}.
 */
public final class ScalableBloomRawForm {
  private ScalableBloomRawForm() {}

  /** The payload of {@code filter}. */
  public static byte[] bytes(ScalableBloomFilter filter) {
    return filter.toByteArray();
  }

  /** The payload read onto the heap, its keys hashed by {@code scheme}. */
  public static ScalableBloomFilter read(byte[] payload, KeyScheme scheme) {
    return ScalableBloomFilter.fromByteArray(payload, scheme);
  }

  /** The payload in {@code buffer}'s remaining bytes, queried in place. */
  public static ScalableBloomFilter wrap(ByteBuffer buffer, KeyScheme scheme) {
    return ScalableBloomFilter.wrap(buffer, scheme);
  }
}
