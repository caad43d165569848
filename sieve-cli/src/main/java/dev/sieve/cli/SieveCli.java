package dev.sieve.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code sieve} command.
 *
 * <p>Start-up: a single {@code sieve query} is mostly JVM start and class loading, and picocli
 * builds its model of a command by reflection over every annotated option of every subcommand. So
 * when the first argument names a subcommand (other than {@code help}), {@link #execute} registers
 * only that one under a bare root named {@code sieve} ({@link #commandLine(String)}): the same
 * parse, output and exit status as the full command line, for a fraction of the reflection (and of
 * the classes loaded). Anything else (no argument, an option first, {@code help}, an unknown name)
 * gets the full command line with every subcommand, so usage lists and suggestions are complete.
 * Before either, the plain form {@code query FILE KEY...} (no option) runs without picocli at all
 * ({@link FastQuery}), with the same output and exit status; the jar's entry point is {@link Main}.
 * The {@code ./sieve} wrapper adds a class-data-sharing archive of the jar on top (see its header).
 */
@Command(
    name = "sieve",
    mixinStandardHelpOptions = true,
    version = "sieve 1.0.0",
    description = "Approximate-membership filters, bit-compatible with RocksDB.",
    // report: `report` lives in the sieve-report module (over sieve-bench, which holds the peers);
    // ./sieve routes it there
    footer = {"", "Exit status: 0 ok, 1 bad input file, 2 bad usage (one line on stderr)."},
    subcommands = {
      CommandLine.HelpCommand.class,
      CompareCommand.class,
      InspectCommand.class,
      QueryCommand.class,
      BuildCommand.class,
      ConvertCommand.class,
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
    return configure(new CommandLine(new SieveCli()));
  }

  /**
   * The command line with only the subcommand {@code name} registered, under a bare root named
   * {@code sieve} (no options of its own): for a run whose first argument is {@code name}, it
   * parses, prints and exits as {@link #commandLine()} does, and builds one subcommand's model
   * instead of all of them.
   *
   * @param name a subcommand name from {@link #LEAN_COMMANDS}
   * @return the command line
   * @throws IllegalArgumentException if {@code name} is not one of them
   */
  static CommandLine commandLine(String name) {
    CommandLine cli = new CommandLine(CommandLine.Model.CommandSpec.create().name("sieve"));
    cli.addSubcommand(name, newSubcommand(name));
    return configure(cli);
  }

  /**
   * The subcommands {@link #execute} may register alone: every subcommand of the annotation but
   * {@code help} (which lists the others). A test holds this list to the annotation's.
   */
  static final java.util.List<String> LEAN_COMMANDS =
      java.util.List.of("compare", "inspect", "query", "build", "convert", "report");

  // a switch, not a map of constructor references: no lambda bootstrap on the start-up path
  private static Object newSubcommand(String name) {
    switch (name) {
      case "compare":
        return new CompareCommand();
      case "inspect":
        return new InspectCommand();
      case "query":
        return new QueryCommand();
      case "build":
        return new BuildCommand();
      case "convert":
        return new ConvertCommand();
      case "report":
        return new ReportPointerCommand();
      default:
        throw new IllegalArgumentException("not a lean subcommand: " + name);
    }
  }

  private static CommandLine configure(CommandLine cli) {
    cli.setParameterExceptionHandler(
        (e, args) -> {
          CommandLine cmd = e.getCommandLine();
          String message = e.getMessage() == null ? "bad usage" : e.getMessage();
          if (e instanceof CommandLine.UnmatchedArgumentException
              && cmd.getCommandSpec().parent() == null
              && args.length > 0
              && !args[0].startsWith("-")) {
            // the first argument is no command: name it and the nearest one
            message = NearestCommand.message(args[0], cmd.getSubcommands().keySet());
          }
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
          cmd.getErr().println("sieve: " + FastQuery.executionMessage(e));
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
    int fast = FastQuery.run(args);
    return fast != FastQuery.NOT_PLAIN ? fast : executeWithPicocli(args);
  }

  /**
   * Runs the command line on picocli, without trying {@link FastQuery} first.
   *
   * @param args the arguments
   * @return the exit status
   */
  static int executeWithPicocli(String... args) {
    if (args.length > 0 && LEAN_COMMANDS.contains(args[0])) {
      return commandLine(args[0]).execute(args);
    }
    return commandLine().execute(args);
  }

  /**
   * The {@code sieve} command.
   *
   * @param args the arguments
   */
  public static void main(String[] args) {
    Main.main(args);
  }
}
