package dev.sieve.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.SieveFormatException;
import dev.sieve.bloom.BlockedBloomFilter;
import dev.sieve.bloom.SplitBlockBloomFilter;
import dev.sieve.bloom.StandardBloomFilter;
import dev.sieve.cuckoo.CuckooFilter;
import dev.sieve.ribbon.BumpedRibbonFilter;
import dev.sieve.ribbon.Standard128RibbonFilter;
import dev.sieve.xor.Xor8Filter;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import org.junit.jupiter.api.Test;

/**
 * {@link PayloadForm#inPlace}: the one binding of a family's form to the container. Each part is
 * called for its method; the one-array defaults hold where no length, write or map is given.
 */
class PayloadFormFactoryTest {

  private static long[] keys(int n) {
    long[] k = new long[n];
    for (int i = 0; i < n; i++) {
      k[i] = i * 0x9E3779B97F4A7C15L + 1;
    }
    return k;
  }

  @Test
  void aOneArrayFormWritesItsPayloadAndRefusesToMap() throws Exception {
    SplitBlockBloomFilter f = SplitBlockBloomFilter.builder().expectedKeys(100).create();
    for (long k : keys(100)) {
      f.add(k);
    }
    PayloadForm<SplitBlockBloomFilter> form = Families.get().form(SplitBlockBloomFilter.class);
    byte[] payload = form.payload(f);
    assertEquals(payload.length, form.payloadLength(f));
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    form.writePayload(f, Channels.newChannel(out));
    assertArrayEquals(payload, out.toByteArray());
    assertEquals(8, form.parameterA(f));
    assertEquals(256, form.parameterB(f));
    assertTrue(form.zeroCopy());
    SplitBlockBloomFilter wrapped = form.wrap(ByteBuffer.wrap(payload), 100);
    assertArrayEquals(payload, form.payload(wrapped));
    assertArrayEquals(payload, form.payload(form.read(payload, 100)));
    SieveFormatException e =
        assertThrows(SieveFormatException.class, () -> form.mapLarge(null, 0, 1L << 32, 30, 100));
    assertTrue(e.getMessage().contains("SplitBlockBloomFilter"), e.getMessage());
  }

  @Test
  void everyFamilysFormRoundTripsItsPayloadOnHeapAndInPlace() {
    long[] keys = keys(3_000);
    CuckooFilter cuckoo = CuckooFilter.builder().expectedKeys(keys.length).create();
    for (long k : keys) {
      cuckoo.add(k);
    }
    Object[] filters = {
      BlockedBloomFilter.builder().build(keys),
      StandardBloomFilter.builder().build(keys),
      Standard128RibbonFilter.builder().build(keys),
      BumpedRibbonFilter.builder().build(keys),
      Xor8Filter.builder().build(keys),
      cuckoo
    };
    for (Object o : filters) {
      roundTrip((dev.sieve.Filter) o, keys);
    }
  }

  private static <F extends dev.sieve.Filter> void roundTrip(F filter, long[] keys) {
    @SuppressWarnings("unchecked")
    PayloadForm<F> form = Families.get().form((Class<F>) filter.getClass());
    assertSame(filter.getClass(), form.filterClass());
    byte[] payload = form.payload(filter);
    assertEquals(payload.length, form.payloadLength(filter), form.filterClass().getSimpleName());
    F heap = form.read(payload, filter.numKeys());
    F wrapped = form.wrap(ByteBuffer.wrap(payload), filter.numKeys());
    assertArrayEquals(payload, form.payload(heap));
    assertArrayEquals(payload, form.payload(wrapped));
    assertEquals(form.parameterA(filter), form.parameterA(heap));
    assertEquals(form.parameterB(filter), form.parameterB(wrapped));
    for (long k : keys) {
      assertTrue(heap.mayContain(k) && wrapped.mayContain(k), form.filterClass().getSimpleName());
    }
  }
}
