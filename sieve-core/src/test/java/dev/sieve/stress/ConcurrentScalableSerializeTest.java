package dev.sieve.stress;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.Filter;
import dev.sieve.bloom.ScalableBloomFilter;
import dev.sieve.format.SieveFormat;
import java.io.ByteArrayOutputStream;
import java.nio.channels.Channels;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A scalable filter serialized while other threads add. Every container, as a {@code byte[]},
 * streamed through a channel and written to a file, must read back, and hold every key whose add
 * had returned before the serialization started. (Before the fix the header's key count and the
 * payload's were read at different moments, and the reader refused most such containers: "header
 * key count 333952, payload holds 327989".)
 */
class ConcurrentScalableSerializeTest {

  private static long key(int thread, long i) {
    return ((long) thread << 40) ^ (i * 0x9E3779B97F4A7C15L);
  }

  @Test
  void everyContainerWrittenDuringAddsReadsBackWithEveryEarlierKey(@TempDir Path dir)
      throws Exception {
    int writers = 2;
    ScalableBloomFilter filter = ScalableBloomFilter.builder().expectedKeys(1000).create();
    AtomicLongArray progress = new AtomicLongArray(writers);
    AtomicBoolean stop = new AtomicBoolean();
    AtomicReference<Throwable> failure = new AtomicReference<>();
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < writers; t++) {
      int id = t;
      Thread th =
          new Thread(
              () -> {
                try {
                  for (long i = 0; !stop.get() && i < 3_000_000; i++) {
                    filter.add(key(id, i));
                    progress.set(id, i + 1);
                  }
                } catch (Throwable e) {
                  failure.compareAndSet(null, e);
                }
              });
      threads.add(th);
      th.start();
    }
    try {
      while (progress.get(0) < 20_000) {
        Thread.onSpinWait();
      }
      for (int round = 0; round < 16; round++) {
        long[] before = new long[writers];
        for (int t = 0; t < writers; t++) {
          before[t] = progress.get(t);
        }
        byte[] container;
        if (round % 3 == 0) {
          container = SieveFormat.toBytes(filter);
        } else if (round % 3 == 2) {
          Path file = dir.resolve("round" + round + ".sieve");
          SieveFormat.write(filter, file);
          container = Files.readAllBytes(file);
        } else {
          ByteArrayOutputStream out = new ByteArrayOutputStream();
          SieveFormat.write(filter, Channels.newChannel(out));
          container = out.toByteArray();
        }
        Filter read = SieveFormat.read(container);
        for (int t = 0; t < writers; t++) {
          for (long i = 0; i < before[t]; i++) {
            if (!read.mayContain(key(t, i))) {
              throw new AssertionError(
                  "round " + round + ": key " + i + " of writer " + t + " added before is absent");
            }
          }
        }
        assertTrue(read.numKeys() >= before[0], "round " + round + " key count");
      }
    } finally {
      stop.set(true);
      for (Thread th : threads) {
        th.join();
      }
    }
    assertNull(failure.get());
  }
}
