package dev.sieve.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.Filter;
import dev.sieve.KeyScheme;
import dev.sieve.KeySchemeException;
import dev.sieve.hash.KeyEncoder;
import dev.sieve.interop.CassandraBloomFilter;
import dev.sieve.interop.DataSketchesBloomFilter;
import dev.sieve.interop.ForeignBloomFilter;
import dev.sieve.interop.GuavaBloomFilter;
import dev.sieve.interop.SparkBloomFilter;
import dev.sieve.registry.FilterType;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Calls every method of {@link Filter} (its own and {@link dev.sieve.KeyFilter}'s) on a filter of
 * every registry type, with valid arguments, and collects the methods that refuse with {@link
 * UnsupportedOperationException}. A filter type answers every query it offers: a refusal no input
 * can avoid is a method the type should not have. The built-in types refuse nothing; the foreign
 * types refuse exactly the hash level, pinned here, because their owners' hashes do not fit one
 * 64-bit value (Guava's default strategy, DataSketches and Cassandra take 128 bits, Spark a hash
 * pair under the filter's own seed), and those methods are deprecated for removal. When they stop
 * offering the hash level (they are {@link Filter}s only because the registry and the container are
 * typed by {@link Filter}), this list must shrink with them.
 */
class RefusedMethodsTest {

  /** The hash-level entries of {@link Filter} that the foreign types refuse today. */
  private static final Set<String> FOREIGN_REFUSALS =
      Set.of("mayContainHash(long)", "mayContainHashes(long[],int,int,long[])");

  @Test
  void builtInTypesRefuseNoMethod() {
    Map<FilterType, Set<String>> refused = new EnumMap<>(FilterType.class);
    for (FilterType type : FilterType.builtIn()) {
      long[] keys = new long[100];
      Arrays.setAll(keys, i -> 1000L + i);
      Set<String> r = refusedMethods(TestFilters.builder(type).build(keys));
      if (!r.isEmpty()) {
        refused.put(type, r);
      }
    }
    assertTrue(refused.isEmpty(), "methods that refuse a valid input: " + refused);
  }

  @Test
  void foreignTypesRefuseOnlyTheHashLevel() {
    Map<FilterType, Filter> foreign = new EnumMap<>(FilterType.class);
    foreign.put(FilterType.GUAVA_BLOOM, filled(GuavaBloomFilter.create(100, 0.01)));
    foreign.put(FilterType.SPARK_BLOOM, filled(SparkBloomFilter.create(100, 0.01)));
    foreign.put(
        FilterType.DATASKETCHES_BLOOM,
        filled(DataSketchesBloomFilter.createByAccuracy(100, 0.01, 7)));
    foreign.put(FilterType.CASSANDRA_BLOOM, filled(CassandraBloomFilter.create(100, 0.01)));
    for (FilterType type : FilterType.values()) {
      if (type.isForeign()) {
        assertTrue(foreign.containsKey(type), type + " has no filter in this test");
      }
    }
    foreign.forEach((type, f) -> assertEquals(FOREIGN_REFUSALS, refusedMethods(f), type.cliName()));
  }

  /**
   * Every method a foreign type refuses says so where a caller sees it: deprecated for removal in
   * {@link ForeignBloomFilter}, the class the foreign types share.
   */
  @Test
  void foreignRefusalsAreDeprecatedForRemoval() {
    Set<String> marked = new TreeSet<>();
    for (Method m : ForeignBloomFilter.class.getMethods()) {
      Deprecated d = m.getAnnotation(Deprecated.class);
      if (d != null && d.forRemoval() && m.getDeclaringClass() == ForeignBloomFilter.class) {
        marked.add(signature(m));
      }
    }
    assertEquals(FOREIGN_REFUSALS, marked);
  }

  private static Filter filled(ForeignBloomFilter f) {
    for (long k = 1000; k < 1100; k++) {
      f.put(k);
    }
    return f;
  }

  /**
   * The methods of {@link Filter} that throw {@link UnsupportedOperationException} on {@code f}.
   */
  private static Set<String> refusedMethods(Filter f) {
    Set<String> refused = new TreeSet<>();
    Method[] methods = Filter.class.getMethods();
    Arrays.sort(methods, Comparator.comparing(RefusedMethodsTest::signature));
    for (Method m : methods) {
      if (Modifier.isStatic(m.getModifiers())) {
        continue;
      }
      Object[] args = new Object[m.getParameterCount()];
      Class<?>[] types = m.getParameterTypes();
      for (int i = 0; i < args.length; i++) {
        args[i] = argument(types[i], f);
      }
      try {
        m.invoke(f, args);
      } catch (InvocationTargetException e) {
        Throwable cause = e.getCause();
        if (cause instanceof UnsupportedOperationException) {
          refused.add(signature(m));
        } else if (!(cause instanceof KeySchemeException)) {
          throw new AssertionError(
              f.getClass().getSimpleName() + "." + signature(m) + " failed on a valid input",
              cause);
        } // a long-keys-only scheme refusing a byte key: that depends on the input
      } catch (IllegalAccessException e) {
        throw new AssertionError(e);
      }
    }
    return refused;
  }

  /**
   * A valid argument of each parameter type of {@link Filter}'s methods: every {@code int} is 1 (an
   * offset of 1 and a length of 1 into arrays of three or four), keys are small and present.
   */
  private static Object argument(Class<?> type, Filter f) {
    if (type == long.class) {
      return 1000L;
    }
    if (type == int.class) {
      return 1;
    }
    if (type == float.class) {
      return 1.5f;
    }
    if (type == double.class) {
      return 2.5;
    }
    if (type == byte[].class) {
      return new byte[] {1, 2, 3};
    }
    if (type == long[].class) {
      return new long[] {1000L, 1001L, 1002L, 1003L};
    }
    if (type == byte[][].class) {
      return new byte[][] {{1}, {2}, {3}};
    }
    if (type == CharSequence.class) {
      return "key";
    }
    if (type == CharSequence[].class) {
      return new CharSequence[] {"a", "b", "c"};
    }
    if (type == ByteBuffer.class) {
      return ByteBuffer.wrap(new byte[] {1, 2, 3});
    }
    if (type == KeyEncoder.class) {
      return KeyEncoder.LONG;
    }
    if (type == KeyScheme.class) {
      return f.keyScheme();
    }
    if (type == Object.class) {
      return 1000L; // a key for KeyEncoder.LONG
    }
    if (type == Object[].class) {
      return new Long[] {1000L, 1001L, 1002L};
    }
    throw new AssertionError("no argument of type " + type + ": extend this test");
  }

  private static String signature(Method m) {
    StringBuilder s = new StringBuilder(m.getName()).append('(');
    Class<?>[] types = m.getParameterTypes();
    for (int i = 0; i < types.length; i++) {
      s.append(i == 0 ? "" : ",").append(types[i].getSimpleName());
    }
    return s.append(')').toString();
  }
}
