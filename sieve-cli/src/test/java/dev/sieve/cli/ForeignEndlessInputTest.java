package dev.sieve.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.interop.ForeignFormat;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code --format} reads of files whose size the file system does not give: a device that never
 * ends ({@code /dev/zero}) and a FIFO. Each run is a separate JVM with a small heap, so an
 * unbounded read shows as an OutOfMemoryError there rather than in the test's JVM; the answer must
 * be one line on stderr and a nonzero exit.
 */
class ForeignEndlessInputTest {
  @TempDir Path dir;

  private static final Path ZERO = Path.of("/dev/zero");

  /** Runs the CLI in a child JVM with a 64 MiB heap; {@code {status, stderr}}. */
  private static Object[] cli(String... args) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("-Xmx64m");
    cmd.add("-XX:TieredStopAtLevel=1");
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(Main.class.getName());
    cmd.addAll(List.of(args));
    Process p = new ProcessBuilder(cmd).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    byte[] err = p.getErrorStream().readAllBytes();
    assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the CLI finished");
    return new Object[] {p.exitValue(), new String(err, StandardCharsets.UTF_8)};
  }

  private static void assertOneLineRefusal(Object[] run) {
    String err = (String) run[1];
    assertNotEquals(0, (int) run[0], err);
    assertEquals(1, err.lines().count(), err);
    assertTrue(err.startsWith("sieve "), err);
    assertTrue(!err.contains("Exception") && !err.contains("Error"), err);
    assertTrue(err.contains(ZERO.toString()), "names the file: " + err);
  }

  @ParameterizedTest
  @ValueSource(strings = {"guava", "spark", "datasketches", "cassandra", "cassandra3"})
  void queryOfDevZeroStopsWithOneLine(String format) throws Exception {
    Assumptions.assumeTrue(Files.exists(ZERO), "no /dev/zero here");
    assertOneLineRefusal(cli("query", "--format=" + format, ZERO.toString(), "1"));
  }

  @Test
  void convertOfDevZeroStopsWithOneLine() throws Exception {
    Assumptions.assumeTrue(Files.exists(ZERO), "no /dev/zero here");
    Path out = dir.resolve("out.sieve");
    assertOneLineRefusal(
        cli("convert", "--format=guava", "--to=sieve", ZERO.toString(), out.toString()));
    assertTrue(Files.notExists(out), "nothing written");
  }

  @Test
  void fifoWhoseHeaderAsksForMoreThanTheFormHoldsNamesTheLimit() throws Exception {
    Path fifo = dir.resolve("filter.fifo");
    Process mk = new ProcessBuilder("mkfifo", fifo.toString()).start();
    Assumptions.assumeTrue(mk.waitFor(10, TimeUnit.SECONDS) && mk.exitValue() == 0, "no mkfifo");
    // a Guava header: strategy 1, 3 probes, 0x7ffffff0 words (16 GiB of bits)
    byte[] header = ByteBuffer.allocate(6).put((byte) 1).put((byte) 3).putInt(0x7ffffff0).array();
    Thread writer =
        new Thread(
            () -> {
              try (OutputStream o = Files.newOutputStream(fifo)) {
                o.write(header);
              } catch (IOException e) {
                // the reader closed early: nothing to do
              }
            });
    writer.start();
    CliRun r = CliRun.of("query", "--format=guava", fifo.toString(), "1");
    writer.join(10_000);
    assertNotEquals(0, r.status());
    assertEquals(1, r.err().lines().count(), r.err());
    assertTrue(
        r.err().contains("over the limit of " + ForeignFormat.MAX_BYTES + " bytes"), r.err());
  }
}
