package dev.sieve.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.bloom.BlockedBloomFilter;
import dev.sieve.format.SieveFormat;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code inspect} and {@code query} on the three kinds of file, told apart by their magic: Sieve
 * containers ({@code .sieve}) and the raw filter blocks {@code sieve build} writes (both "not an
 * SST" before), next to SSTs (covered by SstCommandsTest).
 */
class InputKindTest {
  @TempDir Path dir;

  private List<String> keys() {
    List<String> k = new ArrayList<>();
    for (int i = 0; i < 2000; i++) {
      k.add(String.format(Locale.ROOT, "user:%05d", i));
    }
    return k;
  }

  private void assertAllMaybe(Path file, List<String> keys) {
    List<String> args = new ArrayList<>(List.of("query", file.toString()));
    args.addAll(keys.subList(0, 200));
    CliRun r = CliRun.of(args.toArray(new String[0]));
    assertEquals(0, r.status(), r.err());
    String[] lines = r.out().split("\n");
    assertEquals(200, lines.length);
    for (int i = 0; i < 200; i++) {
      assertEquals(keys.get(i) + "\tmaybe", lines[i]);
    }
  }

  @Test
  void rawBloomAndRibbonBlocksAreInspectedAndQueried() throws Exception {
    Path keyFile = dir.resolve("keys.txt");
    List<String> keys = keys();
    Files.write(keyFile, keys);
    for (String policy : new String[] {"bloom:10", "ribbon:10"}) {
      // named .bin: recognised by the block's trailer, not by its name
      Path out = dir.resolve(policy.replace(':', '-') + ".bin");
      CliRun b =
          CliRun.of(
              "build", "--keys", keyFile.toString(), "--policy", policy, "-o", out.toString());
      assertEquals(0, b.status(), b.err());
      assertEquals(InputKind.FILTER_BLOCK, InputKind.of(out));
      CliRun r = CliRun.of("inspect", out.toString(), "--json");
      assertEquals(0, r.status(), r.err());
      assertTrue(r.out().contains("\"input_kind\": \"filter block\""), r.out());
      String kind = policy.startsWith("bloom") ? "fastlocalbloom" : "ribbon";
      assertTrue(r.out().contains("\"filter_kind\": \"" + kind + "\""), r.out());
      assertAllMaybe(out, keys);
      // a key set's absent keys are mostly absent (the filter is real, not always-true)
      CliRun absent = CliRun.of("query", out.toString(), "nope:1", "nope:2", "nope:3", "nope:4");
      assertTrue(absent.out().contains("\tabsent"), absent.out());
    }
  }

  @Test
  void sieveContainersAreInspectedAndQueried() throws Exception {
    List<String> keys = keys();
    byte[][] k = new byte[keys.size()][];
    for (int i = 0; i < k.length; i++) {
      k[i] = keys.get(i).getBytes(StandardCharsets.UTF_8);
    }
    Path file = dir.resolve("users.sieve");
    SieveFormat.write(BlockedBloomFilter.builder().bitsPerKey(10).build(k), file);
    assertEquals(InputKind.SIEVE_CONTAINER, InputKind.of(file));
    CliRun r = CliRun.of("inspect", file.toString());
    assertEquals(0, r.status(), r.err());
    assertTrue(r.out().contains("input kind:") && r.out().contains("sieve container"), r.out());
    assertTrue(r.out().contains("num keys:") && r.out().contains("2000"), r.out());
    assertAllMaybe(file, keys);
    // a corrupt container is one line and status 1, named by the container's checksum
    byte[] bytes = Files.readAllBytes(file);
    bytes[bytes.length - 10] ^= 1;
    Files.write(file, bytes);
    CliRun bad = CliRun.of("inspect", file.toString());
    assertEquals(1, bad.status());
    assertEquals(1, bad.err().strip().lines().count(), bad.err());
  }

  @Test
  void otherFilesStillGoToTheSstReaderWhichNamesTheMagic() throws Exception {
    Path junk = dir.resolve("junk.bin");
    Files.write(junk, new byte[300]);
    assertEquals(InputKind.OTHER, InputKind.of(junk));
    CliRun r = CliRun.of("inspect", junk.toString());
    assertEquals(1, r.status());
    assertTrue(r.err().contains("magic") && r.err().contains("truncated"), r.err());
  }
}
