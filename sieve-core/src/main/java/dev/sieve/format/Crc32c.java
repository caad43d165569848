package dev.sieve.format;

import dev.sieve.SieveFormatException;
import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/**
 * The container's CRC32C: computing it over a buffer, and the one mismatch message that names the
 * offset of the stored checksum (header and payload alike).
 */
final class Crc32c {
  private Crc32c() {}

  /** {@return the CRC32C of {@code data}'s remaining bytes} The buffer's position is advanced. */
  static int of(ByteBuffer data) {
    CRC32C crc = new CRC32C();
    crc.update(data);
    return (int) crc.getValue();
  }

  /** Throws a {@link SieveFormatException} at {@code offset} if the two checksums differ. */
  static void check(long offset, int computed, int stored) {
    if (computed != stored) {
      throw new SieveFormatException(
          offset,
          "checksum mismatch: stored CRC32C 0x"
              + Integer.toHexString(stored)
              + ", computed 0x"
              + Integer.toHexString(computed)
              + " (the data is corrupt)");
    }
  }
}
