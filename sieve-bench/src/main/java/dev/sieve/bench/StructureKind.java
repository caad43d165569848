package dev.sieve.bench;

import java.util.Objects;

/**
 * One kind of structure under test: a name used on the command line, in JMH's {@code @Param} and in
 * the report, its family, a one-line description and how to build it.
 *
 * @param name stable, lower-case, hyphenated (e.g. {@code sieve-blocked-bloom})
 * @param family what it is
 * @param description one line for the report
 * @param sizedByBitsPerKey whether the {@code bitsPerKey} argument of the builder changes its size
 *     (fixed-fingerprint filters and exact sets ignore it)
 * @param builder builds it from keys; must not modify the key array
 */
public record StructureKind(
    String name, Family family, String description, boolean sizedByBitsPerKey, Builder builder) {

  /** Builds a structure from {@code long} keys. */
  @FunctionalInterface
  public interface Builder {
    /**
     * Builds the structure over {@code keys} (distinct random keys; not modified) with the size
     * setting {@code bitsPerKey} where the kind has one.
     */
    Membership build(long[] keys, double bitsPerKey);
  }

  public StructureKind {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(family, "family");
    Objects.requireNonNull(description, "description");
    Objects.requireNonNull(builder, "builder");
  }

  /** Builds it. */
  public Membership build(long[] keys, double bitsPerKey) {
    return builder.build(keys, bitsPerKey);
  }
}
