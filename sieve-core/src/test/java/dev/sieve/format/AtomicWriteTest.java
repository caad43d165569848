package dev.sieve.format;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.sieve.bloom.BlockedBloomFilter;
import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code SieveFormat.write(Filter, Path)} writes a temporary file in the same directory and renames
 * it into place, so a reader that has mapped the file never sees a half-written container.
 *
 * <p>Only a regular file (or nothing) is replaced by the rename; a pipe or device is written in
 * place, so a device node does not become a regular file and a named pipe is not unlinked under its
 * waiting reader.
 */
class AtomicWriteTest {
  @TempDir Path dir;

  private static long[] keys(int n, long seed) {
    SplittableRandom r = new SplittableRandom(seed);
    long[] k = new long[n];
    for (int i = 0; i < n; i++) {
      k[i] = r.nextLong();
    }
    return k;
  }

  @Test
  void rewritingAMappedFileLeavesTheMappingIntact() throws IOException {
    long[] oldKeys = keys(20_000, 1);
    Path p = dir.resolve("f.sieve");
    SieveFormat.write(BlockedBloomFilter.builder().bitsPerKey(10).build(oldKeys), p);
    try (MappedSieveFile mapped = MappedSieveFile.open(p)) {
      BlockedBloomFilter next = BlockedBloomFilter.builder().bitsPerKey(10).build(keys(500, 2));
      SieveFormat.write(next, p);
      mapped.verify(); // the mapping still holds the old, intact container
      for (long k : oldKeys) {
        assertTrue(mapped.filter().mayContain(k));
      }
      assertArrayEquals(SieveFormat.toBytes(next), Files.readAllBytes(p));
    }
    try (Stream<Path> files = Files.list(dir)) {
      List<String> names = files.map(f -> f.getFileName().toString()).collect(Collectors.toList());
      assertEquals(List.of("f.sieve"), names, "no temporary file is left");
    }
  }

  @Test
  void aSymbolicLinkIsWrittenThrough() throws IOException {
    Path real = dir.resolve("real.sieve");
    Path link = dir.resolve("link.sieve");
    SieveFormat.write(BlockedBloomFilter.builder().bitsPerKey(10).build(keys(10, 3)), real);
    Files.createSymbolicLink(link, real.getFileName());
    BlockedBloomFilter f = BlockedBloomFilter.builder().bitsPerKey(10).build(keys(100, 4));
    SieveFormat.write(f, link);
    assertTrue(Files.isSymbolicLink(link), "the link stays a link");
    assertArrayEquals(SieveFormat.toBytes(f), Files.readAllBytes(real));
  }

  /** Runs a command (mkfifo, mknod); false if it could not run or failed. */
  static boolean run(String... command) throws InterruptedException {
    try {
      Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
      p.getInputStream().readAllBytes();
      return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
    } catch (IOException e) {
      return false;
    }
  }

  /** The file type bits of {@code p}'s mode (S_IFMT), links not followed. */
  static int fileType(Path p) throws IOException {
    return (Integer) Files.getAttribute(p, "unix:mode", java.nio.file.LinkOption.NOFOLLOW_LINKS)
        & 0170000;
  }

  static final int S_IFIFO = 0010000;
  static final int S_IFCHR = 0020000;

  @Test
  void aNamedPipeIsWrittenInPlaceForItsReader() throws Exception {
    Path fifo = dir.resolve("fifo1");
    assumeTrue(run("mkfifo", fifo.toString()), "mkfifo is not available");
    BlockedBloomFilter f = BlockedBloomFilter.builder().bitsPerKey(10).build(keys(1000, 5));
    FutureTask<byte[]> reader = new FutureTask<>(() -> Files.readAllBytes(fifo));
    Thread t = new Thread(reader, "fifo-reader");
    t.setDaemon(true); // before the fix it waits forever on the unlinked pipe
    t.start();
    SieveFormat.write(f, fifo);
    assertArrayEquals(SieveFormat.toBytes(f), reader.get(30, TimeUnit.SECONDS));
    assertEquals(S_IFIFO, fileType(fifo), "the pipe is still a pipe");
    try (Stream<Path> files = Files.list(dir)) {
      assertEquals(1, files.count(), "no temporary file is left");
    }
  }

  @Test
  void aCharacterDeviceStaysADevice() throws Exception {
    // a copy of /dev/null (major 1, minor 3) in the temporary directory: needs root
    Path dev = dir.resolve("null2");
    assumeTrue(
        run("mknod", "-m", "666", dev.toString(), "c", "1", "3"),
        "mknod needs root (and a system that allows device nodes here)");
    Object rdev = Files.getAttribute(dev, "unix:rdev");
    SieveFormat.write(BlockedBloomFilter.builder().bitsPerKey(10).build(keys(1000, 6)), dev);
    assertEquals(S_IFCHR, fileType(dev), "the device node is still a character device");
    assertEquals(rdev, Files.getAttribute(dev, "unix:rdev"), "the same device");
    try (Stream<Path> files = Files.list(dir)) {
      assertEquals(1, files.count(), "no temporary file is left");
    }
  }

  @Test
  void aFullDeviceFailsTypedAndStaysADevice() throws Exception {
    // the repro: a copy of the "full" device (major 1, minor 7), whose every write fails
    // with ENOSPC; before the fix the rename turned it into a regular file and returned normally
    Path dev = dir.resolve("full2");
    assumeTrue(
        run("mknod", "-m", "666", dev.toString(), "c", "1", "7"),
        "mknod needs root (and a system that allows device nodes here)");
    Object rdev = Files.getAttribute(dev, "unix:rdev");
    BlockedBloomFilter f = BlockedBloomFilter.builder().bitsPerKey(10).build(keys(1000, 8));
    IOException e = assertThrows(IOException.class, () -> SieveFormat.write(f, dev));
    assertTrue(
        String.valueOf(e.getMessage()).contains("No space left on device"),
        "the device's own error, not a silent success: " + e.getMessage());
    assertEquals(S_IFCHR, fileType(dev), "the device node is still a character device");
    assertEquals(rdev, Files.getAttribute(dev, "unix:rdev"), "the same device");
    try (Stream<Path> files = Files.list(dir)) {
      assertEquals(1, files.count(), "no temporary file is left");
    }
  }

  @Test
  void aDirectoryIsRefusedAndLeftAlone() throws IOException {
    Path d = Files.createDirectory(dir.resolve("d.sieve"));
    FileSystemException e =
        assertThrows(
            FileSystemException.class,
            () ->
                SieveFormat.write(
                    BlockedBloomFilter.builder().bitsPerKey(10).build(keys(10, 7)), d));
    assertTrue(e.getMessage().contains("is a directory"), e.getMessage());
    assertTrue(Files.isDirectory(d));
    try (Stream<Path> files = Files.list(dir)) {
      assertEquals(1, files.count(), "no temporary file is left");
    }
  }
}
