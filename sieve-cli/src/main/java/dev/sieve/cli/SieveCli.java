package dev.sieve.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code sieve} command. */
@Command(
    name = "sieve",
    mixinStandardHelpOptions = true,
    version = "sieve 1.0.0",
    description = "Approximate-membership filters, bit-compatible with RocksDB.",
    // bench: `report` lives in the sieve-bench module (it holds the peers); ./sieve routes it there
    footer = {"", "Exit status: 0 ok, 1 bad input file, 2 bad usage (one line on stderr)."},
    subcommands = {
      CommandLine.HelpCommand.class,
      CompareCommand.class,
      InspectCommand.class,
      QueryCommand.class,
      BuildCommand.class,
      ReportPointerCommand.class,
    })
public final class SieveCli implements java.util.concurrent.Callable<Integer> {

  @picocli.CommandLine.Spec picocli.CommandLine.Model.CommandSpec spec;

  /** No command is bad usage: one line, exit status 2. */
  @Override
  public Integer call() {
    spec.commandLine()
        .getErr()
        .println(
            "sieve: no command given; commands: "
                + String.join(", ", spec.subcommands().keySet())
                + " (see --help)");
    spec.commandLine().getErr().flush();
    return 2;
  }

  /**
   * The configured command line, the contract scripts rely on: bad usage exits with 2, a bad file
   * or bad input with 1, each with a one-line message on stderr and never a stack trace.
   *
   * @return the command line
   */
  public static CommandLine commandLine() {
    CommandLine cli = new CommandLine(new SieveCli());
    cli.setParameterExceptionHandler(
        (e, args) -> {
          CommandLine cmd = e.getCommandLine();
          String message = e.getMessage() == null ? "bad usage" : e.getMessage();
          cmd.getErr()
              .println(
                  cmd.getCommandSpec().qualifiedName()
                      + ": "
                      + message.lines().findFirst().orElse("")
                      + " (see --help)");
          cmd.getErr().flush();
          return 2;
        });
    cli.setExecutionExceptionHandler(
        (e, cmd, parseResult) -> {
          String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
          if (e instanceof java.io.IOException
              && !(e instanceof java.nio.file.NoSuchFileException)) {
            message = e.getClass().getSimpleName() + ": " + message;
          } else if (e instanceof java.nio.file.NoSuchFileException) {
            message = "no such file: " + message;
          }
          cmd.getErr().println("sieve: " + message.lines().findFirst().orElse(""));
          cmd.getErr().flush();
          return 1;
        });
    return cli;
  }

  /**
   * Runs the command line.
   *
   * @param args the arguments
   * @return the exit status
   */
  public static int execute(String... args) {
    return commandLine().execute(args);
  }

  /**
   * The {@code sieve} command.
   *
   * @param args the arguments
   */
  public static void main(String[] args) {
    System.exit(execute(args));
  }
}
