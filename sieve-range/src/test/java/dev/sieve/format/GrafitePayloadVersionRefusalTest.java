package dev.sieve.format;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.sieve.registry.FilterType;
import org.junit.jupiter.api.Test;

/**
 * {@link PayloadVersionRefusalTest} for Grafite: its form reads only payload version 2, the one it
 * writes; versions 1 and 3 are refused at the version field, naming both.
 */
class GrafitePayloadVersionRefusalTest {
  private static final int P = PayloadVersionRefusalTest.P;

  @Test
  void grafiteReadsOnlyVersion2() {
    byte[] b = SieveFormat.toBytes(TestFilters.build(FilterType.GRAFITE, TestFilters.keys(300, 5)));
    assertEquals(2, b[P + 1]);
    for (int version : new int[] {1, 3}) {
      byte[] edited = b.clone();
      edited[P + 1] = (byte) version;
      PayloadVersionRefusalTest.assertRefused(edited, 1, "Grafite", version, 2);
    }
  }
}
