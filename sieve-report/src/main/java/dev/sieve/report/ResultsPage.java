package dev.sieve.report;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The run's results page, {@code <date>-<cpu>.md} (the run's date as yyyy-MM-dd and a short slug of
 * the CPU model): the machine (CPU, cores, caches, memory, OS), the JDK and the load, the command
 * as typed and with every option, then which filter to pick and the side-by-side and every-row
 * tables of report.md, so that a guide can link one run's figures. By default it goes to {@code
 * docs/results} of the repository the report runs from ({@code --results-dir}).
 */
final class ResultsPage {
  private ResultsPage() {}

  /** The CPU model's words that say nothing about the part. */
  private static final List<String> NOISE =
      List.of("r", "tm", "cpu", "processor", "with", "radeon", "graphics");

  /**
   * Writes the page into {@code dir} (created if need be) and returns its path.
   *
   * @param typed the arguments as typed after {@code ./sieve report}
   */
  static Path write(Path dir, ReportWriter.Run run, List<String> typed) throws IOException {
    Files.createDirectories(dir);
    Path page = dir.resolve(fileName(run.meta()));
    Files.writeString(page, document(run, typed).markdown(), StandardCharsets.UTF_8);
    return page;
  }

  /** {@code <yyyy-MM-dd>-<cpu slug>.md} of the run. */
  static String fileName(ReportWriter.Meta meta) {
    String date = meta.date().length() >= 10 ? meta.date().substring(0, 10) : meta.date();
    return date + "-" + cpuSlug(meta.cpu()) + ".md";
  }

  /**
   * A short slug of a CPU model: its first three telling words, lower case, e.g. {@code
   * amd-epyc-7b13} for "AMD EPYC 7B13 64-Core Processor"; {@code cpu} where nothing is left.
   */
  static String cpuSlug(String model) {
    String m = model == null ? "" : model.toLowerCase(Locale.ROOT);
    int at = m.indexOf('@');
    if (at >= 0) {
      m = m.substring(0, at); // the clock speed
    }
    List<String> words = new ArrayList<>();
    for (String w : m.split("[^a-z0-9+]+")) {
      String word = w.replace("+", "");
      if (!word.isEmpty() && !NOISE.contains(word) && !word.matches("\\d+-?core")) {
        words.add(word);
      }
      if (words.size() == 3) {
        break;
      }
    }
    return words.isEmpty() ? "cpu" : String.join("-", words);
  }

  static Doc document(ReportWriter.Run run, List<String> typed) {
    ReportWriter.Meta meta = run.meta();
    Doc doc = new Doc();
    doc.heading(1, "Sieve report: " + meta.cpu() + ", " + meta.date());
    List<String> lines = new ArrayList<>(RunHeader.lines(meta));
    lines.add(1, "Machine in full: " + meta.machine() + ".");
    lines.add(
        "Command: `./sieve report"
            + (typed.isEmpty() ? "" : " " + String.join(" ", typed))
            + "`; every option: `"
            + meta.command()
            + "`.");
    doc.para(String.join("  \n", lines));
    doc.para(
        "Written by `./sieve report` with report/report.md, which also holds the experiments,"
            + " the plots and how each figure is measured. Times are from this machine under this"
            + " load: ratios within the run are the figures to compare.");
    SummarySection.write(doc, run);
    SideBySideSection.write(doc, run);
    EveryRowSection.write(doc, run);
    return doc;
  }

  /**
   * {@code docs/results} of the repository this code runs from (its classes or jar lie in {@code
   * <repository>/sieve-report/target}), or of the working directory where it runs from elsewhere.
   */
  static Path defaultDir() {
    Path fallback = Path.of("docs", "results");
    try {
      CodeSource source = ResultsPage.class.getProtectionDomain().getCodeSource();
      if (source == null) {
        return fallback;
      }
      Path target = Path.of(source.getLocation().toURI()).getParent();
      Path module = target == null ? null : target.getParent();
      Path root = module == null ? null : module.getParent();
      if (root != null
          && target.getFileName().toString().equals("target")
          && Files.isRegularFile(root.resolve("pom.xml"))) {
        return root.resolve("docs").resolve("results");
      }
    } catch (URISyntaxException | SecurityException | IllegalArgumentException e) {
      return fallback;
    }
    return fallback;
  }
}
