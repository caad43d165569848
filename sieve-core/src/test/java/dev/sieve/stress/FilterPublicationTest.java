package dev.sieve.stress;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.Filter;
import dev.sieve.bloom.BlockedBloomFilter;
import dev.sieve.format.SieveFormat;
import dev.sieve.xor.BinaryFuse8Filter;
import dev.sieve.xor.Xor8Filter;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Immutable filters are safe to share across threads without synchronization: one thread builds
 * generation after generation of filters (on the heap, and wrapped zero-copy from a direct buffer
 * holding a Sieve container) and publishes each with an {@link AtomicReference} swap, while six
 * readers query whatever is current. A reader that sees a generation must find all of that
 * generation's keys present; seeing a half-initialized filter (a visibility bug) would show as a
 * false negative or an exception.
 */
class FilterPublicationTest {
  private static final int KEYS_PER_GENERATION = 5_000;
  private static final int GENERATIONS = 200;
  private static final int READERS = 6;

  private record Published(int generation, Filter filter) {}

  private static long key(int generation, int i) {
    return generation * 1_000_003L + i * 0x9E3779B97F4A7C15L;
  }

  private static Filter build(int generation) {
    long[] keys = new long[KEYS_PER_GENERATION];
    for (int i = 0; i < keys.length; i++) {
      keys[i] = key(generation, i);
    }
    switch (generation % 4) {
      case 0:
        return BlockedBloomFilter.builder().bitsPerKey(10).build(keys);
      case 1:
        return Xor8Filter.builder().seed(generation).build(keys);
      case 2:
        return BinaryFuse8Filter.builder().seed(generation).build(keys);
      default:
        byte[] container =
            SieveFormat.toBytes(BlockedBloomFilter.builder().bitsPerKey(8).build(keys));
        ByteBuffer direct = ByteBuffer.allocateDirect(container.length).put(container).flip();
        return SieveFormat.wrap(direct);
    }
  }

  @Test
  void readersAlwaysSeeCompleteFilters() throws Exception {
    AtomicReference<Published> current = new AtomicReference<>(new Published(0, build(0)));
    AtomicBoolean done = new AtomicBoolean();
    AtomicLong checks = new AtomicLong();
    AtomicReference<Throwable> failure = new AtomicReference<>();
    Thread[] readers = new Thread[READERS];
    for (int r = 0; r < READERS; r++) {
      int reader = r;
      readers[r] =
          new Thread(
              () -> {
                int i = reader;
                try {
                  while (!done.get()) {
                    Published p = current.get();
                    for (int j = 0; j < 50; j++) {
                      i = (i + 7919) % KEYS_PER_GENERATION;
                      if (!p.filter().mayContain(key(p.generation(), i))) {
                        throw new AssertionError(
                            "generation " + p.generation() + " lost key " + i + " in " + p);
                      }
                    }
                    checks.addAndGet(50);
                  }
                } catch (Throwable e) {
                  failure.compareAndSet(null, e);
                }
              });
      readers[r].start();
    }
    for (int g = 1; g <= GENERATIONS && failure.get() == null; g++) {
      current.set(new Published(g, build(g)));
    }
    done.set(true);
    for (Thread reader : readers) {
      reader.join();
    }
    if (failure.get() != null) {
      throw new AssertionError(failure.get());
    }
    assertTrue(checks.get() > 0, "the readers never ran");
  }
}
