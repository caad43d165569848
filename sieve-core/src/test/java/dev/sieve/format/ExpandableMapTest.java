package dev.sieve.format;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.SieveFormatException;
import dev.sieve.expand.ExpandableFilter;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The path an expandable container over 2 GiB takes through {@link SieveFormat#map} and {@link
 * MappedSieveFile}: the payload mapped in segments by the form's {@code mapLarge}, forced here with
 * 1 KiB segments and a one-buffer limit of 0 (the segment reader itself, at 8 B to 4 KiB against
 * the heap filter, is {@code dev.sieve.expand.ExpandableSegmentsTest}'s). A file shorter than its
 * header says, a corrupt payload, and a file changed while mapped get the typed errors of the other
 * mapped forms.
 */
class ExpandableMapTest {
  @TempDir Path dir;

  private static ExpandableFilter grown(int keys) {
    ExpandableFilter f = ExpandableFilter.builder().fpRate(0.01).create();
    SplittableRandom r = new SplittableRandom(41);
    for (int i = 0; i < keys; i++) {
      f.add(r.nextLong());
    }
    return f;
  }

  @Test
  void aContainerIsMappedInSegmentsAndWrittenBackStreamed() throws IOException {
    ExpandableFilter filter = grown(20_000);
    Path file = dir.resolve("grown.sieve");
    SieveFormat.write(filter, file);
    byte[] bytes = Files.readAllBytes(file);
    assertArrayEquals(SieveFormat.toBytes(filter), bytes); // the streamed write: the same bytes
    ExpandableFilter mapped = (ExpandableFilter) SieveFormat.map(file, true, 10, 0);
    assertEquals(filter, mapped);
    SplittableRandom r = new SplittableRandom(41);
    for (int i = 0; i < 20_000; i++) {
      assertTrue(mapped.mayContain(r.nextLong()));
    }
    SplittableRandom random = new SplittableRandom(6);
    for (int i = 0; i < 20_000; i++) {
      long h = random.nextLong();
      assertEquals(filter.mayContainHash(h), mapped.mayContainHash(h));
    }
    assertArrayEquals(bytes, SieveFormat.toBytes(mapped));
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    SieveFormat.write(mapped, Channels.newChannel(out));
    assertArrayEquals(bytes, out.toByteArray());
    assertThrows(UnsupportedOperationException.class, () -> mapped.add(1L));
  }

  @Test
  void badFilesGetTypedErrors() throws IOException {
    byte[] bytes = SieveFormat.toBytes(grown(5_000));
    Path file = dir.resolve("bad.sieve");
    // shorter than its header says: refused by the container before the form maps anything
    Files.write(file, java.util.Arrays.copyOf(bytes, bytes.length - 100));
    assertThrows(SieveFormatException.class, () -> SieveFormat.map(file, false, 10, 0));
    // eight payload bytes flipped in a later segment: the checksum pass, then the form's block
    // checks
    byte[] flipped = bytes.clone();
    int at = bytes.length - 4 - 200;
    for (int i = 0; i < 8; i++) {
      flipped[at + i] ^= (byte) 0xFF;
    }
    Files.write(file, flipped);
    SieveFormatException e =
        assertThrows(SieveFormatException.class, () -> SieveFormat.map(file, true, 10, 0));
    assertEquals(bytes.length - 4, e.offset(), e.getMessage());
    e = assertThrows(SieveFormatException.class, () -> SieveFormat.map(file, false, 10, 0));
    assertTrue(
        e.offset() >= SieveFormat.HEADER_BYTES && e.offset() <= at,
        "a file offset in the payload, at or before the flipped byte: " + e.getMessage());
    SieveFormatException wrapped =
        assertThrows(
            SieveFormatException.class, () -> SieveFormat.wrap(ByteBuffer.wrap(flipped), false));
    assertTrue(
        wrapped.getMessage().contains(e.getMessage().replaceFirst("^at offset \\d+: ", "")),
        wrapped.getMessage() + " / " + e.getMessage());
  }

  @Test
  void aFileChangedWhileMappedFailsVerify() throws IOException {
    ExpandableFilter filter = grown(5_000);
    Path file = dir.resolve("live.sieve");
    SieveFormat.write(filter, file);
    long size = Files.size(file);
    try (MappedSieveFile mapped = MappedSieveFile.open(file, true, 10, 0)) {
      assertEquals(filter, mapped.filter(ExpandableFilter.class));
      mapped.verify();
      try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
        ch.write(ByteBuffer.wrap(new byte[] {0x55, 0x55}), size - 4 - 300);
      }
      SieveFormatException e = assertThrows(SieveFormatException.class, mapped::verify);
      assertTrue(e.getMessage().contains("changed underneath"), e.getMessage());
      try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
        ch.truncate(size - 1000);
      }
      e = assertThrows(SieveFormatException.class, mapped::verify);
      assertTrue(e.getMessage().contains("truncated"), e.getMessage());
    }
  }
}
