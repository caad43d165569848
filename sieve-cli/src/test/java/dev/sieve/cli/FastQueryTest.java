package dev.sieve.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.KeyScheme;
import dev.sieve.MutableFilter;
import dev.sieve.bloom.BlockedBloomFilter;
import dev.sieve.format.SieveFormat;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The plain form {@code sieve query FILE KEY...} runs without picocli ({@link FastQuery}). It must
 * print the same bytes on stdout and stderr and exit with the same status as picocli's {@link
 * QueryCommand} for the same arguments, decline (printing nothing) whatever it does not parse
 * exactly, and load no picocli class.
 */
class FastQueryTest {
  @TempDir Path tmp;

  private static CliRun picocli(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cli = SieveCli.commandLine("query");
    cli.setOut(new PrintWriter(out));
    cli.setErr(new PrintWriter(err));
    int status = cli.execute(args);
    return new CliRun(status, out.toString(), err.toString());
  }

  private static CliRun fast(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int status = FastQuery.run(args, new PrintWriter(out), new PrintWriter(err));
    return new CliRun(status, out.toString(), err.toString());
  }

  private String block() throws IOException {
    Path keys = tmp.resolve("k.txt");
    Files.writeString(keys, "a\nb\n42\nkey1\n");
    String block = tmp.resolve("f.block").toString();
    assertEquals(
        0,
        CliRun.of("build", "--keys", keys.toString(), "--policy", "bloom:10", "-o", block)
            .status());
    return block;
  }

  @Test
  void plainFormPrintsWhatPicocliPrints() throws Exception {
    String block = block();
    Path longs = tmp.resolve("longs.sieve");
    MutableFilter bloom =
        BlockedBloomFilter.builder()
            .expectedKeys(100)
            .fpRate(0.01)
            .keyScheme(KeyScheme.MIX64)
            .create();
    for (long k : new long[] {1, 2, 3, 42}) {
      bloom.add(k);
    }
    SieveFormat.write(bloom, longs);
    Path corrupt = tmp.resolve("corrupt.sieve");
    byte[] bytes = Files.readAllBytes(longs);
    bytes[bytes.length / 2] ^= 0x5a;
    bytes[bytes.length - 1] ^= 0x5a;
    Files.write(corrupt, bytes);
    Path junk = tmp.resolve("junk.bin");
    Files.write(junk, "not a filter at all".getBytes(StandardCharsets.UTF_8));
    Path empty = Files.createFile(tmp.resolve("empty"));
    Path parts = tmp.resolve("parts");
    assertEquals(
        0,
        CliRun.of(
                "build",
                "--keys",
                tmp.resolve("k.txt").toString(),
                "--policy",
                "ribbon:10",
                "--partition-size",
                "64",
                "-o",
                parts.toString())
            .status());
    String missing = tmp.resolve("missing.sst").toString();
    List<String[]> cases =
        List.of(
            new String[] {"query", block, "a", "zz"},
            new String[] {"query", block, "key1", "b", "a"},
            new String[] {"query", block, "7", "12345678901234567890", "zz"}, // numeric note
            new String[] {"query", block, "42", "ünïcødé", "a b"},
            new String[] {"query", missing, "k"},
            new String[] {"query", junk.toString(), "k"},
            new String[] {"query", empty.toString(), "k"},
            new String[] {"query", corrupt.toString(), "1"},
            new String[] {"query", parts.toString(), "a"},
            new String[] {"query", longs.toString(), "1", "2", "5", "42"},
            new String[] {"query", longs.toString(), "1", "notanumber"},
            new String[] {"query", longs.toString(), "99999999999999999999"});
    for (String[] args : cases) {
      CliRun fast = fast(args);
      assertNotEquals(FastQuery.NOT_PLAIN, fast.status(), String.join(" ", args));
      assertEquals(picocli(args), fast, String.join(" ", args));
    }
    // the cases cover what they claim: an answer of each kind, the note, each error status
    assertTrue(fast(cases.get(0)).out().contains("a\tmaybe"));
    assertTrue(fast(cases.get(2)).err().contains("note: 7 was asked as the text"));
    assertEquals(1, fast(cases.get(4)).status());
    assertEquals(1, fast(cases.get(7)).status());
    assertEquals(2, fast(cases.get(8)).status());
    assertEquals(2, fast(cases.get(10)).status());
    assertTrue(fast(cases.get(9)).out().contains("42\tmaybe"));
  }

  @Test
  void declinesWhatItDoesNotParseExactly() throws Exception {
    String block = block();
    Path parquet = tmp.resolve("x.parquet");
    Files.write(parquet, "PAR1 not really, but the magic says Parquet PAR1".getBytes());
    Path db = tmp.resolve("db");
    TestDatabase.create(db, 50);
    List<String[]> declined =
        List.of(
            new String[] {"query", block},
            new String[] {"query"},
            new String[] {"query", "--hex", block, "6b"},
            new String[] {"query", block, "--", "a"},
            new String[] {"query", block, "-1"},
            new String[] {"query", block, "@args.txt"},
            new String[] {"query", block, ""},
            new String[] {"query", block, "a", "-h"},
            new String[] {"inspect", block, "a"},
            new String[] {"query", parquet.toString(), "col", "1"},
            new String[] {"query", Files.createDirectories(tmp.resolve("d")).toString(), "k"},
            new String[] {"query", db.toString(), TestDatabase.key(1)});
    for (String[] args : declined) {
      CliRun fast = fast(args);
      assertEquals(new CliRun(FastQuery.NOT_PLAIN, "", ""), fast, String.join(" ", args));
    }
    // an SST file of the database is the plain form, and answers as picocli does
    Path sst;
    try (Stream<Path> files = Files.list(db)) {
      sst = files.filter(p -> p.toString().endsWith(".sst")).findFirst().orElseThrow();
    }
    String[] args = {"query", sst.toString(), TestDatabase.key(1), "no-such-key", "17"};
    CliRun fast = fast(args);
    assertNotEquals(FastQuery.NOT_PLAIN, fast.status());
    assertEquals(picocli(args), fast);
  }

  @Test
  void plainFormLoadsNoPicocliClass() throws Exception {
    String block = block();
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("-Xmx256m");
    cmd.add("-Xshare:off");
    cmd.add("-verbose:class");
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(Main.class.getName());
    cmd.add("query");
    cmd.add(block);
    cmd.add("a");
    cmd.add("zz");
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(60, TimeUnit.SECONDS));
    assertEquals(0, p.exitValue(), output);
    assertTrue(output.contains("a\tmaybe"), output);
    assertTrue(output.contains("dev.sieve.cli.FastQuery"), "the fast path ran");
    List<String> picocli = output.lines().filter(l -> l.contains("picocli.")).limit(5).toList();
    assertEquals(List.of(), picocli);
    // and the same run with an option loads picocli: the check would see it
    cmd.set(cmd.size() - 2, "--hex");
    cmd.set(cmd.size() - 1, "61");
    Process q = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String withOption = new String(q.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(q.waitFor(60, TimeUnit.SECONDS));
    assertFalse(withOption.lines().noneMatch(l -> l.contains("picocli.CommandLine")));
  }
}
