package dev.sieve.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code sieve} command. */
@Command(
    name = "sieve",
    mixinStandardHelpOptions = true,
    version = "sieve 0.1.0",
    description = "Approximate-membership filters, bit-compatible with RocksDB.",
    subcommands = {
      CommandLine.HelpCommand.class,
      CompareCommand.class,
    })
public final class SieveCli implements Runnable {

  @Override
  public void run() {
    new CommandLine(this).usage(System.out);
  }

  /** Runs the command line and returns its exit status. */
  public static int execute(String... args) {
    return new CommandLine(new SieveCli()).execute(args);
  }

  public static void main(String[] args) {
    System.exit(execute(args));
  }
}
