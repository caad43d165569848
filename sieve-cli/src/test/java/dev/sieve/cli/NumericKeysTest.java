package dev.sieve.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.Filter;
import dev.sieve.KeyScheme;
import dev.sieve.MutableFilter;
import dev.sieve.bloom.BlockedBloomFilter;
import dev.sieve.format.SieveFormat;
import dev.sieve.xor.Xor8Filter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Numbers as keys: {@code sieve query FILE.sieve 42} as text asks the two-byte text "42", which a
 * user of a filter built over {@code long} keys would read as a false negative. {@code --long} and
 * {@code --int} give keys as numbers (the bytes {@code Filter.mayContain(long)} and {@code
 * mayContainInt} hash), a container that records a long-key scheme (MIX64, IDENTITY: flags 1 and 2)
 * is asked with it by itself, and a numeric-looking text key that answers absent gets a one-line
 * note on stderr.
 */
class NumericKeysTest {
  @TempDir Path dir;

  static final long[] KEYS = {42, 7, -1, 1L << 40, Long.MAX_VALUE};

  private static long lines(String s) {
    return s.strip().lines().count();
  }

  @Test
  void aLongKeyedContainerAnswersMaybeWithLongAndNotesTheTextAnswer() throws IOException {
    Path f = dir.resolve("longs.sieve");
    // built through Filter.mayContain(long)'s hashing: no key scheme in the flags
    Filter filter = BlockedBloomFilter.builder().bitsPerKey(10).build(KEYS);
    SieveFormat.write(filter, f);

    CliRun text = CliRun.of("query", f.toString(), "42");
    assertEquals(0, text.status(), text.err());
    assertEquals("42\tabsent", text.out().strip(), "the text \"42\" is another key");
    assertEquals(1, lines(text.err()), text.err());
    assertTrue(text.err().contains("note") && text.err().contains("--long"), text.err());

    List<String> args = new ArrayList<>(List.of("query", f.toString(), "--long"));
    for (long k : KEYS) {
      args.add(Long.toString(k));
    }
    CliRun asLong = CliRun.of(args.toArray(new String[0]));
    assertEquals(0, asLong.status(), asLong.err());
    for (long k : KEYS) {
      assertTrue(asLong.out().contains(k + "\tmaybe"), asLong.out());
    }
    assertEquals("", asLong.err(), "no note when the keys are asked as numbers");

    // a text key that is not numeric gets no note; a present text key neither
    CliRun word = CliRun.of("query", f.toString(), "user:42");
    assertEquals(0, word.status(), word.err());
    assertEquals("", word.err());
  }

  @Test
  void aContainerThatRecordsItsLongKeyHashIsAskedWithIt() throws IOException {
    Path mix = dir.resolve("mix64.sieve");
    MutableFilter bloom =
        BlockedBloomFilter.builder()
            .expectedKeys(100)
            .fpRate(0.01)
            .keyScheme(KeyScheme.MIX64)
            .create();
    for (long k : KEYS) {
      bloom.add(k);
    }
    SieveFormat.write(bloom, mix);
    Path identity = dir.resolve("identity.sieve");
    SieveFormat.write(Xor8Filter.builder().keyScheme(KeyScheme.IDENTITY).build(KEYS), identity);
    for (Path f : new Path[] {mix, identity}) {
      List<String> args = new ArrayList<>(List.of("query", f.toString()));
      for (long k : KEYS) {
        args.add(Long.toString(k));
      }
      CliRun r = CliRun.of(args.toArray(new String[0]));
      assertEquals(0, r.status(), f + ": " + r.err());
      for (long k : KEYS) {
        assertTrue(r.out().contains(k + "\tmaybe"), f + ":\n" + r.out());
      }
      CliRun inspect = CliRun.of("inspect", f.toString());
      assertTrue(inspect.out().contains("query takes decimal longs"), inspect.out());
      CliRun explicit = CliRun.of("query", f.toString(), "--long", "42");
      assertEquals("42\tmaybe", explicit.out().strip(), explicit.err());

      CliRun hex = CliRun.of("query", f.toString(), "--hex", "2a");
      assertEquals(2, hex.status(), hex.err());
      assertEquals(1, lines(hex.err()), hex.err());
      assertTrue(hex.err().contains("long keys"), hex.err());

      CliRun notANumber = CliRun.of("query", f.toString(), "forty-two");
      assertEquals(2, notANumber.status(), notANumber.err());
      assertEquals(1, lines(notANumber.err()), notANumber.err());
      assertTrue(notANumber.err().contains("not a decimal long"), notANumber.err());
      assertFalse(notANumber.err().contains("\tat "), "no stack trace");
    }
  }

