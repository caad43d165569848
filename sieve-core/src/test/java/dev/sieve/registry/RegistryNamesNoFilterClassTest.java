package dev.sieve.registry;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The registry and the container name no filter family: their sources import nothing from the
 * family packages and spell no class of them inline (a family reaches them only through its
 * ServiceLoader provider), so a family can live in a module of its own. sieve-cli's
 * FamilyDependenciesTest checks the same on the compiled classes.
 */
class RegistryNamesNoFilterClassTest {

  /** A family package's class, imported or spelled inline in code. */
  private static final Pattern FAMILY_CLASS =
      Pattern.compile(
          "dev\\.sieve\\.(bloom|cuckoo|expand|interop|range|ribbon|shard|xor)\\.[A-Z]\\w*");

  @Test
  void theRegistryAndTheContainerImportNoFamily() throws IOException {
    Path main = Path.of("src/main/java/dev/sieve");
    List<Path> sources = new ArrayList<>();
    for (String pkg : new String[] {"registry", "format"}) {
      try (var files = Files.list(main.resolve(pkg))) {
        files.filter(p -> p.toString().endsWith(".java")).forEach(sources::add);
      }
    }
    assertTrue(sources.contains(main.resolve("registry/FilterType.java")), sources.toString());
    for (Path p : sources) {
      for (String line : Files.readAllLines(p, StandardCharsets.UTF_8)) {
        String code = line.strip();
        if (code.startsWith("*") || code.startsWith("/*") || code.startsWith("//")) {
          continue; // Javadoc may point a reader at a family's class
        }
        Matcher m = FAMILY_CLASS.matcher(code);
        assertFalse(m.find(), p + " names a family's class: " + line);
      }
    }
  }
}
