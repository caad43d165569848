package dev.sieve.hash;

import java.nio.ByteBuffer;

/** TEMPORARY SKELETON: being written on branch hash; replaced before the first landing. */
public final class Xxph3 {
  private Xxph3() {}

  public static long hash64(byte[] data, int off, int len, long seed) {
    throw new UnsupportedOperationException("skeleton");
  }

  public static long hash64(ByteBuffer data, int off, int len, long seed) {
    throw new UnsupportedOperationException("skeleton");
  }

  public static long hash64BigEndianLong(long value, long seed) {
    throw new UnsupportedOperationException("skeleton");
  }
}
