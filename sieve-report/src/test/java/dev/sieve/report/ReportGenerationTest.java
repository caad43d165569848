package dev.sieve.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sieve.bench.StructureKind;
import dev.sieve.bench.Structures;
import dev.sieve.json.JsonReader;
import dev.sieve.registry.FilterType;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The whole report on a tiny workload with the in-process timer (no JMH in unit tests). */
class ReportGenerationTest {
  @TempDir Path dir;

  /** Runs the command; returns {exit status, stderr, stdout}. */
  private static Object[] run(String... args) {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int status =
        new CommandLine(
                new ReportCommand(
                    new PrintStream(err, true, StandardCharsets.UTF_8),
                    new PrintStream(out, true, StandardCharsets.UTF_8)))
            .execute(args);
    return new Object[] {
      status, err.toString(StandardCharsets.UTF_8), out.toString(StandardCharsets.UTF_8)
    };
  }

  private static String[] tiny(Path out, String filters, String... extra) {
    List<String> a =
        new ArrayList<>(
            List.of(
                "--n",
                "2000,4000",
                "--filters",
                filters,
                "--timer",
                "quick",
                "--rounds",
                "2",
                "--fpr-queries",
                "20000",
                "--experiment-keys",
                "3000",
                "--experiment-queries",
                "20000",
                "--sweep-bits",
                "6,10",
                "--no-progress",
                "--out",
                out.toString()));
    a.addAll(List.of(extra));
    if (!a.contains("--range-keys")) {
      a.addAll(List.of("--range-keys", "0"));
    }
    if (!a.contains("--results-dir")) {
      a.addAll(List.of("--results-dir", out.resolve("results-page").toString()));
    }
    return a.toArray(new String[0]);
  }

