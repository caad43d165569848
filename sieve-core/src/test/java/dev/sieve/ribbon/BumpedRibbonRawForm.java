package dev.sieve.ribbon;

import dev.sieve.KeyScheme;
import java.nio.ByteBuffer;

/**
 * The Bumped Ribbon filter's payload without the container, for the tests of other packages (the
 * fuzz targets, the parameter checks): the form is package-private, users persist through {@code
 * SieveFormat}.
 */
public final class BumpedRibbonRawForm {
  private BumpedRibbonRawForm() {}

  /** The payload of {@code filter}. */
  public static byte[] bytes(BumpedRibbonFilter filter) {
    return filter.toByteArray();
  }

  /** The payload read onto the heap, its keys hashed by {@code scheme}. */
  public static BumpedRibbonFilter read(byte[] payload, KeyScheme scheme) {
    return BumpedRibbonFilter.fromByteArray(payload, scheme);
  }

  /** The payload in {@code buffer}'s remaining bytes, queried in place. */
  public static BumpedRibbonFilter wrap(ByteBuffer buffer, KeyScheme scheme) {
    return BumpedRibbonFilter.wrap(buffer, scheme);
  }
}
