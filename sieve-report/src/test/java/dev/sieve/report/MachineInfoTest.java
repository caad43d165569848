package dev.sieve.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The header's machine facts, read from sysfs and cpuinfo files, absent ones said to be unknown.
 */
class MachineInfoTest {
  @TempDir Path dir;

  private void index(Path cache, int i, String level, String type, String size) throws Exception {
    Path d = Files.createDirectories(cache.resolve("index" + i));
    Files.writeString(d.resolve("level"), level + "\n");
    Files.writeString(d.resolve("type"), type + "\n");
    Files.writeString(d.resolve("size"), size + "\n");
  }

  @Test
  void cachesFromSysfsThenCpuinfoThenUnknown() throws Exception {
    Path cache = dir.resolve("cache");
    index(cache, 0, "1", "Data", "48K");
    index(cache, 1, "1", "Instruction", "32K");
    index(cache, 2, "2", "Unified", "2048K");
    index(cache, 3, "3", "Unified", "307200K");
    Path cpuinfo = dir.resolve("cpuinfo");
    Files.writeString(
        cpuinfo,
        "processor\t: 0\nmodel name\t: Intel(R) Xeon(R)   Platinum 8480+\ncache size\t: 1024 KB\n");
    assertEquals(
        "L1d 48 KiB, L1i 32 KiB, L2 2 MiB, L3 300 MiB", MachineInfo.caches(cache, cpuinfo));
    assertEquals(
        "1 MiB per core (/proc/cpuinfo's \"cache size\", level not given)",
        MachineInfo.caches(dir.resolve("none"), cpuinfo));
    assertEquals("unknown", MachineInfo.caches(dir.resolve("none"), dir.resolve("none2")));
    assertEquals("Intel(R) Xeon(R) Platinum 8480+", MachineInfo.cpuModel(cpuinfo));
    assertEquals("unknown CPU", MachineInfo.cpuModel(dir.resolve("none")));
  }

  @Test
  void otherCoresIsTheMachinesBusyTimeLessThisProcesss() {
    long s = 1_000_000_000L;
    // 10 s of wall time; the machine busy for 1,500 ticks (15 core-seconds), this process and its
    // children for 1,000 (10 core-seconds): others kept 0.5 cores busy
    MachineInfo.CpuTime a = new MachineInfo.CpuTime(0, 10_000, 2_000);
    MachineInfo.CpuTime b = new MachineInfo.CpuTime(10 * s, 11_500, 3_000);
    assertEquals(0.5, MachineInfo.otherCores(a, b), 1e-12);
    assertEquals(0, MachineInfo.otherCores(a, new MachineInfo.CpuTime(10 * s, 10_500, 3_000)));
    assertTrue(Double.isNaN(MachineInfo.otherCores(null, b)));
    assertTrue(Double.isNaN(MachineInfo.otherCores(b, a)));
  }

  @Test
  void thisProcesssOwnWorkIsCountedAsItsOwn() {
    MachineInfo.CpuTime a = MachineInfo.cpuTime();
    assumeTrue(a != null, "no /proc here");
    long x = 0;
    long until = System.nanoTime() + 300_000_000L;
    while (System.nanoTime() < until) {
      x += Long.numberOfTrailingZeros(x ^ System.nanoTime());
    }
    MachineInfo.CpuTime b = MachineInfo.cpuTime();
    assertTrue(b.ownTicks() - a.ownTicks() >= 10, "300 ms of spinning is at least 10 ticks " + x);
    assertTrue(b.busyTicks() - a.busyTicks() >= b.ownTicks() - a.ownTicks() - 5, a + " " + b);
  }
}
