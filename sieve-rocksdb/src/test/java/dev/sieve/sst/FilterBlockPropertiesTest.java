package dev.sieve.sst;

import dev.sieve.policy.FilterPolicy;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;

/**
 * No false negatives, for arbitrary key sets (duplicates, empty keys, any bytes), sizes and
 * settings, through the whole writer → reader path: the block {@link
 * RocksDbTableFilter#filterBlock} writes, read back by {@link FilterBlockReader} as RocksDB's
 * reader would, holds every key; and the same keys always give the same bytes.
 */
class FilterBlockPropertiesTest {

  @Provide
  Arbitrary<List<byte[]>> keySets() {
    Arbitrary<byte[]> key = Arbitraries.bytes().array(byte[].class).ofMinSize(0).ofMaxSize(40);
    return key.list().ofMinSize(0).ofMaxSize(3000);
  }

  @Property(tries = 150)
  void everyKeyIsMaybeAfterWriteAndRead(
      @ForAll("keySets") List<byte[]> keys,
      @ForAll @DoubleRange(min = 0.5, max = 30) double bits,
      @ForAll @IntRange(min = 0, max = 2) int which,
      @ForAll @IntRange(min = 2, max = 7) int formatVersion) {
    List<byte[]> sorted = new ArrayList<>(keys);
    sorted.sort(Arrays::compareUnsigned);
    FilterPolicy policy =
        which == 0
            ? FilterPolicy.bloom(bits)
            : FilterPolicy.ribbon(bits, which == 1 ? 0 : Integer.MAX_VALUE);
    for (List<byte[]> order : List.of(keys, sorted)) {
      byte[] block =
          RocksDbTableFilter.filterBlock(policy, order, formatVersion, FilterPolicy.UNKNOWN_LEVEL);
      FilterBlock read = FilterBlockReader.read(block, order.size());
      for (byte[] k : order) {
        if (!read.mayContain(k)) {
          throw new AssertionError(
              "false negative: " + policy + " fv" + formatVersion + " " + read);
        }
      }
      byte[] again =
          RocksDbTableFilter.filterBlock(policy, order, formatVersion, FilterPolicy.UNKNOWN_LEVEL);
      if (!Arrays.equals(block, again)) {
        throw new AssertionError("not deterministic: " + policy);
      }
    }
  }
}
