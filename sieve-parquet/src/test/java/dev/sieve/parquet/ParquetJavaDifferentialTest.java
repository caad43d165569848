package dev.sieve.parquet;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.bloom.SplitBlockBloomFilter;
import dev.sieve.hash.ParquetHash;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import org.apache.parquet.column.values.bloomfilter.BlockSplitBloomFilter;
import org.apache.parquet.io.api.Binary;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Sieve's {@link SplitBlockBloomFilter} against parquet-java's own {@code BlockSplitBloomFilter}
 * (parquet-column 1.18.2, the oracle): the same values into filters of the same size give the same
 * bytes, for every value type Parquet hashes and several sizes (powers of two from 32 bytes to 1
 * MiB, and a size that is not one), the same hashes, and the same answers for absent values; and
 * the same sizing from (distinct values, fpp) and from a byte request.
 */
class ParquetJavaDifferentialTest {

  private static byte[] bytesOf(BlockSplitBloomFilter f) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    f.writeTo(out);
    return out.toByteArray();
  }

  @ParameterizedTest(name = "{0} bytes")
  @ValueSource(ints = {32, 64, 256, 4096, 65536, 1 << 20})
  void sameBytesAndAnswersForEveryValueType(int numBytes) throws IOException {
    SplittableRandom random = new SplittableRandom(numBytes);
    int n = Math.max(4, numBytes / 8); // about 8 bits per value
    String[] types = {"long", "int", "double", "float", "binary", "string"};
    for (String type : types) {
      BlockSplitBloomFilter theirs = new BlockSplitBloomFilter(numBytes);
      SplitBlockBloomFilter ours = SplitBlockBloomFilter.builder().numBytes(numBytes).build();
      assertEquals(theirs.getBitsetSize(), ours.sizeInBytes());
      for (int i = 0; i < n; i++) {
        long v = random.nextLong();
        long hash = insert(type, v, theirs, ours);
        assertEquals(hash, theirHash(type, v, theirs), type);
      }
      assertArrayEquals(bytesOf(theirs), ours.toParquetBitset(), type + " at " + numBytes);
      // absent values: identical answers (false positives included)
      for (int i = 0; i < 20_000; i++) {
        long v = random.nextLong();
        long h = theirHash(type, v, theirs);
        assertEquals(theirs.findHash(h), ours.mayContainHash(h), type);
      }
      // and parquet-java reads Sieve's bytes to the same filter
      BlockSplitBloomFilter back = new BlockSplitBloomFilter(ours.toParquetBitset());
      assertArrayEquals(bytesOf(theirs), bytesOf(back));
    }
  }

  /** Inserts {@code v} as a value of {@code type} into both; returns Sieve's Parquet hash. */
  private static long insert(
      String type, long v, BlockSplitBloomFilter theirs, SplitBlockBloomFilter ours) {
    switch (type) {
      case "long":
        theirs.insertHash(theirs.hash(v));
        ours.addParquetLong(v);
        return ParquetHash.ofLong(v);
      case "int":
        theirs.insertHash(theirs.hash((int) v));
        ours.addParquetInt((int) v);
        return ParquetHash.ofInt((int) v);
      case "double":
        {
          double d = special(v) ? specialDouble(v) : Double.longBitsToDouble(v);
          theirs.insertHash(theirs.hash(d));
          ours.addParquetDouble(d);
          return ParquetHash.ofDouble(d);
        }
      case "float":
        {
          float f = special(v) ? (float) specialDouble(v) : Float.intBitsToFloat((int) v);
          theirs.insertHash(theirs.hash(f));
          ours.addParquetFloat(f);
          return ParquetHash.ofFloat(f);
        }
      case "binary":
        {
          byte[] b = binary(v);
          theirs.insertHash(theirs.hash(Binary.fromConstantByteArray(b)));
          ours.addParquetBinary(b);
          return ParquetHash.ofBinary(b);
        }
      default:
        {
          String s = string(v);
          theirs.insertHash(theirs.hash(Binary.fromString(s)));
          ours.addParquetString(s);
          return ParquetHash.ofString(s);
        }
    }
  }

  private static long theirHash(String type, long v, BlockSplitBloomFilter f) {
    switch (type) {
      case "long":
        return f.hash(v);
      case "int":
        return f.hash((int) v);
      case "double":
        return f.hash(special(v) ? specialDouble(v) : Double.longBitsToDouble(v));
      case "float":
        return f.hash(special(v) ? (float) specialDouble(v) : Float.intBitsToFloat((int) v));
      case "binary":
        return f.hash(Binary.fromConstantByteArray(binary(v)));
      default:
        return f.hash(Binary.fromString(string(v)));
    }
  }

  private static boolean special(long v) {
    return (v & 15) == 0;
  }

  /** Zeros of both signs, NaN, infinities and small integers. */
  private static double specialDouble(long v) {
    double[] s = {0.0, -0.0, Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, 1, -1};
    int i = (int) ((v >>> 4) & 15);
    return i < s.length ? s[i] : (double) (v >> 40);
  }

  /** 0 to 40 bytes, lengths across XXH64's 32-byte stripe and its 8/4/1-byte tails. */
  private static byte[] binary(long v) {
    SplittableRandom r = new SplittableRandom(v);
    byte[] b = new byte[r.nextInt(41)];
    r.nextBytes(b);
    return b;
  }

  private static String string(long v) {
    return "user:" + Long.toHexString(v) + ((v & 3) == 0 ? "-é漢" : "");
  }

  /** A bitset that is not a power of two: parquet-java's reader accepts it, so must Sieve. */
  @Test
  void aNonPowerOfTwoBitsetAnswersAlike() throws IOException {
    SplitBlockBloomFilter ours = SplitBlockBloomFilter.withNumBytes(32 * 37);
    for (long v = 0; v < 300; v++) {
      ours.addParquetLong(v * 7);
    }
    BlockSplitBloomFilter theirs = new BlockSplitBloomFilter(ours.toParquetBitset());
    for (long v = 0; v < 10_000; v++) {
      assertEquals(theirs.findHash(theirs.hash(v)), ours.mayContainParquetLong(v));
    }
    assertArrayEquals(ours.toParquetBitset(), bytesOf(theirs));
  }

  @Test
  void sameSizingAsParquetJava() {
    double[] rates = {0.5, 0.1, 0.05, 0.01, 0.001, 1e-4, 1e-6, 1e-9};
    SplittableRandom random = new SplittableRandom(5);
    for (double p : rates) {
      for (int i = 0; i < 300; i++) {
        long n = i < 40 ? i : (long) Math.pow(10, random.nextDouble() * 12);
        int theirs = BlockSplitBloomFilter.optimalNumOfBits(n, p);
        assertEquals(theirs, SplitBlockBloomFilter.parquetOptimalNumOfBits(n, p), n + " at " + p);
        if (theirs > 1 << 25) {
          continue; // past 4 MiB the constructor's allocation would dominate the test
        }
        assertEquals(
            new BlockSplitBloomFilter(theirs / 8).getBitsetSize(),
            SplitBlockBloomFilter.parquetNumBytes(n, p));
        assertEquals(
            new BlockSplitBloomFilter(theirs / 8, 1 << 20).getBitsetSize(),
            SplitBlockBloomFilter.parquetNumBytes(n, p, 1 << 20));
      }
    }
    for (int request : new int[] {0, 1, 31, 32, 33, 100, 1000, 4096, 5000, (1 << 20) + 1}) {
      assertEquals(
          new BlockSplitBloomFilter(request).getBitsetSize(),
          SplitBlockBloomFilter.builder().numBytes(request).build().sizeInBytes(),
          "request " + request);
    }
    for (int request : new int[] {(1 << 27) + 1, Integer.MAX_VALUE}) {
      assertEquals(
          new BlockSplitBloomFilter(request).getBitsetSize(),
          SplitBlockBloomFilter.parquetNumBytes(request, SplitBlockBloomFilter.MAX_BYTES));
    }
  }

  @Test
  void stringHashIsUtf8() {
    BlockSplitBloomFilter f = new BlockSplitBloomFilter(32);
    for (String s : new String[] {"", "a", "héllo", "漢字", "\uD83D\uDE00"}) {
      assertEquals(f.hash(Binary.fromString(s)), ParquetHash.ofString(s));
      assertEquals(
          f.hash(Binary.fromConstantByteArray(s.getBytes(StandardCharsets.UTF_8))),
          ParquetHash.ofString(s));
    }
    assertTrue(f.getBitsetSize() == 32);
  }
}
