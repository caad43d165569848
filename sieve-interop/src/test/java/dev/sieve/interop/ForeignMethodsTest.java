package dev.sieve.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.Filter;
import dev.sieve.KeyFilter;
import dev.sieve.hash.KeyEncoder;
import dev.sieve.registry.FilterType;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The foreign types offer only what they can answer: every public method of each (its own, its base
 * class's and {@link KeyFilter}'s, static ones included) is called on a small filled filter with
 * plausible arguments, and none may throw. They are key filters, not {@link Filter}s: their owners
 * hash keys their own way (Guava's default strategy, DataSketches and Cassandra probe with 128
 * bits, Spark with a hash pair under its seed), so the hash level of {@link Filter} ({@code
 * mayContainHash}, {@code mayContainHashes}) and a key scheme would be methods that always refuse.
 */
class ForeignMethodsTest {

  /** The methods of {@link Filter} beyond {@link KeyFilter} that a foreign type cannot answer. */
  private static final Set<String> HASH_LEVEL =
      Set.of("mayContainHash", "mayContainHashes", "keyScheme", "withKeyScheme");

  /** A filled filter of every foreign registry type. */
  private static Map<FilterType, ForeignBloomFilter> foreignFilters() {
    Map<FilterType, ForeignBloomFilter> m = new EnumMap<>(FilterType.class);
    m.put(FilterType.GUAVA_BLOOM, filled(GuavaBloomFilter.create(100, 0.01)));
    m.put(FilterType.SPARK_BLOOM, filled(SparkBloomFilter.create(100, 0.01)));
    m.put(
        FilterType.DATASKETCHES_BLOOM,
        filled(DataSketchesBloomFilter.createByAccuracy(100, 0.01, 7)));
    m.put(FilterType.CASSANDRA_BLOOM, filled(CassandraBloomFilter.create(100, 0.01)));
    for (FilterType type : FilterType.values()) {
      assertEquals(type.isForeign(), m.containsKey(type), type + ": a filter in this test");
    }
    m.forEach((type, f) -> assertEquals(type.filterClass(), f.getClass(), type.cliName()));
    return m;
  }

  private static ForeignBloomFilter filled(ForeignBloomFilter f) {
    for (long k = 1000; k < 1100; k++) {
      f.put(k);
    }
    f.put("key");
    f.put(new byte[] {1, 2, 3});
    return f;
  }

  @Test
  void foreignTypesAreKeyFiltersWithoutTheHashLevel() {
    foreignFilters()
        .forEach(
            (type, f) -> {
              Class<?> cls = f.getClass();
              assertTrue(f instanceof KeyFilter, type.cliName());
              assertFalse(Filter.class.isAssignableFrom(cls), type + " is a Filter");
              assertFalse(
                  Filter.class.isAssignableFrom(type.filterClass()), type + "'s class is a Filter");
              for (Method m : cls.getMethods()) {
                assertFalse(HASH_LEVEL.contains(m.getName()), type + " offers " + signature(m));
              }
            });
  }

  @Test
  void noPublicMethodOfAForeignTypeThrows() {
    Map<FilterType, List<String>> failed = new EnumMap<>(FilterType.class);
    Map<FilterType, Integer> called = new EnumMap<>(FilterType.class);
    foreignFilters()
        .forEach(
            (type, f) -> {
              Method[] methods = f.getClass().getMethods();
              Arrays.sort(methods, Comparator.comparing(ForeignMethodsTest::signature));
              List<String> thrown = new ArrayList<>();
              int n = 0;
              for (Method m : methods) {
                if (m.getDeclaringClass() == Object.class) {
                  continue;
                }
                n++;
                Object[] args = new Object[m.getParameterCount()];
                Class<?>[] types = m.getParameterTypes();
                for (int i = 0; i < args.length; i++) {
                  args[i] = argument(types[i], f);
                }
                try {
                  m.invoke(Modifier.isStatic(m.getModifiers()) ? null : f, args);
                } catch (InvocationTargetException e) {
                  thrown.add(signature(m) + ": " + e.getCause());
                } catch (IllegalAccessException e) {
                  throw new AssertionError(e);
                }
              }
              called.put(type, n);
              if (!thrown.isEmpty()) {
                failed.put(type, thrown);
              }
            });
    assertTrue(failed.isEmpty(), "public methods that throw on a plausible input: " + failed);
    called.forEach(
        (type, n) -> assertTrue(n >= 20, type + ": only " + n + " public methods were called"));
  }

  /** The key filter's query of a key it holds answers "maybe", through every key form. */
  @Test
  void keysPutAreFoundThroughEveryKeyMethod() {
    foreignFilters()
        .forEach(
            (type, f) -> {
              String what = type.cliName();
              assertTrue(f.mayContain(1000L), what);
              assertTrue(f.mayContain("key"), what);
              assertTrue(f.mayContain(new byte[] {1, 2, 3}), what);
              assertTrue(f.mayContain(new byte[] {9, 1, 2, 3, 9}, 1, 3), what);
              assertTrue(f.mayContain(ByteBuffer.wrap(new byte[] {1, 2, 3})), what);
              assertTrue(f.mayContain(new byte[] {1, 2, 3}, KeyEncoder.BYTES), what);
              assertTrue(f.keyed(KeyEncoder.UTF8).mayContain("key"), what);
            });
  }

  /**
   * A plausible argument of each parameter type: the filter's own bytes where bytes are read (a
   * {@code readFrom} gets a valid form, a key method a key), an {@code int} of 1 (an offset of 1
   * and a length of 1 into them; one probe of a shape), the filter's own value of an enum (its
   * strategy, version or layout), a sizing of 1000 keys at 1%.
   */
  private static Object argument(Class<?> type, ForeignBloomFilter f) {
    if (type == long.class) {
      return 1000L;
    }
    if (type == int.class) {
      return 1;
    }
    if (type == double.class) {
      return 0.01;
    }
    if (type == byte[].class) {
      return f.toByteArray();
    }
    if (type == ByteBuffer.class) {
      return ByteBuffer.wrap(f.toByteArray());
    }
    if (type == CharSequence.class) {
      return "key";
    }
    if (type == KeyEncoder.class) {
      return KeyEncoder.LONG;
    }
    if (type == Object.class) {
      return 1000L; // a key for KeyEncoder.LONG
    }
    if (type.isEnum()) {
      for (Method m : f.getClass().getMethods()) {
        if (m.getReturnType() == type && m.getParameterCount() == 0) {
          try {
            return m.invoke(f);
          } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
          }
        }
      }
      return type.getEnumConstants()[0];
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
