package dev.sieve.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class CompareCommandTest {

  private static String[] run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cli = new CommandLine(new SieveCli());
    cli.setOut(new PrintWriter(out));
    cli.setErr(new PrintWriter(err));
    int status = cli.execute(args);
    return new String[] {Integer.toString(status), out.toString(), err.toString()};
  }

  @Test
  void comparesEveryFilterAtEverySetting() {
    String[] r = run("compare", "--keys", "20000", "--queries", "50000", "--bits-per-key", "8,12");
    assertEquals("0", r[0], r[2]);
    for (CompareCommand.Kind kind : CompareCommand.kinds()) {
      long rows = r[1].lines().filter(l -> l.startsWith(kind.name() + " ")).count();
      assertEquals(2, rows, kind.name() + " rows in:\n" + r[1]);
    }
    assertTrue(r[1].contains("20000 keys, 50000 absent queries"));
  }

  @Test
  void badUsageExitsWithTwo() {
    assertEquals("2", run("compare", "--keys", "0")[0]);
    assertEquals("2", run("compare", "--no-such-flag")[0]);
  }
}
