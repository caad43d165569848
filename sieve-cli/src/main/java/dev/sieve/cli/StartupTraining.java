package dev.sieve.cli;

import dev.sieve.Filter;
import dev.sieve.format.SieveFormat;
import dev.sieve.registry.FilterType;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The training run of the CLI's class-data-sharing archive: the {@code ./sieve} wrapper runs this
 * class once after it builds the jar, as {@code java -XX:ArchiveClassesAtExit=ARCHIVE -cp JAR
 * dev.sieve.cli.StartupTraining DIR}, and every later {@code sieve} command starts with {@code
 * -XX:SharedArchiveFile=ARCHIVE}.
 *
 * <p>Idea: a short CLI run is mostly JVM start and class loading (finding, reading, parsing,
 * verifying and linking a few hundred classes of the JDK and of the jar). A dynamic CDS archive
 * (JEP 350) holds those classes already parsed, verified and laid out as the JVM keeps them in
 * memory; the JVM maps the archive and skips that work for every class in it. The archive holds
 * exactly the classes a training JVM loaded, so the training must walk the paths real runs take:
 * here {@code build} (Bloom, Ribbon, partitioned, prefix), {@code query} (keys as arguments, which
 * {@link SieveCli#execute} answers on the picocli-free {@link FastQuery}, and on standard input,
 * raw blocks and {@code .sieve} containers of every {@link FilterType}), {@code inspect} (text and
 * JSON, a directory without a database), the help and the bad-usage paths, all in one JVM on small
 * inputs in {@code DIR} (about a second).
 *
 * <p>Trade-off: the archive is tied to the exact jar (its size and modification time) and JVM that
 * made it; the JVM refuses it otherwise (and with {@code -Xshare:auto}, the default, runs without
 * it), so the wrapper keys it on both and makes a new one when either changes. picocli's classes
 * are class-file version 49 and CDS does not archive those; they are still loaded from the jar.
 *
 * <p>A step that fails is reported on standard error and the run goes on: the archive only ever
 * makes start-up faster, never changes what a command does.
 */
final class StartupTraining {
  private StartupTraining() {}

  /**
   * Runs the training commands in a scratch directory.
   *
   * @param args the scratch directory (created if missing; its contents are the caller's to delete)
   * @throws IOException if the directory or the key file cannot be written
   */
  public static void main(String[] args) throws IOException {
    if (args.length != 1) {
      System.err.println("usage: StartupTraining DIR");
      System.exit(2);
    }
    Path dir = Files.createDirectories(Path.of(args[0]));
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < 2000; i++) {
      lines.add(String.format("key:%06d", i));
    }
    Path keys = dir.resolve("keys.txt");
    Files.write(keys, lines, StandardCharsets.UTF_8);
    String bloom = dir.resolve("bloom.block").toString();
    String ribbon = dir.resolve("ribbon.block").toString();
    String k = keys.toString();
    // the jar's entry point (no static state: loading and initializing it runs nothing)
    try {
      Class.forName(Main.class.getName());
    } catch (ClassNotFoundException e) {
      System.err.println("training: " + e);
    }
    run(null, "--version");
    run(null, "--help");
    run(null, "query", "--help");
    run(null, "query"); // bad usage: one line, status 2
    run(null, "build", "--keys", k, "--policy", "bloom:10", "-o", bloom);
    run(null, "build", "--keys", k, "--policy", "ribbon:10", "-o", ribbon);
    run(
        null,
        "build",
        "--keys",
        k,
        "--policy",
        "bloom:10",
        "--prefix",
        "fixed:4",
        "--whole-key-filtering=false",
        "-o",
        dir.resolve("prefix.block").toString());
    run(
        null,
        "build",
        "--keys",
        k,
        "--policy",
        "ribbon:10",
        "--partition-size",
        "4096",
        "-o",
        dir.resolve("parts").toString());
    for (String block : new String[] {bloom, ribbon}) {
      run(null, "query", block, "key:000001", "absent-key");
      run("key:000002\nkey:000003\n", "query", block);
      run(null, "inspect", block);
      run(null, "inspect", "--json", block);
    }
    long[] longKeys = new long[1000];
    for (int i = 0; i < longKeys.length; i++) {
      longKeys[i] = i * 0x9E3779B97F4A7C15L;
    }
    for (FilterType type : FilterType.builtIn()) {
      Path file = dir.resolve(type.cliName() + ".sieve");
      try {
        Filter f = type.builder().build(longKeys);
        SieveFormat.write(f, file);
      } catch (RuntimeException | IOException e) {
        System.err.println("training: " + type.cliName() + ": " + e);
        continue;
      }
      run(null, "query", file.toString(), "1", "2");
      run(null, "inspect", file.toString());
    }
    Path emptyDb = Files.createDirectories(dir.resolve("db"));
    run(null, "inspect", emptyDb.toString());
    run(null, "query", emptyDb.toString(), "key:000001");
    run(null, "compare", "--help");
    run(null, "inspect", dir.resolve("missing.sst").toString()); // a bad file: status 1
    run(null, "query", dir.resolve("missing.sst").toString(), "k"); // the same on FastQuery
  }

  private static void run(String stdin, String... args) {
    InputStream saved = System.in;
    try {
      if (stdin != null) {
        System.setIn(new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)));
      }
      SieveCli.execute(args);
    } catch (RuntimeException e) {
      System.err.println("training: " + String.join(" ", args) + ": " + e);
    } finally {
      System.setIn(saved);
    }
  }
}
