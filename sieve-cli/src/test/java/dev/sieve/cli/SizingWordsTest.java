package dev.sieve.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.common.hash.BloomFilter;
import com.google.common.hash.Funnels;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The words that keep sizes from surprising: {@code build}'s note where the modelled FPR alone
 * misleads (split-block's power-of-two size, prefix-bloom-range's point rate), the {@code --type}
 * help, and {@code inspect}'s designed key count of a Guava or Spark filter under {@code
 * --fp-rate}.
 */
class SizingWordsTest {
  @TempDir Path dir;

  private Path keys(int n) throws IOException {
    Path p = dir.resolve("keys.txt");
    Files.writeString(
        p,
        IntStream.range(0, n).mapToObj(i -> "key" + i).collect(Collectors.joining("\n", "", "\n")));
    return p;
  }

  private static double modelledFprPercent(String out) {
    Matcher m = Pattern.compile("modelled FPR ([0-9.eE+-]+)%").matcher(out);
    assertTrue(m.find(), out);
    return Double.parseDouble(m.group(1));
  }

  @Test
  void splitBlockAtAnFpRateSaysItsSizeIsAPowerOfTwo() throws IOException {
    CliRun r =
        CliRun.of(
            "build",
            "--keys",
            keys(10_000).toString(),
            "--type",
            "split-block-bloom",
            "--fp-rate",
            "0.01",
            "-o",
            dir.resolve("f.sieve").toString());
    assertEquals(0, r.status(), r.err());
    String all = r.out() + r.err();
    assertTrue(all.contains("rounded up to a power of two"), all);
    // 10^4 keys at 1%: parquet-java's 95,851 bits round up to 2^14 bytes, 13.1 bits/key
    assertTrue(modelledFprPercent(all) < 0.6, all);
  }

  @Test
  void prefixBloomRangeBuildSaysItsRateIsAPointProbes() throws IOException {
    CliRun r =
        CliRun.of(
            "build",
            "--keys",
            keys(2_000).toString(),
            "--type",
            "prefix-bloom-range",
            "-o",
            dir.resolve("r.sieve").toString());
    assertEquals(0, r.status(), r.err());
    String all = r.out() + r.err();
    assertTrue(all.contains("one prefix probe's, not a range query's"), all);
    assertTrue(all.contains("comparison baseline"), all);
  }

  @Test
  void typeHelpSaysPrefixBloomRangeIsABaseline() {
    CliRun r = CliRun.of("build", "--help");
    String help = (r.out() + r.err()).replaceAll("\\s+", " ");
    assertTrue(help.contains("prefix-bloom-range is a comparison baseline"), help);
  }

  @Test
  void inspectOfGuavaAndSparkSolvesDesignedKeysAtTheAskedRate() throws IOException {
    BloomFilter<CharSequence> g =
        BloomFilter.create(Funnels.stringFunnel(StandardCharsets.UTF_8), 1000, 0.01);
    org.apache.spark.util.sketch.BloomFilter s =
        org.apache.spark.util.sketch.BloomFilter.create(1000, 0.01);
    for (int i = 0; i < 1000; i++) {
      g.put("user:" + i);
      s.putString("user:" + i);
    }
    Path guava = dir.resolve("g.bin");
    Path spark = dir.resolve("s.bin");
    try (OutputStream o = Files.newOutputStream(guava)) {
      g.writeTo(o);
    }
    try (OutputStream o = Files.newOutputStream(spark)) {
      s.writeTo(o);
    }
    for (Path p : new Path[] {guava, spark}) {
      // both were sized for 1,000 keys at 1%; k = 7 alone says 949
      double asked =
          designedKeys(CliRun.of("inspect", "--json", "--fp-rate", "0.01", p.toString()));
      assertTrue(asked >= 1000 && asked <= 1005, p + ": " + asked);
      double tenth =
          designedKeys(CliRun.of("inspect", "--json", "--fp-rate", "0.001", p.toString()));
      assertTrue(tenth >= 666 && tenth <= 671, p + " at 0.1%: " + tenth);
      double unasked = designedKeys(CliRun.of("inspect", "--json", p.toString()));
      assertEquals(949, unasked, 2, p.toString());
    }
  }

  @Test
  void inspectOfCassandraSolvesDesignedKeysAtTheAskedRate() throws IOException {
    dev.sieve.interop.CassandraBloomFilter c =
        dev.sieve.interop.CassandraBloomFilter.create(1000, 0.01);
    for (int i = 0; i < 1000; i++) {
      c.put("user:" + i);
    }
    Path p = dir.resolve("nb-1-big-Filter.db");
    Files.write(p, c.toByteArray());
    // Cassandra: 0.01 is 10 bits per key, m = 1000 * 10 + 20 rounded up to 10,048 bits
    double asked = designedKeys(CliRun.of("inspect", "--json", "--fp-rate", "0.01", p.toString()));
    assertEquals(1003, asked, 0.5);
    double unasked = designedKeys(CliRun.of("inspect", "--json", p.toString()));
    assertEquals(Math.rint(10_048 * Math.log(2) / c.numProbes()), unasked, 0.5);
  }

  private static double designedKeys(CliRun r) {
    assertEquals(0, r.status(), r.err());
    Matcher m = Pattern.compile("\"designed_keys\": ?([0-9.eE+-]+)").matcher(r.out());
    assertTrue(m.find(), r.out());
    return Double.parseDouble(m.group(1).toLowerCase(Locale.ROOT));
  }
}
