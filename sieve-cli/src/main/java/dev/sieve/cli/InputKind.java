package dev.sieve.cli;

import dev.sieve.format.SieveFormat;
import dev.sieve.sst.Footer;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * What a path given to {@code inspect} or {@code query} is, decided by its magic: the kinds are
 * tried in declaration order and the first whose test holds wins. A new kind is one more constant
 * here (and its case in the commands).
 */
enum InputKind {
  /**
   * The directory {@code sieve build --partition-size} writes: {@code index.tsv} and its {@code
   * partition-NNNNN.block} files (the first, {@code partition-00000.block}, at least), and no
   * {@code CURRENT} (a database directory has one).
   */
  PARTITIONED_FILTER(
      (p, head, tail, size) ->
          Files.isDirectory(p)
              && Files.isRegularFile(p.resolve(OtherInputs.PARTITION_INDEX))
              && Files.isRegularFile(p.resolve("partition-00000.block"))
              && !Files.exists(p.resolve("CURRENT"))),
  /** A RocksDB database directory (CURRENT + MANIFEST, or a directory of *.sst). */
  DATABASE((p, head, tail, size) -> Files.isDirectory(p)),
  /** Sieve's own container, {@link SieveFormat}: its magic in the first 8 bytes. */
  SIEVE_CONTAINER((p, head, tail, size) -> size >= 8 && head == SieveFormat.MAGIC),
  /** A RocksDB block-based SST file: the table magic in the last 8 bytes. */
  SST((p, head, tail, size) -> size >= Footer.ENCODED_LENGTH && tail == Footer.BLOCK_BASED_MAGIC),
  /**
   * Another system's filter in its own form ({@link dev.sieve.interop.ForeignFormat}: Guava, Spark,
   * DataSketches, Cassandra), recognised by its header fields and a size that matches them exactly.
   */
  FOREIGN((p, head, tail, size) -> ForeignFileReader.recognize(p) != null),
  /**
   * A raw RocksDB filter block as {@code sieve build} writes it: no magic of its own, recognised by
   * its 5-byte metadata trailer (FastLocalBloom marker −1 with a 64-byte line layout, or Ribbon
   * marker −2), or any {@code *.block} file (legacy Bloom blocks have no marker).
   */
  FILTER_BLOCK(
      (p, head, tail, size) ->
          size > 5 && (looksLikeFilterBlock(p, size) || p.toString().endsWith(".block"))),
  /** Anything else: read as an SST, whose reader names what is wrong (foreign magic, truncated). */
  OTHER((p, head, tail, size) -> true);

  @FunctionalInterface
  private interface Test {
    boolean matches(Path p, long head, long tail, long size) throws IOException;
  }

  private final Test test;

  InputKind(Test test) {
    this.test = test;
  }

  /**
   * Whether {@code file} is a regular file that starts with Parquet's magic {@code PAR1} (a Parquet
   * file is handed to {@code ParquetCliSupport} before its kind is asked). Here rather than there
   * because that class names picocli and {@link FastQuery} must not load it.
   */
  static boolean isParquet(Path file) {
    if (!Files.isRegularFile(file)) {
      return false;
    }
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
      ByteBuffer head = ByteBuffer.allocate(4);
      while (head.hasRemaining() && ch.read(head) >= 0) {
        // read up to 4 bytes
      }
      return dev.sieve.parquet.ParquetFile.hasMagic(head.array()) && head.position() == 4;
    } catch (IOException e) {
      return false; // the command's own reader reports the file
    }
  }

  /**
   * Whether {@code file} is a regular file that starts with ORC's magic {@code ORC} (an ORC file is
   * handed to {@code OrcCliSupport} before its kind is asked), for the same reason as {@link
   * #isParquet}.
   */
  static boolean isOrc(Path file) {
    if (!Files.isRegularFile(file)) {
      return false;
    }
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
      ByteBuffer head = ByteBuffer.allocate(3);
      while (head.hasRemaining() && ch.read(head) >= 0) {
        // read up to 3 bytes
      }
      return head.position() == 3 && head.get(0) == 'O' && head.get(1) == 'R' && head.get(2) == 'C';
    } catch (IOException e) {
      return false; // the command's own reader reports the file
    }
  }

  /** The kind of {@code path}. */
  static InputKind of(Path path) throws IOException {
    long size = 0;
    long head = 0;
    long tail = 0;
    if (!Files.isDirectory(path)) {
      try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ)) {
        size = ch.size();
        head = readLong(ch, 0, size);
        tail = readLong(ch, size - 8, size);
      }
    }
    for (InputKind k : values()) {
      if (k.test.matches(path, head, tail, size)) {
        return k;
      }
    }
    throw new AssertionError("OTHER matches everything");
  }

  private static long readLong(FileChannel ch, long at, long size) throws IOException {
    if (at < 0 || at + 8 > size) {
      return 0;
    }
    ByteBuffer b = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN);
    while (b.hasRemaining() && ch.read(b, at + b.position()) > 0) {
      // fill
    }
    return b.hasRemaining() ? 0 : b.getLong(0);
  }

  private static boolean looksLikeFilterBlock(Path p, long size) throws IOException {
    if (size > Integer.MAX_VALUE) {
      return false;
    }
    byte[] t = new byte[5];
    try (FileChannel ch = FileChannel.open(p, StandardOpenOption.READ)) {
      ByteBuffer b = ByteBuffer.wrap(t);
      while (b.hasRemaining() && ch.read(b, size - 5 + b.position()) > 0) {
        // fill
      }
    }
    long data = size - 5;
    if (t[0] == -1) {
      // FastLocalBloom: sub-implementation 0, 64-byte lines, 1..30 probes, two zero bytes
      int probes = t[2] & 31;
      return t[1] == 0
          && (t[2] & 0xE0) == 0
          && probes >= 1
          && t[3] == 0
          && t[4] == 0
          && data % 64 == 0;
    }
    if (t[0] == -2) {
      return data % 16 == 0 && data > 0;
    }
    return false;
  }
}
