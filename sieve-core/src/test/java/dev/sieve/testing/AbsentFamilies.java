package dev.sieve.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.sieve.SieveFormatException;
import dev.sieve.format.SieveFormat;
import dev.sieve.registry.FilterType;
import dev.sieve.registry.MissingFamilyException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.function.Executable;

/**
 * The refusal of a type whose family is absent from the class or module path, as a user meets it:
 * the registry's builder and filter class throw {@link MissingFamilyException}, and every container
 * read (bytes, stream, buffer, mapped file) throws {@link SieveFormatException} at the header's
 * type id, naming the type and the artifact that provides it, while the other families read as
 * before.
 */
public final class AbsentFamilies {
  private AbsentFamilies() {}

  /** The message naming {@code type} and the artifact its family comes from. */
  public static String absentMessage(FilterType type) {
    return "type "
        + type.id()
        + " ("
        + type.cliName()
        + ") is provided by "
        + type.artifact()
        + ", which is not on the class or module path";
  }

  /**
   * Checks every refusal of {@code type}, whose family must be absent now, with {@code container} a
   * real container of it (written to a file under {@code dir} for the mapped read); a Xor8
   * container still reads.
   */
  public static void assertRefused(FilterType type, byte[] container, Path dir) throws IOException {
    String absent = absentMessage(type);
    Path file = Files.write(dir.resolve(type.cliName() + ".sieve"), container);
    assertFalse(type.isPresent());
    for (Executable registry : List.<Executable>of(type::builder, type::filterClass)) {
      MissingFamilyException e = assertThrows(MissingFamilyException.class, registry);
      assertEquals(absent, e.getMessage());
      assertEquals(type, e.type());
    }
    for (Executable read :
        List.<Executable>of(
            () -> SieveFormat.read(container),
            () -> SieveFormat.read(new ByteArrayInputStream(container)),
            () -> SieveFormat.wrap(ByteBuffer.wrap(container)),
            () -> SieveFormat.map(file))) {
      SieveFormatException e = assertThrows(SieveFormatException.class, read);
      assertEquals(10, e.offset(), e.getMessage()); // the header's type id
      assertEquals("at offset 10: " + absent, e.getMessage());
      MissingFamilyException cause = assertInstanceOf(MissingFamilyException.class, e.getCause());
      assertEquals(type, cause.type());
    }
    // the other families are unaffected
    byte[] xor8 = SieveFormat.toBytes(FilterType.XOR8.builder().build(new long[] {1, 2, 3}));
    assertEquals(FilterType.XOR8, FilterType.of(SieveFormat.read(xor8)));
  }
}
