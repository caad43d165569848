package dev.sieve.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.sieve.Filter;
import dev.sieve.bloom.BlockedBloomFilter;
import dev.sieve.bloom.StandardBloomFilter;
import dev.sieve.format.SieveFormat;
import dev.sieve.ribbon.Standard128RibbonFilter;
import dev.sieve.xor.Xor8Filter;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicReference;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;
import org.openjdk.jcstress.infra.results.I_Result;

/**
 * A filter built in one thread and handed to another is seen whole: no false negative for a key
 * added before the hand-over. One actor builds filters and publishes them, the other takes what is
 * published (or nothing yet) and asks for every key.
 *
 * <p>The filters are a blocked Bloom filter built from keys (whose builder sets the bits after the
 * constructor has run), a standard Bloom filter created empty and added to, an Xor filter and a
 * Ribbon filter built from keys, an Xor filter read from a container's bytes and a blocked Bloom
 * filter wrapped in place from a heap buffer. Three ways of handing them over are safe publication
 * by the Java memory model for all of them: a volatile field, an {@link AtomicReference}, and a
 * final field of the object published (the holder's final field freezes everything reachable from
 * it). The fourth, a plain field with no synchronization at all, is what {@code Filter}'s Javadoc
 * allows for the immutable filters ("the static filters (Ribbon, Xor, Binary Fuse) and filters read
 * from bytes ... may be shared across threads without synchronization"): it holds because every
 * field of theirs is final and their arrays are filled before the constructor runs. The Bloom
 * filters built by adding are left out of that one, as the Javadoc leaves them out.
 */
public final class PublicationTests {
  private PublicationTests() {}

  static final long[] KEYS = new long[8];

  static {
    for (int i = 0; i < KEYS.length; i++) {
      KEYS[i] = 0x1000_0000L + i * 0x9E37_79B9_7F4A_7C15L;
    }
  }

  /** A container of an Xor filter, read with a copy. */
  static final byte[] XOR_CONTAINER = SieveFormat.toBytes(Xor8Filter.builder().build(KEYS));

  /** A container of a blocked Bloom filter, wrapped in place. */
  static final byte[] BLOOM_CONTAINER =
      SieveFormat.toBytes(BlockedBloomFilter.builder().build(KEYS));

  /** The immutable filters, built now. */
  static Filter[] immutableFilters() {
    return new Filter[] {
      Xor8Filter.builder().build(KEYS),
      Standard128RibbonFilter.builder().build(KEYS),
      SieveFormat.read(XOR_CONTAINER),
      SieveFormat.wrap(ByteBuffer.wrap(BLOOM_CONTAINER))
    };
  }

  /** Every kind of filter, built now. */
  static Filter[] allFilters() {
    StandardBloomFilter added = StandardBloomFilter.builder().expectedKeys(KEYS.length).create();
    for (long key : KEYS) {
      added.add(key);
    }
    Filter[] immutable = immutableFilters();
    Filter[] all = new Filter[immutable.length + 2];
    all[0] = BlockedBloomFilter.builder().build(KEYS);
    all[1] = added;
    System.arraycopy(immutable, 0, all, 2, immutable.length);
    return all;
  }

  /** The number of keys {@code filter} does not report; 0 for {@code null}. */
  static int missing(Filter filter) {
    int missing = 0;
    if (filter != null) {
      for (long key : KEYS) {
        if (!filter.mayContain(key)) {
          missing++;
        }
      }
    }
    return missing;
  }

  /** -1 if nothing is published yet, else the number of keys missed over all filters. */
  static int check(Filter[] filters) {
    if (filters == null) {
      return -1;
    }
    int missing = 0;
    for (Filter f : filters) {
      missing += f == null ? KEYS.length : missing(f);
    }
    return missing;
  }

  /** Filters published through a volatile field. */
  @JCStressTest
  @Outcome(id = "-1", expect = ACCEPTABLE, desc = "Nothing published yet.")
  @Outcome(id = "0", expect = ACCEPTABLE, desc = "Published, and every key found.")
  @Outcome(expect = FORBIDDEN, desc = "Published, but that many keys were missed.")
  @State
  public static class VolatileField {
    volatile Filter[] published;

    @Actor
    public void publisher() {
      published = allFilters();
    }

    @Actor
    public void reader(I_Result r) {
      r.r1 = check(published);
    }
  }

  /** Filters published through an {@link AtomicReference}. */
  @JCStressTest
  @Outcome(id = "-1", expect = ACCEPTABLE, desc = "Nothing published yet.")
  @Outcome(id = "0", expect = ACCEPTABLE, desc = "Published, and every key found.")
  @Outcome(expect = FORBIDDEN, desc = "Published, but that many keys were missed.")
  @State
  public static class AtomicReferenceSet {
    final AtomicReference<Filter[]> published = new AtomicReference<>();

    @Actor
    public void publisher() {
      published.set(allFilters());
    }

    @Actor
    public void reader(I_Result r) {
      r.r1 = check(published.get());
    }
  }

  /** The holder a plain field publishes: safe through its final field. */
  static final class Holder {
    final Filter[] filters;

    Holder(Filter[] filters) {
      this.filters = filters;
    }
  }

  /** Filters held in a final field of an object published through a plain (racy) field. */
  @JCStressTest
  @Outcome(id = "-1", expect = ACCEPTABLE, desc = "Nothing published yet.")
  @Outcome(id = "0", expect = ACCEPTABLE, desc = "Published, and every key found.")
  @Outcome(expect = FORBIDDEN, desc = "Published, but that many keys were missed.")
  @State
  public static class FinalField {
    Holder published;

    @Actor
    public void publisher() {
      published = new Holder(allFilters());
    }

    @Actor
    public void reader(I_Result r) {
      Holder h = published;
      r.r1 = h == null ? -1 : check(h.filters);
    }
  }

  /**
   * The immutable filters, each published through its own plain field with no synchronization. The
   * reader may see any of them or none; every one it sees must report every key.
   */
  @JCStressTest
  @Outcome(
      id = "0, [0-4]",
      expect = ACCEPTABLE,
      desc = "No key missed in the filters seen (second number: how many were seen).")
  @Outcome(expect = FORBIDDEN, desc = "A filter seen through a racy read missed that many keys.")
  @State
  public static class PlainFieldImmutable {
    Filter xor;
    Filter ribbon;
    Filter read;
    Filter wrapped;

    @Actor
    public void publisher() {
      Filter[] f = immutableFilters();
      xor = f[0];
      ribbon = f[1];
      read = f[2];
      wrapped = f[3];
    }

    @Actor
    public void reader(II_Result r) {
      Filter[] seen = {wrapped, read, ribbon, xor};
      int missing = 0;
      int count = 0;
      for (Filter f : seen) {
        if (f != null) {
          count++;
          missing += missing(f);
        }
      }
      r.r1 = missing;
      r.r2 = count;
    }
  }
}
