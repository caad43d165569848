package dev.sieve.format;

import dev.sieve.registry.FilterType;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The golden files of {@link SieveFormatGoldenTest}: for each filter type, a container written by
 * version 1 of the format over {@link #builtKeys()}, and the answers it gave for {@link
 * #queryKeys()}. Regenerate (only on a deliberate format change, with a new format version) from
 * the sieve-core directory: {@code java -cp target/test-classes:target/classes:<test deps>
 * dev.sieve.format.GoldenFiles src/test/resources [TYPE...]}, naming only the new types.
 */
public final class GoldenFiles {
  private GoldenFiles() {}

  static final int BUILT = 500;
  static final int QUERIES = 2_000;

  /** The keys every golden filter was built from. */
  static long[] builtKeys() {
    long[] keys = new long[BUILT];
    for (int i = 0; i < BUILT; i++) {
      keys[i] = 0x5EED_0000L + 977L * i;
    }
    return keys;
  }

  /** The query keys: the built keys first, then others. */
  static long[] queryKeys() {
    long[] keys = new long[QUERIES];
    long[] built = builtKeys();
    System.arraycopy(built, 0, keys, 0, BUILT);
    for (int i = BUILT; i < QUERIES; i++) {
      keys[i] = i * 0xD6E8FEB86659FD93L + 12345;
    }
    return keys;
  }

  static String fileName(FilterType type) {
    return type.name().toLowerCase() + ".sieve";
  }

  static String answersName(FilterType type) {
    return type.name().toLowerCase() + ".answers";
  }

  public static void main(String[] args) throws IOException {
    Path dir =
        Path.of(args.length > 0 ? args[0] : "src/test/resources")
            .resolve("dev/sieve/format/golden");
    Files.createDirectories(dir);
    // the types named after the directory, or all: a new type adds its file without rewriting the
    // others
    java.util.List<FilterType> types = new java.util.ArrayList<>();
    for (int i = 1; i < args.length; i++) {
      types.add(FilterType.valueOf(args[i]));
    }
    for (FilterType type : types.isEmpty() ? TestTypes.builtIn() : types) {
      var filter = TestFilters.buildGolden(type, builtKeys());
      Files.write(dir.resolve(fileName(type)), SieveFormat.toBytes(filter));
      StringBuilder answers = new StringBuilder();
      for (long q : queryKeys()) {
        answers.append(filter.mayContain(q) ? '1' : '0');
      }
      Files.writeString(
          dir.resolve(answersName(type)),
          "# mayContain of GoldenFiles.queryKeys(), in order, written by format version 1\n"
              + answers
              + "\n");
    }
  }
}
