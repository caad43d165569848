package dev.sieve.cli;

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
 * Every command's usage help renders without picocli's format warnings: a description with a bare
 * {@code %} (not {@code %%} or {@code %n}) makes picocli print "[picocli WARN] Could not format
 * ..." to standard error and fall back to the raw text. Standard error and output are captured
 * while rendering, and each subcommand's {@code --help} is also run as a user runs it.
 */
class UsageHelpFormatTest {

  @Test
  void everyCommandsUsageHelpHasNoFormatWarnings() {
    StringBuilder all = new StringBuilder();
    int commands =
        capturing(
            all,
            () -> {
              int n = 0;
              Deque<CommandLine> todo = new ArrayDeque<>();
              Map<CommandLine, Boolean> seen = new IdentityHashMap<>();
              todo.add(SieveCli.commandLine());
              while (!todo.isEmpty()) {
                CommandLine cmd = todo.poll();
                if (seen.put(cmd, Boolean.TRUE) != null) {
                  continue;
                }
                n++;
                StringWriter text = new StringWriter();
                cmd.setErr(new PrintWriter(text, true));
                text.append(cmd.getUsageMessage());
                cmd.usage(new PrintWriter(text, true));
                all.append(text);
                todo.addAll(cmd.getSubcommands().values());
              }
              for (String name : SieveCli.LEAN_COMMANDS) {
                CommandLine lean = SieveCli.commandLine(name);
                StringWriter out = new StringWriter();
                StringWriter err = new StringWriter();
                lean.setOut(new PrintWriter(out, true));
                lean.setErr(new PrintWriter(err, true));
                lean.execute(name, "--help"); // "report" points to the report module instead
                all.append(out).append(err);
              }
              return n;
            });
    String text = all.toString();
    assertFalse(text.contains("Could not format"), text);
    assertFalse(text.contains("picocli WARN"), text);
    assertTrue(commands > SieveCli.LEAN_COMMANDS.size(), "commands rendered: " + commands);
    for (String name : SieveCli.LEAN_COMMANDS) {
      assertTrue(text.contains("sieve " + name), name);
    }
  }

  /** Runs {@code body} with System.out and System.err captured into {@code into}. */
  private static int capturing(StringBuilder into, java.util.function.IntSupplier body) {
    PrintStream out = System.out;
    PrintStream err = System.err;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    PrintStream capture = new PrintStream(captured, true, StandardCharsets.UTF_8);
    System.setOut(capture);
    System.setErr(capture);
    try {
      return body.getAsInt();
    } finally {
      System.setOut(out);
      System.setErr(err);
      into.append(captured.toString(StandardCharsets.UTF_8));
    }
  }
}
