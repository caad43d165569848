package dev.sieve.xor;

import dev.sieve.Filter;
import dev.sieve.FilterBuilder;
import dev.sieve.KeyScheme;
import dev.sieve.format.TestTypes;
import dev.sieve.internal.Families;
import dev.sieve.registry.FilterType;
import java.util.ArrayList;
import java.util.List;

/**
 * One static xor-type filter configuration the tests build and (de)serialize uniformly: a type of
 * the registry ({@link FilterType}) whose class is a fingerprint filter (Xor and Binary Fuse), and
 * for the Binary Fuse types each arity (3 and 4). The list comes from the registry: a new
 * fingerprint type is covered without a change here.
 *
 * @param type the registry's type
 * @param arity the slots per key (3 for the Xor filters; 3 or 4 for Binary Fuse)
 * @param index the position in {@link #all()}, for per-case seeds
 */
record StaticFilterCase(FilterType type, int arity, int index) {

  /** Every registry type with a fingerprint filter class, each Binary Fuse one at arity 3 and 4. */
  static List<StaticFilterCase> all() {
    List<StaticFilterCase> cases = new ArrayList<>();
    for (FilterType t : TestTypes.all()) {
      if (!FingerprintFilter.class.isAssignableFrom(t.filterClass())) {
        continue;
      }
      boolean fuse = FuseFilter.class.isAssignableFrom(t.filterClass());
      for (int arity = 3; arity <= (fuse ? 4 : 3); arity++) {
        cases.add(new StaticFilterCase(t, arity, cases.size()));
      }
    }
    return cases;
  }

  /** Whether the filter is a Binary Fuse one (segmented layout). */
  boolean isFuse() {
    return FuseFilter.class.isAssignableFrom(type.filterClass());
  }

  /** Bits per fingerprint, from an empty filter's shape (8 or 16). */
  int fingerprintBits() {
    return ((FingerprintFilter) build(new long[0])).fingerprintBits();
  }

  /**
   * Builds through the registry's builder (at this arity); the array is not modified. The cases
   * work on hashes, and the bare form carries no key scheme (it reads back as XXPH3), so the filter
   * is built under XXPH3 and a round trip gives an equal filter.
   */
  Filter build(long[] hashes) {
    FilterBuilder<? extends Filter> b = type.builder().keyScheme(KeyScheme.XXPH3);
    if (isFuse()) {
      ((FuseFilter.Builder<?, ?>) b).arity(arity);
    }
    return b.buildFromHashes(hashes);
  }

  /** The class's own serialized form ({@link XorFilterFormat}), the container's payload. */
  byte[] toBytes(Filter f) {
    return ((FingerprintFilter) f).toByteArray();
  }

  /** Reads the class's own form through its registered reader. */
  Filter fromBytes(byte[] bytes) {
    return Families.get().form(TestTypes.filterClass(type)).read(bytes, 0);
  }

  @Override
  public String toString() {
    return type.cliName() + (isFuse() ? "/arity" + arity : "");
  }
}
