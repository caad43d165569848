package dev.sieve.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code sieve report -V} prints the command's version (it once printed nothing). */
class ReportCommandVersionTest {
  @Test
  void versionIsPrinted() {
    for (String flag : new String[] {"-V", "--version"}) {
      StringWriter out = new StringWriter();
      CommandLine cli = new CommandLine(new ReportCommand());
      cli.setOut(new PrintWriter(out));
      assertEquals(0, cli.execute(flag));
      assertTrue(out.toString().startsWith("sieve report "), out.toString());
    }
  }
}
