package dev.sieve.cli;

import dev.sieve.SieveFormatException;
import dev.sieve.sst.Footer;
import dev.sieve.sst.SstFile;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The last resort of {@code inspect} and {@code query} for a file no {@link InputKind} recognised.
 * A file ending in one of RocksDB's table magics is some SST, and the SST reader names what is
 * wrong with it; anything else is named as what it is, a file none of the readers recognises, with
 * the forms that were tried, rather than with the SST reader's complaint about a footer the user
 * never meant the file to have.
 */
final class UnrecognisedInput {
  private UnrecognisedInput() {}

  /** The one line for a file no reader recognises. */
  static final String MESSAGE =
      "not a file Sieve recognises: tried a RocksDB SST (no table magic in its last 8 bytes: not"
          + " an SST, or one truncated), a Sieve container (magic \\x89SIEVE), a raw filter block"
          + " (a FastLocalBloom or Ribbon trailer, or a *.block name), Parquet (PAR1), ORC and"
          + " the Guava, Spark, DataSketches and Cassandra filter forms (--format names one)";

  /**
   * Opens {@code file} as an SST if it is one ({@code kind} {@link InputKind#SST}) or ends in
   * another RocksDB table magic ({@link InputKind#OTHER}: the reader names the table format).
   *
   * @throws SieveFormatException if {@code file} is of kind {@code OTHER} and no SST at all
   */
  static SstFile openSst(Path file, InputKind kind) throws IOException {
    if (kind == InputKind.OTHER && !Footer.isTableMagic(lastLong(file))) {
      throw new SieveFormatException(0, MESSAGE);
    }
    return SstFile.open(file);
  }

  private static long lastLong(Path file) throws IOException {
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
      long size = ch.size();
      if (size < 8) {
        return 0;
      }
      ByteBuffer b = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN);
      while (b.hasRemaining() && ch.read(b, size - 8 + b.position()) > 0) {
        // fill
      }
      return b.hasRemaining() ? 0 : b.getLong(0);
    }
  }
}
