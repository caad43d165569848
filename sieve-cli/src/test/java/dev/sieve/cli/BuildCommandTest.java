package dev.sieve.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.policy.FilterPolicy;
import dev.sieve.sst.RocksDbTableFilter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code sieve build}: its input and output files. */
class BuildCommandTest {
  @TempDir Path dir;

  private static List<String> names(Path dir) throws IOException {
    try (Stream<Path> s = Files.list(dir)) {
      return s.map(p -> p.getFileName().toString()).sorted().collect(Collectors.toList());
    }
  }

  private static void assertOneLine(CliRun r) {
    assertEquals(1, r.err().strip().lines().count(), r.err());
    assertTrue(!r.err().contains("\tat "), "no stack trace: " + r.err());
  }

  /** {@code --keys k -o k} is refused: it would replace the keys with the filter. */
  @Test
  void refusesToOverwriteItsInput() throws IOException {
    Path keys = dir.resolve("k.keys");
    Files.write(keys, List.of("a", "b", "c"));
    byte[] before = Files.readAllBytes(keys);
    Files.createDirectories(dir.resolve("sub"));
    Path link = dir.resolve("link.keys");
    Files.createSymbolicLink(link, keys.getFileName());
    for (String out :
        new String[] {keys.toString(), dir.resolve("sub/../k.keys").toString(), link.toString()}) {
      CliRun r = CliRun.of("build", "--keys", keys.toString(), "--policy", "bloom:10", "-o", out);
      assertEquals(2, r.status(), out + ": " + r.err());
      assertOneLine(r);
      assertTrue(r.err().contains("keys file itself"), r.err());
      assertArrayEquals(before, Files.readAllBytes(keys), "the keys are untouched");
    }
    CliRun viaLink =
        CliRun.of(
            "build", "--keys", link.toString(), "--policy", "bloom:10", "-o", keys.toString());
    assertEquals(2, viaLink.status(), viaLink.err());
  }

  /** The output is renamed into place whole; a failed write leaves no temporary file. */
  @Test
  void writesTheOutputWholeAndCleansUp() throws IOException {
    Path keys = dir.resolve("k.keys");
    Files.write(keys, List.of("a", "b", "c"));
    Path out = dir.resolve("f.block");
    Files.write(out, new byte[] {9, 9, 9});
    CliRun r =
        CliRun.of("build", "--keys", keys.toString(), "--policy", "bloom:10", "-o", out.toString());
    assertEquals(0, r.status(), r.err());
    byte[] expected =
        RocksDbTableFilter.filterBlock(
            FilterPolicy.bloom(10),
            List.of(
                "a".getBytes(StandardCharsets.UTF_8),
                "b".getBytes(StandardCharsets.UTF_8),
                "c".getBytes(StandardCharsets.UTF_8)));
    assertArrayEquals(expected, Files.readAllBytes(out));
    assertEquals(List.of("f.block", "k.keys"), names(dir), "no temporary file left");

    Path busy = dir.resolve("busy");
    Files.createDirectories(busy.resolve("inside"));
    CliRun failed =
        CliRun.of(
            "build", "--keys", keys.toString(), "--policy", "bloom:10", "-o", busy.toString());
    assertEquals(1, failed.status(), failed.err());
    assertOneLine(failed);
    assertEquals(List.of("busy", "f.block", "k.keys"), names(dir), "no temporary file left");
    assertEquals(List.of("inside"), names(busy));
  }

  private CliRun build(Path keys, String... extra) {
    String[] base = {
      "build", "--keys", keys.toString(), "--policy", "bloom:10", "-o", dir.resolve("o").toString()
    };
    String[] args = java.util.Arrays.copyOf(base, base.length + extra.length);
    System.arraycopy(extra, 0, args, base.length, extra.length);
    return CliRun.of(args);
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  /** A non-UTF-8 line is named by its line number, not by a decoder's exception. */
  @Test
  void aLineThatIsNotUtf8IsNamedWithItsLine() throws IOException {
    Path keys = dir.resolve("bin.keys");
    Files.write(keys, new byte[] {'a', '\n', 'b', (byte) 0xFF, 'c', '\n', 'd', '\n'});
    CliRun r = build(keys);
    assertEquals(1, r.status(), r.err());
    assertOneLine(r);
    assertTrue(r.err().contains("line 2 is not UTF-8"), r.err());
    assertTrue(r.err().contains("byte 2") && r.err().contains("0xff"), r.err());
    assertTrue(r.err().contains("--hex"), r.err());
    // the same key as hex is accepted
    Files.write(keys, List.of("61", "62ff63", "64"));
    assertEquals(0, build(keys, "--hex").status());
    Files.write(keys, List.of("61", "  ", "64"));
    CliRun blank = build(keys, "--hex");
    assertEquals(1, blank.status(), blank.err());
    assertTrue(blank.err().contains("line 2 is empty"), blank.err());
  }

  /** An empty line is an error unless --allow-empty-key makes it the empty key. */
  @Test
  void anEmptyLineIsAnErrorUnlessAllowed() throws IOException {
    Path keys = dir.resolve("e.keys");
    Files.write(keys, bytes("a\r\nb\n\nc\n"));
    CliRun r = build(keys);
    assertEquals(1, r.status(), r.err());
    assertOneLine(r);
    assertTrue(
        r.err().contains("line 3 is empty") && r.err().contains("--allow-empty-key"), r.err());
    CliRun ok = build(keys, "--allow-empty-key");
    assertEquals(0, ok.status(), ok.err());
    assertTrue(ok.out().contains("(4 keys"), ok.out());
    // CRLF: "a\r" is the key "a"; the empty key is a key of its own
    byte[] expected =
        RocksDbTableFilter.filterBlock(
            FilterPolicy.bloom(10), List.of(new byte[0], bytes("a"), bytes("b"), bytes("c")));
    assertArrayEquals(expected, Files.readAllBytes(dir.resolve("o")));
    // a final newline makes no empty line; no final newline is fine too
    Files.write(keys, bytes("a\nb"));
    CliRun last = build(keys);
    assertEquals(0, last.status(), last.err());
    assertTrue(last.out().contains("(2 keys"), last.out());
  }
}
