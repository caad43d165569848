package dev.sieve.report;

import dev.sieve.bench.Family;
import dev.sieve.bench.SieveAdapters;
import dev.sieve.bench.StructureKind;
import dev.sieve.bench.Structures;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The row sets {@code --filters} names: {@code default}, {@code full}, {@code all}, a family, or
 * structures by name.
 */
final class RowSets {
  private RowSets() {}

  /**
   * The filters whose batch and pre-hashed rows the {@code full} set includes; the other Sieve
   * filters get their single-lookup row.
   */
  static final Set<String> HEADLINE =
      Set.of("sieve-blocked-bloom", "sieve-xor8", "sieve-binary-fuse8", "sieve-ribbon");

  /**
   * The default set: every filter type of the registry a user would pick for point lookups, each
   * once as a caller queries it — blocked Bloom (and its batch path), Parquet's split-block Bloom,
   * the two-word Bloom, the standard Bloom, the two that grow (scalable Bloom, expandable filter),
   * Ribbon and Bumped Ribbon, Xor8, Binary Fuse 8, Cuckoo — beside their peers (Guava, FastFilter's
   * BlockedBloom, Xor8 and Cuckoo8), the exact sets a filter replaces ({@code HashSet<Long>},
   * binary search over a sorted {@code long[]}, {@code TreeSet<Long>}) and the raw random read. The
   * 16-bit Xor and Binary Fuse types have their 8-bit rows' lookup code (their rows are in {@code
   * full}); ORC's Bloom filter is picked for ORC's format, not for lookups, and the sharded filter
   * is a container of Binary Fuse filters. Sized by {@link ReportPlan} to finish in 10 minutes on 2
   * idle cores with warm-ups long enough for the SIMD path, with room for re-measuring flagged
   * rows.
   */
  static final List<String> DEFAULT =
      List.of(
          "sieve-blocked-bloom",
          "sieve-blocked-bloom-batch",
          "sieve-split-block-bloom",
          "sieve-two-word-bloom",
          "sieve-standard-bloom",
          "sieve-scalable-bloom",
          "sieve-expandable",
          "sieve-ribbon",
          "sieve-bumped-ribbon",
          "sieve-xor8",
          "sieve-binary-fuse8",
          "sieve-cuckoo8",
          "guava-bloom",
          "fastfilter-blocked-bloom",
          "fastfilter-xor8",
          "fastfilter-cuckoo8",
          "java-hashset",
          "sorted-array",
          "java-treeset",
          "raw-read-1x");

  /** Exact baselines and limit rows left out of the full set (slow to build, or redundant). */
  static final Set<String> NOT_IN_FULL =
      Set.of("java-hashset", "java-treeset", "sorted-array", "raw-read-10x");

  /** The headline filters whose fast-hash row is in the full set (Ribbon's is not). */
  static final Set<String> HEADLINE_FAST_HASH =
      Set.of("sieve-blocked-bloom", "sieve-xor8", "sieve-binary-fuse8");

  /** Whether {@code kind} is in the default set. */
  static boolean isDefault(StructureKind kind) {
    return DEFAULT.contains(kind.name());
  }

  /** Whether {@code kind} is in the full set. */
  static boolean isFull(StructureKind kind) {
    if (kind.description().startsWith("diagnostic:") || NOT_IN_FULL.contains(kind.name())) {
      return false;
    }
    if (kind.family() != Family.SIEVE) {
      return true;
    }
    String base = baseFilter(kind.name());
    if (base.equals(kind.name())) {
      return true; // every filter's single-lookup row
    }
    if (kind.name().contains("-" + Names.FAST_HASH)) {
      return HEADLINE_FAST_HASH.contains(base) && !kind.name().endsWith(SieveAdapters.BATCH_SUFFIX);
    }
    return HEADLINE.contains(base);
  }

  /**
   * The filter a Sieve row measures: {@code sieve-xor8} for {@code sieve-xor8-batch}, {@code
   * sieve-xor8-prehashed}, {@code sieve-xor8-fasthash} or {@code sieve-xor8-fasthash-batch}.
   */
  static String baseFilter(String name) {
    String base = name;
    int fast = base.indexOf("-" + Names.FAST_HASH);
    if (fast > 0) {
      base = base.substring(0, fast);
    }
    for (String suffix : List.of(SieveAdapters.BATCH_SUFFIX, SieveAdapters.PREHASHED_SUFFIX)) {
      if (base.endsWith(suffix)) {
        base = base.substring(0, base.length() - suffix.length());
      }
    }
    return base;
  }

  /**
   * Whether {@code kind}'s lookups can take a SIMD path, which needs the longer warm-up: the
   * blocked and split-block Bloom filters' rows (the scalable Bloom filter's stages are blocked
   * Bloom filters).
   */
  static boolean mayTakeSimdPath(StructureKind kind) {
    String base = baseFilter(kind.name());
    return base.startsWith("sieve-blocked-bloom")
        || base.startsWith("sieve-split-block-bloom")
        || base.startsWith("sieve-scalable-bloom");
  }

  /** The kinds selected by {@code --filters}, in the registry's order. */
  static List<StructureKind> select(List<String> filters) {
    Set<StructureKind> chosen = new LinkedHashSet<>();
    for (String f : filters) {
      String name = f.trim().toLowerCase(Locale.ROOT);
      switch (name) {
        case "all" -> chosen.addAll(Structures.all());
        case "default" -> Structures.all().stream().filter(RowSets::isDefault).forEach(chosen::add);
        case "full" -> Structures.all().stream().filter(RowSets::isFull).forEach(chosen::add);
        default -> {
          boolean family = false;
          for (Family fam : Family.values()) {
            if (fam.label().equals(name)) {
              family = true;
              Structures.all().stream().filter(k -> k.family() == fam).forEach(chosen::add);
            }
          }
          if (!family) {
            chosen.add(Structures.byName(name));
          }
        }
      }
    }
    List<StructureKind> ordered = new ArrayList<>();
    for (StructureKind k : Structures.all()) {
      if (chosen.contains(k)) {
        ordered.add(k);
      }
    }
    return ordered;
  }
}
