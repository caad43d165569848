package dev.sieve.format;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.sieve.Filter;
import dev.sieve.FilterBuilder;
import dev.sieve.MutableFilter;
import dev.sieve.SieveFormatException;
import dev.sieve.cuckoo.CuckooFilter;
import dev.sieve.internal.Families;
import dev.sieve.internal.PayloadForm;
import dev.sieve.internal.Schemes;
import dev.sieve.registry.FilterType;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The contract every filter type of the registry ({@link FilterType}) passes, in the manner of
 * Lucene's {@code BasePostingsFormatTestCase}: one concrete subclass per type names the type
 * ({@link #type()}) and, where its model or form needs it, overrides a knob; {@link
 * FilterContractCoverageTest} fails if a registry type has no subclass, so a new type cannot skip
 * the contract. All keys, queries and corruptions come from fixed seeds derived from the type id.
 *
 * <ol>
 *   <li><b>No false negatives</b> ({@link #noFalseNegativesForLongKeys}, {@link
 *       #noFalseNegativesForByteKeys}, {@link #noFalseNegativesWithDuplicateKeys}, {@link
 *       #noFalseNegativesWhenAdded}): at 0, 1, 2, 3, 100, 1000 and 5000 keys, {@code long} keys and
 *       {@code byte[]} keys of 0 and 4 to 40 bytes (queried as arrays, array ranges, heap and
 *       direct buffers), with repeated keys (each key of a set given twice, and one key 500 times),
 *       built by the registry's builder and, for the mutable types, added one by one.
 *   <li><b>Batches answer as single lookups</b> ({@link #batchesAnswerAsSingleLookups}): {@code
 *       mayContainHashes} against {@code mayContainHash}, {@code mayContainBatch} of {@code long},
 *       {@code byte[]} and {@code CharSequence} keys against {@code mayContain}; counts, cleared
 *       unused result bits, the word after the result untouched; on the heap filter and the
 *       container's wrapped and mapped readings.
 *   <li><b>Forms round-trip</b> ({@link #payloadFormRoundTrips}, {@link #containerRoundTrips}): the
 *       type's payload form ({@code TypeForms.of(type)}) read from an array and, where the type is
 *       zero-copy, wrapped from heap and direct buffers; the container written as bytes, to a
 *       stream and to a file, read from bytes and a stream, wrapped (heap, direct, at a non-zero
 *       position) and mapped. Each reading answers every key and 4096 random hashes as the original
 *       does, has its key count, and re-serializes to the same bytes.
 *   <li><b>Corrupted forms fail typed</b> ({@link #corruptedFormsFailTypedOrKeepEveryKey}): 360
 *       seeded mutations per type (bit flips, byte writes, header flips, truncations, appended
 *       bytes). The checksummed container must refuse with {@link SieveFormatException} or give a
 *       filter that still holds every key; the container with its checksums recomputed and the bare
 *       payload form, which cannot tell a flipped data bit from a real one, must refuse with {@link
 *       SieveFormatException} or give a filter that answers, batches and re-serializes without
 *       throwing (and, for a truncated payload of a type whose form records its length, still holds
 *       every key). Any other exception or error, an out-of-memory included, fails; a hang fails by
 *       the method's timeout.
 *   <li><b>Measured rate within the model</b> ({@link #measuredFprMatchesTheModel}): {@value
 *       #FPR_KEYS_DEFAULT} keys (top bit clear), then absent keys (top bit set) until about 3000
 *       false positives are expected (10^6 to 8·10^6 queries). The count must lie in the exact
 *       binomial interval of confidence {@value #FPR_CONFIDENCE} (two-sided, {@link BinomialBound})
 *       around {@code modelledFpRate() · (1 ± modelTolerance())}, where {@link #modelTolerance()}
 *       is the stated accuracy of the type's model (0 for the fingerprint filters, whose rate is
 *       exactly {@code 2^-r} per query). The same over sequential keys ({@link
 *       #measuredFprOfSequentialKeysMatchesTheModel}).
 * </ol>
 */
abstract class FilterContract {

  /** The keys of the false-positive check, unless the type overrides {@link #fprKeys()}. */
  static final int FPR_KEYS_DEFAULT = 100_000;

  /** The two-sided confidence of the false-positive interval: a correct filter fails 1 in 10^4. */
  static final double FPR_CONFIDENCE = 0.9999;

  private static final int[] SIZES = {0, 1, 2, 3, 100, 1000, 5000};

  /** {@return the registry type under test} */
  protected abstract FilterType type();

  /**
   * The builder of the filters under test: by default the tests' registry settings ({@link
   * TestFilters#builder}, the settings the golden files were written with).
   */
  protected FilterBuilder<? extends Filter> builder() {
    return TestFilters.builder(type());
  }

  /**
   * The relative accuracy of the type's model ({@link Filter#modelledFpRate()}), beyond sampling
   * error. Subclasses state where theirs comes from.
   */
  protected abstract double modelTolerance();

  /** {@return the number of keys of the false-positive check} */
  protected int fprKeys() {
    return FPR_KEYS_DEFAULT;
  }

  /**
   * Whether the type's bare payload form records its own length, so that a truncated payload is
   * refused or still holds every key. False for a raw bitset (Parquet's), whose length is its size.
   */
  protected boolean payloadDetectsTruncation() {
    return true;
  }

  // ---------------------------------------------------------------- keys and helpers

  private long seed(int salt) {
    return type().id() * 0x9E3779B97F4A7C15L + salt;
  }

  private long[] longKeys(int n, int salt) {
    return new SplittableRandom(seed(salt)).longs(n).toArray();
  }

  private byte[][] byteKeys(int n, int salt) {
    SplittableRandom random = new SplittableRandom(seed(salt));
    byte[][] keys = new byte[n][];
    for (int i = 0; i < n; i++) {
      // distinct: the empty key once, then 4 to 40 random bytes (repeats are tested on their own;
      // a Cuckoo filter holds at most 8 copies of one key)
      keys[i] = new byte[i == 0 ? 0 : 4 + random.nextInt(37)];
      for (int j = 0; j < keys[i].length; j++) {
        keys[i][j] = (byte) random.nextInt();
      }
    }
    return keys;
  }

  /** The hashes of {@code keys} under the type's default scheme, as its builder hashes them. */
  private long[] hashes(long[] keys) {
    long[] out = new long[keys.length];
    builder().keyScheme().hash(keys, 0, keys.length, out, 0);
    return out;
  }

  private String what(String check) {
    return type().cliName() + " " + check;
  }

  private void assertHoldsLongKeys(Filter f, long[] keys, String what) {
    for (int i = 0; i < keys.length; i++) {
      if (!f.mayContain(keys[i])) {
        fail(what + ": false negative for long key #" + i + " (" + keys[i] + ") of " + keys.length);
      }
      if (!f.mayContainHash(f.keyScheme().hash(keys[i]))) {
        fail(what + ": false negative for the hash of long key #" + i + " of " + keys.length);
      }
    }
  }

  private static void assertHoldsByteKeys(Filter f, byte[][] keys, String what) {
    for (int i = 0; i < keys.length; i++) {
      byte[] k = keys[i];
      byte[] padded = new byte[k.length + 7];
      System.arraycopy(k, 0, padded, 3, k.length);
      ByteBuffer direct = ByteBuffer.allocateDirect(k.length + 5).position(5);
      direct.put(k).position(5);
      boolean ok =
          f.mayContain(k)
              && f.mayContain(padded, 3, k.length)
              && f.mayContain(ByteBuffer.wrap(padded, 3, k.length))
              && f.mayContain(direct)
              && f.mayContainHash(f.keyScheme().hash(k, 0, k.length));
      if (!ok) {
        fail(what + ": false negative for byte[] key #" + i + " of " + keys.length);
      }
    }
  }

  /** The same answer for every key hash and for 4096 random hashes, and the same key count. */
  private void assertSameAnswers(Filter expected, Filter actual, long[] keyHashes, String what) {
    assertEquals(expected.numKeys(), actual.numKeys(), what + ": numKeys");
    for (int i = 0; i < keyHashes.length; i++) {
      if (expected.mayContainHash(keyHashes[i]) != actual.mayContainHash(keyHashes[i])) {
        fail(what + ": answers differ for key #" + i);
      }
    }
    SplittableRandom random = new SplittableRandom(seed(99));
    for (int i = 0; i < 4096; i++) {
      long h = random.nextLong();
      if (expected.mayContainHash(h) != actual.mayContainHash(h)) {
        fail(what + ": answers differ for random hash " + h);
      }
    }
  }

  // ---------------------------------------------------------------- (a) no false negatives

  @ParameterizedTest(name = "{0} keys")
  @ValueSource(ints = {0, 1, 2, 3, 100, 1000, 5000})
  void noFalseNegativesForLongKeys(int n) {
    long[] keys = longKeys(n, n);
    Filter f = builder().build(keys);
    assertSame(type().filterClass(), f.getClass(), what("filter class"));
    assertHoldsLongKeys(f, keys, what(n + " long keys"));
    assertHoldsLongKeys(builder().buildFromHashes(hashes(keys)), keys, what(n + " hashes"));
    if (n == 0) {
      assertEquals(0, f.numKeys(), what("empty numKeys"));
      for (long k : longKeys(1000, 7)) {
        f.mayContain(k); // answers, whatever it answers
      }
    }
  }

  @ParameterizedTest(name = "{0} keys")
  @ValueSource(ints = {0, 1, 2, 3, 100, 1000, 5000})
  void noFalseNegativesForByteKeys(int n) {
    byte[][] keys = byteKeys(n, 1000 + n);
    Filter f = builder().build(keys);
    assertHoldsByteKeys(f, keys, what(n + " byte[] keys"));
    assertHoldsByteKeys(builder().build(Arrays.asList(keys)), keys, what(n + " Iterable<byte[]>"));
  }

  @Test
  void noFalseNegativesWithDuplicateKeys() {
    for (int n : SIZES) {
      long[] distinct = longKeys(n, 2000 + n);
      long[] twice = new long[2 * n];
      for (int i = 0; i < n; i++) {
        twice[i] = distinct[i];
        twice[2 * n - 1 - i] = distinct[i];
      }
      assertHoldsLongKeys(builder().build(twice), distinct, what(n + " keys each given twice"));
      long[] withOneRepeated = Arrays.copyOf(distinct, n + 500);
      Arrays.fill(withOneRepeated, n, n + 500, 0x5EEDL);
      Filter f = builder().build(withOneRepeated);
      assertHoldsLongKeys(f, withOneRepeated, what(n + " keys and one key 500 times"));
      byte[][] bytes = byteKeys(n, 3000 + n);
      byte[][] bytesTwice = Arrays.copyOf(bytes, 2 * n);
      System.arraycopy(bytes, 0, bytesTwice, n, n);
      assertHoldsByteKeys(builder().build(bytesTwice), bytes, what(n + " byte[] keys twice"));
    }
  }

  @Test
  void noFalseNegativesWhenAdded() {
    if (!type().isMutable()) {
      return;
    }
    for (int n : SIZES) {
      long[] keys = longKeys(n, 4000 + n);
      byte[][] bytes = byteKeys(n, 5000 + n);
      // 2n distinct keys into a filter created for 2n: every add is taken
      MutableFilter f = type().mutableBuilder().expectedKeys(Math.max(1, 2L * n)).create();
      for (int i = 0; i < n; i++) {
        f.add(keys[i]);
        f.add(bytes[i]);
      }
      if (f instanceof CuckooFilter c) {
        assertEquals(0, c.failedAdds(), what(2 * n + " distinct adds into a filter for as many"));
      }
      assertHoldsLongKeys(f, keys, what(n + " long keys added"));
      assertHoldsByteKeys(f, bytes, what(n + " byte[] keys added"));
      // every key again: past the expected count a Cuckoo add may fail (false, the table is
      // full), but a key added before stays present
      for (int i = 0; i < n; i++) {
        f.add(keys[i]);
        f.add(bytes[i]);
      }
      assertHoldsLongKeys(f, keys, what(n + " long keys added twice"));
      assertHoldsByteKeys(f, bytes, what(n + " byte[] keys added twice"));
    }
  }

  // ---------------------------------------------------------------- (b) batch = single

  @Test
  void batchesAnswerAsSingleLookups(@TempDir Path dir) throws IOException {
    long[] keys = longKeys(3000, 6000);
    Filter heap = builder().build(keys);
    byte[] container = SieveFormat.toBytes(heap);
    Path file = dir.resolve("batch.sieve");
    SieveFormat.write(heap, file);
    List<Filter> readings = new ArrayList<>();
    readings.add(heap);
    readings.add(
        SieveFormat.wrap(ByteBuffer.allocateDirect(container.length).put(container).flip()));
    readings.add(SieveFormat.map(file));
    String[] names = {"heap", "wrapped", "mapped"};
    for (int r = 0; r < readings.size(); r++) {
      for (int[] range : new int[][] {{0, 0}, {0, 1}, {0, 64}, {3, 1000}, {64, 1937}}) {
        checkBatch(readings.get(r), keys, range[0], range[1], what(names[r] + " batch " + r));
      }
    }
  }

  private void checkBatch(Filter filter, long[] keys, int off, int len, String what) {
    SplittableRandom random = new SplittableRandom(seed(off * 31 + len));
    long[] queries = new long[off + len];
    for (int i = 0; i < queries.length; i++) {
      queries[i] = i % 2 == 0 ? keys[i % keys.length] : random.nextLong();
    }
    long[] hashes = hashes(queries);
    byte[][] byteQueries = new byte[queries.length][];
    CharSequence[] textQueries = new CharSequence[queries.length];
    for (int i = 0; i < queries.length; i++) {
      textQueries[i] = Long.toHexString(queries[i]);
      byteQueries[i] = textQueries[i].toString().getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }
    int words = (len + 63) >>> 6;
    long guard = 0xDEADBEEFCAFEF00DL;
    long[][] results = new long[4][words + 1];
    for (long[] r : results) {
      Arrays.fill(r, guard);
    }
    int[] counts = {
      filter.mayContainHashes(hashes, off, len, results[0]),
      filter.mayContainBatch(queries, off, len, results[1]),
      filter.mayContainBatch(byteQueries, off, len, results[2]),
      filter.mayContainBatch(textQueries, off, len, results[3])
    };
    int[] expected = new int[4];
    for (int i = 0; i < len; i++) {
      boolean[] single = {
        filter.mayContainHash(hashes[off + i]),
        filter.mayContain(queries[off + i]),
        filter.mayContain(byteQueries[off + i]),
        filter.mayContain(textQueries[off + i])
      };
      for (int b = 0; b < 4; b++) {
        boolean batch = (results[b][i >>> 6] >>> (i & 63) & 1) != 0;
        if (batch != single[b]) {
          fail(what + " [" + off + ", +" + len + "): batch form " + b + " differs at " + i);
        }
        expected[b] += single[b] ? 1 : 0;
      }
    }
    for (int b = 0; b < 4; b++) {
      assertEquals(expected[b], counts[b], what + ": count of batch form " + b);
      if (len % 64 != 0) {
        assertEquals(0, results[b][words - 1] & (-1L << (len % 64)), what + ": unused bits");
      }
      assertEquals(guard, results[b][words], what + ": wrote past the result");
    }
  }

  // ---------------------------------------------------------------- (c) round trips

  /** A filter and the keys it was built from. */
  private record Built(Filter filter, long[] keyHashes) {}

  private List<Built> roundTripFilters() {
    List<Built> out = new ArrayList<>();
    for (int n : new int[] {0, 1, 3000}) {
      long[] keys = longKeys(n, 7000 + n);
      out.add(new Built(builder().build(keys), hashes(keys)));
    }
    return out;
  }

  @Test
  void payloadFormRoundTrips() throws IOException {
    PayloadForm<Filter> form = Families.get().filterForm(type());
    for (Built built : roundTripFilters()) {
      Filter f = built.filter();
      long[] keyHashes = built.keyHashes();
      long n = f.numKeys();
      String what = what("payload form of " + keyHashes.length + " keys");
      byte[] payload = form.payload(f);
      assertEquals(payload.length, form.payloadLength(f), what + ": payloadLength");
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      form.writePayload(f, Channels.newChannel(out));
      assertArrayEquals(payload, out.toByteArray(), what + ": writePayload");
      Filter read = form.read(payload.clone(), n);
      assertSame(f.getClass(), read.getClass(), what);
      assertSameAnswers(f, read, keyHashes, what + " read");
      assertArrayEquals(payload, form.payload(read), what + ": read re-serialized");
      if (SieveFormat.readsInPlace(type())) {
        ByteBuffer heap = ByteBuffer.wrap(payload.clone());
        ByteBuffer direct = ByteBuffer.allocateDirect(payload.length).put(payload).flip();
        for (ByteBuffer b : List.of(heap, direct)) {
          Filter wrapped = form.wrap(b, n);
          String w = what + (b.isDirect() ? " wrapped direct" : " wrapped heap");
          assertSameAnswers(f, wrapped, keyHashes, w);
          assertArrayEquals(payload, form.payload(wrapped), w + ": re-serialized");
        }
      }
    }
  }

  @Test
  void containerRoundTrips(@TempDir Path dir) throws IOException {
    int index = 0;
    for (Built built : roundTripFilters()) {
      Filter f = built.filter();
      long[] keyHashes = built.keyHashes();
      String what = what("container of " + keyHashes.length + " keys");
      byte[] bytes = SieveFormat.toBytes(f);
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      SieveFormat.write(f, out);
      assertArrayEquals(bytes, out.toByteArray(), what + ": write(OutputStream)");
      Path file = dir.resolve("f" + index++ + ".sieve");
      SieveFormat.write(f, file);
      assertArrayEquals(bytes, Files.readAllBytes(file), what + ": write(Path)");

      byte[] shifted = new byte[bytes.length + 13];
      System.arraycopy(bytes, 0, shifted, 13, bytes.length);
      List<Supplier<Filter>> readers = new ArrayList<>();
      List<String> names = new ArrayList<>();
      readers.add(() -> SieveFormat.read(bytes.clone()));
      names.add("read(byte[])");
      readers.add(() -> SieveFormat.read(bytes.clone(), TestTypes.filterClass(type())));
      names.add("read(byte[], class)");
      readers.add(
          () -> {
            try {
              return SieveFormat.read(
                  new ByteArrayInputStream(bytes), TestTypes.filterClass(type()));
            } catch (IOException e) {
              throw new AssertionError(e);
            }
          });
      names.add("read(InputStream)");
      readers.add(() -> SieveFormat.wrap(ByteBuffer.wrap(bytes.clone())));
      names.add("wrap(heap)");
      readers.add(() -> SieveFormat.wrap(ByteBuffer.wrap(shifted, 13, bytes.length)));
      names.add("wrap(heap at position 13)");
      readers.add(
          () -> SieveFormat.wrap(ByteBuffer.allocateDirect(bytes.length).put(bytes).flip()));
      names.add("wrap(direct)");
      readers.add(
          () -> {
            try {
              return SieveFormat.map(file, TestTypes.filterClass(type()));
            } catch (IOException e) {
              throw new AssertionError(e);
            }
          });
      names.add("map(Path)");
      for (int r = 0; r < readers.size(); r++) {
        String w = what + " " + names.get(r);
        Filter read = readers.get(r).get();
        assertSame(f.getClass(), read.getClass(), w);
        assertSame(type(), FilterType.of(read), w);
        assertSameAnswers(f, read, keyHashes, w);
        assertArrayEquals(bytes, SieveFormat.toBytes(read), w + ": re-serialized");
        ByteArrayOutputStream again = new ByteArrayOutputStream();
        SieveFormat.write(read, again);
        assertArrayEquals(bytes, again.toByteArray(), w + ": re-written to a stream");
      }
    }
  }

  // ---------------------------------------------------------------- (d) corruption

  /** The outcome of one mutation: refused, or a filter (read or wrapped). */
  private static final class Outcome {
    final Filter filter;

    Outcome(Filter filter) {
      this.filter = filter;
    }
  }

  /** Reads with {@code reader}; a typed refusal gives null, anything else thrown fails. */
  private static Outcome attempt(Supplier<Filter> reader, String what) {
    try {
      return new Outcome(reader.get());
    } catch (SieveFormatException e) {
      assertTrue(e.offset() >= 0, what + ": negative offset in " + e.getMessage());
      return null;
    } catch (Throwable t) {
      throw new AssertionError(what + ": threw " + t + " instead of SieveFormatException", t);
    }
  }

  /** Queries, batches and re-serializes an accepted filter: nothing may throw. */
  private void assertUsable(Filter f, long[] keys, String what) {
    try {
      for (long k : keys) {
        f.mayContain(k);
      }
      SplittableRandom random = new SplittableRandom(seed(123));
      long[] hashes = random.longs(256).toArray();
      for (long h : hashes) {
        f.mayContainHash(h);
      }
      f.mayContainHashes(hashes, 0, hashes.length, new long[4]);
      f.mayContain(new byte[] {1, 2, 3});
      f.modelledFpRate();
      SieveFormat.toBytes(f);
    } catch (Throwable t) {
      throw new AssertionError(what + ": the accepted filter threw " + t, t);
    }
  }

  /** A seeded mutation of {@code original}; {@code kind[0]} tells whether it only truncated. */
  private static byte[] mutate(byte[] original, SplittableRandom r, int headerBytes, int[] kind) {
    byte[] b = original.clone();
    kind[0] = r.nextInt(6);
    switch (kind[0]) {
      case 0 -> { // one to three bit flips anywhere
        for (int i = 1 + r.nextInt(3); i > 0 && b.length > 0; i--) {
          int bit = r.nextInt(b.length * 8);
          b[bit >>> 3] ^= (byte) (1 << (bit & 7));
        }
      }
      case 1 -> { // a byte written anywhere
        if (b.length > 0) {
          b[r.nextInt(b.length)] = (byte) r.nextInt();
        }
      }
      case 2, 3 -> { // a bit flip in the header (the length, count and parameter fields)
        int span = Math.min(b.length, headerBytes);
        if (span > 0) {
          int bit = r.nextInt(span * 8);
          b[bit >>> 3] ^= (byte) (1 << (bit & 7));
        }
      }
      case 4 -> b = Arrays.copyOf(b, b.length == 0 ? 0 : r.nextInt(b.length)); // truncated
      default -> { // bytes appended
        b = Arrays.copyOf(b, b.length + 1 + r.nextInt(64));
        for (int i = original.length; i < b.length; i++) {
          b[i] = (byte) r.nextInt();
        }
      }
    }
    return b;
  }

  private static final int MUTATIONS = 120;

  @Test
  @Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void corruptedFormsFailTypedOrKeepEveryKey() {
    long[] keys = longKeys(500, 8000);
    Filter f = builder().build(keys);
    byte[] container = SieveFormat.toBytes(f);
    PayloadForm<Filter> form = Families.get().filterForm(type());
    byte[] payload = form.payload(f);
    long n = f.numKeys();
    SplittableRandom r = new SplittableRandom(seed(8001));
    int[] kind = new int[1];
    int[] refused = new int[3]; // container, checksum-fixed container, payload
    int[] tried = new int[3];
    for (int m = 0; m < MUTATIONS; m++) {
      // the container as written: refused, or every key still there
      byte[] bad = mutate(container, r, SieveFormat.HEADER_BYTES, kind);
      if (!Arrays.equals(bad, container)) {
        String what = what("container mutation " + m + " (kind " + kind[0] + ")");
        for (Outcome o :
            Arrays.asList(
                attempt(() -> SieveFormat.read(bad), what + " read"),
                attempt(() -> SieveFormat.wrap(ByteBuffer.wrap(bad)), what + " wrap"))) {
          tried[0]++;
          if (o == null) {
            refused[0]++;
          } else {
            assertHoldsLongKeys(o.filter, keys, what + " accepted");
          }
        }
      }
      // the container with its checksums recomputed, so the mutation reaches the payload checks
      byte[] fixed = TestFilters.fixChecksums(mutate(container, r, SieveFormat.HEADER_BYTES, kind));
      String whatFixed = what("checksum-fixed container mutation " + m + " (kind " + kind[0] + ")");
      for (Outcome o :
          Arrays.asList(
              attempt(() -> SieveFormat.read(fixed), whatFixed + " read"),
              attempt(() -> SieveFormat.wrap(ByteBuffer.wrap(fixed)), whatFixed + " wrap"))) {
        tried[1]++;
        if (o == null) {
          refused[1]++;
        } else {
          assertUsable(o.filter, keys, whatFixed);
        }
      }
      // the bare payload form
      byte[] badPayload = mutate(payload, r, 32, kind);
      boolean truncated = kind[0] == 4;
      String whatPayload = what("payload mutation " + m + " (kind " + kind[0] + ")");
      List<Outcome> outcomes = new ArrayList<>();
      outcomes.add(attempt(() -> form.read(badPayload.clone(), n), whatPayload + " read"));
      if (SieveFormat.readsInPlace(type())) {
        outcomes.add(
            attempt(
                () ->
                    form.wrap(
                        ByteBuffer.allocateDirect(badPayload.length).put(badPayload).flip(), n),
                whatPayload + " wrap"));
      }
      for (Outcome o : outcomes) {
        tried[2]++;
        if (o == null) {
          refused[2]++;
        } else {
          assertUsable(o.filter, keys, whatPayload);
          if (truncated && payloadDetectsTruncation() && badPayload.length < payload.length) {
            assertHoldsLongKeys(
                Schemes.apply(o.filter, f.keyScheme()), // a payload carries no scheme
                keys,
                whatPayload + " truncated to " + badPayload.length);
          }
        }
      }
    }
    System.out.printf(
        "%s corruption: container %d of %d readings refused, checksum-fixed container %d of %d,"
            + " payload form %d of %d%n",
        type().cliName(), refused[0], tried[0], refused[1], tried[1], refused[2], tried[2]);
    // the checksums catch every change of the container as written; if they did not, the
    // mutations did not reach the readers
    assertEquals(tried[0], refused[0], what("checksummed container readings accepted"));
    // and the intact forms are still accepted
    assertHoldsLongKeys(SieveFormat.read(container), keys, what("intact container"));
    // a payload carries no key scheme (the container's flags do; the split-block form is a Parquet
    // bitset, read as Parquet's): asked with the scheme the keys were added with
    assertHoldsLongKeys(
        Schemes.apply(form.read(payload.clone(), n), f.keyScheme()), keys, what("intact payload"));
  }

  // ---------------------------------------------------------------- (e) false-positive rate

  @Test
  void measuredFprMatchesTheModel() {
    long[] keys = new SplittableRandom(seed(9000)).longs(fprKeys()).map(k -> k >>> 1).toArray();
    Filter f = builder().build(keys);
    double model = f.modelledFpRate();
    assertTrue(model > 0 && model < 1, what("model " + model));
    long queries = Math.max(1_000_000L, Math.min(8_000_000L, (long) Math.ceil(3000 / model)));
    SplittableRandom absent = new SplittableRandom(seed(9001));
    long fp = 0;
    for (long q = 0; q < queries; q++) {
      if (f.mayContain(absent.nextLong() | Long.MIN_VALUE)) {
        fp++;
      }
    }
    assertWithinModel(f, keys.length, fp, queries, "");
  }

  /**
   * The same check over sequential keys, {@code 1..n} added and {@code n+1, n+2, ...} asked, about
   * 1000 false positives expected: keys that differ in a few low bits are where a weak mix of
   * {@code long} keys (the default scheme's one mixer) would show, as clustered slots or
   * fingerprints, in a rate above the model.
   */
  @Test
  void measuredFprOfSequentialKeysMatchesTheModel() {
    int n = fprKeys();
    long[] keys = java.util.stream.LongStream.rangeClosed(1, n).toArray();
    Filter f = builder().build(keys);
    double model = f.modelledFpRate();
    assertTrue(model > 0 && model < 1, what("model " + model));
    long queries = Math.max(300_000L, Math.min(3_000_000L, (long) Math.ceil(1000 / model)));
    long fp = 0;
    for (long q = n + 1L; q <= n + queries; q++) {
      if (f.mayContain(q)) {
        fp++;
      }
    }
    assertWithinModel(f, n, fp, queries, " sequential, " + f.keyScheme());
  }

  private void assertWithinModel(Filter f, int keys, long fp, long queries, String label) {
    double model = f.modelledFpRate();
    double alpha = 1 - FPR_CONFIDENCE;
    double tol = modelTolerance();
    long lo = BinomialBound.lower(queries, model * (1 - tol), alpha);
    long hi = BinomialBound.upper(queries, Math.min(1, model * (1 + tol)), alpha);
    String line =
        String.format(
            "%s: %d keys, %.3f bits/key, %d false positives in %d queries (%.5f%%), model %.5f%%"
                + " (expected %.1f), ratio %.4f, allowed [%d, %d] (99.99%% binomial, model ±%.0f%%)",
            type().cliName() + label,
            keys,
            f.bitsPerKey(),
            fp,
            queries,
            100.0 * fp / queries,
            100 * model,
            model * queries,
            fp / (model * queries),
            lo,
            hi,
            100 * tol);
    System.out.println(line);
    assertTrue(fp >= lo && fp <= hi, line);
  }
}
