package dev.sieve.report;

import static dev.sieve.report.Cells.num;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The cold-start table: filter × JVM kind × checkpoint, and simd/scalar per checkpoint. */
final class ColdStartSection {
  private ColdStartSection() {}

  /** The section's heading, the paragraph on how it was measured, and the table. */
  static void write(Doc doc, ColdStart.Section c) {
    doc.heading(2, "Cold start");
    doc.para(
        "The first lookups in a fresh JVM, before the JIT has compiled the query code: each"
            + " sample is a new JVM (-Xmx"
            + c.heap()
            + ", the report's java) that builds the filter over "
            + String.format(Locale.ROOT, "%,d", c.n())
            + " keys, then times its first single-key lookups, present and absent alternating."
            + " **scalar**: no JVM option; **simd**: `--add-modules jdk.incubator.vector`. Mean ns"
            + " per lookup up to each checkpoint, median of "
            + c.samples()
            + " JVM(s) per cell; simd/scalar is the ratio of the medians (about 1 means no"
            + " warm-up cliff from the SIMD path).");
    List<String> header = new ArrayList<>(List.of("filter"));
    for (String jvm : List.of("scalar", "simd")) {
      for (int l : c.lookups()) {
        header.add(jvm + " " + Names.nLabel(l));
      }
    }
    for (int l : c.lookups()) {
      header.add("simd/scalar " + Names.nLabel(l));
    }
    List<List<String>> lines = new ArrayList<>();
    for (String f : c.filters()) {
      List<String> line = new ArrayList<>(List.of(f));
      for (String jvm : List.of("scalar", "simd")) {
        for (int l : c.lookups()) {
          line.add(num(c.cell(f, jvm, l).median(), 1));
        }
      }
      for (int l : c.lookups()) {
        line.add(num(c.cell(f, "simd", l).median() / c.cell(f, "scalar", l).median(), 2));
      }
      lines.add(line);
    }
    doc.table(header, lines);
  }
}
