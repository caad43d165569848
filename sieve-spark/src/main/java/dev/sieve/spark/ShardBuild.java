package dev.sieve.spark;

import dev.sieve.Filter;
import dev.sieve.format.SieveFormat;
import dev.sieve.registry.FilterType;
import dev.sieve.shard.ShardedFilter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.TreeMap;
import org.apache.spark.api.java.function.MapPartitionsFunction;
import org.apache.spark.sql.Row;
import scala.Tuple2;

/**
 * The executor side of {@link SieveSpark#buildFilter}: a partition's rows {@code (hash, shard)},
 * all rows of a shard in one partition, become one Sieve container per shard present, built by
 * {@link ShardedFilter.Builder#buildShard} (which sorts and de-duplicates the shard's hashes, so
 * the bytes depend on the shard's key set alone: a retried task gives the same bytes).
 */
final class ShardBuild implements MapPartitionsFunction<Row, Tuple2<Integer, byte[]>> {
  private static final long serialVersionUID = 1L;

  private final FilterType type;
  private final double bitsPerKey;
  private final int shards;

  ShardBuild(FilterType type, double bitsPerKey, int shards) {
    this.type = type;
    this.bitsPerKey = bitsPerKey;
    this.shards = shards;
  }

  @Override
  public Iterator<Tuple2<Integer, byte[]>> call(Iterator<Row> rows) {
    TreeMap<Integer, long[]> hashes = new TreeMap<>();
    TreeMap<Integer, Integer> counts = new TreeMap<>();
    while (rows.hasNext()) {
      Row r = rows.next();
      long h = r.getLong(0);
      int s = r.getInt(1);
      long[] a = hashes.get(s);
      int n = counts.getOrDefault(s, 0);
      if (a == null) {
        a = new long[1024];
      } else if (n == a.length) {
        if (n >= Integer.MAX_VALUE - 8 - n) {
          throw new IllegalStateException(
              "shard " + s + " holds more than " + n + " keys: use more shards");
        }
        a = Arrays.copyOf(a, 2 * n);
      }
      a[n] = h;
      hashes.put(s, a);
      counts.put(s, n + 1);
    }
    ShardedFilter.Builder builder = SieveSpark.shardedBuilder(type, shards, bitsPerKey);
    List<Tuple2<Integer, byte[]>> out = new ArrayList<>();
    while (!hashes.isEmpty()) {
      var e = hashes.pollFirstEntry(); // dropped from the map: freed once built
      Filter f = builder.buildShard(e.getKey(), e.getValue(), counts.get(e.getKey()));
      out.add(new Tuple2<>(e.getKey(), SieveFormat.toBytes(f)));
    }
    return out.iterator();
  }
}
