package dev.sieve.format;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.SieveFormatException;
import dev.sieve.expand.ExpandableFilter;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

/**
 * An expandable container whose header's key count, size or parameter A or B disagrees with the
 * payload's own header is refused from the headers alone, before the table is decoded: shown on a
 * table of garbage, which decoding refuses for what it is, while the header check refuses it first,
 * naming the header field; through every reader (bytes, stream, wrapped buffer, mapped file in one
 * buffer and in segments).
 */
class ExpandableHeaderCheckTest {

  /** The expandable payload's own header: the table starts after it. */
  private static final int PAYLOAD_HEADER = 32;

  /** A container of 5000 keys whose table words are all ones but the last (padding kept 0). */
  private static byte[] garbageTable() {
    ExpandableFilter f = ExpandableFilter.builder().fpRate(0.01).create();
    SplittableRandom rnd = new SplittableRandom(17);
    for (int i = 0; i < 5000; i++) {
      f.add(rnd.nextLong());
    }
    byte[] bytes = SieveFormat.toBytes(f);
    int tableStart = SieveFormat.HEADER_BYTES + PAYLOAD_HEADER;
    int lastWord = bytes.length - SieveFormat.CHECKSUM_BYTES - Long.BYTES;
    Arrays.fill(bytes, tableStart, lastWord, (byte) 0xFF);
    return TestFilters.fixChecksums(bytes);
  }

  private static byte[] withIntField(byte[] bytes, int offset, int delta) {
    ByteBuffer b = ByteBuffer.wrap(bytes.clone()).order(ByteOrder.LITTLE_ENDIAN);
    b.putInt(offset, b.getInt(offset) + delta);
    return TestFilters.fixChecksums(b.array());
  }

  private static byte[] withKeyCount(byte[] bytes, long delta) {
    ByteBuffer b = ByteBuffer.wrap(bytes.clone()).order(ByteOrder.LITTLE_ENDIAN);
    b.putLong(SieveFormat.KEYS_OFFSET, b.getLong(SieveFormat.KEYS_OFFSET) + delta);
    return TestFilters.fixChecksums(b.array());
  }

  /** The messages of every reader's refusal. */
  private static List<String> refusals(byte[] bytes, Path dir) throws IOException {
    Path file = Files.write(dir.resolve("f" + Arrays.hashCode(bytes) + ".sieve"), bytes);
    List<Executable> readers =
        List.of(
            () -> SieveFormat.read(bytes),
            () -> SieveFormat.read(new ByteArrayInputStream(bytes)),
            () -> SieveFormat.wrap(ByteBuffer.wrap(bytes)),
            () -> MappedSieveFile.open(file, true).close(),
            // in segments of 1 KiB, as a payload past one buffer is mapped
            () -> MappedSieveFile.open(file, true, 10, 1024).close());
    List<String> out = new ArrayList<>();
    for (Executable reader : readers) {
      out.add(assertThrows(SieveFormatException.class, reader).getMessage());
    }
    return out;
  }

  private static void assertAllContain(List<String> messages, String expected) {
    for (String m : messages) {
      assertTrue(m.contains(expected), m);
    }
  }

  @Test
  void aGarbageTableIsRefusedByItsDecoding(@TempDir Path dir) throws IOException {
    for (String m : refusals(garbageTable(), dir)) {
      assertFalse(m.contains("header"), m);
    }
  }

  @Test
  void aWrongKeyCountIsRefusedBeforeTheTableIsDecoded(@TempDir Path dir) throws IOException {
    assertAllContain(
        refusals(withKeyCount(garbageTable(), 1), dir),
        "header key count 5001, payload holds 5000");
  }

  @Test
  void wrongParametersOrSizeAreRefusedBeforeTheTableIsDecoded(@TempDir Path dir)
      throws IOException {
    byte[] garbage = garbageTable();
    assertAllContain(
        refusals(withIntField(garbage, SieveFormat.PARAM_A_OFFSET, 1), dir), "header parameter A");
    assertAllContain(
        refusals(withIntField(garbage, SieveFormat.PARAM_B_OFFSET, -1), dir), "header parameter B");
    ByteBuffer b = ByteBuffer.wrap(garbage.clone()).order(ByteOrder.LITTLE_ENDIAN);
    b.putLong(SieveFormat.SIZE_OFFSET, b.getLong(SieveFormat.SIZE_OFFSET) + 64);
    assertAllContain(refusals(TestFilters.fixChecksums(b.array()), dir), "header size");
  }
}
