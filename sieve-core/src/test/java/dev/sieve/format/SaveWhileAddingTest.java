package dev.sieve.format;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.Filter;
import dev.sieve.MutableFilter;
import dev.sieve.bloom.BlockedBloomFilter;
import dev.sieve.bloom.ScalableBloomFilter;
import dev.sieve.bloom.SplitBlockBloomFilter;
import dev.sieve.bloom.TwoWordBloomFilter;
import java.io.ByteArrayOutputStream;
import java.nio.channels.Channels;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * Saves while other threads add, for the filters other than the expandable one (whose test is
 * {@code dev.sieve.expand.ExpandableConcurrencyTest}) that take concurrent adds: the three
 * fixed-size Bloom filters (atomic ORs into a table of fixed size: a save that overlaps adds may
 * count a key in the header that its bits do not hold yet, or the reverse, but the file reads back
 * and holds every key added before the save began) and the scalable one (written from one
 * snapshot). Each save, to bytes and streamed, must read back with every earlier key. The Cuckoo
 * filter is not thread-safe (its class comment), so not tested here.
 */
class SaveWhileAddingTest {
  private static final int KEYS = 40_000;

  @Test
  void blockedBloom() throws Exception {
    check(() -> BlockedBloomFilter.builder().expectedKeys(KEYS).fpRate(0.01).create());
  }

  @Test
  void splitBlockBloom() throws Exception {
    check(() -> SplitBlockBloomFilter.builder().expectedKeys(KEYS).fpRate(0.01).create());
  }

  @Test
  void twoWordBloom() throws Exception {
    check(() -> TwoWordBloomFilter.builder().expectedKeys(KEYS).fpRate(0.01).create());
  }

  @Test
  void scalableBloom() throws Exception {
    check(() -> ScalableBloomFilter.builder().expectedKeys(1_000).fpRate(0.01).create());
  }

  private static void check(Supplier<? extends MutableFilter> make) throws Exception {
    MutableFilter f = make.get();
    AtomicLong published = new AtomicLong();
    AtomicLong saves = new AtomicLong();
    AtomicBoolean done = new AtomicBoolean();
    AtomicReference<Throwable> failure = new AtomicReference<>();
    List<String> problems = new ArrayList<>();
    Thread saver =
        new Thread(
            () -> {
              int round = 0;
              try {
                while (!done.get() && problems.size() < 5) {
                  long before = published.get();
                  byte[] bytes;
                  if (round++ % 2 == 0) {
                    bytes = SieveFormat.toBytes(f);
                  } else {
                    ByteArrayOutputStream out = new ByteArrayOutputStream();
                    SieveFormat.write(f, Channels.newChannel(out));
                    bytes = out.toByteArray();
                  }
                  Filter back = SieveFormat.read(bytes);
                  saves.incrementAndGet();
                  // about 20,000 of the earlier keys, the last 1,000 of them all
                  long stride = Math.max(1, before / 20_000);
                  for (long i = 0; i < before; i += i < before - 1_000 ? stride : 1) {
                    if (!back.mayContain(i)) {
                      problems.add("round " + round + ": key " + i + " of " + before + " missing");
                      break;
                    }
                  }
                }
              } catch (Exception e) {
                failure.set(e);
              }
            });
    saver.start();
    // at least KEYS keys, and on until 20 saves overlapped the adds (at most 100 · KEYS keys)
    for (long i = 0; i < 100L * KEYS && (i < KEYS || saves.get() < 20); i++) {
      f.add(i);
      published.set(i + 1);
    }
    done.set(true);
    saver.join();
    if (failure.get() != null) {
      throw new AssertionError("a save during adds failed", failure.get());
    }
    assertTrue(problems.isEmpty(), f.getClass().getSimpleName() + ": " + problems);
    assertTrue(saves.get() >= 20, saves.get() + " saves overlapped the adds");
  }
}
