package dev.sieve.format;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.Filter;
import dev.sieve.SieveFormatException;
import dev.sieve.registry.FilterType;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * sieve-core's test class path has neither sieve-range nor sieve-interop: a container of one of
 * their types (a real one, the container fuzz target's seeds, written where the module was present)
 * is refused by every reader with a {@link SieveFormatException} that names the type and the
 * artifact to add, not read as another type nor failed with an untyped error.
 */
class AbsentFamilyContainerTest {

  @ParameterizedTest
  @CsvSource({
    "seed-grafite-40, GRAFITE, dev.sieve:sieve-range",
    "seed-prefix_bloom_range-5, PREFIX_BLOOM_RANGE, dev.sieve:sieve-range",
    "seed-orc_bloom-40, ORC_BLOOM, dev.sieve:sieve-interop"
  })
  void aContainerOfAnAbsentFamilyNamesItsArtifact(String seed, FilterType type, String artifact)
      throws IOException {
    assertFalse(type.isPresent(), type + "'s module is on sieve-core's test class path");
    byte[] bytes;
    try (InputStream in =
        AbsentFamilyContainerTest.class.getResourceAsStream(
            "SieveContainerFuzzTestInputs/fuzz/" + seed)) {
      assertNotNull(in, seed);
      bytes = in.readAllBytes();
    }
    for (Supplier<Filter> reader :
        List.<Supplier<Filter>>of(
            () -> SieveFormat.read(bytes),
            () -> SieveFormat.wrap(ByteBuffer.wrap(bytes)),
            () -> {
              try {
                return SieveFormat.read(new ByteArrayInputStream(bytes));
              } catch (IOException e) {
                throw new AssertionError(e);
              }
            })) {
      SieveFormatException e = assertThrows(SieveFormatException.class, reader::get, seed);
      assertTrue(e.getMessage().contains(artifact), e.getMessage());
      assertTrue(e.getMessage().contains(type.cliName()), e.getMessage());
    }
  }
}
