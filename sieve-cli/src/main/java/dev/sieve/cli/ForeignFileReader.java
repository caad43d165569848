package dev.sieve.cli;

import dev.sieve.SieveFormatException;
import dev.sieve.interop.ForeignBloomFilter;
import dev.sieve.interop.ForeignFormat;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;

/**
 * Recognizes a foreign filter file by its name and first bytes ({@link
 * ForeignFormat#recognize(String, ByteBuffer, long)}), and reads one with every read bounded by the
 * form's own limit, whatever the file claims to be. A regular file's size is checked before it is
 * read; a device, a FIFO or anything else whose size the file system does not give ({@code
 * /dev/zero} has size 0 and never ends) is read only as far as its header says the filter goes, and
 * refused when the header asks for more than the form holds or the input goes on past the filter.
 */
final class ForeignFileReader {
  private ForeignFileReader() {}

  /** The bytes read before the header is decoded: more than any form's header needs. */
  static final int HEAD_BYTES = ForeignFormat.HEAD_BYTES;

  /**
   * The form {@code file} has by its name (Cassandra's {@code *-Filter.db}) or structure, or {@code
   * null} (also for anything but a regular file).
   *
   * @throws SieveFormatException for a Cassandra file name of a version Sieve does not read
   */
  static ForeignFormat recognize(Path file) throws IOException {
    if (!Files.isRegularFile(file)) {
      return null;
    }
    Path name = file.getFileName();
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
      long size = ch.size();
      ByteBuffer head = ByteBuffer.allocate((int) Math.min(HEAD_BYTES, size));
      while (head.hasRemaining() && ch.read(head) > 0) {
        // fill
      }
      head.flip();
      return ForeignFormat.recognize(name == null ? null : name.toString(), head, size);
    }
  }

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
                + form.formatName()
                + " header gives (read stopped there)");
      }
      return f;
    }
  }

  private static SieveFormatException overLimit(ForeignFormat form, String what, long limit) {
    return new SieveFormatException(
        0,
        "a "
            + form.formatName()
            + " filter file with "
            + what
            + " is over the limit of "
            + limit
            + " bytes for that form");
  }
}