  @Test
  void writesEveryArtifactInReportOrder() throws Exception {
    Object[] r =
        run(
            tiny(
                dir,
                "sieve-blocked-bloom,sieve-blocked-bloom-batch,sieve-blocked-bloom-prehashed,"
                    + "sieve-ribbon,guava-bloom,fastfilter-blocked-bloom,fastfilter-xor8,"
                    + "sieve-xor8,sieve-xor8-batch,java-hashset,sorted-array,java-treeset,"
                    + "raw-read-1x",
                "--range-keys",
                "3000",
                "--range-queries",
                "1000",
                "--results-dir",
                dir.resolve("pages").toString()));
    assertEquals(0, r[0], r[1] + "\n" + r[2]);
    for (String f :
        new String[] {
          "report.md",
          "report.html",
          "results.json",
          "jmh.log",
          "plots/fpr-vs-bits-per-key.png",
          "plots/lookup-n2000.png",
          "plots/lookup-n4000.png",
          "plots/bits-over-floor.png",
          "plots/" + RangeCharts.FPR_PLOT,
          "plots/" + RangeCharts.TIME_PLOT
        }) {
      File file = dir.resolve(f).toFile();
      assertTrue(file.isFile(), f);
      if (f.endsWith(".png")) {
        byte[] head = Files.readAllBytes(file.toPath());
        assertTrue(head.length > 1000 && head[1] == 'P' && head[2] == 'N' && head[3] == 'G', f);
      }
    }
    String md = Files.readString(dir.resolve("report.md"));
    int summary = md.indexOf("## Summary");
    int side = md.indexOf("## Side by side, n = 4,000");
    int every = md.indexOf("## Every row, n = 2,000");
    assertTrue(summary > 0 && side > summary && every > side, md);
    // the range section: its table and plots
    int range = md.indexOf("## Range filters, n = 3,000");
    assertTrue(range > every, md);
    assertTrue(md.contains("| 2^20 | correlated |"), md);
    assertTrue(md.contains("(plots/" + RangeCharts.FPR_PLOT + ")"), md);
    // the side-by-side line of blocked Bloom has single, batch and pre-hashed figures with errors
    String line =
        md.lines().filter(l -> l.startsWith("| blocked Bloom |")).findFirst().orElseThrow();
    String[] cells = line.split("\\|");
    for (int i = 2; i <= 4; i++) { // Sieve single, batch, pre-hashed: "pos ± e / neg ± e"
      assertTrue(cells[i].contains(" ± ") && cells[i].contains(" / "), cells[i]);
    }
    assertTrue(line.contains("fastfilter-blocked-bloom"), line);
    assertTrue(
        Pattern.compile("\\| sieve-blocked-bloom-batch( \\*\\*\\(!\\)\\*\\*)? \\| sieve \\|")
            .matcher(md)
            .find(),
        md);
    assertTrue(md.contains("CacheLocalFpRate at the measured keys-per-block mean"));
    // no raw Java map in the text
    assertFalse(Pattern.compile("\\{[A-Za-z]+=").matcher(md).find(), md);
    String json = Files.readString(dir.resolve("results.json"));
    assertTrue(json.contains("\"name\": \"fastfilter-xor8\""));
    assertTrue(json.contains("\"negativeOverRawRead\""));
    assertTrue(json.contains("\"negativeQueryNsRounds\""));
    assertTrue(json.contains("\"blockSizes\""));
    assertTrue(json.contains("\"rounds\": 2"));
    Map<?, ?> parsed = (Map<?, ?>) JsonReader.parse(json);
    Map<?, ?> rangeJson = (Map<?, ?>) parsed.get("range");
    assertEquals(8, ((List<?>) rangeJson.get("cells")).size());
    Map<?, ?> cell = (Map<?, ?>) ((List<?>) rangeJson.get("cells")).get(0);
    for (String k :
        List.of(
            "grafiteFpr",
            "grafiteBound",
            "grafiteBitsPerKey",
            "grafiteNsPerRange",
            "prefixBloomFpr",
            "prefixBloomBitsPerKey",
            "prefixBloomNsPerRange")) {
      assertTrue(cell.get(k) instanceof Number, k + " in " + cell);
    }
    String stdout = (String) r[2];
    assertTrue(stdout.startsWith("Sieve report\nMachine: "), stdout);
    assertTrue(stdout.contains("\nWhich filter to pick\n- "), stdout);
    assertTrue(stdout.contains("\n- Range queries (n = 3,000, "), stdout);
    assertTrue(stdout.contains("\nsieve-blocked-bloom-batch "), stdout);
    // the project's own goals are the acceptance check's: not in the user's report
    for (String text : List.of(stdout, md)) {
      assertFalse(text.contains("Project targets"), text);
      assertFalse(text.matches("(?s).*\\b(issue [0-9]+|[BSXRG][0-9])\\b.*"), text);
    }
    assertFalse(md.contains("n=n="), md);
    assertTrue(stdout.contains(dir.resolve("report.md").toString()), stdout);
    assertTrue(Files.readString(dir.resolve("report.html")).contains("<table>"));
    resultsPage(dir.resolve("pages"), stdout);
  }

  /**
   * The run's results page: one file, named by the run's date and the CPU, with the machine, the
   * command as typed and with every option, the advice and the tables, the exact sets among them.
   */
  private static void resultsPage(Path pages, String stdout) throws Exception {
    List<Path> written;
    try (var files = Files.list(pages)) {
      written = files.toList();
    }
    assertEquals(1, written.size(), written.toString());
    String name = written.get(0).getFileName().toString();
    String slug = ResultsPage.cpuSlug(MachineInfo.current().cpu());
    assertTrue(name.matches("\\d{4}-\\d{2}-\\d{2}-" + Pattern.quote(slug) + "\\.md"), name);
    String page = Files.readString(written.get(0));
    assertTrue(page.contains("Machine in full: "), page);
    assertTrue(page.contains(" RAM, "), page); // the memory, from the machine line
    assertTrue(page.contains("Load average: "), page);
    assertTrue(page.contains("JDK: Java "), page);
    assertTrue(page.contains("Command: `./sieve report --n 2000,4000 --filters "), page);
    assertTrue(page.contains("every option: `sieve report --n 2000,4000 "), page);
    assertTrue(page.contains("## Which filter to pick"), page);
    assertTrue(page.contains("## Side by side, n = 4,000"), page);
    assertTrue(page.contains("## Every row, n = 4,000"), page);
    for (String exact : List.of("java-hashset", "sorted-array", "java-treeset")) {
      assertTrue(page.contains("| " + exact + " |"), exact + " in " + page);
    }
    assertTrue(stdout.contains(written.get(0).toString()), stdout);
  }

