package dev.sieve.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The whole report on a tiny workload with the in-process timer (no JMH in unit tests). */
class ReportGenerationTest {
  @TempDir Path dir;

  @Test
  void writesEveryArtifact() throws Exception {
    ByteArrayOutputStream console = new ByteArrayOutputStream();
    int status =
        new CommandLine(new ReportCommand(new PrintStream(console, true, "UTF-8")))
            .execute(
                "--n",
                "2000,4000",
                "--filters",
                "sieve,guava-bloom,fastfilter-blocked-bloom,fastfilter-xor8,sorted-array,raw-read-1x",
                "--timer",
                "quick",
                "--fpr-queries",
                "20000",
                "--experiment-keys",
                "3000",
                "--experiment-queries",
                "20000",
                "--sweep-bits",
                "6,10",
                "--no-progress",
                "--out",
                dir.toString());
    assertEquals(0, status, console.toString("UTF-8"));
    for (String f :
        new String[] {
          "report.md",
          "report.html",
          "results.json",
          "jmh.log",
          "plots/fpr-vs-bits-per-key.png",
          "plots/negative-query-vs-n.png",
          "plots/positive-query-vs-n.png",
          "plots/bits-over-floor.png"
        }) {
      File file = dir.resolve(f).toFile();
      assertTrue(file.isFile(), f);
      if (f.endsWith(".png")) {
        byte[] head = Files.readAllBytes(file.toPath());
        assertTrue(head.length > 1000 && head[1] == 'P' && head[2] == 'N' && head[3] == 'G', f);
      }
    }
    String md = Files.readString(dir.resolve("report.md"));
    assertTrue(md.contains("## Targets"));
    assertTrue(md.contains("| T1 |"));
    assertTrue(md.contains("Side by side, n = 4,000"));
    assertTrue(md.contains("| sieve-blocked-bloom | sieve |"));
    assertTrue(md.contains("CacheLocalFpRate at the measured keys-per-block mean"));
    String json = Files.readString(dir.resolve("results.json"));
    assertTrue(json.contains("\"name\": \"fastfilter-xor8\""));
    assertTrue(json.contains("\"negativeOverRawRead\""));
    assertTrue(json.contains("\"blockSizes\""));
    String out = console.toString("UTF-8");
    assertTrue(out.contains("T1"), out);
    assertTrue(Files.readString(dir.resolve("report.html")).contains("<table>"));
  }
}
