package dev.sieve.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.Filter;
import dev.sieve.format.SieveFormat;
import dev.sieve.range.GrafiteFilter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code build --long} records in the container that its keys were longs, so that {@code query
 * FILE.sieve 42} asks the key 42 by itself (the text "42" is another key) and {@code inspect} says
 * so; the library reads the container as before.
 */
class BuildLongKeysTest {
  @TempDir Path dir;

  private Path buildLongs() throws IOException {
    List<String> lines = new ArrayList<>();
    for (long k = 0; k < 3000; k++) {
      lines.add(Long.toString(k * 7919 - 1_000_000));
    }
    lines.add("42");
    Path keys = dir.resolve("longs.keys");
    Files.write(keys, lines);
    Path out = dir.resolve("f.sieve");
    CliRun b = CliRun.of("build", "--long", "--keys", keys.toString(), "-o", out.toString());
    assertEquals(0, b.status(), b.err());
    return out;
  }

  @Test
  void queryAsksAContainerBuiltWithLongAsLongs() throws IOException {
    Path f = buildLongs();
    CliRun q = CliRun.of("query", f.toString(), "42", "-1000000", "5713");
    assertEquals(0, q.status(), q.err());
    assertEquals("42\tmaybe\n-1000000\tmaybe\n5713\tmaybe", q.out().strip());
    assertEquals("", q.err(), "no note: the keys were asked as numbers");
    // with the flag it is the same answer; --hex and --int are refused as another key form
    CliRun flag = CliRun.of("query", "--long", f.toString(), "42");
    assertEquals("42\tmaybe", flag.out().strip(), flag.err());
    CliRun hex = CliRun.of("query", "--hex", f.toString(), "2a");
    assertEquals(2, hex.status(), hex.err());
    assertTrue(hex.err().contains("keys added as longs"), hex.err());
  }

  @Test
  void inspectSaysTheKeysWereLongsAndTheLibraryReadsTheContainer() throws IOException {
    Path f = buildLongs();
    CliRun i = CliRun.of("inspect", f.toString());
    assertEquals(0, i.status(), i.err());
    assertTrue(i.out().contains("built with --long"), i.out());
    Filter read = SieveFormat.read(Files.readAllBytes(f));
    assertTrue(read.mayContain(42L));
    assertTrue(read.mayContain(-1_000_000L));
  }

  @Test
  void aContainerBuiltFromTextRecordsNoLongKeys() throws IOException {
    Path keys = dir.resolve("text.keys");
    Files.write(keys, List.of("42", "43"));
    Path out = dir.resolve("t.sieve");
    assertEquals(0, CliRun.of("build", "--keys", keys.toString(), "-o", out.toString()).status());
    CliRun q = CliRun.of("query", out.toString(), "42");
    assertEquals("42\tmaybe", q.out().strip(), q.err());
  }

  @Test
  void aRangeFilterOfLongKeysAnswersRangesOverTheNumbers() throws IOException {
    List<String> lines = new ArrayList<>();
    long[] written = new long[2000];
    for (int i = 0; i < written.length; i++) {
      written[i] = i * 104_729L - 50_000_000L; // negatives too: their bytes sort after positives
      lines.add(Long.toString(written[i]));
    }
    Path keys = dir.resolve("range.keys");
    Files.write(keys, lines);
    Path out = dir.resolve("r.sieve");
    CliRun b =
        CliRun.of(
            "build",
            "--long",
            "--type",
            "grafite",
            "--keys",
            keys.toString(),
            "-o",
            out.toString());
    assertEquals(0, b.status(), b.err());
    GrafiteFilter read = SieveFormat.read(Files.readAllBytes(out), GrafiteFilter.class);
    for (long k : written) {
      assertTrue(read.mayContainRange(k - 3, k + 3), "the range around " + k + " holds it");
      assertTrue(read.mayContain(k));
    }
    CliRun q = CliRun.of("query", out.toString(), Long.toString(written[7]));
    assertEquals(written[7] + "\tmaybe", q.out().strip(), q.err());
  }
}
