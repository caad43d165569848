package dev.sieve.cli;

import static dev.sieve.testing.ModuleLauncher.compileAndRun;
import static dev.sieve.testing.ModuleLauncher.entry;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * sieve-core and sieve-rocksdb work as JPMS modules for a user on the module path: a small module
 * that {@code requires dev.sieve.rocksdb} (and through it, transitively, {@code dev.sieve.core})
 * compiles against this build's classes and runs, writing a RocksDB filter block through {@code
 * dev.sieve.sst} and {@code dev.sieve.policy} and reading it back. The module path holds exactly
 * sieve-core, sieve-rocksdb and its one runtime dependency, aircompressor (an automatic module), so
 * a missing {@code requires} or a dependency not on the path fails the run; likewise sieve-range
 * and sieve-interop beside sieve-core alone. (The CLI and the bench run on the class path from
 * their shaded jars, as before; their own tests cover that.)
 */
class ModulePathTest {

  @Test
  void aModuleRequiringDevSieveRocksdbCompilesAndRuns(@TempDir Path dir)
      throws IOException, InterruptedException {
    // sieve-rocksdb requires aircompressor (an automatic module) to decompress index blocks
    String modulePath =
        String.join(
            File.pathSeparator,
            entry("sieve-core"),
            entry("sieve-rocksdb"),
            entry("aircompressor"));
    String output =
        compileAndRun(
            dir,
            modulePath,
            "module smoke { requires dev.sieve.rocksdb; }\n",
            """
            package smoke;
            import dev.sieve.policy.FilterPolicy;
            import dev.sieve.sst.FilterBlockReader;
            import dev.sieve.sst.RocksDbOptions;
            import dev.sieve.sst.RocksDbTableFilter;
            import java.nio.charset.StandardCharsets;
            import java.util.List;
            public class Smoke {
              public static void main(String[] a) {
                byte[] key = "user:7".getBytes(StandardCharsets.UTF_8);
                FilterPolicy policy = RocksDbOptions.filterPolicy("ribbon:10").orElseThrow();
                byte[] block = RocksDbTableFilter.filterBlock(
                    policy, List.of(key), 7, FilterPolicy.UNKNOWN_LEVEL);
                boolean found = FilterBlockReader.read(block, 1).mayContain(key);
                System.out.println(found ? "ok " + block.length : "false negative");
              }
            }
            """);
    assertTrue(output.startsWith("ok "), output);
  }

  /**
   * sieve-range and sieve-interop on the module path register their container types with
   * sieve-core's registry (their module descriptors' {@code provides}, sieve-core's {@code uses}):
   * a module requiring both writes a Grafite and an ORC Bloom container and reads them back. Then a
   * module path of sieve-core alone reads the Grafite container's bytes and gets the typed error
   * that names the artifact to add.
   */
  @Test
  void theRangeAndInteropModulesRegisterTheirTypes(@TempDir Path dir)
      throws IOException, InterruptedException {
    Path grafite = dir.resolve("grafite.sieve");
    String modulePath =
        String.join(
            File.pathSeparator, entry("sieve-core"), entry("sieve-range"), entry("sieve-interop"));
    String output =
        compileAndRun(
            dir.resolve("both"),
            modulePath,
            "module smoke { requires dev.sieve.range; requires dev.sieve.interop; }\n",
            """
            package smoke;
            import dev.sieve.Filter;
            import dev.sieve.format.SieveFormat;
            import dev.sieve.interop.OrcBloomFilter;
            import dev.sieve.range.GrafiteFilter;
            import java.nio.file.Files;
            import java.nio.file.Path;
            public class Smoke {
              public static void main(String[] a) throws Exception {
                long[] keys = {5, 500, 50_000};
                GrafiteFilter g =
                    GrafiteFilter.builder().maxRangeLength(16).bitsPerKey(16).buildFromKeys(keys);
                byte[] bytes = SieveFormat.toBytes(g);
                Files.write(Path.of(a[0]), bytes);
                GrafiteFilter back = SieveFormat.read(bytes, GrafiteFilter.class);
                Filter orc = SieveFormat.read(
                    SieveFormat.toBytes(OrcBloomFilter.builder().fpRate(0.01).build(keys)));
                boolean ok = back.mayContainRange(490, 505) && orc.mayContain(50_000L)
                    && orc instanceof OrcBloomFilter;
                System.out.println(ok ? "ok" : "false negative");
              }
            }
            """,
            grafite.toString());
    assertEquals("ok", output);
    String refused =
        compileAndRun(
            dir.resolve("core"),
            entry("sieve-core"),
            "module smoke { requires dev.sieve.core; }\n",
            """
            package smoke;
            import dev.sieve.SieveFormatException;
            import dev.sieve.format.SieveFormat;
            import java.nio.file.Files;
            import java.nio.file.Path;
            public class Smoke {
              public static void main(String[] a) throws Exception {
                try {
                  SieveFormat.read(Files.readAllBytes(Path.of(a[0])));
                  System.out.println("read without sieve-range");
                } catch (SieveFormatException e) {
                  System.out.println(e.getMessage());
                }
              }
            }
            """,
            grafite.toString());
    assertTrue(refused.contains("dev.sieve:sieve-range"), refused);
  }

  /**
   * On the module path sieve-core's own filter families are found through its {@code provides}: a
   * module that requires dev.sieve.core alone builds every type sieve-core provides by name, writes
   * each to a container and reads it back, and an identity-keyed build (whose check asks the
   * families for the type's trait) works.
   */
  @Test
  void theFilterFamiliesAreFoundOnTheModulePath(@TempDir Path dir)
      throws IOException, InterruptedException {
    String output =
        compileAndRun(
            dir,
            entry("sieve-core"),
            "module smoke { requires dev.sieve.core; }\n",
            """
            package smoke;
            import dev.sieve.Filter;
            import dev.sieve.KeyScheme;
            import dev.sieve.format.SieveFormat;
            import dev.sieve.registry.FilterType;
            public class Smoke {
              public static void main(String[] a) {
                long[] keys = new long[1000];
                for (int i = 0; i < keys.length; i++) {
                  keys[i] = i * 0x9E3779B97F4A7C15L + 1;
                }
                int n = 0;
                for (FilterType t : FilterType.builtIn()) {
                  if (!t.artifact().equals("dev.sieve:sieve-core")) {
                    continue;
                  }
                  Filter f = FilterType.forName(t.cliName()).builder().build(keys);
                  Filter back = SieveFormat.read(SieveFormat.toBytes(f));
                  if (FilterType.of(back) != t || !back.mayContain(keys[7])) {
                    System.out.println("wrong " + t);
                    return;
                  }
                  n++;
                }
                Filter id = FilterType.XOR8.builder().keyScheme(KeyScheme.IDENTITY).build(keys);
                System.out.println("ok " + n + " " + id.keyScheme());
              }
            }
            """);
    assertEquals("ok 14 IDENTITY", output);
  }
}
