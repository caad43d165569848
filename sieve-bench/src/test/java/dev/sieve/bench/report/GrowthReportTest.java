package dev.sieve.bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The growth measurement: its checkpoints, its interval, and the files it writes. */
class GrowthReportTest {
  @TempDir Path dir;

  @Test
  void wilsonIntervalMatchesAWorkedValue() {
    // 100 successes in 10^4 trials, z = 1.96: [0.00823, 0.01215] (the formula evaluated apart)
    double[] ci = GrowthReport.wilson(100, 10_000, 1.96);
    assertEquals(0.00823, ci[0], 1e-5);
    assertEquals(0.01215, ci[1], 1e-5);
    assertEquals(0.0, GrowthReport.wilson(0, 1000, 3.29)[0]);
  }

  @Test
  void measuresEveryCheckpointAndWritesTheTableAndPlots() throws Exception {
    List<GrowthReport.Point> points = GrowthReport.measure(0.01, 1_000, 40_000, 20_000);
    // ten per decade from 10^3 (1.6 decades: 17) plus the moments after stages open (4)
    assertTrue(points.size() >= 20, "points: " + points.size());
    assertEquals(1_000, points.get(0).keys());
    assertEquals(40_000, points.get(points.size() - 1).keys());
    assertTrue(points.stream().anyMatch(GrowthReport.Point::justOpened));
    for (GrowthReport.Point p : points) {
      assertTrue(p.upper() < 0.01, "FPR bound at " + p.keys() + ": " + p.upper());
      assertTrue(p.memoryRatio() > 1.0, "the chain is never smaller than a right-sized filter");
    }
    GrowthReport.write(dir, points, 1_000, 40_000, 20_000);
    String md = Files.readString(dir.resolve("growth.md"));
    assertTrue(md.contains("| 40,000 |"), md);
    assertEquals(points.size() + 1, Files.readAllLines(dir.resolve("growth.csv")).size());
    for (String png : new String[] {"fpr-vs-keys.png", "bits-per-key.png"}) {
      BufferedImage image = ImageIO.read(dir.resolve(png).toFile());
      assertEquals(1100, image.getWidth());
    }
  }
}