  @Test
  void cpuSlugsAreShortAndFileNameSafe() {
    assertEquals("amd-epyc-7b13", ResultsPage.cpuSlug("AMD EPYC 7B13 64-Core Processor"));
    assertEquals(
        "intel-xeon-platinum",
        ResultsPage.cpuSlug("Intel(R) Xeon(R) Platinum 8480+ CPU @ 2.00GHz"));
    assertEquals("cpu", ResultsPage.cpuSlug("?"));
  }

  @Test
  void theResultsPageGoesToDocsResultsOfTheRepositoryByDefault() {
    // the report runs from <repository>/sieve-report/target (its classes here, its jar from
    // ./sieve)
    Path dir = ResultsPage.defaultDir();
    assertTrue(dir.endsWith(Path.of("docs", "results")), dir.toString());
    Path root = dir.getParent().getParent();
    assertTrue(
        Files.isRegularFile(root.resolve("sieve-report").resolve("pom.xml")), root.toString());
  }

  @Test
  void guardComparesWithAPreviousRunAndBadBaselinesAreOneLine() throws Exception {
    Path first = dir.resolve("first");
    Object[] r1 = run(tiny(first, "sieve-blocked-bloom,fastfilter-blocked-bloom"));
    assertEquals(0, r1[0], (String) r1[1]);
    Path second = dir.resolve("second");
    Object[] r2 =
        run(
            tiny(
                second,
                "sieve-blocked-bloom,fastfilter-blocked-bloom",
                "--baseline",
                first.resolve("results.json").toString()));
    assertEquals(0, r2[0], (String) r2[1]);
    String md = Files.readString(second.resolve("report.md"));
    assertTrue(md.contains("## Hot-path guard: this run against"), md);
    // a verdict for each figure of the 2 structures × 2 n at steady state (a figure the
    // steady-state guard flagged gives no ratio, so none against the baseline either)
    Map<?, ?> results =
        (Map<?, ?>) JsonReader.parse(Files.readString(second.resolve("results.json")));
    long steady = 0; // pos and neg where the lookups are steady, build where the build is
    for (Object o : (List<?>) results.get("rows")) {
      Map<?, ?> row = (Map<?, ?>) o;
      steady += (row.get("notAtSteadyState") == null ? 2 : 0);
      steady += (row.get("buildNotAtSteadyState") == null ? 1 : 0);
    }
    long verdicts =
        md.lines()
            .filter(l -> l.startsWith("| sieve-blocked-bloom |") || l.startsWith("| fastfilter-"))
            .filter(l -> l.contains("within 10%") || l.contains("SLOWER") || l.contains("faster"))
            .count();
    assertEquals(steady, verdicts, md);
    assertTrue(((String) r2[2]).contains("Against the baseline"), (String) r2[2]);

    Object[] bad =
        run(tiny(dir.resolve("third"), "sieve-blocked-bloom", "--baseline", "/no/such.json"));
    assertEquals(1, bad[0]);
    String err = ((String) bad[1]).trim();
    assertEquals(1, err.lines().count(), err);
    assertTrue(err.startsWith("sieve report: --baseline"), err);
  }

  @Test
  void theDefaultRunIsPlannedWithinTenMinutesAndThePlanAloneMeasuresNothing() {
    Path out = dir.resolve("plan");
    Object[] r = run("--plan", "--out", out.toString());
    assertEquals(0, r[0], (String) r[1]);
    String err = (String) r[1];
    java.util.regex.Matcher m =
        Pattern.compile("planned: about ([0-9.]+) minutes").matcher(err.replace("\n", " "));
    assertTrue(m.find(), err);
    // 10 minutes on 2 idle cores, with room for re-measuring two flagged rows (~22 s each); the
    // cold-start section's 30 fresh JVMs (about 23 s planned) took the room of the third, and
    // the range section at 10^6 keys adds about 27 s (at most 30 s)
    assertTrue(Double.parseDouble(m.group(1)) <= 9.7, err);
    assertTrue(err.replace("\n  ", " ").contains("s for the range section at n = 10^6"), err);
    assertTrue(err.contains("30 cold-start JVMs"), err);
    assertTrue(err.contains("120 JMH forks"), err);
    assertFalse(Files.exists(out), "--plan measures nothing and writes nothing");
    for (String line : err.split("\n")) {
      assertTrue(line.length() <= ConsoleSummary.WIDTH, line);
    }
  }

