package dev.sieve.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@link SieveCli#execute} registers only the subcommand its first argument names ({@link
 * SieveCli#commandLine(String)}), to spare picocli the model of the others at start-up. That must
 * not change a byte of what a run prints or its exit status.
 */
class LeanCommandLineTest {
  @TempDir Path tmp;

  private static CliRun run(CommandLine cli, String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    cli.setOut(new PrintWriter(out));
    cli.setErr(new PrintWriter(err));
    int status = cli.execute(args);
    return new CliRun(status, out.toString(), err.toString());
  }

  @Test
  void leanNamesAreTheAnnotationsSubcommandsButHelp() {
    List<String> full = new ArrayList<>(SieveCli.commandLine().getSubcommands().keySet());
    assertTrue(full.remove("help"), full.toString());
    assertEquals(full, SieveCli.LEAN_COMMANDS);
  }

  @Test
  void leanAndFullCommandLinesPrintTheSame() throws Exception {
    Path keys = tmp.resolve("k.txt");
    java.nio.file.Files.writeString(keys, "a\nb\n");
    String block = tmp.resolve("f.block").toString();
    String missing = tmp.resolve("missing.sst").toString();
    List<String[]> cases =
        List.of(
            new String[] {"build", "--keys", keys.toString(), "--policy", "bloom:10", "-o", block},
            new String[] {"query", block, "a", "zz"},
            new String[] {"inspect", block},
            new String[] {"inspect", "--json", block},
            new String[] {"query", "--help"},
            new String[] {"query", "-V"},
            new String[] {"query"},
            new String[] {"query", "--bogus", block},
            new String[] {"query", missing, "k"},
            new String[] {"inspect", "--help"},
            new String[] {"inspect", missing},
            new String[] {"build", "--help"},
            new String[] {"build"},
            new String[] {"compare", "--help"},
            new String[] {"compare", "--no-such-option"},
            new String[] {"report", "--size", "10"});
    for (String[] args : cases) {
      CliRun full = run(SieveCli.commandLine(), args);
      CliRun lean = run(SieveCli.commandLine(args[0]), args);
      assertEquals(full, lean, String.join(" ", args));
    }
  }
}
