package dev.sieve.xor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The checked-in Xor and Binary Fuse leaf classes are what their templates give ({@link
 * FilterSources}). A hand edit of a generated class, or a template edit without regenerating, fails
 * here, naming the file and its first differing line. To accept a template change, render the
 * classes again and commit them with it:
 *
 * <pre>
 * mvn -B -pl sieve-core -am test -Dtest=GeneratedSourcesTest -Dsurefire.failIfNoSpecifiedTests=false \
 *     -Dsieve.generate=true
 * </pre>
 */
class GeneratedSourcesTest {

  @Test
  void checkedInClassesAreWhatTheirTemplatesGive() throws IOException {
    assertTrue(
        Files.isDirectory(FilterSources.TEMPLATES),
        "the templates are read relative to the module: run from sieve-core (Maven does)");
    boolean generate = Boolean.getBoolean("sieve.generate");
    List<String> stale = new ArrayList<>();
    for (FilterSources.Output out : FilterSources.OUTPUTS) {
      String expected = FilterSources.render(out);
      Path file = out.sourceFile();
      String actual = Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : null;
      String difference = FilterSources.firstDifference(file, actual, expected);
      if (difference == null) {
        continue;
      }
      if (generate) {
        Files.writeString(file, expected, StandardCharsets.UTF_8);
        System.out.println("regenerated " + file + " from " + out.templateFile());
      } else {
        stale.add(difference + "\n    (template " + out.templateFile() + ")");
      }
    }
    if (!stale.isEmpty()) {
      fail(
          "generated sources differ from their templates (edit the template, not the generated"
              + " file):\n"
              + String.join("\n", stale)
              + "\nIf the template is right, regenerate with: "
              + FilterSources.REGENERATE);
    }
  }

  @Test
  void eachClassHasItsOwnTemplateOutput() throws IOException {
    // the outputs cover the four classes once each, and both widths of a template differ
    assertEquals(
        List.of("Xor8Filter", "Xor16Filter", "BinaryFuse8Filter", "BinaryFuse16Filter"),
        FilterSources.OUTPUTS.stream().map(FilterSources.Output::className).toList());
    String xor8 = FilterSources.render(FilterSources.OUTPUTS.get(0));
    String xor16 = FilterSources.render(FilterSources.OUTPUTS.get(1));
    assertTrue(xor8.contains("public final class Xor8Filter extends FingerprintFilter {"));
    assertTrue(xor16.contains("wrapped.getShort(i << 1)"), "16 bits read two bytes a slot");
    assertTrue(xor8.startsWith("// @generated"), "the header says the file is generated");
  }

  @Test
  void rendererSubstitutesKeysAndKeepsTheWidthsLines() {
    String template =
        "//## a comment of the template\n"
            + "class ${NAME} {\n"
            + "//#if 8\n"
            + "  byte b;\n"
            + "//#else\n"
            + "  short s;\n"
            + "//#end\n"
            + "  int w = ${BITS}${BITS};\n"
            + "}\n";
    assertEquals(
        "class A {\n  byte b;\n  int w = 88;\n}\n",
        FilterSources.render(template, "8", Map.of("NAME", "A", "BITS", "8")));
    assertEquals(
        "class B {\n  short s;\n  int w = 1616;\n}\n",
        FilterSources.render(template, "16", Map.of("NAME", "B", "BITS", "16")));
  }

  @Test
  void rendererRejectsWhatItCannotRender() {
    Map<String, String> values = Map.of("NAME", "A");
    assertMessage("template line 1: unknown key ${OTHER}", "int ${OTHER};\n", values);
    assertMessage("template line 1: //#if 8 is not closed by //#end", "//#if 8\nx\n", values);
    assertMessage(
        "template line 2: nested //#if (the block of line 1 is open)",
        "//#if 8\n//#if 16\n//#end\n//#end\n",
        values);
    assertMessage("template line 1: //#end without an open //#if", "//#end\n", values);
    assertMessage("template line 1: unknown directive //#elif 8", "//#elif 8\n", values);
    assertMessage("template line 1: a ${ that is not a key: ${lower}", "${lower}\n", values);
  }

  @Test
  void aDifferenceNamesTheFileAndItsFirstDifferingLine() {
    Path file = Path.of("X.java");
    assertNull(FilterSources.firstDifference(file, "a\nb\n", "a\nb\n"));
    assertEquals(
        "X.java:2 differs from what its template gives\n"
            + "    checked in: c\n"
            + "    template:   b",
        FilterSources.firstDifference(file, "a\nc\n", "a\nb\n"));
    assertEquals(
        "X.java:3 differs from what its template gives\n"
            + "    checked in: <end of file>\n"
            + "    template:   ",
        FilterSources.firstDifference(file, "a\nb", "a\nb\n"));
    assertEquals(
        "X.java:1 differs from what its template gives\n"
            + "    checked in: <no such file>\n"
            + "    template:   a",
        FilterSources.firstDifference(file, null, "a\n"));
  }

  private static void assertMessage(String message, String template, Map<String, String> values) {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> FilterSources.render(template, "8", values));
    assertEquals(message, e.getMessage());
  }
}
