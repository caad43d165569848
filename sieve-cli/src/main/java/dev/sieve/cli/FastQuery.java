package dev.sieve.cli;

import java.io.BufferedWriter;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.Charset;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * The picocli-free fast path of {@code sieve query FILE KEY...}: the plain form, with no option at
 * all, runs {@link QueryCore} directly instead of building picocli's command model.
 *
 * <p>Idea: a single cold {@code sieve query} of a small filter is mostly JVM start and class
 * loading, and picocli is the largest part of what is left once the CDS archive holds the jar's
 * classes: its classes are class-file version 49, which CDS does not archive, and building a
 * command's model reflects over every annotated field. For the plain form the parse is trivial
 * (FILE, then at least one KEY, every one taken as it is), so this class does it and calls the same
 * {@link QueryCore} that {@link QueryCommand} calls, with writers made as picocli makes its own
 * (see {@link #writer}) and errors printed as {@link SieveCli}'s handlers print them: bad usage as
 * {@code sieve query: MESSAGE (see --help)}, status 2; an exception as {@link #executionMessage},
 * status 1.
 *
 * <p>Trade-off: exactness over reach. Anything picocli could read differently goes to picocli: an
 * argument that starts with {@code -} (an option, {@code --}, a negative number) or {@code @}
 * (picocli's argument files), an empty argument, no key (keys on standard input), a Parquet file
 * and a database directory (their code reports through picocli's command line). Those runs cost one
 * {@code isParquet} check and one {@link InputKind} probe more than before.
 */
final class FastQuery {
  /** What {@link #run} returns when the arguments are not the plain form: use picocli. */
  static final int NOT_PLAIN = -1;

  private FastQuery() {}

  /**
   * Whether {@code args} are the plain form {@code query FILE KEY...}: no argument starts with
   * {@code -} or {@code @} and none is empty.
   *
   * @param args the command's arguments
   * @return whether the fast path may take them
   */
  static boolean isPlain(String[] args) {
    if (args.length < 3 || !"query".equals(args[0])) {
      return false;
    }
    for (int i = 1; i < args.length; i++) {
      String a = args[i];
      if (a.isEmpty() || a.charAt(0) == '-' || a.charAt(0) == '@') {
        return false;
      }
    }
    return true;
  }

  /**
   * Runs the plain form on standard output and standard error.
   *
   * @param args the command's arguments
   * @return the exit status, or {@link #NOT_PLAIN} (nothing printed) for picocli to run them
   */
  static int run(String[] args) {
    if (!isPlain(args)) {
      return NOT_PLAIN;
    }
    return run(
        args,
        writer(System.out, System.getProperty("sun.stdout.encoding")),
        writer(System.err, System.getProperty("sun.stderr.encoding")));
  }

  /**
   * Runs the plain form on the given writers.
   *
   * @param args the command's arguments
   * @param out standard output
   * @param err standard error
   * @return the exit status, or {@link #NOT_PLAIN} (nothing printed) for picocli to run them
   */
  static int run(String[] args, PrintWriter out, PrintWriter err) {
    if (!isPlain(args)) {
      return NOT_PLAIN;
    }
    Path file = Path.of(args[1]);
    if (InputKind.isParquet(file) || InputKind.isOrc(file)) {
      return NOT_PLAIN;
    }
    List<String> keys = Arrays.asList(Arrays.copyOfRange(args, 2, args.length));
    try {
      int status =
          new QueryCore(file, keys, out, err).queryFilter(KeyForm.TEXT, false, false, false);
      return status == QueryCore.DATABASE ? NOT_PLAIN : status;
    } catch (QueryCore.Usage e) {
      String message = e.getMessage() == null ? "bad usage" : e.getMessage();
      err.println("sieve query: " + message.lines().findFirst().orElse("") + " (see --help)");
      err.flush();
      return 2;
    } catch (Exception e) {
      err.println("sieve: " + executionMessage(e));
      err.flush();
      return 1;
    }
  }

  /**
   * The one line {@link SieveCli} prints (after {@code sieve: }) for an exception a command threw.
   *
   * @param e the exception
   * @return its message's first line, with the exception's name for an I/O error
   */
  static String executionMessage(Exception e) {
    String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    if (e instanceof java.io.IOException && !(e instanceof java.nio.file.NoSuchFileException)) {
      message = e.getClass().getSimpleName() + ": " + message;
    } else if (e instanceof java.nio.file.NoSuchFileException) {
      message = "no such file: " + message;
    }
    return message.lines().findFirst().orElse("");
  }

  /**
   * A writer as picocli 4.7 makes its default ones: the charset named by the property ({@code
   * cp65001} read as UTF-8), the platform's default when it is unset or unknown; buffered, flushed
   * at each line.
   */
  private static PrintWriter writer(OutputStream stream, String encoding) {
    Charset charset = Charset.defaultCharset();
    if (encoding != null) {
      try {
        charset = Charset.forName("cp65001".equalsIgnoreCase(encoding) ? "UTF-8" : encoding);
      } catch (RuntimeException e) {
        // picocli falls back to the default charset too
      }
    }
    return new PrintWriter(new BufferedWriter(new OutputStreamWriter(stream, charset)), true);
  }
}
