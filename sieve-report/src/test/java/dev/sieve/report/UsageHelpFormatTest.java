package dev.sieve.report;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * {@code sieve report --help} renders without picocli's format warnings: a description with a bare
 * {@code %} (not {@code %%} or {@code %n}) makes picocli print "[picocli WARN] Could not format
 * ..." to standard error and fall back to the raw text.
 */
class UsageHelpFormatTest {

  @Test
  void theReportsUsageHelpHasNoFormatWarnings() {
    String all = renderEveryUsageHelp(new CommandLine(new ReportCommand()));
    assertFalse(all.contains("Could not format"), all);
    assertFalse(all.contains("picocli WARN"), all);
    assertTrue(all.contains("--iterations"), all);
    assertTrue(all.contains("99.9% interval"), all);
  }

  /**
   * Every command's usage help and whatever picocli printed while rendering it, stderr included.
   */
  static String renderEveryUsageHelp(CommandLine root) {
    PrintStream out = System.out;
    PrintStream err = System.err;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    PrintStream capture = new PrintStream(captured, true, StandardCharsets.UTF_8);
    StringWriter text = new StringWriter();
    System.setOut(capture);
    System.setErr(capture);
    try {
      Deque<CommandLine> todo = new ArrayDeque<>();
      Map<CommandLine, Boolean> seen = new IdentityHashMap<>();
      todo.add(root);
      while (!todo.isEmpty()) {
        CommandLine cmd = todo.poll();
        if (seen.put(cmd, Boolean.TRUE) != null) {
          continue;
        }
        cmd.setErr(new PrintWriter(text, true));
        text.append(cmd.getUsageMessage());
        cmd.usage(new PrintWriter(text, true));
        todo.addAll(cmd.getSubcommands().values());
      }
    } finally {
      System.setOut(out);
      System.setErr(err);
    }
    return text + captured.toString(StandardCharsets.UTF_8);
  }
}
