package dev.sieve.report;

import dev.sieve.report.Acceptance.Check;
import dev.sieve.report.Acceptance.Status;
import java.io.File;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * The acceptance check: holds one report's {@code results.json} to the goals of {@link Acceptance}
 * and prints one line per goal, PASS, MISS, NOT RUN or EXCLUDED, named by what it measures. It
 * measures nothing itself: the figures are the report's. Most goals are stated at 10^6 and 10^7
 * keys and need the report's full row set, e.g. {@code ./sieve report --n 1000000,10000000
 * --filters full --range-keys 10000000}, then {@code sieve-report/scripts/acceptance-check.sh
 * report/results.json}. Exit status 0 when no goal is missed, 1 when one is, 2 on a bad file.
 */
@Command(
    name = "acceptance-check",
    mixinStandardHelpOptions = true,
    description = {
      "Holds a report's results.json to Sieve's acceptance goals (lookup and build ratios to the"
          + " peers, space, range filters) and prints one line per goal."
    })
public final class AcceptanceCheck implements Callable<Integer> {

  @Parameters(
      index = "0",
      arity = "0..1",
      description = "a report's results.json (default: ${DEFAULT-VALUE})",
      defaultValue = "report/results.json")
  File results;

  @Option(
      names = "--bits-per-key",
      description =
          "the bits/key setting the space goals read (Ribbon's bloom-equivalent; default:"
              + " ${DEFAULT-VALUE})",
      defaultValue = "10")
  double bitsPerKey;

  private final PrintStream out;

  public AcceptanceCheck() {
    this(System.out);
  }

  AcceptanceCheck(PrintStream out) {
    this.out = out;
  }

  @Override
  public Integer call() throws Exception {
    ResultsFile file;
    try {
      file = ResultsFile.read(results.toPath());
    } catch (IllegalArgumentException | java.io.IOException e) {
      out.println("acceptance check: " + e.getMessage());
      return 2;
    }
    List<Check> checks = Acceptance.check(file.rows(), bitsPerKey, file.simdPath(), file.range());
    render(checks).forEach(out::println);
    return checks.stream().anyMatch(c -> c.status() == Status.MISS) ? 1 : 0;
  }

  /** The printed lines: a count per status, then one wrapped line per goal. */
  static List<String> render(List<Check> checks) {
    List<String> lines = new ArrayList<>();
    List<String> counts = new ArrayList<>();
    for (Status s : Status.values()) {
      long c = checks.stream().filter(x -> x.status() == s).count();
      if (c > 0) {
        counts.add(c + " " + s.label());
      }
    }
    lines.add("Acceptance check: " + String.join(", ", counts));
    for (Check c : checks) {
      String name = c.name().contains("n=") ? c.name() : c.name() + " (" + c.at() + ")";
      String text =
          c.status() == Status.PASS || c.status() == Status.MISS
              ? String.format(
                  Locale.ROOT,
                  "%s %s: %s, limit %s — %s. %s",
                  c.status().label(),
                  name,
                  Cells.num(c.value(), 3),
                  Cells.num(c.limit(), 3),
                  c.what(),
                  c.detail())
              : String.format(Locale.ROOT, "%s %s: %s", c.status().label(), name, c.detail());
      ConsoleSummary.wrap(lines, text.strip(), "", "         ");
    }
    return lines;
  }

  public static void main(String[] args) {
    System.exit(new CommandLine(new AcceptanceCheck()).execute(args));
  }
}
