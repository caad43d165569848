package dev.sieve.jcstress;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.openjdk.jcstress.JCStress;
import org.openjdk.jcstress.Options;
import org.openjdk.jcstress.infra.Status;
import org.openjdk.jcstress.infra.collectors.DiskReadCollector;
import org.openjdk.jcstress.infra.collectors.InProcessCollector;
import org.openjdk.jcstress.infra.collectors.TestResult;
import org.openjdk.jcstress.infra.runners.TestList;

/**
 * The build's jcstress run: runs jcstress with the given arguments (those of {@code
 * org.openjdk.jcstress.Main}, the jar's main class) and exits with status 1 unless every selected
 * test ran and passed.
 *
 * <p>jcstress itself throws (and so its JVM exits with 1) when a test has a {@code FORBIDDEN}
 * outcome, an exception, a timeout or a crashed JVM. It returns normally, though, when it ran
 * nothing: no test matched (as when the annotation processor wrote no {@code META-INF/TestList}),
 * no JVM configuration worked, or a test needs more CPUs than the machine has (jcstress then
 * schedules it nowhere and says so in one line). So after the run this reads the result file back
 * and fails unless each selected test has a result with status {@code NORMAL} that passed.
 *
 * <p>The tests are in this package: {@link AtomicBitsTests}, {@link MutableBloomTests}, {@link
 * PublicationTests}, {@link ExpandableTests} and {@link ExpandableWriterTests}. Every test has two
 * actors, so it runs on a machine with two CPUs. {@code mvn verify} runs them in a short mode (the
 * {@code jcstress.args} property of sieve-jcstress/pom.xml: each test once per JVM configuration,
 * one iteration of 100 ms); for a longer run use the jar directly, e.g. {@code java -jar
 * sieve-jcstress/target/sieve-jcstress.jar -m default} or {@code -m tough}, with {@code -t REGEX}
 * to pick tests.
 */
public final class CiRun {
  private CiRun() {}

  public static void main(String[] args) throws Exception {
    Options options = new Options(args);
    if (!options.parse()) {
      System.exit(2);
    }
    Pattern filter = Pattern.compile(options.getTestFilter());
    SortedSet<String> selected = new TreeSet<>();
    for (String test : TestList.tests()) {
      if (filter.matcher(test).find()) {
        selected.add(test);
      }
    }
    if (selected.isEmpty()) {
      fail(
          "no jcstress test matches " + options.getTestFilter() + " (was META-INF/TestList made?)");
    }
    try {
      new JCStress(options).run();
    } catch (AssertionError e) {
      // jcstress's own verdict: forbidden outcomes, test errors, timeouts, VM errors
      fail("jcstress failed:" + System.lineSeparator() + e.getMessage());
    }
    List<String> problems = check(selected, readResults(options.getResultFile()));
    if (!problems.isEmpty()) {
      fail(String.join(System.lineSeparator(), problems));
    }
    System.out.println("sieve-jcstress: all " + selected.size() + " tests ran and passed");
    System.exit(0);
  }

  private static Collection<TestResult> readResults(String file) throws Exception {
    InProcessCollector collector = new InProcessCollector();
    DiskReadCollector reader = new DiskReadCollector(file, collector);
    try {
      reader.dump();
    } finally {
      reader.close();
    }
    return collector.getTestResults();
  }

  /** What is wrong with the results: a selected test with no passing result, or a failed one. */
  static List<String> check(SortedSet<String> selected, Collection<TestResult> results) {
    SortedSet<String> passed = new TreeSet<>();
    List<String> problems = new ArrayList<>();
    for (TestResult r : results) {
      if (r.status() != Status.NORMAL) {
        problems.add(r.getName() + ": " + r.status());
      } else if (!r.grading().isPassed) {
        problems.add(r.getName() + ": a forbidden outcome");
      } else if (r.getTotalCount() > 0) {
        passed.add(r.getName());
      }
    }
    for (String test : selected) {
      if (!passed.contains(test)) {
        problems.add(test + ": no passing run with samples");
      }
    }
    return problems;
  }

  private static void fail(String message) {
    System.out.println();
    System.out.println("sieve-jcstress: FAILED: " + message);
    System.out.flush();
    System.exit(1);
  }
}
