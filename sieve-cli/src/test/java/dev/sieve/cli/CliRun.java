package dev.sieve.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import picocli.CommandLine;

/** One run of the CLI with captured output. */
record CliRun(int status, String out, String err) {
  static CliRun of(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cli = SieveCli.commandLine();
    cli.setOut(new PrintWriter(out));
    cli.setErr(new PrintWriter(err));
    int status = cli.execute(args);
    return new CliRun(status, out.toString(), err.toString());
  }
}
