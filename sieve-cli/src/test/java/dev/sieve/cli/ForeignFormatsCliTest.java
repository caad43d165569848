package dev.sieve.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.common.hash.BloomFilter;
import com.google.common.hash.Funnels;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code inspect}, {@code query} and {@code convert} on filter files written by Guava 33.5.0 and
 * Spark's sketch 4.2.0 themselves: recognized by structure (or {@code --format}), answered as the
 * owner answers, converted to a Sieve container and back byte for byte, and refused where a
 * conversion would lose.
 */
class ForeignFormatsCliTest {
  @TempDir Path dir;

  private interface Writer {
    void writeTo(OutputStream out) throws IOException;
  }

  private Path file(String name, Writer w) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    w.writeTo(out);
    Path p = dir.resolve(name);
    Files.write(p, out.toByteArray());
    return p;
  }

  private Path guava() throws IOException {
    BloomFilter<CharSequence> g =
        BloomFilter.create(Funnels.stringFunnel(StandardCharsets.UTF_8), 1000, 0.01);
    for (int i = 0; i < 1000; i++) {
      g.put("user:" + i);
    }
    return file("users.guava", g::writeTo);
  }

  private Path spark(int keys) throws IOException {
    org.apache.spark.util.sketch.BloomFilter s =
        org.apache.spark.util.sketch.BloomFilter.create(1000, 0.01);
    for (int i = 0; i < keys; i++) {
      s.putString("user:" + i);
      s.putLong(i);
    }
    return file("users.spark", s::writeTo);
  }

  @Test
  void queryAnswersAsTheOwner() throws IOException {
    BloomFilter<CharSequence> g =
        BloomFilter.create(Funnels.stringFunnel(StandardCharsets.UTF_8), 1000, 0.01);
    for (int i = 0; i < 1000; i++) {
      g.put("user:" + i);
    }
    Path p = file("g.bin", g::writeTo);
    String[] args = new String[202];
    args[0] = "query";
    args[1] = p.toString();
    for (int i = 0; i < 200; i++) {
      args[i + 2] = i < 100 ? "user:" + i : "other:" + i;
    }
    CliRun r = CliRun.of(args);
    assertEquals(0, r.status(), r.err());
    String[] lines = r.out().split("\n");
    for (int i = 0; i < 200; i++) {
      String key = args[i + 2];
      assertEquals(key + "\t" + (g.mightContain(key) ? "maybe" : "absent"), lines[i]);
    }
    assertEquals(
        0,
        FastQuery.run(
            new String[] {"query", p.toString(), "user:1"},
            new java.io.PrintWriter(new java.io.StringWriter()),
            new java.io.PrintWriter(new java.io.StringWriter())));
  }

  @Test
  void sparkLongKeysAreItsPutLong() throws IOException {
    Path p = spark(500);
    org.apache.spark.util.sketch.BloomFilter s =
        org.apache.spark.util.sketch.BloomFilter.readFrom(Files.readAllBytes(p));
    CliRun r = CliRun.of("query", "--long", p.toString(), "3", "499", "123456789");
    assertEquals(0, r.status(), r.err());
    assertEquals(
        "3\tmaybe\n499\tmaybe\n123456789\t"
            + (s.mightContainLong(123456789) ? "maybe" : "absent")
            + "\n",
        r.out().replace("\r", ""));
  }

  @Test
  void inspectTellsTheFillAndTheRate() throws IOException {
    CliRun r = CliRun.of("inspect", "--json", guava().toString());
    assertEquals(0, r.status(), r.err());
    assertTrue(r.out().contains("\"input_kind\": \"guava bloom filter\""), r.out());
    assertTrue(r.out().contains("\"strategy\": \"MURMUR128_MITZ_64\""), r.out());
    assertTrue(r.out().contains("\"num_probes\": 7"), r.out());
    // Spark sized for 1000 keys at 1%, given 20000: the rate at its fill says so
    CliRun over = CliRun.of("inspect", "--json", spark(10_000).toString());
    assertEquals(0, over.status(), over.err());
    assertTrue(over.out().contains("over capacity"), over.out());
    assertTrue(over.out().contains("\"saturated\": true"), over.out());
    CliRun forced =
        CliRun.of(
            "inspect", "--json", "--format", "spark", "--fp-rate", "0.01", spark(10).toString());
    assertEquals(0, forced.status(), forced.err());
    assertTrue(forced.out().contains("\"version\": \"V2\""), forced.out());
  }

  @Test
  void convertRoundTripsThroughTheContainer() throws IOException {
    Path g = guava();
    Path sieve = dir.resolve("users.sieve");
    Path back = dir.resolve("back.guava");
    assertEquals(0, CliRun.of("convert", g.toString(), sieve.toString(), "--to", "sieve").status());
    CliRun q = CliRun.of("query", sieve.toString(), "user:5");
    assertEquals("user:5\tmaybe\n", q.out().replace("\r", ""));
    CliRun i = CliRun.of("inspect", "--json", sieve.toString());
    assertTrue(i.out().contains("\"foreign_format\": \"guava\""), i.out());
    assertEquals(
        0, CliRun.of("convert", sieve.toString(), back.toString(), "--to", "guava").status());
    assertArrayEquals(Files.readAllBytes(g), Files.readAllBytes(back));
    Path s = spark(100);
    Path same = dir.resolve("same.spark");
    assertEquals(0, CliRun.of("convert", s.toString(), same.toString(), "--to", "spark").status());
    assertArrayEquals(Files.readAllBytes(s), Files.readAllBytes(same));
  }

  @Test
  void lossyConversionsAreRefusedInOneLine() throws IOException {
    Path out = dir.resolve("x");
    CliRun r = CliRun.of("convert", guava().toString(), out.toString(), "--to", "spark");
    assertEquals(1, r.status());
    assertEquals(1, r.err().strip().lines().count(), r.err());
    assertTrue(r.err().contains("Murmur3 x64_128"), r.err());
    assertFalse(Files.exists(out));
    Path built = dir.resolve("b.sieve");
    Path keys = dir.resolve("keys.txt");
    Files.writeString(keys, "a\nb\nc\n");
    assertEquals(0, CliRun.of("build", "--keys", keys.toString(), "-o", built.toString()).status());
    CliRun n = CliRun.of("convert", built.toString(), out.toString(), "--to", "guava");
    assertEquals(1, n.status());
    assertTrue(n.err().contains("rebuild it from the keys"), n.err());
    CliRun bad = CliRun.of("convert", keys.toString(), out.toString(), "--to", "sieve");
    assertEquals(1, bad.status());
    assertEquals(1, bad.err().strip().lines().count(), bad.err());
    CliRun usage = CliRun.of("convert", keys.toString(), out.toString(), "--to", "orc-x");
    assertEquals(2, usage.status());
  }

  @Test
  void dataSketchesInspectQueryConvert() throws IOException {
    org.apache.datasketches.filters.bloomfilter.BloomFilter ds =
        org.apache.datasketches.filters.bloomfilter.BloomFilterBuilder.createByAccuracy(
            500, 0.01, 9);
    for (int i = 0; i < 500; i++) {
      ds.update("user:" + i);
    }
    Path p = dir.resolve("users.ds");
    Files.write(p, ds.toByteArray());
    CliRun i = CliRun.of("inspect", "--json", p.toString());
    assertEquals(0, i.status(), i.err());
    assertTrue(i.out().contains("\"input_kind\": \"datasketches bloom filter\""), i.out());
    CliRun q = CliRun.of("query", p.toString(), "user:7", "nobody-here");
    assertEquals(
        "user:7\tmaybe\nnobody-here\t" + (ds.query("nobody-here") ? "maybe" : "absent") + "\n",
        q.out().replace("\r", ""));
    Path sieve = dir.resolve("ds.sieve");
    Path back = dir.resolve("back.ds");
    assertEquals(0, CliRun.of("convert", p.toString(), sieve.toString(), "--to", "sieve").status());
    assertEquals(
        0,
        CliRun.of("convert", sieve.toString(), back.toString(), "--to", "datasketches").status());
    assertArrayEquals(Files.readAllBytes(p), Files.readAllBytes(back));
  }

  @Test
  void hostileHeaderIsOneLine() throws IOException {
    Path p = dir.resolve("hostile.guava");
    Files.write(p, new byte[] {1, 5, 0x7f, (byte) 0xff, (byte) 0xff, (byte) 0xff, 0, 0});
    CliRun r = CliRun.of("inspect", "--format", "guava", p.toString());
    assertEquals(1, r.status());
    assertTrue(r.err().contains("data length 2147483647"), r.err());
    assertEquals(1, r.err().strip().lines().count(), r.err());
  }

  /**
   * A Cassandra Filter.db as Sieve writes it (no Cassandra library in the tests: see {@code
   * CassandraBloomInteropTest}), 800 text partition keys.
   */
  private Path cassandra(String name) throws IOException {
    dev.sieve.interop.CassandraBloomFilter c =
        dev.sieve.interop.CassandraBloomFilter.create(800, 0.01);
    for (int i = 0; i < 800; i++) {
      c.put("user:" + i);
    }
    c.put(42L);
    Path p = dir.resolve(name);
    Files.write(p, c.toByteArray());
    return p;
  }

  @Test
  void cassandraInspectQueryConvert() throws IOException {
    Path p = cassandra("nb-7-big-Filter.db");
    dev.sieve.interop.CassandraBloomFilter c =
        dev.sieve.interop.CassandraBloomFilter.readFrom(Files.readAllBytes(p));
    CliRun i = CliRun.of("inspect", "--json", p.toString());
    assertEquals(0, i.status(), i.err());
    assertTrue(i.out().contains("\"input_kind\": \"cassandra bloom filter\""), i.out());
    assertTrue(i.out().contains("\"num_probes\": 5"), i.out());
    assertTrue(i.out().contains("\"layout\": \"CURRENT\""), i.out());
    CliRun q = CliRun.of("query", p.toString(), "user:7", "nobody-here");
    assertEquals(0, q.status(), q.err());
    assertEquals(
        "user:7\tmaybe\nnobody-here\t" + (c.mayContain("nobody-here") ? "maybe" : "absent") + "\n",
        q.out().replace("\r", ""));
    CliRun l = CliRun.of("query", "--long", p.toString(), "42");
    assertEquals("42\tmaybe\n", l.out().replace("\r", ""), l.err());
    // by structure, under a name that says nothing, and by --format
    Path plain = cassandra("filter.bin");
    CliRun s = CliRun.of("inspect", "--json", plain.toString());
    assertTrue(s.out().contains("\"input_kind\": \"cassandra bloom filter\""), s.out());
    CliRun named = CliRun.of("query", "--format", "cassandra", plain.toString(), "user:1");
    assertEquals("user:1\tmaybe\n", named.out().replace("\r", ""), named.err());
    Path sieve = dir.resolve("c.sieve");
    Path back = dir.resolve("back-Filter.db");
    assertEquals(0, CliRun.of("convert", p.toString(), sieve.toString(), "--to", "sieve").status());
    CliRun ci = CliRun.of("inspect", "--json", sieve.toString());
    assertTrue(ci.out().contains("\"foreign_format\": \"cassandra\""), ci.out());
    assertEquals(
        0, CliRun.of("convert", sieve.toString(), back.toString(), "--to", "cassandra").status());
    assertArrayEquals(Files.readAllBytes(p), Files.readAllBytes(back));
    Path out = dir.resolve("x");
    CliRun refused = CliRun.of("convert", p.toString(), out.toString(), "--to", "guava");
    assertEquals(1, refused.status());
    assertEquals(1, refused.err().strip().lines().count(), refused.err());
    assertTrue(refused.err().contains("sign-extended"), refused.err());
    assertFalse(Files.exists(out));
  }

  static double jsonNumber(String json, String key) {
    java.util.regex.Matcher m =
        java.util.regex.Pattern.compile("\"" + key + "\": ([-0-9.eE]+)").matcher(json);
    assertTrue(m.find(), key + " in " + json);
    return Double.parseDouble(m.group(1));
  }

  /**
   * The rate a Cassandra filter was sized for comes from Cassandra's table, not 2^-k: for files
   * made by Cassandra's sizing at several rates, the reported range holds the rate asked and its
   * lower end is the table's entry; a k no row gives falls back to 2^-k and says so.
   */
  @ParameterizedTest(name = "fp chance {0}")
  @ValueSource(doubles = {0.2, 0.1, 0.05, 0.01, 0.001, 0.0001})
  void cassandraSizedForRateIsCassandrasTable(double fp) throws IOException {
    int n = 4000;
    dev.sieve.interop.CassandraBloomFilter c = dev.sieve.interop.CassandraBloomFilter.create(n, fp);
    for (int i = 0; i < n; i++) {
      c.put("key-" + i);
    }
    Path p = dir.resolve("sized-" + fp + "-Filter.db");
    Files.write(p, c.toByteArray());
    CliRun r = CliRun.of("inspect", "--json", p.toString());
    assertEquals(0, r.status(), r.err());
    double low = jsonNumber(r.out(), "sized_for_fpr_low");
    double high = jsonNumber(r.out(), "sized_for_fpr_high");
    assertTrue(low <= fp && fp < high, low + " <= " + fp + " < " + high + ": " + r.out());
    assertEquals(low, jsonNumber(r.out(), "sized_for_fpr"));
    assertTrue(r.out().contains("BloomCalculations"), r.out());
    if (fp == 0.01) {
      assertEquals(5, c.numProbes()); // 2^-5 would read 3.1%
      assertEquals(0.00943, low);
      assertEquals(0.0118, high);
    }
    CliRun text = CliRun.of("inspect", p.toString());
    assertTrue(text.out().contains("sized for source:"), text.out());
  }

  @Test
  void cassandraProbeCountNoRowGivesFallsBackToTwoToTheMinusK() throws IOException {
    dev.sieve.interop.CassandraBloomFilter c =
        dev.sieve.interop.CassandraBloomFilter.withShape(
            64 * 100, 20, dev.sieve.interop.CassandraBloomFilter.Layout.CURRENT);
    for (int i = 0; i < 200; i++) {
      c.put("key-" + i);
    }
    Path p = dir.resolve("odd-Filter.db");
    Files.write(p, c.toByteArray());
    CliRun r = CliRun.of("inspect", "--json", p.toString());
    assertEquals(0, r.status(), r.err());
    assertEquals(Math.pow(2, -20), jsonNumber(r.out(), "sized_for_fpr"));
    assertTrue(r.out().contains("fits no row"), r.out());
  }

  /**
   * Cassandra 3.x's layout: read with --format cassandra3 or by the SSTable version in the name,
   * answers as the filter (and not as the same bytes read in the 4.0 layout), converts losslessly
   * to and from the 4.0 layout, and a pre-3.0 version is refused in one line.
   */
  @Test
  void cassandra3LayoutByFormatAndByName() throws IOException {
    dev.sieve.interop.CassandraBloomFilter c =
        dev.sieve.interop.CassandraBloomFilter.create(1000, 0.01);
    for (int i = 0; i < 1000; i++) {
      c.put("user:" + i);
    }
    byte[] legacy = c.toByteArray(dev.sieve.interop.CassandraBloomFilter.Layout.LEGACY);
    byte[] current = c.toByteArray(dev.sieve.interop.CassandraBloomFilter.Layout.CURRENT);
    Path plain = dir.resolve("three.bin");
    Files.write(plain, legacy);
    String[] keys = new String[2000];
    StringBuilder expected = new StringBuilder();
    for (int i = 0; i < keys.length; i++) {
      keys[i] = "user:" + (i < 1000 ? i : 100_000 + i);
      expected.append(keys[i]).append('\t').append(c.mayContain(keys[i]) ? "maybe" : "absent");
      expected.append('\n');
    }
    String[] args = new String[keys.length + 4];
    args[0] = "query";
    args[1] = "--format";
    args[2] = "cassandra3";
    args[3] = plain.toString();
    System.arraycopy(keys, 0, args, 4, keys.length);
    CliRun q = CliRun.of(args);
    assertEquals(0, q.status(), q.err());
    assertEquals(expected.toString(), q.out().replace("\r", ""));
    args[2] = "cassandra"; // the same bytes in the 4.0 layout: present keys answer absent
    CliRun wrong = CliRun.of(args);
    assertTrue(wrong.out().lines().limit(1000).anyMatch(l -> l.endsWith("\tabsent")));

    // by name: 3.x versions are the legacy layout, 4.0+ and bti the current one
    Path named3 = dir.resolve("mc-3-big-Filter.db");
    Files.write(named3, legacy);
    CliRun i3 = CliRun.of("inspect", "--json", named3.toString());
    assertEquals(0, i3.status(), i3.err());
    assertTrue(i3.out().contains("\"input_kind\": \"cassandra3 bloom filter\""), i3.out());
    assertTrue(i3.out().contains("\"layout\": \"LEGACY\""), i3.out());
    CliRun q3 = CliRun.of("query", named3.toString(), "user:1", "user:999");
    assertEquals("user:1\tmaybe\nuser:999\tmaybe\n", q3.out().replace("\r", ""), q3.err());
    Path old = dir.resolve("la-1-big-Filter.db");
    Files.write(old, legacy);
    CliRun refused = CliRun.of("inspect", old.toString());
    assertEquals(1, refused.status());
    assertTrue(refused.err().contains("pre-3.0 order"), refused.err());
    assertEquals(1, refused.err().strip().lines().count(), refused.err());
    Path old21 = dir.resolve("ks-t-ka-1-Filter.db");
    Files.write(old21, legacy);
    CliRun refused21 = CliRun.of("query", old21.toString(), "k");
    assertEquals(1, refused21.status());
    assertTrue(refused21.err().contains("SSTable version ka"), refused21.err());

    // lossless between the layouts, and through the container
    Path to4 = dir.resolve("to4.bin");
    assertEquals(
        0,
        CliRun.of(
                "convert",
                "--format",
                "cassandra3",
                plain.toString(),
                to4.toString(),
                "--to",
                "cassandra")
            .status());
    assertArrayEquals(current, Files.readAllBytes(to4));
    Path sieve = dir.resolve("three.sieve");
    Path back = dir.resolve("back3.bin");
    assertEquals(
        0, CliRun.of("convert", named3.toString(), sieve.toString(), "--to", "sieve").status());
    assertEquals(
        0, CliRun.of("convert", sieve.toString(), back.toString(), "--to", "cassandra3").status());
    assertArrayEquals(legacy, Files.readAllBytes(back));
  }

  @Test
  void cassandraHostileHeaderIsOneLine() throws IOException {
    Path p = dir.resolve("me-1-big-Filter.db");
    Files.write(p, new byte[] {0, 0, 0, 5, 0x7f, (byte) 0xff, (byte) 0xff, (byte) 0xf0, 0, 0});
    CliRun r = CliRun.of("inspect", p.toString());
    assertEquals(1, r.status());
    assertTrue(r.err().contains("word count 2147483632"), r.err());
    assertEquals(1, r.err().strip().lines().count(), r.err());
  }
}
