package dev.sieve.format;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.Filter;
import dev.sieve.KeyScheme;
import dev.sieve.KeySchemeException;
import dev.sieve.hash.KeyEncoder;
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
 * every registry type that is a {@link Filter}, with valid arguments, and collects the methods that
 * refuse with {@link UnsupportedOperationException}. A filter type answers every query it offers: a
 * refusal no input can avoid is a method the type should not have. Every type refuses nothing:
 * those Sieve builds here (those of sieve-range and sieve-interop through this test in their
 * modules), and the foreign types, which are key filters and not {@link Filter}s (their owners'
 * hashes give no Sieve key hash), through sieve-interop's {@code ForeignMethodsTest}, which calls
 * each of their public methods.
 */
class RefusedMethodsTest {

  @Test
  void builtInTypesRefuseNoMethod() {
    Map<FilterType, Set<String>> refused = new EnumMap<>(FilterType.class);
    for (FilterType type : TestTypes.builtIn()) {
      long[] keys = new long[100];
      Arrays.setAll(keys, i -> 1000L + i);
      Set<String> r = refusedMethods(TestFilters.builder(type).build(keys));
      if (!r.isEmpty()) {
        refused.put(type, r);
      }
    }
    assertTrue(refused.isEmpty(), "methods that refuse a valid input: " + refused);
  }

  /**
   * The methods of {@link Filter} that throw {@link UnsupportedOperationException} on {@code f}.
   */
  static Set<String> refusedMethods(Filter f) {
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
