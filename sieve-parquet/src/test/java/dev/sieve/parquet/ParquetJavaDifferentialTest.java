package dev.sieve.parquet;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.KeyScheme;
import dev.sieve.bloom.SplitBlockBloomFilter;
import dev.sieve.hash.KeyEncoder;
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
      SplitBlockBloomFilter ours =
          SplitBlockBloomFilter.builder()
              .numBytes(numBytes)
              .keyScheme(KeyScheme.PARQUET_XXH64)
              .create();
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
        ours.add(v);
        return ParquetHash.ofLong(v);
      case "int":
        theirs.insertHash(theirs.hash((int) v));
        ours.addInt((int) v);
        return ParquetHash.ofInt((int) v);
      case "double":
        {
          double d = special(v) ? specialDouble(v) : Double.longBitsToDouble(v);
          theirs.insertHash(theirs.hash(d));
          ours.addDouble(d);
          return ParquetHash.ofDouble(d);
        }
      case "float":
        {
          float f = special(v) ? (float) specialDouble(v) : Float.intBitsToFloat((int) v);
          theirs.insertHash(theirs.hash(f));
          ours.addFloat(f);
          return ParquetHash.ofFloat(f);
        }
      case "binary":
        {
          byte[] b = binary(v);
          theirs.insertHash(theirs.hash(Binary.fromConstantByteArray(b)));
          ours.add(b);
          return ParquetHash.ofBinary(b);
        }
      default:
        {
          String s = string(v);
          theirs.insertHash(theirs.hash(Binary.fromString(s)));
          ours.add(s);
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
    SplitBlockBloomFilter ours = SplitBlockBloomFilter.fromParquetBitset(new byte[32 * 37]);
    for (long v = 0; v < 300; v++) {
      ours.add(v * 7);
    }
    BlockSplitBloomFilter theirs = new BlockSplitBloomFilter(ours.toParquetBitset());
    for (long v = 0; v < 10_000; v++) {
      assertEquals(theirs.findHash(theirs.hash(v)), ours.mayContain(v));
    }
    assertArrayEquals(ours.toParquetBitset(), bytesOf(theirs));
  }

  /**
   * A filter read from parquet-java's bytes hashes as Parquet does ({@link
   * KeyScheme#PARQUET_XXH64}): every key form of Sieve's API ({@code mayContain(long)}, {@code
   * mayContainInt}, {@code mayContainFloat}, {@code mayContainDouble}, byte arrays, buffers, text,
   * the keyed views and the batches) answers exactly as parquet-java's {@code findHash(hash(v))}
   * for present and absent values; the container keeps the scheme; and Sieve's default hash is a
   * different key.
   */
  @Test
  void aParquetFilterAnswersEveryKeyFormAsParquetJava() throws IOException {
    SplittableRandom random = new SplittableRandom(42);
    BlockSplitBloomFilter theirs = new BlockSplitBloomFilter(16384); // some false positives
    long[] values = new long[2000];
    for (int i = 0; i < values.length; i++) {
      long v = random.nextLong();
      values[i] = v;
      for (String type : new String[] {"long", "int", "double", "float", "binary", "string"}) {
        theirs.insertHash(theirHash(type, v, theirs));
      }
    }
    byte[] bitset = bytesOf(theirs);
    SplitBlockBloomFilter read = SplitBlockBloomFilter.fromParquetBitset(bitset);
    SplitBlockBloomFilter wrapped =
        SplitBlockBloomFilter.wrapParquetBitset(
            java.nio.ByteBuffer.allocateDirect(bitset.length).put(bitset).flip(), 0);
    dev.sieve.Filter contained =
        dev.sieve.format.SieveFormat.read(dev.sieve.format.SieveFormat.toBytes(read));
    int hits = 0;
    int sieveHits = 0;
    for (dev.sieve.Filter ours : new dev.sieve.Filter[] {read, wrapped, contained}) {
      assertEquals(KeyScheme.PARQUET_XXH64, ours.keyScheme());
      for (int i = 0; i < 6000; i++) {
        long v = i < values.length ? values[i] : random.nextLong(); // present, then mostly absent
        int iv = (int) v;
        double d = special(v) ? specialDouble(v) : Double.longBitsToDouble(v);
        float f = special(v) ? (float) specialDouble(v) : Float.intBitsToFloat(iv);
        byte[] b = binary(v);
        String s = string(v);
        boolean longAnswer = theirs.findHash(theirs.hash(v));
        hits += longAnswer ? 1 : 0;
        sieveHits += ours.mayContainHash(dev.sieve.hash.KeyHash.hash64(v)) ? 1 : 0;
        assertEquals(longAnswer, ours.mayContain(v), "long " + v);
        assertEquals(longAnswer, ours.keyed(KeyEncoder.LONG).mayContain(v), "Long " + v);
        boolean intAnswer = theirs.findHash(theirs.hash(iv));
        assertEquals(intAnswer, ours.mayContainInt(iv), "int " + iv);
        assertEquals(intAnswer, ours.keyed(KeyEncoder.INT).mayContain(iv), "Integer " + iv);
        boolean doubleAnswer = theirs.findHash(theirs.hash(d));
        assertEquals(doubleAnswer, ours.mayContainDouble(d), "double " + d);
        assertEquals(doubleAnswer, ours.keyed(KeyEncoder.DOUBLE).mayContain(d), "Double " + d);
        boolean floatAnswer = theirs.findHash(theirs.hash(f));
        assertEquals(floatAnswer, ours.mayContainFloat(f), "float " + f);
        assertEquals(floatAnswer, ours.keyed(KeyEncoder.FLOAT).mayContain(f), "Float " + f);
        boolean binaryAnswer = theirs.findHash(theirs.hash(Binary.fromConstantByteArray(b)));
        assertEquals(binaryAnswer, ours.mayContain(b), "binary");
        assertEquals(binaryAnswer, ours.keyed(KeyEncoder.BYTES).mayContain(b), "byte[]");
        assertEquals(
            binaryAnswer,
            ours.mayContain(java.nio.ByteBuffer.allocateDirect(b.length).put(b).flip()),
            "direct buffer");
        assertEquals(binaryAnswer, ours.mayContain(java.nio.ByteBuffer.wrap(b)), "heap buffer");
        boolean stringAnswer = theirs.findHash(theirs.hash(Binary.fromString(s)));
        assertEquals(stringAnswer, ours.mayContain(s), "string " + s);
        assertEquals(stringAnswer, ours.mayContain(new StringBuilder(s)), "CharSequence " + s);
        assertEquals(stringAnswer, ours.keyed(KeyEncoder.UTF8).mayContain(s), "keyed " + s);
      }
      // the batches: the same answers
      long[] keys = java.util.Arrays.copyOf(values, 3000);
      for (int i = values.length; i < keys.length; i++) {
        keys[i] = random.nextLong();
      }
      long[] bits = new long[(keys.length + 63) / 64];
      ours.mayContainBatch(keys, 0, keys.length, bits);
      String[] strings = new String[keys.length];
      byte[][] binaries = new byte[keys.length][];
      for (int i = 0; i < keys.length; i++) {
        boolean answer = theirs.findHash(theirs.hash(keys[i]));
        assertEquals(answer, (bits[i >>> 6] >>> i & 1) != 0, "batch long " + i);
        strings[i] = string(keys[i]);
        binaries[i] = binary(keys[i]);
      }
      ours.mayContainBatch(strings, 0, keys.length, bits);
      for (int i = 0; i < keys.length; i++) {
        boolean answer = theirs.findHash(theirs.hash(Binary.fromString(strings[i])));
        assertEquals(answer, (bits[i >>> 6] >>> i & 1) != 0, "batch string " + i);
      }
      ours.mayContainBatch(binaries, 0, keys.length, bits);
      for (int i = 0; i < keys.length; i++) {
        boolean answer = theirs.findHash(theirs.hash(Binary.fromConstantByteArray(binaries[i])));
        assertEquals(answer, (bits[i >>> 6] >>> i & 1) != 0, "batch binary " + i);
      }
    }
    assertTrue(hits >= 3 * values.length, "every present value found: " + hits);
    // Sieve's default hash of the same long values is another key: it misses most of them
    assertTrue(sieveHits < 3 * values.length * 3 / 4, "XXPH3 found " + sieveHits);
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
          SplitBlockBloomFilter.builder().numBytes(request).create().sizeInBytes(),
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
