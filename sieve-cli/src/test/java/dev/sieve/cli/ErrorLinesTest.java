package dev.sieve.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.format.SieveFormat;
import dev.sieve.registry.FilterType;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Each error line names the thing that is wrong: the file, the command, the directory. */
class ErrorLinesTest {
  @TempDir Path dir;

  @Test
  void aTextFileIsNotAFileSieveRecognisesAndTheLineSaysWhatWasTried() throws IOException {
    Path text = dir.resolve("notes.txt");
    Files.writeString(text, "these are notes, not a filter\nsecond line\n");
    for (String command : List.of("inspect", "query")) {
      CliRun r =
          command.equals("inspect")
              ? CliRun.of("inspect", text.toString())
              : CliRun.of("query", text.toString(), "k");
      assertEquals(1, r.status(), r.err());
      assertEquals(1, r.err().lines().count(), r.err());
      assertTrue(r.err().contains("not a file Sieve recognises"), r.err());
      assertTrue(r.err().contains("Sieve container") && r.err().contains("Guava"), r.err());
      assertFalse(r.err().contains("no SST footer"), r.err());
    }
  }

  @Test
  void aDamagedForeignFilterWithoutFormatIsNotRecognisedRatherThanNoSstFooter() throws IOException {
    Path keys = dir.resolve("k.keys");
    Files.write(keys, List.of("a", "b", "c"));
    // a Guava BloomFilter.writeTo form: strategy 1, 3 hash functions, 2 longs, the longs
    byte[] guava = new byte[1 + 1 + 4 + 16];
    guava[0] = 1;
    guava[1] = 3;
    guava[5] = 2;
    Path whole = dir.resolve("g.bin");
    Files.write(whole, guava);
    CliRun ok = CliRun.of("inspect", whole.toString());
    assertEquals(0, ok.status(), "the intact form is recognised: " + ok.err());
    Path damaged = dir.resolve("damaged.bin");
    Files.write(damaged, java.util.Arrays.copyOf(guava, guava.length - 3));
    CliRun r = CliRun.of("inspect", damaged.toString());
    assertEquals(1, r.status(), r.err());
    assertTrue(r.err().contains("not a file Sieve recognises"), r.err());
    assertFalse(r.err().contains("SST footer"), r.err());
  }

  @Test
  void aMistypedCommandGetsTheNearestCommand() {
    CliRun r = CliRun.of("qurey", "f.sst", "k");
    assertEquals(2, r.status());
    assertEquals(1, r.err().lines().count(), r.err());
    assertTrue(r.err().contains("unknown command 'qurey'"), r.err());
    assertTrue(r.err().contains("did you mean 'query'?"), r.err());
    assertFalse(r.err().contains("Unmatched"), r.err());
    CliRun far = CliRun.of("zzzzzzzz");
    assertEquals(2, far.status());
    assertTrue(far.err().contains("unknown command 'zzzzzzzz'"), far.err());
    assertFalse(far.err().contains("did you mean"), far.err());
    assertTrue(far.err().contains("inspect"), far.err());
  }

  @Test
  void buildIntoAMissingDirectoryNamesTheDirectory() throws IOException {
    Path keys = dir.resolve("k.keys");
    Files.write(keys, List.of("a", "b", "c"));
    Path missing = dir.resolve("nodir");
    for (String out : List.of("x.block", "x.sieve")) {
      CliRun r =
          out.endsWith(".block")
              ? CliRun.of(
                  "build",
                  "--keys",
                  keys.toString(),
                  "--policy",
                  "bloom:10",
                  "-o",
                  missing.resolve(out).toString())
              : CliRun.of(
                  "build", "--keys", keys.toString(), "-o", missing.resolve(out).toString());
      assertEquals(1, r.status(), r.err());
      assertEquals(1, r.err().lines().count(), r.err());
      assertTrue(r.err().contains("no such directory: " + missing.toAbsolutePath()), r.err());
      assertFalse(r.err().contains(".tmp"), r.err());
    }
  }

  @Test
  void sieveFormatWriteIntoAMissingDirectoryNamesTheDirectory() {
    Path missing = dir.resolve("nodir");
    var filter =
        FilterType.BLOCKED_BLOOM.builder().build(List.of("a".getBytes(StandardCharsets.UTF_8)));
    NoSuchFileException e =
        assertThrows(
            NoSuchFileException.class, () -> SieveFormat.write(filter, missing.resolve("f.sieve")));
    assertEquals(missing.toAbsolutePath().toString(), e.getFile());
    assertFalse(e.getMessage().contains(".tmp"), e.getMessage());
  }

  @Test
  void anEmptyKeyFileIsRefusedAndNothingIsWritten() throws IOException {
    Path keys = dir.resolve("empty.keys");
    Files.write(keys, new byte[0]);
    for (String out : List.of("e.block", "e.sieve")) {
      Path file = dir.resolve(out);
      CliRun r =
          out.endsWith(".block")
              ? CliRun.of(
                  "build", "--keys", keys.toString(), "--policy", "bloom:10", "-o", file.toString())
              : CliRun.of("build", "--keys", keys.toString(), "-o", file.toString());
      assertEquals(1, r.status(), r.out() + r.err());
      assertEquals(1, r.err().lines().count(), r.err());
      assertTrue(r.err().contains(keys.toString()) && r.err().contains("no keys"), r.err());
      assertFalse(Files.exists(file), "nothing written");
    }
  }
}
