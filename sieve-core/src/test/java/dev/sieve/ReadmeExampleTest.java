package dev.sieve;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.bloom.BlockedBloomFilter;
import dev.sieve.hash.KeyEncoder;
import dev.sieve.registry.FilterType;
import dev.sieve.xor.BinaryFuse8Filter;
import dev.sieve.xor.Xor8Filter;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The typed-key example of docs/keys.md, in its earlier form, runs and answers as it says. */
class ReadmeExampleTest {

  record User(long tenant, String name) {}

  @Test
  void theTypedKeyExampleRuns() {
    List<User> userList = List.of(new User(1, "alice"), new User(2, "bob"));
    // --- docs/keys.md, "Keys": typed keys
    KeyEncoder<User> users = (u, sink) -> sink.putLong(u.tenant()).putUtf8(u.name());
    Filter byName = Xor8Filter.builder().build(List.of("alice", "bob"), KeyEncoder.UTF8);
    byName.mayContain("alice"); // no byte[] per query
    KeyedFilter<User> byUser = BinaryFuse8Filter.builder().build(userList, users).keyed(users);
    MutableFilter live = BlockedBloomFilter.builder().expectedKeys(1_000_000).fpRate(0.01).create();
    live.add("user:7");
    live.expectedFpRate(); // from the set bits: honest when overfilled or the key count is unknown
    // --- end of the guide's code
    assertTrue(byName.mayContain("alice") && byName.mayContain("bob"));
    assertTrue(byUser.mayContain(new User(1, "alice")) && byUser.mayContain(new User(2, "bob")));
    assertTrue(live.mayContain("user:7"));
    assertTrue(live.expectedFpRate() < 1e-9, "one key in a filter for a million");
    Filter any = FilterType.forName("xor8").builder().build(new long[] {1, 2, 3});
    assertTrue(any.mayContain(2L));
  }
}
