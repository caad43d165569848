package dev.sieve.registry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.FilterBuilder;
import dev.sieve.format.TestTypes;
import dev.sieve.ribbon.Standard128RibbonFilter;
import dev.sieve.ribbon.Standard128RibbonFilterBuilder;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code build} has one meaning on every builder: {@link FilterBuilder}'s build from keys. No
 * builder of a registry type has a public {@code build} taking no arguments (an empty filter is
 * {@code create()}, Ribbon's keys added one at a time are {@code buildAdded()}).
 */
class OneMeaningOfBuildTest {

  @Test
  void noBuilderHasAPublicNoArgumentBuild() {
    List<String> offenders = new ArrayList<>();
    for (FilterType type : TestTypes.builtIn()) {
      Class<?> builder = type.builder().getClass();
      for (Method m : builder.getMethods()) {
        if (m.getName().equals("build")
            && m.getParameterCount() == 0
            && Modifier.isPublic(m.getModifiers())) {
          offenders.add(builder.getName() + "." + m.getName() + "()");
        }
      }
    }
    assertEquals(List.of(), offenders);
  }

  @Test
  void ribbonBuildAddedEqualsTheBuildFromTheSameKeysAndForgetsThem() {
    long[] keys = new long[5_000];
    for (int i = 0; i < keys.length; i++) {
      keys[i] = i * 0x9E3779B97F4A7C15L;
    }
    Standard128RibbonFilterBuilder b = Standard128RibbonFilter.builder();
    for (long k : keys) {
      b.add(k);
    }
    assertEquals(keys.length, b.numAdded());
    Standard128RibbonFilter added = b.buildAdded();
    assertEquals(0, b.numAdded());
    Standard128RibbonFilter batch = Standard128RibbonFilter.builder().build(keys);
    assertEquals(batch, added);
    assertTrue(java.util.Arrays.equals(batch.toRocksDbFilterBlock(), added.toRocksDbFilterBlock()));
    for (long k : keys) {
      assertTrue(added.mayContain(k));
    }
    assertEquals(0, b.buildAdded().numKeys());
  }
}
