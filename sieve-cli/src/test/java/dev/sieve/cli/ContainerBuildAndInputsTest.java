package dev.sieve.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.Filter;
import dev.sieve.format.SieveFormat;
import dev.sieve.registry.FilterType;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code build} writes the {@code .sieve} container its own {@code inspect} and {@code query} read,
 * for every registry type; {@code inspect} reads the directory {@code build --partition-size}
 * writes; and {@code ./sieve --help} gives {@code inspect}'s whole line, naming every input it
 * reads.
 */
class ContainerBuildAndInputsTest {
  @TempDir Path dir;

  private Path keys(int n) throws IOException {
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      lines.add("user:" + i);
    }
    Path keys = dir.resolve("k.keys");
    Files.write(keys, lines);
    return keys;
  }

  @Test
  void buildWritesAContainerOfEveryRegistryType() throws IOException {
    Path keys = keys(3000);
    for (FilterType t : FilterType.builtIn()) {
      Path out = dir.resolve(t.cliName() + ".sieve");
      List<String> args =
          new ArrayList<>(List.of("build", "--keys", keys.toString(), "--type", t.cliName()));
      if (SizeSettings.has(t)) {
        args.addAll(List.of("--setting", t == FilterType.CUCKOO ? "12" : "10"));
      }
      args.addAll(List.of("-o", out.toString()));
      CliRun r = CliRun.of(args.toArray(new String[0]));
      assertEquals(0, r.status(), t + ": " + r.err());
      assertTrue(r.out().startsWith("wrote " + Files.size(out) + " bytes (3000 keys"), r.out());
      Filter f = SieveFormat.read(Files.readAllBytes(out));
      assertEquals(t, FilterType.of(f), out.toString());
      for (int i = 0; i < 3000; i++) {
        assertTrue(f.mayContain(("user:" + i).getBytes(StandardCharsets.UTF_8)), t + " key " + i);
      }
      CliRun q = CliRun.of("query", out.toString(), "user:7", "user:2999");
      assertEquals("user:7\tmaybe\nuser:2999\tmaybe", q.out().strip(), t + ": " + q.err());
      CliRun inspect = CliRun.of("inspect", out.toString());
      assertEquals(0, inspect.status(), inspect.err());
      assertTrue(inspect.out().contains("sieve container"), inspect.out());
    }
    // --format sieve without the extension; --fp-rate; a type without a setting says why
    Path plain = dir.resolve("plain");
    CliRun r =
        CliRun.of(
            "build",
            "--keys",
            keys.toString(),
            "--format",
            "sieve",
            "--type",
            "ribbon",
            "--fp-rate",
            "0.001",
            "-o",
            plain.toString());
    assertEquals(0, r.status(), r.err());
    assertEquals(FilterType.RIBBON, FilterType.of(SieveFormat.read(Files.readAllBytes(plain))));
    CliRun noSetting =
        CliRun.of(
            "build",
            "--keys",
            keys.toString(),
            "--type",
            "scalable-bloom",
            "--setting",
            "10",
            "-o",
            dir.resolve("s.sieve").toString());
    assertEquals(2, noSetting.status());
    assertTrue(noSetting.err().contains("grows as keys arrive"), noSetting.err());
    CliRun mixed =
        CliRun.of(
            "build",
            "--keys",
            keys.toString(),
            "--policy",
            "bloom:10",
            "-o",
            dir.resolve("m.sieve").toString());
    assertEquals(2, mixed.status());
    assertTrue(mixed.err().contains("--policy does not apply"), mixed.err());
    assertEquals(1, mixed.err().strip().lines().count(), mixed.err());
  }

  @Test
  void inspectReadsThePartitionDirectoryBuildWrites() throws IOException {
    Path keys = keys(20_000);
    Path parts = dir.resolve("parts");
    CliRun b =
        CliRun.of(
            "build",
            "--keys",
            keys.toString(),
            "--policy",
            "bloom:10",
            "--partition-size",
            "4096",
            "-o",
            parts.toString());
    assertEquals(0, b.status(), b.err());
    int partitions = Integer.parseInt(b.out().split(" ")[1]);
    assertTrue(partitions > 1, b.out());
    long bytes = Long.parseLong(b.out().split(" ")[3]);

    CliRun r = CliRun.of("inspect", parts.toString());
    assertEquals(0, r.status(), r.err());
    assertTrue(r.out().contains("num partitions:        " + partitions), r.out());
    assertTrue(r.out().contains("filter bytes:          " + bytes), r.out());
    assertTrue(r.out().contains("fastlocalbloom"), r.out());
    CliRun json = CliRun.of("inspect", "--json", parts.toString());
    assertEquals(0, json.status(), json.err());
    assertTrue(json.out().contains("\"num_partitions\": " + partitions), json.out());

    // a partition that does not match its index line is named, one line, exit 1
    Files.write(parts.resolve("partition-00001.block"), new byte[] {1, 2, 3});
    CliRun bad = CliRun.of("inspect", parts.toString());
    assertEquals(1, bad.status(), bad.err());
    assertEquals(1, bad.err().strip().lines().count(), bad.err());
    assertTrue(bad.err().contains("partition-00001.block holds 3 bytes"), bad.err());
  }

  @Test
  void theHelpLinesNameEveryInputAndAreNotCut() {
    CliRun help = CliRun.of("--help");
    assertEquals(0, help.status());
    String inspect =
        help.out().substring(help.out().indexOf("  inspect"), help.out().indexOf("  query"));
    assertFalse(inspect.contains("reports its filter:"), inspect);
    String joined = inspect.replaceAll("\\s+", " ");
    for (String kind :
        new String[] {
          "SST file",
          "database directory",
          "Parquet file",
          "Sieve container",
          "filter block",
          "partitioned-filter directory"
        }) {
      assertTrue(joined.contains(kind), kind + " in: " + joined);
    }
    assertTrue(joined.strip().endsWith("."), "a whole sentence: " + joined);
    String build = help.out().substring(help.out().indexOf("  build"));
    assertTrue(build.replaceAll("\\s+", " ").contains("Sieve container"), build);
  }
}
