package dev.sieve.report;

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

  /**
   * A snapshot of CPU time for {@link #otherCores}: the wall clock, the whole machine's busy time
   * (every CPU's user, nice, system, irq, softirq and steal time, from {@code /proc/stat}) and this
   * process's own with its finished children ({@code /proc/self/stat}'s utime, stime, cutime and
   * cstime: the JMH forks and cold-start JVMs once reaped), both in clock ticks.
   */
  public record CpuTime(long wallNanos, long busyTicks, long ownTicks) {}

  /** Linux's clock ticks per second in {@code /proc} (USER_HZ, 100 on every mainstream build). */
  static final double TICKS_PER_SECOND = 100;

  /** A {@link CpuTime} now, or {@code null} where {@code /proc} does not tell (not Linux). */
  public static CpuTime cpuTime() {
    try {
      long wall = System.nanoTime();
      String cpu = Files.readAllLines(Path.of("/proc/stat")).get(0);
      String[] f = cpu.trim().split("\\s+");
      if (!f[0].equals("cpu") || f.length < 9) {
        return null;
      }
      long busy = 0;
      for (int i : new int[] {1, 2, 3, 6, 7, 8}) { // user nice system irq softirq steal
        busy += Long.parseLong(f[i]);
      }
      String self = Files.readString(Path.of("/proc/self/stat"));
      String[] g = self.substring(self.lastIndexOf(')') + 2).trim().split("\\s+");
      long own = 0;
      for (int i = 11; i <= 14; i++) { // fields 14-17: utime stime cutime cstime
        own += Long.parseLong(g[i]);
      }
      return new CpuTime(wall, busy, own);
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  /**
   * The cores other processes kept busy on average between two snapshots (the machine's busy time
   * less this process's and its children's, over the wall time), or {@code NaN} when unknown.
   * Unlike the load average, it does not count the report's own forks, nor a build that ran just
   * before.
   */
  public static double otherCores(CpuTime start, CpuTime end) {
    if (start == null || end == null || end.wallNanos() <= start.wallNanos()) {
      return Double.NaN;
    }
    double ticks = (end.busyTicks() - start.busyTicks()) - (end.ownTicks() - start.ownTicks());
    double seconds = (end.wallNanos() - start.wallNanos()) / 1e9;
    return Math.max(0, ticks / TICKS_PER_SECOND / seconds);
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
