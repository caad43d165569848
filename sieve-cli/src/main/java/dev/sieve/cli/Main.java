package dev.sieve.cli;

/**
 * The jar's entry point: the plain {@code sieve query FILE KEY...} runs on {@link FastQuery}, and
 * everything else on {@link SieveCli}'s picocli command line.
 *
 * <p>This class exists because {@link SieveCli} cannot be the entry point of a picocli-free run:
 * the JVM verifies a main class's methods before it runs {@code main}, and verifying {@link
 * SieveCli}'s loads picocli's {@code CommandLine}. This class names picocli nowhere, so a run that
 * {@link FastQuery} answers loads no picocli class at all.
 */
public final class Main {
  private Main() {}

  /**
   * The {@code sieve} command.
   *
   * @param args the arguments
   */
  public static void main(String[] args) {
    int status = FastQuery.run(args);
    System.exit(status != FastQuery.NOT_PLAIN ? status : SieveCli.executeWithPicocli(args));
  }
}
