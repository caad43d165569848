package dev.sieve.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.sieve.format.SieveFormat;
import dev.sieve.policy.FilterPolicy;
import dev.sieve.sst.RocksDbTableFilter;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code sieve build -o}: only a regular file or nothing is replaced (renaming a temporary file
 * over a device node would turn it into a regular file, and a named pipe's reader would get
 * nothing); a device or a pipe is written in place, and {@code -}, {@code /dev/stdout} and {@code
 * /proc/self/fd/1} are standard output.
 */
class OutputFilesTest {
  @TempDir Path dir;
  Path keys;
  byte[] expected;

  static final int S_IFMT = 0170000;
  static final int S_IFIFO = 0010000;
  static final int S_IFCHR = 0020000;

  @BeforeEach
  void keys() throws IOException {
    keys = dir.resolve("k.keys");
    Files.write(keys, List.of("a", "b", "c"));
    expected =
        RocksDbTableFilter.filterBlock(
            FilterPolicy.bloom(10),
            List.of(
                "a".getBytes(StandardCharsets.UTF_8),
                "b".getBytes(StandardCharsets.UTF_8),
                "c".getBytes(StandardCharsets.UTF_8)));
  }

  static boolean run(String... command) throws InterruptedException {
    try {
      Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
      p.getInputStream().readAllBytes();
      return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
    } catch (IOException e) {
      return false;
    }
  }

  static int fileType(Path p) throws IOException {
    return (Integer) Files.getAttribute(p, "unix:mode", LinkOption.NOFOLLOW_LINKS) & S_IFMT;
  }

  private long filesIn(Path d) throws IOException {
    try (Stream<Path> s = Files.list(d)) {
      return s.count();
    }
  }

  private CliRun build(String out, String... extra) {
    String[] base = {"build", "--keys", keys.toString(), "--policy", "bloom:10", "-o", out};
    String[] args = java.util.Arrays.copyOf(base, base.length + extra.length);
    System.arraycopy(extra, 0, args, base.length, extra.length);
    return CliRun.of(args);
  }

  /** The bytes a command writes to System.out (the CLI's binary standard output). */
  private static byte[] stdoutOf(java.util.function.Supplier<CliRun> command, CliRun[] result) {
    PrintStream old = System.out;
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    System.setOut(new PrintStream(bytes, true));
    try {
      result[0] = command.get();
    } finally {
      System.setOut(old);
    }
    return bytes.toByteArray();
  }

  @Test
  void aNamedPipeGetsTheBlockAndStaysAPipe() throws Exception {
    Path fifo = dir.resolve("fifo1");
    assumeTrue(run("mkfifo", fifo.toString()), "mkfifo is not available");
    FutureTask<byte[]> reader = new FutureTask<>(() -> Files.readAllBytes(fifo));
    Thread t = new Thread(reader, "fifo-reader");
    t.setDaemon(true); // before the fix it waits forever on the unlinked pipe
    t.start();
    CliRun r = build(fifo.toString());
    assertEquals(0, r.status(), r.err());
    assertArrayEquals(expected, reader.get(30, TimeUnit.SECONDS));
    assertEquals(S_IFIFO, fileType(fifo), "the pipe is still a pipe");
    assertEquals(2, filesIn(dir), "no temporary file is left");
  }

  @Test
  void aCharacterDeviceStaysADevice() throws Exception {
    Path nul = dir.resolve("null2"); // /dev/null's major and minor
    assumeTrue(
        run("mknod", "-m", "666", nul.toString(), "c", "1", "3"),
        "mknod needs root (and a system that allows device nodes here)");
    Object rdev = Files.getAttribute(nul, "unix:rdev");
    CliRun r = build(nul.toString());
    assertEquals(0, r.status(), r.err());
    assertEquals(S_IFCHR, fileType(nul), "the device node is still a character device");
    assertEquals(rdev, Files.getAttribute(nul, "unix:rdev"));
    // the container too
    CliRun c =
        CliRun.of("build", "--keys", keys.toString(), "--format", "sieve", "-o", nul.toString());
    assertEquals(0, c.status(), c.err());
    assertEquals(S_IFCHR, fileType(nul), "the device node is still a character device");

    // the "full" device (1, 7): the write fails, one line, exit 1, and the device stays
    Path full = dir.resolve("full2");
    assumeTrue(run("mknod", "-m", "666", full.toString(), "c", "1", "7"));
    CliRun f = build(full.toString());
    assertEquals(1, f.status(), f.err());
    assertEquals(1, f.err().strip().lines().count(), f.err());
    assertTrue(f.err().contains("No space left on device"), f.err());
    assertEquals(S_IFCHR, fileType(full), "the full device is still a character device");
    assertEquals(3, filesIn(dir), "no temporary file is left");
  }

  @Test
  void dashAndTheStandardOutputPathsWriteToStandardOutput() throws IOException {
    for (String out : new String[] {"-", "/dev/stdout", "/proc/self/fd/1"}) {
      CliRun[] r = new CliRun[1];
      byte[] written = stdoutOf(() -> build(out), r);
      assertEquals(0, r[0].status(), out + ": " + r[0].err());
      assertArrayEquals(expected, written, out);
      assertEquals("", r[0].out(), "the summary line is not mixed into the bytes");
      assertTrue(r[0].err().startsWith("wrote " + expected.length + " bytes"), r[0].err());
    }
    // a Sieve container to standard output reads back
    CliRun[] r = new CliRun[1];
    byte[] container =
        stdoutOf(
            () ->
                CliRun.of(
                    "build",
                    "--keys",
                    keys.toString(),
                    "--format",
                    "sieve",
                    "--type",
                    "xor8",
                    "-o",
                    "-"),
            r);
    assertEquals(0, r[0].status(), r[0].err());
    assertTrue(SieveFormat.read(container).mayContain("b".getBytes(StandardCharsets.UTF_8)));
    assertFalse(Files.exists(Path.of("-")), "no file named '-' was created");
  }
}
