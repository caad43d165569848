package dev.sieve.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.registry.FilterType;
import java.lang.reflect.Constructor;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.platform.commons.support.ReflectionSupport;

/**
 * Every registry type ({@link FilterType#values()}) has exactly one concrete {@link FilterContract}
 * subclass named {@code *ContractTest} (so surefire runs it), and the exact binomial bound the
 * contract's rate check uses agrees with the textbook figures.
 */
class FilterContractCoverageTest {

  @Test
  void everyRegistryTypeRunsTheContract() throws Exception {
    List<Class<?>> contracts =
        ReflectionSupport.findAllClassesInPackage(
            FilterContract.class.getPackageName(),
            c -> FilterContract.class.isAssignableFrom(c) && !Modifier.isAbstract(c.getModifiers()),
            name -> true);
    Map<FilterType, List<String>> byType = new EnumMap<>(FilterType.class);
    for (Class<?> c : contracts) {
      assertTrue(
          c.getSimpleName().endsWith("ContractTest"),
          c.getName() + " is not named *ContractTest, so surefire would not run it");
      Constructor<?> ctor = c.getDeclaredConstructor();
      ctor.setAccessible(true);
      FilterType type = ((FilterContract) ctor.newInstance()).type();
      byType.computeIfAbsent(type, t -> new ArrayList<>()).add(c.getSimpleName());
    }
    List<String> missing = new ArrayList<>();
    for (FilterType t : TestTypes.builtIn()) {
      if (!byType.containsKey(t)) {
        missing.add(t.name());
      }
    }
    assertTrue(
        missing.isEmpty(),
        "registry types without a FilterContract subclass (add a <Type>ContractTest): " + missing);
    byType.forEach(
        (t, classes) -> assertEquals(1, classes.size(), t + " has several contracts: " + classes));
  }

  @Test
  void binomialBoundsMatchKnownQuantiles() {
    // Binomial(10^6, 0.01): mean 10^4, sd 99.5; two-sided 99.99% is about 3.89 sd either side
    long[] b = BinomialBound.bounds(1_000_000, 0.01, 1e-4);
    assertEquals(10_000 - 3.89 * 99.5, b[0], 6);
    assertEquals(10_000 + 3.89 * 99.5, b[1], 6);
    // Poisson-like small mean (122): the interval is skewed upward, [82, 168] or so
    long[] s = BinomialBound.bounds(8_000_000, Math.pow(2, -16), 1e-4);
    assertTrue(s[0] >= 78 && s[0] <= 86 && s[1] >= 164 && s[1] <= 172, s[0] + ".." + s[1]);
    // the ends of a tiny interval: p = 0 gives [0, 0]; n p = 0.001 gives [0, 1]
    assertEquals(0, BinomialBound.upper(1000, 0, 1e-4));
    assertEquals(1, BinomialBound.upper(1000, 1e-6, 1e-4));
    assertEquals(0, BinomialBound.lower(1000, 1e-6, 1e-4));
  }
}
