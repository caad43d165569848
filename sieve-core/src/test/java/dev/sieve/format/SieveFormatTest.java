package dev.sieve.format;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.Filter;
import dev.sieve.SieveFormatException;
import dev.sieve.bloom.BlockedBloomFilter;
import dev.sieve.bloom.StandardBloomFilter;
import dev.sieve.registry.FilterType;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/** The Sieve container: round trips through every reader and writer, and hostile input. */
class SieveFormatTest {
  private static final long[] KEYS = TestFilters.keys(3_000, 1);

  @TempDir Path dir;

  /** Every key is present, and {@code actual} answers as {@code expected} on 20,000 hashes. */
  private static void assertSameFilter(Filter expected, Filter actual) {
    assertEquals(expected.getClass(), actual.getClass());
    for (long key : KEYS) {
      assertTrue(actual.mayContain(key), "false negative after a round trip");
    }
    SplittableRandom random = new SplittableRandom(3);
    for (int i = 0; i < 20_000; i++) {
      long h = random.nextLong();
      assertEquals(expected.mayContainHash(h), actual.mayContainHash(h));
    }
    assertEquals(expected.numKeys(), actual.numKeys());
    assertEquals(expected.sizeInBits(), actual.sizeInBits());
  }

  @ParameterizedTest
  @MethodSource("dev.sieve.format.TestTypes#builtIn") // foreign: ForeignContainerTest
  void everyReaderAndWriterRoundTrips(FilterType type) throws IOException {
    Filter filter = TestFilters.build(type, KEYS);
    assertSame(type, FilterType.of(filter));
    byte[] bytes = SieveFormat.toBytes(filter);
    ContainerHeader header = SieveFormat.readHeader(ByteBuffer.wrap(bytes), bytes.length);
    assertEquals(type, header.type());
    assertEquals(bytes.length, header.totalLength());
    assertEquals(filter.numKeys(), header.numKeys());

    // writers agree byte for byte
    ByteArrayOutputStream stream = new ByteArrayOutputStream();
    SieveFormat.write(filter, stream);
    assertArrayEquals(bytes, stream.toByteArray());
    ByteArrayOutputStream channelOut = new ByteArrayOutputStream();
    SieveFormat.write(filter, Channels.newChannel(channelOut));
    assertArrayEquals(bytes, channelOut.toByteArray());
    Path file = dir.resolve(type + ".sieve");
    SieveFormat.write(filter, file);
    assertArrayEquals(bytes, Files.readAllBytes(file));

    // readers agree with the filter, and re-serialize to the same bytes
    Filter fromBytes = SieveFormat.read(bytes);
    assertSameFilter(filter, fromBytes);
    assertArrayEquals(bytes, SieveFormat.toBytes(fromBytes));
    assertSameFilter(filter, SieveFormat.read(new ByteArrayInputStream(bytes)));
    ByteBuffer direct = ByteBuffer.allocateDirect(bytes.length + 11);
    direct.position(11);
    direct.put(bytes).position(11);
    Filter wrapped = SieveFormat.wrap(direct);
    assertEquals(11, direct.position());
    assertSameFilter(filter, wrapped);
    assertArrayEquals(bytes, SieveFormat.toBytes(wrapped));
    assertSameFilter(filter, SieveFormat.map(file));
    assertSameFilter(filter, SieveFormat.map(file, false));
    assertSameFilter(filter, SieveFormat.read(bytes, TestTypes.filterClass(type)));
  }

  /** The path a file over 2 GiB takes (several mapped segments), forced with 1 KiB segments. */
  @ParameterizedTest
  @EnumSource(
      value = FilterType.class,
      names = {"BLOCKED_BLOOM", "STANDARD_BLOOM", "RIBBON"})
  void bloomAndRibbonFiltersMapInSegments(FilterType type) throws IOException {
    Filter filter = TestFilters.build(type, KEYS);
    Path file = dir.resolve("segmented.sieve");
    SieveFormat.write(filter, file);
    Filter mapped = SieveFormat.map(file, true, 10, 0);
    assertSameFilter(filter, mapped);
    assertTrue(
        type == FilterType.BLOCKED_BLOOM
            ? ((BlockedBloomFilter) mapped).isWrapped()
            : type == FilterType.RIBBON
                ? ((dev.sieve.ribbon.Standard128RibbonFilter) mapped).isWrapped()
                : ((StandardBloomFilter) mapped).isWrapped());
    assertArrayEquals(Files.readAllBytes(file), SieveFormat.toBytes(mapped));
    // a flipped payload byte in a later segment fails the checksum pass
    byte[] bytes = Files.readAllBytes(file);
    bytes[bytes.length - 300] ^= 0x10;
    Files.write(file, bytes);
    SieveFormatException e =
        assertThrows(SieveFormatException.class, () -> SieveFormat.map(file, true, 10, 0));
    assertEquals(bytes.length - 4, e.offset());
  }

