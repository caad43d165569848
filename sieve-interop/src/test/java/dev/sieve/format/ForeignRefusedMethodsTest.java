package dev.sieve.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.Filter;
import dev.sieve.interop.CassandraBloomFilter;
import dev.sieve.interop.DataSketchesBloomFilter;
import dev.sieve.interop.ForeignBloomFilter;
import dev.sieve.interop.GuavaBloomFilter;
import dev.sieve.interop.SparkBloomFilter;
import dev.sieve.registry.FilterType;
import java.util.EnumMap;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * {@link RefusedMethodsTest} for the foreign types: they refuse exactly the hash level, pinned
 * here, because their owners' hashes do not fit one 64-bit value (Guava's default strategy,
 * DataSketches and Cassandra take 128 bits, Spark a hash pair under the filter's own seed). When
 * they stop offering the hash level, or start answering it, this list must shrink with them.
 */
class ForeignRefusedMethodsTest {

  /** The hash-level entries of {@link Filter} that the foreign types refuse today. */
  private static final Set<String> FOREIGN_REFUSALS =
      Set.of("mayContainHash(long)", "mayContainHashes(long[],int,int,long[])");

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
    foreign.forEach(
        (type, f) ->
            assertEquals(FOREIGN_REFUSALS, RefusedMethodsTest.refusedMethods(f), type.cliName()));
  }

  private static Filter filled(ForeignBloomFilter f) {
    for (long k = 1000; k < 1100; k++) {
      f.put(k);
    }
    return f;
  }
}
