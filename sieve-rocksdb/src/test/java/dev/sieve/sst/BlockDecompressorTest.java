package dev.sieve.sst;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.SieveFormatException;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.zip.Deflater;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

/**
 * {@link BlockDecompressor}: golden vectors hand-encoded from the formats' specifications (Snappy's
 * format_description.txt, the LZ4 block format, RFC 1951 stored blocks, RFC 8878 raw blocks) in
 * RocksDB's framing; a round trip through the JDK's raw deflater at window bits 14 as RocksDB's
 * zlib writes; the size bounds (a stated length past the limit, or past what the bytes can expand
 * to, is refused before anything is allocated); and properties: arbitrary or mutated bytes of every
 * type give a result or a {@link SieveFormatException}, never another exception, a hang or an
 * OutOfMemoryError. (Decompressing RocksDB's own blocks is tested in {@link SstVerifierTest}.)
 */
class BlockDecompressorTest {
  private static final byte[] ABC = "abc".getBytes(StandardCharsets.US_ASCII);

  private static byte[] bytes(int... b) {
    byte[] out = new byte[b.length];
    for (int i = 0; i < b.length; i++) {
      out[i] = (byte) b[i];
    }
    return out;
  }

  /** Snappy "abcabcabc": preamble 9, literal "abc" (tag 2<<2), copy-1 of 6 bytes at offset 3. */
  static final byte[] SNAPPY_GOLDEN = bytes(9, 0x08, 'a', 'b', 'c', 0x09, 0x03);

  /** LZ4, RocksDB-framed: varint 3, then one literal-only sequence (token 0x30) "abc". */
  static final byte[] LZ4_GOLDEN = bytes(3, 0x30, 'a', 'b', 'c');

  /** Zlib (raw deflate), RocksDB-framed: varint 3, a final stored block LEN 3, NLEN ~3, "abc". */
  static final byte[] ZLIB_GOLDEN = bytes(3, 0x01, 0x03, 0x00, 0xfc, 0xff, 'a', 'b', 'c');

  /**
   * ZSTD, RocksDB-framed: varint 3, then a frame: magic, descriptor 0x20 (single segment, 1-byte
   * content size) 3, one last raw block of 3 bytes (header 0x19 00 00), "abc".
   */
  static final byte[] ZSTD_GOLDEN =
      bytes(3, 0x28, 0xb5, 0x2f, 0xfd, 0x20, 0x03, 0x19, 0x00, 0x00, 'a', 'b', 'c');

  @Test
  void goldenVectors() {
    assertArrayEquals(
        "abcabcabc".getBytes(StandardCharsets.US_ASCII),
        BlockDecompressor.decompress(BlockDecompressor.SNAPPY, SNAPPY_GOLDEN, 0, "t"));
    assertArrayEquals(ABC, BlockDecompressor.decompress(BlockDecompressor.LZ4, LZ4_GOLDEN, 0, "t"));
    assertArrayEquals(
        ABC, BlockDecompressor.decompress(BlockDecompressor.LZ4HC, LZ4_GOLDEN, 0, "t"));
    assertArrayEquals(
        ABC, BlockDecompressor.decompress(BlockDecompressor.ZLIB, ZLIB_GOLDEN, 0, "t"));
    assertArrayEquals(
        ABC, BlockDecompressor.decompress(BlockDecompressor.ZSTD, ZSTD_GOLDEN, 0, "t"));
  }

  @Test
  void rawDeflateAtWindowBits14RoundTrips() {
    // RocksDB's zlib: deflateInit2 with window bits -14 (raw); the JDK's raw deflater uses 15,
    // which inflates the same way (a window of at most 2^15 covers 2^14)
    byte[] text = new byte[50_000];
    for (int i = 0; i < text.length; i++) {
      text[i] = (byte) ("key:%06d,".charAt(i % 9) + (i / 1000) % 7);
    }
    Deflater d = new Deflater(Deflater.BEST_COMPRESSION, true);
    d.setInput(text);
    d.finish();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(0x80 | (50_000 & 0x7f)); // varint32 of 50,000
    out.write(0x80 | ((50_000 >>> 7) & 0x7f));
    out.write(50_000 >>> 14);
    byte[] buf = new byte[4096];
    while (!d.finished()) {
      out.write(buf, 0, d.deflate(buf));
    }
    d.end();
    byte[] framed = out.toByteArray();
    assertTrue(framed.length < text.length / 4, "compressed: " + framed.length);
    assertArrayEquals(text, BlockDecompressor.decompress(BlockDecompressor.ZLIB, framed, 0, "t"));
  }

  @Test
  void aStatedLengthPastTheLimitIsRefusedBeforeAllocating() {
    // 4,294,967,295 stated for a 3-byte LZ4 payload
    byte[] b = bytes(0xff, 0xff, 0xff, 0xff, 0x0f, 0x30, 'a', 'b', 'c');
    SieveFormatException e =
        assertThrows(
            SieveFormatException.class,
            () -> BlockDecompressor.decompress(BlockDecompressor.LZ4, b, 4242, "index block"));
    assertTrue(
        e.getMessage().contains("4294967295")
            && e.getMessage().contains("limit of " + BlockDecompressor.MAX_DECOMPRESSED_BYTES)
            && e.getMessage().contains("index block (kLZ4Compression)"),
        e.getMessage());
    assertEquals(4242, e.offset());
    // a varint64 with the sign bit set (the reader takes a varint64) is refused the same way
    byte[] neg = bytes(0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01, 0x30);
    e =
        assertThrows(
            SieveFormatException.class,
            () -> BlockDecompressor.decompress(BlockDecompressor.ZSTD, neg, 0, "index block"));
    assertTrue(e.getMessage().contains("limit of"), e.getMessage());
  }

