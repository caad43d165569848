package dev.sieve.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.bloom.BlockedBloomFilter;
import dev.sieve.hash.KeyHash;
import dev.sieve.ribbon.Standard128RibbonFilter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BuildCommandTest {
  @TempDir Path dir;

  private List<String> textKeys(int n) {
    List<String> keys = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      keys.add("key-" + i + "-ü");
    }
    return keys;
  }

  private static long[] hashes(List<byte[]> keys) {
    long[] h = new long[keys.size()];
    for (int i = 0; i < h.length; i++) {
      h[i] = KeyHash.hash64(keys.get(i));
    }
    return h;
  }

  @Test
  void bloomAndRibbonBlocksEqualTheLibrarysRocksDbBuilds() throws IOException {
    List<String> keys = textKeys(5000);
    Path keyFile = dir.resolve("keys.txt");
    Files.write(keyFile, keys, StandardCharsets.UTF_8);
    List<byte[]> bytes = new ArrayList<>();
    keys.forEach(k -> bytes.add(k.getBytes(StandardCharsets.UTF_8)));

    Path bloomOut = dir.resolve("bloom.block");
    CliRun bloom =
        CliRun.of(
            "build",
            "--keys",
            keyFile.toString(),
            "--policy",
            "bloom:9.5",
            "-o",
            bloomOut.toString());
    assertEquals(0, bloom.status(), bloom.err());
    byte[] expectedBloom =
        BlockedBloomFilter.builder()
            .bitsPerKey(9.5)
            .build(bytes.toArray(new byte[0][]))
            .toRocksDbFilterBlock();
    assertArrayEquals(expectedBloom, Files.readAllBytes(bloomOut));

    Path ribbonOut = dir.resolve("ribbon.block");
    CliRun ribbon =
        CliRun.of(
            "build",
            "--keys",
            keyFile.toString(),
            "--policy",
            "ribbon:10",
            "-o",
            ribbonOut.toString());
    assertEquals(0, ribbon.status(), ribbon.err());
    long[] h = hashes(bytes);
    Standard128RibbonFilter expected =
        (Standard128RibbonFilter) Standard128RibbonFilter.buildRocksDb(h, h.length, 10);
    assertArrayEquals(expected.toRocksDbFilterBlock(), Files.readAllBytes(ribbonOut));
    assertEquals((byte) 0xFE, Files.readAllBytes(ribbonOut)[(int) Files.size(ribbonOut) - 5]);
  }

  @Test
  void hexKeysAreDecoded() throws IOException {
    Path keyFile = dir.resolve("keys.hex");
    Files.write(keyFile, List.of("00ff10", "", "DEADbeef"), StandardCharsets.UTF_8);
    Path out = dir.resolve("out.block");
    CliRun run =
        CliRun.of(
            "build",
            "--hex",
            "--keys",
            keyFile.toString(),
            "--policy",
            "bloom:10",
            "-o",
            out.toString());
    assertEquals(0, run.status(), run.err());
    byte[][] keys = {
      HexFormat.of().parseHex("00ff10"), new byte[0], HexFormat.of().parseHex("deadbeef")
    };
    assertArrayEquals(
        BlockedBloomFilter.builder().bitsPerKey(10).build(keys).toRocksDbFilterBlock(),
        Files.readAllBytes(out));
  }

  @Test
  void badUsageIsTwoBadInputIsOne() throws IOException {
    Path out = dir.resolve("x");
    assertEquals(
        2,
        CliRun.of("build", "--keys", "k", "--policy", "cuckoo:3", "-o", out.toString()).status());
    assertEquals(
        2,
        CliRun.of("build", "--keys", "k", "--policy", "bloom:0.2", "-o", out.toString()).status());
    assertEquals(2, CliRun.of("build", "--policy", "bloom:10", "-o", out.toString()).status());
    CliRun missing =
        CliRun.of(
            "build",
            "--keys",
            dir.resolve("nope").toString(),
            "--policy",
            "bloom:10",
            "-o",
            out.toString());
    assertEquals(1, missing.status());
    assertTrue(
        missing.err().startsWith("sieve: ") && missing.err().strip().lines().count() == 1,
        missing.err());
    Path badHex = dir.resolve("bad.hex");
    Files.writeString(badHex, "abc\n");
    CliRun bad =
        CliRun.of(
            "build",
            "--hex",
            "--keys",
            badHex.toString(),
            "--policy",
            "bloom:10",
            "-o",
            out.toString());
    assertEquals(1, bad.status());
    assertTrue(bad.err().contains("line 1"), bad.err());
  }
}
