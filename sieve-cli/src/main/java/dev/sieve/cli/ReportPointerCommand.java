package dev.sieve.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code sieve report} as this jar sees it: the report lives in its own module (sieve-report, with
 * the benchmark module sieve-bench, which holds the peer libraries, under it), and the {@code
 * ./sieve} wrapper routes {@code report} (and {@code help report}) there. Reached only when the CLI
 * jar is run directly, it says where to go.
 */
@Command(
    name = "report",
    description = {
      "Every filter side by side with the peers, the exact baselines, theory and a raw random"
          + " read; writes report/.",
      "It runs from the report module: ./sieve report [OPTIONS] builds and runs it, and"
          + " ./sieve report --help (or ./sieve help report) lists its options. This jar (the"
          + " CLI) does not contain it; its jar is sieve-report/target/sieve-report-all.jar."
    })
final class ReportPointerCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @picocli.CommandLine.Unmatched java.util.List<String> reportArguments;

  @Override
  public Integer call() {
    spec.commandLine()
        .getErr()
        .println(
            "sieve report: the report runs from the report module: use ./sieve report (or java"
                + " -jar sieve-report/target/sieve-report-all.jar)");
    spec.commandLine().getErr().flush();
    return 2;
  }
}
