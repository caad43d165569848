package dev.sieve.format;

import dev.sieve.Filter;
import dev.sieve.registry.FilterType;
import java.util.Arrays;
import java.util.List;

/**
 * The registry types a test run covers. sieve-core's registry-wide checks (every type built, read,
 * written, queried in batches, held to its contract...) run in sieve-core over the types whose
 * family is on its class path (its own), and again, through sieve-core's test jar, in each module
 * that adds a family (sieve-range, sieve-interop) over that module's types: the system property
 * {@code sieve.test.artifact} (set by that module's surefire configuration) names the artifact
 * whose types are covered ({@link FilterType#artifact()}). A type its run should cover whose family
 * is missing fails {@link #all()}.
 */
public final class TestTypes {
  private TestTypes() {}

  /** {@return the artifact whose types this run covers: sieve-core's unless the property says} */
  public static String artifact() {
    return System.getProperty("sieve.test.artifact", "dev.sieve:sieve-core");
  }

  /** {@return whether this run covers {@code type}: it ships in {@link #artifact()}} */
  public static boolean covers(FilterType type) {
    return type.artifact().equals(artifact());
  }

  /**
   * {@return the covered types, in values() order; an AssertionError if one's family is not on the
   * class path (its module is not a test dependency of this run)}
   */
  public static List<FilterType> all() {
    List<FilterType> types = Arrays.stream(FilterType.values()).filter(TestTypes::covers).toList();
    if (types.isEmpty()) {
      throw new AssertionError("no registry type ships in " + artifact());
    }
    for (FilterType t : types) {
      if (!t.isPresent()) {
        throw new AssertionError(t + " ships in " + artifact() + " but is not on the class path");
      }
    }
    return types;
  }

  /** {@return the covered types Sieve builds from keys (not the foreign ones)} */
  public static List<FilterType> builtIn() {
    return all().stream().filter(t -> !t.isForeign()).toList();
  }

  /** {@return the covered foreign types (other systems' filters in their own form)} */
  public static List<FilterType> foreign() {
    return all().stream().filter(FilterType::isForeign).toList();
  }

  /**
   * {@return the filter class of {@code type}, one of the types Sieve builds, as a {@link Filter}
   * class; a ClassCastException for a foreign type, whose filters are key filters alone}
   */
  public static Class<? extends Filter> filterClass(FilterType type) {
    return type.filterClass().asSubclass(Filter.class);
  }
}
