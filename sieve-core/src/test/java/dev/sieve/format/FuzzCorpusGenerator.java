package dev.sieve.format;

import dev.sieve.Filter;
import dev.sieve.KeyScheme;
import dev.sieve.bloom.BlockedBloomFilter;
import dev.sieve.bloom.ScalableBloomFilter;
import dev.sieve.bloom.ScalableBloomRawForm;
import dev.sieve.bloom.SplitBlockBloomFilter;
import dev.sieve.registry.FilterType;
import dev.sieve.ribbon.BumpedRibbonFilter;
import dev.sieve.ribbon.BumpedRibbonRawForm;
import dev.sieve.ribbon.Standard128RibbonFilter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Writes the seed corpus of the fuzz targets: small valid inputs of every reader plus truncations
 * of them. Run from the sieve-core directory (not part of the test suite): {@code java -cp
 * target/test-classes:target/classes dev.sieve.format.FuzzCorpusGenerator src/test/resources
 * [TYPE...]}; for sieve-range's or sieve-interop's types, from that module's directory with its
 * classes and sieve-core's test jar on the class path and {@code -Dsieve.test.artifact=<module>}
 * ({@link TestTypes}). Findings the fuzzers add to the same directories are kept beside the seeds.
 */
public final class FuzzCorpusGenerator {
  private FuzzCorpusGenerator() {}

  public static void main(String[] args) throws IOException {
    Path root =
        Path.of(args.length > 0 ? args[0] : "src/test/resources").resolve("dev/sieve/format");
    int[] sizes = {0, 1, 5, 40};
    // the types named after the directory, or all (a new type seeds its own corpus only)
    java.util.List<FilterType> types = new java.util.ArrayList<>();
    for (int i = 1; i < args.length; i++) {
      types.add(FilterType.valueOf(args[i]));
    }
    for (FilterType type : types.isEmpty() ? TestTypes.builtIn() : types) {
      for (int n : sizes) {
        Filter f = TestFilters.build(type, TestFilters.keys(n, 3));
        byte[] container = SieveFormat.toBytes(f);
        String name = type.name().toLowerCase() + "-" + n;
        seed(root, "SieveContainerFuzzTest", name, container);
        seed(root, "SieveContainerFuzzTest", name + "-cut", half(container));
        byte[] own = type == FilterType.SHARDED ? null : ownForm(f);
        switch (type) {
          case BLOCKED_BLOOM -> seedWithCut(root, "BlockedBloomBlockFuzzTest", name, own);
          case STANDARD_BLOOM -> seedWithCut(root, "StandardBloomFormFuzzTest", name, own);
          case CUCKOO -> seedWithCut(root, "CuckooFormFuzzTest", name, own);
          case RIBBON -> seedWithCut(root, "RibbonBlockFuzzTest", name, own);
          case SPLIT_BLOCK_BLOOM -> seedWithCut(root, "SplitBlockBloomFormFuzzTest", name, own);
          case BUMPED_RIBBON -> seedWithCut(root, "BumpedRibbonFormFuzzTest", name, own);
          case SCALABLE_BLOOM -> seedWithCut(root, "ScalableBloomFormFuzzTest", name, own);
          case EXPANDABLE -> seedWithCut(root, "ExpandableFormFuzzTest", name, own);
          case ORC_BLOOM -> seedWithCut(root, "OrcBloomFormFuzzTest", name, own);
          case GRAFITE -> seedWithCut(root, "GrafiteFormFuzzTest", name, own);
          case PREFIX_BLOOM_RANGE -> seedWithCut(root, "PrefixBloomRangeFormFuzzTest", name, own);
          case TWO_WORD_BLOOM -> seedWithCut(root, "TwoWordBloomFormFuzzTest", name, own);
          case SHARDED -> {} // no own form: the container is its only form
          default -> seedWithCut(root, "XorFuseFormFuzzTest", name, own);
        }
      }
    }
    if (!types.isEmpty()) {
      return;
    }
    // the foreign forms' target seeds are written by sieve-interop's InteropFuzzCorpusGenerator
    // the structured corruption target: a few byte strings to start the provider from
    for (int i = 0; i < FilterType.values().length; i++) {
      byte[] seed = new byte[64];
      Arrays.fill(seed, (byte) (i * 37 + 1));
      seed(root, "SieveContainerCorruptionFuzzTest", "seed-" + i, seed);
    }
  }

  private static byte[] ownForm(Filter f) {
    if (f instanceof BlockedBloomFilter b) {
      return b.toRocksDbFilterBlock();
    } else if (f instanceof Standard128RibbonFilter r) {
      return r.toRocksDbFilterBlock();
    } else if (f instanceof SplitBlockBloomFilter s) {
      return s.withKeyScheme(KeyScheme.PARQUET_XXH64).toParquetBitset();
    } else if (f instanceof BumpedRibbonFilter r) {
      return BumpedRibbonRawForm.bytes(r);
    } else if (f instanceof ScalableBloomFilter s) {
      return ScalableBloomRawForm.bytes(s);
    } else {
      return Forms.toBytes(f); // standard Bloom, Xor, Binary Fuse, Cuckoo, expandable: the own form
    }
  }

  private static byte[] half(byte[] b) {
    return Arrays.copyOf(b, b.length / 2);
  }

  private static void seedWithCut(Path root, String target, String name, byte[] bytes)
      throws IOException {
    seed(root, target, name, bytes);
    seed(root, target, name + "-cut", half(bytes));
  }

  private static void seed(Path root, String target, String name, byte[] bytes) throws IOException {
    Path dir = root.resolve(target + "Inputs").resolve("fuzz");
    Files.createDirectories(dir);
    Files.write(dir.resolve("seed-" + name), bytes);
  }
}