  /**
   * A container of Parquet's key scheme asks {@code --long} and {@code --int} keys as Parquet's
   * INT64 and INT32 values (little-endian XXH64), text keys as their UTF-8 bytes.
   */
  @Test
  void aParquetSchemeContainerAsksNumbersAsParquetValues() throws IOException {
    Path parquet = dir.resolve("parquet.sieve");
    MutableFilter f =
        dev.sieve.bloom.SplitBlockBloomFilter.builder()
            .expectedKeys(100)
            .keyScheme(KeyScheme.PARQUET_XXH64)
            .create();
    f.add(42L);
    f.addInt(7);
    f.add("user:1");
    SieveFormat.write(f, parquet);
    CliRun longs = CliRun.of("query", parquet.toString(), "--long", "42");
    assertEquals("42\tmaybe", longs.out().strip(), longs.err());
    CliRun ints = CliRun.of("query", parquet.toString(), "--int", "7");
    assertEquals("7\tmaybe", ints.out().strip(), ints.err());
    CliRun text = CliRun.of("query", parquet.toString(), "user:1");
    assertEquals("user:1\tmaybe", text.out().strip(), text.err());
    CliRun inspect = CliRun.of("inspect", parquet.toString());
    assertTrue(inspect.out().contains("PARQUET_XXH64"), inspect.out());
    // the same numbers' big-endian bytes are other keys (Parquet's are little-endian)
    int absent = 0;
    for (long k = 1000; k < 1100; k++) {
      absent +=
          CliRun.of("query", parquet.toString(), "--long", Long.toString(k))
                  .out()
                  .contains("absent")
              ? 1
              : 0;
    }
    assertTrue(absent > 90, absent + " of 100 absent longs answered absent");
  }

  @Test
  void buildAndQueryTakeLongAndIntKeysAsTheLibraryHashesThem() throws IOException {
    Path keys = dir.resolve("n.keys");
    Files.write(keys, List.of("42", "7", "-1", "1099511627776"));
    Path longs = dir.resolve("l.sieve");
    CliRun b = CliRun.of("build", "--keys", keys.toString(), "--long", "-o", longs.toString());
    assertEquals(0, b.status(), b.err());
    Filter read = SieveFormat.read(Files.readAllBytes(longs));
    for (long k : new long[] {42, 7, -1, 1L << 40}) {
      assertTrue(read.mayContain(k), "Filter.mayContain(" + k + "L)");
    }
    assertEquals("42\tmaybe", CliRun.of("query", longs.toString(), "--long", "42").out().strip());

    Path ints = dir.resolve("i.sieve");
    b = CliRun.of("build", "--keys", keys.toString(), "--int", "-o", ints.toString());
    assertEquals(1, b.status(), "1099511627776 is no int: " + b.err());
    assertTrue(b.err().contains("line 4") && b.err().contains("not a decimal int"), b.err());
    Files.write(keys, List.of("42", "7", "-1"));
    b = CliRun.of("build", "--keys", keys.toString(), "--int", "-o", ints.toString());
    assertEquals(0, b.status(), b.err());
    read = SieveFormat.read(Files.readAllBytes(ints));
    for (int k : new int[] {42, 7, -1}) {
      assertTrue(read.mayContainInt(k), "Filter.mayContainInt(" + k + ")");
    }
    assertEquals("7\tmaybe", CliRun.of("query", ints.toString(), "--int", "7").out().strip());

    // a RocksDB filter block over 8-byte keys: the same options, and the note for text
    Path block = dir.resolve("l.block");
    b =
        CliRun.of(
            "build",
            "--keys",
            keys.toString(),
            "--long",
            "--policy",
            "bloom:10",
            "-o",
            block.toString());
    assertEquals(0, b.status(), b.err());
    assertEquals("42\tmaybe", CliRun.of("query", block.toString(), "--long", "42").out().strip());
    CliRun text = CliRun.of("query", block.toString(), "42");
    assertEquals("42\tabsent", text.out().strip());
    assertTrue(text.err().contains("--long"), text.err());

    CliRun both = CliRun.of("query", block.toString(), "--long", "--int", "42");
    assertEquals(2, both.status(), both.err());
    assertEquals(1, lines(both.err()), both.err());
  }
}