  @Test
  void aStatedLengthPastWhatTheBytesCanExpandToIsRefused() {
    // 1 MiB stated for 4 payload bytes: within the limit, but no LZ4 block of 4 bytes yields it
    byte[] b = bytes(0x80, 0x80, 0x40, 0x30, 'a', 'b', 'c');
    SieveFormatException e =
        assertThrows(
            SieveFormatException.class,
            () -> BlockDecompressor.decompress(BlockDecompressor.LZ4, b, 0, "index partition 3"));
    assertTrue(
        e.getMessage().contains("1048576") && e.getMessage().contains("can expand to"),
        e.getMessage());
    // the same for Snappy (its own preamble) and Zlib
    byte[] s = bytes(0x80, 0x80, 0x40, 0x08, 'a', 'b', 'c');
    assertThrows(
        SieveFormatException.class,
        () -> BlockDecompressor.decompress(BlockDecompressor.SNAPPY, s, 0, "t"));
    assertThrows(
        SieveFormatException.class,
        () -> BlockDecompressor.decompress(BlockDecompressor.ZLIB, b, 0, "t"));
  }

  @Test
  void aLengthOtherThanTheStatedOneIsCorrupt() {
    for (int type :
        new int[] {BlockDecompressor.LZ4, BlockDecompressor.ZLIB, BlockDecompressor.ZSTD}) {
      byte[] golden =
          type == BlockDecompressor.LZ4
              ? LZ4_GOLDEN
              : type == BlockDecompressor.ZLIB ? ZLIB_GOLDEN : ZSTD_GOLDEN;
      for (int stated : new int[] {2, 4}) {
        byte[] b = golden.clone();
        b[0] = (byte) stated;
        SieveFormatException e =
            assertThrows(
                SieveFormatException.class,
                () -> BlockDecompressor.decompress(type, b, 7, "index block"),
                BlockDecompressor.name(type) + " stated " + stated);
        assertTrue(e.getMessage().contains("corrupt"), e.getMessage());
        assertEquals(7, e.offset());
      }
    }
    byte[] s = SNAPPY_GOLDEN.clone();
    s[0] = 10; // one more than the elements yield
    assertThrows(
        SieveFormatException.class,
        () -> BlockDecompressor.decompress(BlockDecompressor.SNAPPY, s, 0, "t"));
  }

  @Test
  void aTruncatedStreamIsCorrupt() {
    for (int type : new int[] {1, 2, 4, 7}) {
      byte[] golden =
          switch (type) {
            case 1 -> SNAPPY_GOLDEN;
            case 2 -> ZLIB_GOLDEN;
            case 4 -> LZ4_GOLDEN;
            default -> ZSTD_GOLDEN;
          };
      for (int len = 0; len < golden.length; len++) {
        byte[] cut = Arrays.copyOf(golden, len);
        assertThrows(
            SieveFormatException.class,
            () -> BlockDecompressor.decompress(type, cut, 0, "t"),
            BlockDecompressor.name(type) + " cut to " + len);
      }
    }
  }

  @Test
  void onlyTheBuiltInTypesWithAPureJavaDecoderAreSupported() {
    for (int t : new int[] {1, 2, 4, 5, 7}) {
      assertTrue(BlockDecompressor.supports(t), BlockDecompressor.name(t));
    }
    for (int t : new int[] {0, 3, 6, 8, 0x80, 0xff}) {
      assertFalse(BlockDecompressor.supports(t), BlockDecompressor.name(t));
    }
    assertEquals("kBZip2Compression", BlockDecompressor.name(3));
    assertEquals("custom compression type 0x80", BlockDecompressor.name(0x80));
  }

  @Provide
  Arbitrary<Integer> types() {
    return Arbitraries.of(1, 2, 4, 5, 7);
  }

  private static void decompressesOrIsCorrupt(int type, byte[] b) {
    try {
      byte[] out = BlockDecompressor.decompress(type, b, 0, "t");
      assertTrue(out.length <= BlockDecompressor.MAX_DECOMPRESSED_BYTES);
    } catch (SieveFormatException expected) {
      // names the block and its compression
      assertTrue(expected.getMessage().contains("t (k"), expected.getMessage());
    }
  }

  @Property(tries = 400)
  void arbitraryBytesDecompressOrAreCorrupt(
      @ForAll("types") int type, @ForAll @Size(max = 80) byte[] b) {
    decompressesOrIsCorrupt(type, b);
  }

  @Property(tries = 400)
  void mutatedGoldenVectorsDecompressOrAreCorrupt(
      @ForAll("types") int type,
      @ForAll @IntRange(min = 0, max = 12) int at,
      @ForAll @IntRange(min = 1, max = 255) int xor) {
    byte[] golden =
        switch (type) {
          case 1 -> SNAPPY_GOLDEN;
          case 2 -> ZLIB_GOLDEN;
          case 4, 5 -> LZ4_GOLDEN;
          default -> ZSTD_GOLDEN;
        };
    byte[] b = golden.clone();
    b[at % b.length] ^= (byte) xor;
    decompressesOrIsCorrupt(type, b);
  }
}
