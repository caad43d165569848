package dev.sieve.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A file named on the command line as a raw filter block whose bytes RocksDB would read as its
 * "always true" fallback (a truncated block, random bytes, a key list named {@code *.block}) is
 * refused with one line and exit status 1, unless {@code --accept-always-true} asks for RocksDB's
 * reading; a real block is still read.
 */
class FilterBlockInputTest {
  @TempDir Path dir;
  Path keys;
  Path block;

  @BeforeEach
  void buildBlock() throws IOException {
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < 2000; i++) {
      lines.add("key:" + i);
    }
    keys = dir.resolve("k.keys");
    Files.write(keys, lines);
    block = dir.resolve("f.block");
    CliRun r =
        CliRun.of(
            "build", "--keys", keys.toString(), "--policy", "bloom:10", "-o", block.toString());
    assertEquals(0, r.status(), r.err());
  }

  private List<Path> notFilters() throws IOException {
    Path truncated = dir.resolve("truncated.block");
    Files.write(truncated, Arrays.copyOf(Files.readAllBytes(block), 1_000));
    Path random = dir.resolve("random.block");
    byte[] bytes = new byte[4096];
    new Random(42).nextBytes(bytes);
    Files.write(random, bytes);
    Path text = dir.resolve("keys.block");
    Files.copy(keys, text);
    return List.of(truncated, random, text);
  }

  @Test
  void bytesRocksDbReadsAsAlwaysTrueAreRefusedByQueryAndInspect() throws IOException {
    for (Path p : notFilters()) {
      for (String command : List.of("query", "inspect")) {
        List<String> args = new ArrayList<>(List.of(command, p.toString()));
        if (command.equals("query")) {
          args.add("key:1");
        }
        CliRun r = CliRun.of(args.toArray(String[]::new));
        assertEquals(1, r.status(), command + " " + p + ": " + r.out() + r.err());
        assertEquals("", r.out(), command + " " + p);
        assertEquals(1, r.err().lines().count(), r.err());
        assertTrue(r.err().contains(p.toString()), r.err());
        assertTrue(r.err().contains("not a filter block Sieve recognises"), r.err());
        assertTrue(r.err().contains("--accept-always-true"), r.err());
      }
    }
  }

  @Test
  void acceptAlwaysTrueReadsThemAsRocksDbDoes() throws IOException {
    for (Path p : notFilters()) {
      CliRun q = CliRun.of("query", "--accept-always-true", p.toString(), "key:1", "other");
      assertEquals(0, q.status(), q.err());
      assertEquals("key:1\tmaybe\nother\tmaybe", q.out().strip());
      CliRun i = CliRun.of("inspect", "--accept-always-true", p.toString());
      assertEquals(0, i.status(), i.err());
      assertTrue(i.out().contains("always true"), i.out());
    }
  }

  @Test
  void aRealBlockIsStillReadWithoutTheFlag() {
    CliRun q = CliRun.of("query", block.toString(), "key:1");
    assertEquals(0, q.status(), q.err());
    assertEquals("key:1\tmaybe", q.out().strip());
  }
}
