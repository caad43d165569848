package dev.sieve.bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
}