  @Test
  void unknownStructureIsOneLineAndNonzero() {
    Object[] r = run(tiny(dir, "no-such-filter"));
    assertEquals(1, r[0]);
    String err = ((String) r[1]).trim();
    assertEquals(1, err.lines().count(), err);
    assertTrue(err.contains("unknown structure 'no-such-filter'"), err);
  }

  @Test
  void defaultSetHasEveryLookupTypeAndTheExactSetsFullHasHeadlineVariantsAllHasEverything() {
    List<String> small = new ArrayList<>();
    RowSets.select(List.of("default")).forEach(k -> small.add(k.name()));
    for (String family :
        List.of(
            "blocked-bloom",
            "split-block",
            "standard-bloom",
            "scalable",
            "ribbon",
            "xor8",
            "fuse8",
            "cuckoo",
            "fastfilter-",
            "guava",
            "hashset",
            "raw-read")) {
      assertTrue(small.stream().anyMatch(n -> n.contains(family)), family + " in " + small);
    }
    // every registry type a user would pick for point lookups, as a caller queries it, and the
    // exact sets a filter replaces: HashSet, binary search over a sorted array, TreeSet
    assertTrue(
        small.containsAll(
            List.of(
                "sieve-two-word-bloom",
                "sieve-expandable",
                "sieve-scalable-bloom",
                "sieve-bumped-ribbon",
                "java-hashset",
                "sorted-array",
                "java-treeset")),
        small.toString());
    for (FilterType t : FilterType.builtIn()) {
      boolean notForLookups =
          t == FilterType.GRAFITE
              || t == FilterType.PREFIX_BLOOM_RANGE // range filters: the range section's
              || t == FilterType.SHARDED // a container of Binary Fuse filters
              || t == FilterType.ORC_BLOOM // picked for ORC's format
              || t == FilterType.XOR16 // the 8-bit rows' lookup code, in full
              || t == FilterType.BINARY_FUSE16;
      String name = "sieve-" + t.cliName();
      assertEquals(
          !notForLookups,
          small.stream().anyMatch(k -> k.equals(name) || k.matches(Pattern.quote(name) + "\\d+")),
          name + " in " + small);
    }
    assertTrue(small.size() <= 20, small.toString());
    List<String> def = new ArrayList<>();
    RowSets.select(List.of("full")).forEach(k -> def.add(k.name()));
    assertTrue(
        def.containsAll(
            List.of(
                "sieve-blocked-bloom-batch",
                "sieve-xor8-prehashed",
                "sieve-ribbon-batch",
                "sieve-binary-fuse8-batch",
                "sieve-xor16",
                "sieve-cuckoo8",
                "fastfilter-xor8",
                "guava-bloom",
                "fastutil-hashset",
                "raw-read-1x")),
        def.toString());
    assertFalse(def.contains("sieve-xor16-batch"));
    assertFalse(def.contains("sieve-cuckoo8-prehashed"));
    assertFalse(def.contains("java-treeset"));
    assertFalse(def.contains("sorted-array"));
    // fast-hash rows (where this build has them): single rows of the headline filters only
    for (StructureKind k : Structures.all()) {
      String n = k.name();
      if (n.contains("-fasthash")) {
        boolean headline = RowSets.HEADLINE_FAST_HASH.contains(RowSets.baseFilter(n));
        assertEquals(headline && !n.endsWith("-batch"), def.contains(n), n);
      }
    }
    assertTrue(
        def.stream().noneMatch(n -> Structures.byName(n).description().startsWith("diagnostic:")));
    List<StructureKind> all = RowSets.select(List.of("all"));
    assertEquals(Structures.all().size(), all.size());
    assertTrue(all.size() > def.size());
    assertEquals("sieve-xor8", RowSets.baseFilter("sieve-xor8-fasthash-batch"));
    assertEquals("sieve-xor8", RowSets.baseFilter("sieve-xor8-prehashed"));
    assertEquals("guava-bloom", RowSets.baseFilter("guava-bloom"));
  }
}