  /**
   * The mapped path checks a payload as the heap and buffer readers do, by the same check in the
   * type's form (one validation per form), and names the file offset of the bad byte.
   */
  @ParameterizedTest
  @EnumSource(
      value = FilterType.class,
      names = {"BLOCKED_BLOOM", "STANDARD_BLOOM", "RIBBON"})
  void aMappedPayloadIsCheckedByItsFormAtFileOffsets(FilterType type) throws IOException {
    byte[] bytes = SieveFormat.toBytes(TestFilters.build(type, KEYS));
    int payloadLength = bytes.length - SieveFormat.HEADER_BYTES - SieveFormat.CHECKSUM_BYTES;
    // the standard Bloom form's first reserved header byte; the RocksDB blocks' trailer marker
    int at = SieveFormat.HEADER_BYTES + (type == FilterType.STANDARD_BLOOM ? 9 : payloadLength - 5);
    bytes[at] ^= 0x01;
    Path file = dir.resolve("bad.sieve");
    Files.write(file, bytes);
    SieveFormatException mapped =
        assertThrows(SieveFormatException.class, () -> SieveFormat.map(file, false, 10, 0));
    assertEquals(at, mapped.offset(), mapped.getMessage());
    SieveFormatException wrapped =
        assertThrows(
            SieveFormatException.class, () -> SieveFormat.wrap(ByteBuffer.wrap(bytes), false));
    assertTrue(
        wrapped.getMessage().contains(mapped.getMessage().replaceFirst("^at offset \\d+: ", "")),
        wrapped.getMessage() + " / " + mapped.getMessage());
  }

  @Test
  void zeroCopyWrapReadsTheBufferInPlace() {
    BlockedBloomFilter filter = BlockedBloomFilter.builder().bitsPerKey(10).build(KEYS);
    ByteBuffer buffer = ByteBuffer.wrap(SieveFormat.toBytes(filter));
    BlockedBloomFilter wrapped = SieveFormat.wrap(buffer, BlockedBloomFilter.class);
    assertTrue(wrapped.isWrapped());
    long absent = 0;
    while (wrapped.mayContain(absent)) {
      absent++;
    }
    // set every bit of the payload in the buffer: the wrapped filter sees it, so it was not copied
    for (int i = SieveFormat.HEADER_BYTES; i < buffer.limit() - 9; i++) {
      buffer.put(i, (byte) 0xFF);
    }
    assertTrue(wrapped.mayContain(absent));
  }

  @Test
  void emptyFiltersRoundTrip() {
    for (FilterType type : TestTypes.builtIn()) {
      Filter empty = TestFilters.build(type, new long[0]);
      Filter read = SieveFormat.read(SieveFormat.toBytes(empty));
      assertEquals(empty.sizeInBits(), read.sizeInBits(), type.toString());
      assertEquals(0, read.numKeys(), type.toString());
    }
  }

