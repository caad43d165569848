package dev.sieve.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Build failure and retry counts of the solve-based Sieve filters (Ribbon, Xor/Binary Fuse, Cuckoo)
 * over many builds with different seeds; blocked Bloom's monotone build cannot fail. Each filter
 * family joins here when it lands on main with a way to observe its retries.
 */
final class BuildRetries {
  private BuildRetries() {}

  static List<Map<String, Object>> measure(int n, long seed) {
    List<Map<String, Object>> rows = new ArrayList<>();
    // -- solve-based filters (ribbon, xor, binary fuse, cuckoo) add their measurements here
    return rows;
  }
}
