package dev.sieve.bench.report;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeMap;

/**
 * What the report's header says about the machine: the CPU model ({@code /proc/cpuinfo}), the cores
 * this JVM sees, the caches of cpu0 ({@code /sys/devices/system/cpu/cpu0/cache/index*}: level,
 * type, size) and the system load average. Every source is optional: where a file is missing (not
 * Linux, a container without {@code /sys}) the figure reads "unknown" and the report still runs.
 *
 * @param cpu the CPU model name, or "unknown CPU"
 * @param cores the processors available to this JVM
 * @param caches e.g. "L1d 32 KiB, L1i 32 KiB, L2 512 KiB, L3 32 MiB", or "unknown"
 * @param memory the physical memory, e.g. "8 GiB", or "?"
 * @param os name, version, architecture
 */
public record MachineInfo(String cpu, int cores, String caches, String memory, String os) {

  /** The machine this JVM runs on. */
  public static MachineInfo current() {
    long mem = -1;
    if (ManagementFactory.getOperatingSystemMXBean()
        instanceof com.sun.management.OperatingSystemMXBean os) {
      mem = os.getTotalMemorySize();
    }
    return new MachineInfo(
        cpuModel(Path.of("/proc/cpuinfo")),
        Runtime.getRuntime().availableProcessors(),
        caches(Path.of("/sys/devices/system/cpu/cpu0/cache"), Path.of("/proc/cpuinfo")),
        mem < 0 ? "?" : (mem >> 30) + " GiB",
        System.getProperty("os.name")
            + " "
            + System.getProperty("os.version")
            + " "
            + System.getProperty("os.arch"));
  }

  /** The first "model name" of a cpuinfo file, or "unknown CPU". */
  static String cpuModel(Path cpuinfo) {
    try {
      for (String line : Files.readAllLines(cpuinfo)) {
        if (line.startsWith("model name") && line.indexOf(':') > 0) {
          return line.substring(line.indexOf(':') + 1).trim().replaceAll("\\s+", " ");
        }
      }
    } catch (IOException | RuntimeException e) {
      // not Linux, or not readable: the generic name
    }
    return "unknown CPU";
  }

  /**
   * The caches under a sysfs {@code cpu0/cache} directory, by level and type ("L1d 48 KiB, L1i 32
   * KiB, L2 2 MiB, L3 300 MiB"); without it (a sandbox, a container) the "cache size" line of
   * {@code cpuinfo}, which names no level; "unknown" when neither is readable.
   */
  static String caches(Path dir, Path cpuinfo) {
    String sys = sysfsCaches(dir);
    if (!sys.equals("unknown")) {
      return sys;
    }
    try {
      for (String line : Files.readAllLines(cpuinfo)) {
        if (line.startsWith("cache size") && line.indexOf(':') > 0) {
          String v = line.substring(line.indexOf(':') + 1).trim().replace(" KB", "K");
          return size(v) + " per core (/proc/cpuinfo's \"cache size\", level not given)";
        }
      }
    } catch (IOException | RuntimeException e) {
      // neither source: unknown
    }
    return "unknown";
  }

  private static String sysfsCaches(Path dir) {
    TreeMap<String, String> byName = new TreeMap<>();
    try (var entries = Files.list(dir)) {
      for (Path index :
          entries.filter(p -> p.getFileName().toString().startsWith("index")).toList()) {
        try {
          String level = Files.readString(index.resolve("level")).trim();
          String type = Files.readString(index.resolve("type")).trim();
          String size = Files.readString(index.resolve("size")).trim();
          String suffix =
              switch (type) {
                case "Data" -> "d";
                case "Instruction" -> "i";
                default -> "";
              };
          byName.put("L" + level + suffix, size(size));
        } catch (IOException | RuntimeException e) {
          // one unreadable index: leave it out
        }
      }
    } catch (IOException | RuntimeException e) {
      return "unknown";
    }
    if (byName.isEmpty()) {
      return "unknown";
    }
    List<String> parts = new ArrayList<>();
    byName.forEach((name, size) -> parts.add(name + " " + size));
    return String.join(", ", parts);
  }

  /** sysfs sizes ("32K", "32768K", "2M") in KiB or MiB. */
  static String size(String s) {
    String t = s.trim().toUpperCase(Locale.ROOT);
    long kib;
    try {
      if (t.endsWith("K")) {
        kib = Long.parseLong(t.substring(0, t.length() - 1));
      } else if (t.endsWith("M")) {
        kib = Long.parseLong(t.substring(0, t.length() - 1)) * 1024;
      } else {
        kib = Long.parseLong(t) / 1024;
      }
    } catch (NumberFormatException e) {
      return s.trim();
    }
    return kib >= 1024 && kib % 1024 == 0 ? (kib / 1024) + " MiB" : kib + " KiB";
  }

  /** The one-minute system load average, or {@code NaN} where the OS does not tell. */
  public static double loadAverage() {
    double l = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    return l < 0 ? Double.NaN : l;
  }

  /** One line: "CPU, N cores, caches, RAM, OS". */
  public String describe() {
    return String.format(
        Locale.ROOT, "%s, %d cores, caches %s, %s RAM, %s", cpu, cores, caches, memory, os);
  }
}
