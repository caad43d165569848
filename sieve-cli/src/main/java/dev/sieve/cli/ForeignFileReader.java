package dev.sieve.cli;

import dev.sieve.SieveFormatException;
import dev.sieve.interop.ForeignBloomFilter;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Reads a foreign filter file with every read bounded by the form's own limit, whatever the file
 * claims to be. A regular file's size is checked before it is read; a device, a FIFO or anything
 * else whose size the file system does not give ({@code /dev/zero} has size 0 and never ends) is
 * read only as far as its header says the filter goes, and refused when the header asks for more
 * than the form holds or the input goes on past the filter.
 */
final class ForeignFileReader {
  private ForeignFileReader() {}

  /** The bytes read before the header is decoded: more than any form's header needs. */
  static final int HEAD_BYTES = 24;

  /**
   * {@code file} read as {@code form}, at most {@link ForeignFormat#maxBytes()} bytes of it.
   *
   * @throws SieveFormatException naming the limit when the file is larger than the form allows, or
   *     the form's own typed error
   */
  static ForeignBloomFilter read(Path file, ForeignFormat form) throws IOException {
    long limit = form.maxBytes();
    long size = Files.isRegularFile(file) ? Files.size(file) : 0;
    if (size > limit) {
      throw overLimit(form, size + " bytes", limit);
    }
    if (size > 0) {
      return form.read(Files.readAllBytes(file));
    }
    try (InputStream in = Files.newInputStream(file)) {
      byte[] head = in.readNBytes(HEAD_BYTES);
      long claimed = form.claimedBytes(ByteBuffer.wrap(head));
      if (claimed > limit) {
        throw overLimit(form, "a header that gives " + claimed + " bytes", limit);
      }
      byte[] bytes;
      if (claimed < 0) {
        bytes = head; // too short to say, or a header the form's reader refuses
      } else if (claimed <= head.length) {
        bytes = Arrays.copyOf(head, (int) claimed);
      } else {
        byte[] rest = in.readNBytes((int) (claimed - head.length));
        bytes = Arrays.copyOf(head, head.length + rest.length);
        System.arraycopy(rest, 0, bytes, head.length, rest.length);
      }
      boolean more = bytes.length < head.length || bytes.length == claimed && in.read() >= 0;
      ForeignBloomFilter f = form.read(bytes); // a field the form refuses is named first
      if (more) {
        throw new SieveFormatException(
            bytes.length,
            "the input goes on past the "
                + bytes.length
                + " bytes its "
                + form.cliName()
                + " header gives (read stopped there)");
      }
      return f;
    }
  }

  private static SieveFormatException overLimit(ForeignFormat form, String what, long limit) {
    return new SieveFormatException(
        0,
        "a "
            + form.cliName()
            + " filter file with "
            + what
            + " is over the limit of "
            + limit
            + " bytes for that form");
  }
}
