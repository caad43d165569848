package dev.sieve.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.Filter;
import dev.sieve.SieveFormatException;
import dev.sieve.bloom.BlockedBloomFilter;
import dev.sieve.hash.KeyHash;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.SplittableRandom;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A blocked Bloom container file larger than one 2 GiB buffer (2.25 GiB of data), memory-mapped in
 * 1 GiB segments. The file is written sparsely: a header, a zero payload with the keys' bits set in
 * place by an independent implementation of FastLocalBloom's addressing (RocksDB
 * util/bloom_impl.h), the trailer and the checksum. The mapped filter must report every key and
 * answer exactly as a heap filter of the same shape with the same keys added; a flipped byte in the
 * last segment must fail the checksum pass.
 *
 * <p>Tagged {@code scale} ({@code mvn -B test -pl sieve-core -am -Pscale}); heap: 2.4 GB for the
 * heap comparison filter; disk: a 2.25 GiB sparse file in the temp directory.
 */
@Tag("scale")
class MappedOver2GiBScaleTest {
  private static final long DATA_BYTES = (9L << 28); // 2.25 GiB
  private static final int PROBES = 6;
  private static final int KEYS = 200_000;

  @TempDir Path dir;

  private static void setBits(FileChannel ch, long hash, long numBlocks) throws IOException {
    long block = ((hash & 0xFFFFFFFFL) * numBlocks) >>> 32;
    int h = (int) (hash >>> 32);
    ByteBuffer one = ByteBuffer.allocate(1);
    for (int i = 0; i < PROBES; i++) {
      int bitpos = h >>> 23;
      long at = SieveFormat.HEADER_BYTES + block * 64 + (bitpos >>> 3);
      one.clear();
      ch.read(one, at);
      byte b = one.position() == 1 ? one.get(0) : 0;
      ch.write(ByteBuffer.wrap(new byte[] {(byte) (b | (1 << (bitpos & 7)))}), at);
      h *= 0x9e3779b9;
    }
  }

  private static int crcOfPayload(FileChannel ch, long length) throws IOException {
    CRC32C crc = new CRC32C();
    for (long from = 0; from < length; from += 1 << 30) {
      crc.update(
          ch.map(
              FileChannel.MapMode.READ_ONLY,
              SieveFormat.HEADER_BYTES + from,
              Math.min(1 << 30, length - from)));
    }
    return (int) crc.getValue();
  }

  @Test
  void aContainerOver2GiBIsMappedInSegmentsAndAnswersAsTheHeapFilter() throws IOException {
    long payloadLength = DATA_BYTES + 5; // the data and the FastLocalBloom trailer
    long numBlocks = DATA_BYTES / 64;
    // the header: from a small container of the same type, with the length and size patched
    byte[] header =
        TestFilters.fixChecksums(
            TestFilters.withLong(
                TestFilters.withLong(
                    SieveFormat.toBytes(BlockedBloomFilter.withShape(64, PROBES)),
                    SieveFormat.PAYLOAD_LENGTH_OFFSET,
                    payloadLength),
                SieveFormat.SIZE_OFFSET,
                DATA_BYTES * 8));
    Path file = dir.resolve("big.sieve");
    BlockedBloomFilter heap = BlockedBloomFilter.withShape(DATA_BYTES, PROBES);
    long[] hashes = new long[KEYS];
    try (FileChannel ch =
        FileChannel.open(
            file,
            StandardOpenOption.CREATE_NEW,
            StandardOpenOption.READ,
            StandardOpenOption.WRITE)) {
      ch.write(ByteBuffer.wrap(header, 0, SieveFormat.HEADER_BYTES), 0);
      ch.write(
          ByteBuffer.wrap(new byte[] {(byte) 0xFF, 0, PROBES, 0, 0}),
          SieveFormat.HEADER_BYTES + DATA_BYTES);
      for (int i = 0; i < KEYS; i++) {
        hashes[i] = KeyHash.hash64((long) i);
        setBits(ch, hashes[i], numBlocks);
        heap.addHash(hashes[i]);
      }
      ByteBuffer crc = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN);
      crc.putInt(0, crcOfPayload(ch, payloadLength));
      ch.write(crc, SieveFormat.HEADER_BYTES + payloadLength);
    }
    Filter mapped = SieveFormat.map(file);
    assertTrue(((BlockedBloomFilter) mapped).isWrapped());
    assertEquals(DATA_BYTES * 8, mapped.sizeInBits());
    long beyond2GiB = 0;
    for (long h : hashes) {
      assertTrue(mapped.mayContainHash(h), "false negative in the mapped file");
      if ((((h & 0xFFFFFFFFL) * numBlocks) >>> 32) * 64 >= 1L << 31) {
        beyond2GiB++;
      }
    }
    assertTrue(beyond2GiB > KEYS / 20, beyond2GiB + " keys beyond the first 2 GiB");
    SplittableRandom random = new SplittableRandom(5);
    for (int i = 0; i < 1_000_000; i++) {
      long h = random.nextLong();
      assertEquals(heap.mayContainHash(h), mapped.mayContainHash(h));
    }
    // one flipped byte in the last segment fails the checksum pass
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
      ch.write(ByteBuffer.wrap(new byte[] {1}), SieveFormat.HEADER_BYTES + DATA_BYTES - 100);
    }
    assertThrows(SieveFormatException.class, () -> SieveFormat.map(file));
  }
}
