package dev.sieve.bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.bench.Family;
import java.awt.image.BufferedImage;
import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The query plot picks its form from the run: bars at one n, log-log small multiples at many. */
class ChartsTest {
  @TempDir Path dir;

  private static List<Row> rows(int... ns) {
    List<Row> rows = new ArrayList<>();
    for (int n : ns) {
      rows.add(TargetsTest.row("sieve-blocked-bloom", Family.SIEVE, n, 10, 12, 5));
      rows.add(TargetsTest.row("sieve-blocked-bloom-batch", Family.SIEVE, n, 8, 9, 5));
      rows.add(TargetsTest.row("sieve-xor8", Family.SIEVE, n, 9, 9, 50));
      rows.add(TargetsTest.row("fastfilter-blocked-bloom", Family.PEER, n, 7, 7, 3));
      rows.add(TargetsTest.row("raw-read-1x", Family.LIMIT, n, 2, 2, 1));
    }
    return rows;
  }

  @Test
  void oneKeyCountGivesOneBarPerRowManyGiveOnePanelPerGroup() throws Exception {
    File one = dir.resolve("one.png").toFile();
    Charts.queryTimes(one, rows(1_000_000), true);
    BufferedImage bars = ImageIO.read(one);
    assertEquals(1100, bars.getWidth());
    assertEquals(700, bars.getHeight()); // max(700, 120 + 22 × 5 bars)

    File many = dir.resolve("many.png").toFile();
    Charts.queryTimes(many, rows(10_000, 1_000_000, 10_000_000), false);
    BufferedImage panels = ImageIO.read(many);
    // three groups present: Bloom filters; Xor, Binary Fuse; exact sets and the raw read
    assertEquals(330 * 3 + 260, panels.getHeight());
  }

  @Test
  void fprSmallMultiplesHaveAPanelPerKindOfFilter() throws Exception {
    List<Experiments.SweepPoint> sweep =
        List.of(
            new Experiments.SweepPoint(
                "sieve-blocked-bloom", 10, 10.0, 0.0095, 0.009, 0.01, 0.0094),
            new Experiments.SweepPoint("sieve-ribbon", 10, 7.1, 0.0095, 0.009, 0.01, 0.0095));
    List<Row> rows = rows(1_000_000);
    Row xor = rows.get(2);
    xor.absentQueried = 1_000_000;
    xor.falsePositives = 3_900;
    xor.modelFpr = 1 / 256.0;
    xor.sizeBits = (long) (9.84 * xor.n);
    File f = dir.resolve("fpr.png").toFile();
    Charts.fprVsBitsPerKey(f, sweep, rows);
    assertEquals(350 * 3 + 200, ImageIO.read(f).getHeight()); // Bloom, Ribbon, fixed-size
    File bloomOnly = dir.resolve("fpr1.png").toFile();
    Charts.fprVsBitsPerKey(bloomOnly, sweep.subList(0, 1), List.of());
    assertEquals(350 + 200, ImageIO.read(bloomOnly).getHeight());
    assertTrue(new Charts.PowerOfTen().format(1e6).equals("10^6"));
    assertEquals("2.5", new Charts.PowerOfTen().format(2.5));
  }
}