  @Test
  void containersConcatenateOnAStream() throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Filter a = TestFilters.build(FilterType.XOR8, KEYS);
    Filter b = TestFilters.build(FilterType.BLOCKED_BLOOM, KEYS);
    SieveFormat.write(a, out);
    SieveFormat.write(b, out);
    InputStream in = new ByteArrayInputStream(out.toByteArray());
    assertSameFilter(a, SieveFormat.read(in));
    assertSameFilter(b, SieveFormat.read(in));
    assertEquals(-1, in.read());
  }

  // ---------------------------------------------------------------- hostile input

  private static byte[] small(FilterType type) {
    return SieveFormat.toBytes(TestFilters.build(type, TestFilters.keys(40, 9)));
  }

  private static SieveFormatException rejectedEverywhere(byte[] bytes) {
    SieveFormatException e =
        assertThrows(SieveFormatException.class, () -> SieveFormat.read(bytes));
    assertThrows(SieveFormatException.class, () -> SieveFormat.wrap(ByteBuffer.wrap(bytes)));
    return e;
  }

  @ParameterizedTest
  @MethodSource("dev.sieve.format.TestTypes#builtIn") // foreign: ForeignContainerTest
  void everyTruncationIsRejected(FilterType type) {
    byte[] bytes = small(type);
    for (int len = 0; len < bytes.length; len++) {
      byte[] cut = java.util.Arrays.copyOf(bytes, len);
      SieveFormatException e = rejectedEverywhere(cut);
      assertTrue(e.offset() >= 0 && e.offset() <= bytes.length, e.getMessage());
      assertThrows(
          SieveFormatException.class, () -> SieveFormat.read(new ByteArrayInputStream(cut)));
    }
  }

  /** CRC32C detects every single-bit error, so every bit flip anywhere must be refused. */
  @ParameterizedTest
  @MethodSource("dev.sieve.format.TestTypes#builtIn") // foreign: ForeignContainerTest
  void everySingleBitFlipIsRejected(FilterType type) {
    byte[] bytes = small(type);
    for (int bit = 0; bit < bytes.length * 8; bit++) {
      byte[] flipped = bytes.clone();
      flipped[bit >>> 3] ^= (byte) (1 << (bit & 7));
      rejectedEverywhere(flipped);
    }
  }

  @Test
  void checksumMismatchNamesTheOffset() {
    byte[] bytes = small(FilterType.BLOCKED_BLOOM);
    bytes[SieveFormat.HEADER_BYTES + 3] ^= 1;
    SieveFormatException e = rejectedEverywhere(bytes);
    assertEquals(bytes.length - 4, e.offset());
    assertTrue(e.getMessage().contains("checksum"), e.getMessage());
    byte[] header = small(FilterType.BLOCKED_BLOOM);
    header[20] ^= 1;
    assertEquals(SieveFormat.HEADER_CRC_OFFSET, rejectedEverywhere(header).offset());
  }

  @Test
  void payloadLengthFieldsNeverAllocate() throws IOException {
    byte[] bytes = small(FilterType.STANDARD_BLOOM);
    for (long claimed :
        new long[] {Long.MAX_VALUE, Integer.MAX_VALUE, 1L << 40, -1, bytes.length}) {
      byte[] hostile = TestFilters.withLong(bytes, SieveFormat.PAYLOAD_LENGTH_OFFSET, claimed);
      assertEquals(SieveFormat.PAYLOAD_LENGTH_OFFSET, rejectedEverywhere(hostile).offset());
      // a stream cannot check the length up front: it reads what is there and finds the end
      SieveFormatException e =
          assertThrows(
              SieveFormatException.class,
              () -> SieveFormat.read(new ByteArrayInputStream(hostile)));
      assertTrue(e.offset() <= Math.max(bytes.length, SieveFormat.PAYLOAD_LENGTH_OFFSET));
    }
    // a 2 GiB claim on a short stream fails after reading the few bytes there, not by allocating
    byte[] claim = TestFilters.withLong(bytes, SieveFormat.PAYLOAD_LENGTH_OFFSET, 2_000_000_000L);
    SieveFormatException e =
        assertThrows(
            SieveFormatException.class, () -> SieveFormat.read(new ByteArrayInputStream(claim)));
    assertEquals(bytes.length, e.offset());
    assertTrue(e.getMessage().contains("truncated"), e.getMessage());
  }

  @Test
  void wrongMagicVersionTypeFlagsAndReservedBytes() {
    byte[] bytes = small(FilterType.XOR16);
    byte[] magic = bytes.clone();
    magic[1] = 'X';
    assertEquals(1, rejectedEverywhere(magic).offset());
    SieveFormatException version = rejectedEverywhere(TestFilters.withShort(bytes, 8, 2));
    assertEquals(8, version.offset());
    assertTrue(version.getMessage().contains("version 2"), version.getMessage());
    SieveFormatException unknown = rejectedEverywhere(TestFilters.withShort(bytes, 10, 99));
    assertEquals(10, unknown.offset());
    assertTrue(unknown.getMessage().contains("unknown filter type id 99"), unknown.getMessage());
    // a known type id over another type's payload fails in the payload's reader
    SieveFormatException wrongType =
        rejectedEverywhere(TestFilters.withShort(bytes, 10, FilterType.XOR8.id()));
    assertTrue(wrongType.offset() >= SieveFormat.HEADER_BYTES, wrongType.getMessage());
    // flags 0x1, 0x2 and 0x4 (the key schemes) are defined; any other flag bit is refused
    assertEquals(12, rejectedEverywhere(TestFilters.withInt(bytes, 12, 8)).offset());
    assertEquals(48, rejectedEverywhere(TestFilters.withInt(bytes, 48, 1)).offset());
    assertEquals(56, rejectedEverywhere(TestFilters.withInt(bytes, 56, 1)).offset());
    assertEquals(16, rejectedEverywhere(TestFilters.withLong(bytes, 16, -5)).offset());
  }

  @Test
  void headerMustAgreeWithThePayload() {
    byte[] bytes = small(FilterType.BLOCKED_BLOOM);
    assertEquals(32, rejectedEverywhere(TestFilters.withInt(bytes, 32, 7)).offset());
    assertEquals(36, rejectedEverywhere(TestFilters.withInt(bytes, 36, 1)).offset());
    assertEquals(40, rejectedEverywhere(TestFilters.withLong(bytes, 40, 1024)).offset());
    byte[] xor = small(FilterType.XOR8);
    assertEquals(16, rejectedEverywhere(TestFilters.withLong(xor, 16, 41)).offset());
  }

  /**
   * Fuzzer finding: an empty blocked Bloom payload stored as the 5-byte trailer alone, with a
   * header claiming 256 keys, was accepted, though a filter of no bits reports every key absent
   * (and its rewrite, RocksDB's 0-byte block, was then refused). Now refused up front.
   */
  @Test
  void anEmptyFilterClaimingKeysIsRefused() {
    for (FilterType type : TestTypes.builtIn()) {
      byte[] empty = SieveFormat.toBytes(TestFilters.build(type, new long[0]));
      if (SieveFormat.readHeader(ByteBuffer.wrap(empty), empty.length).sizeInBits() == 0) {
        SieveFormatException e =
            rejectedEverywhere(TestFilters.withLong(empty, SieveFormat.KEYS_OFFSET, 256));
        assertEquals(SieveFormat.KEYS_OFFSET, e.offset(), type.toString());
      }
    }
  }

  @Test
  void trailingBytesAndTypeMismatch() {
    byte[] bytes = small(FilterType.CUCKOO);
    byte[] longer = java.util.Arrays.copyOf(bytes, bytes.length + 1);
    assertEquals(bytes.length, rejectedEverywhere(longer).offset());
    SieveFormatException e =
        assertThrows(
            SieveFormatException.class, () -> SieveFormat.read(bytes, BlockedBloomFilter.class));
    assertEquals(10, e.offset());
  }

  @Test
  void randomInputIsRejected() throws IOException {
    SplittableRandom random = new SplittableRandom(11);
    for (int i = 0; i < 2_000; i++) {
      byte[] junk = new byte[random.nextInt(200)];
      random.nextBytes(junk);
      if (random.nextBoolean() && junk.length >= 8) {
        System.arraycopy(small(FilterType.XOR8), 0, junk, 0, 8); // get past the magic
      }
      rejectedEverywhere(junk);
      byte[] fixed = TestFilters.fixChecksums(junk);
      rejectedEverywhere(fixed);
      assertThrows(
          SieveFormatException.class, () -> SieveFormat.read(new ByteArrayInputStream(fixed)));
    }
  }

  @Test
  void aFileThatIsNotAContainerIsRejectedByMap() throws IOException {
    Path file = dir.resolve("raw.block");
    Files.write(file, BlockedBloomFilter.builder().build(KEYS).toRocksDbFilterBlock());
    assertThrows(SieveFormatException.class, () -> SieveFormat.map(file));
    Path empty = dir.resolve("empty");
    Files.write(empty, new byte[0]);
    assertEquals(
        0, assertThrows(SieveFormatException.class, () -> SieveFormat.map(empty)).offset());
    assertTrue(SieveFormat.readsInPlace(FilterType.CUCKOO));
    assertTrue(SieveFormat.readsInPlace(FilterType.BLOCKED_BLOOM));
  }
}
