package dev.sieve.cli;

import dev.sieve.Filter;
import dev.sieve.FilterBuilder;
import dev.sieve.format.SieveFormat;
import dev.sieve.registry.FilterType;
import java.io.IOException;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.ParameterException;

/**
 * {@code sieve build --format sieve}: a filter of a registry type, sized by its one setting or a
 * rate, built over the keys and written in a Sieve container, with the summary line. The options
 * are {@link BuildCommand}'s.
 */
final class ContainerBuild {
  private ContainerBuild() {}

  /** {@code --format sieve}: a filter of the registry type {@code --type}, in a Sieve container. */
  static int run(BuildCommand c, KeyForm form) {
    FilterType t;
    try {
      t = FilterType.forName(c.type == null ? "blocked-bloom" : c.type);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(c.spec.commandLine(), "--type: " + e.getMessage());
    }
    if (c.setting != null && c.fpRate != null) {
      throw new ParameterException(
          c.spec.commandLine(), "--setting and --fp-rate exclude each other; give one");
    }
    FilterBuilder<? extends Filter> builder;
    try {
      builder = c.setting != null ? SizeSettings.builder(t, c.setting) : t.builder();
      if (c.fpRate != null) {
        builder = builder.fpRate(c.fpRate);
      }
      if (c.seed != null) {
        builder = builder.seed(c.seed);
      }
    } catch (IllegalArgumentException e) {
      throw new ParameterException(
          c.spec.commandLine(),
          (c.setting != null ? "--setting " : "--fp-rate ")
              + "for "
              + t.cliName()
              + ": "
              + e.getMessage());
    }
    List<byte[]> keys = c.readKeys(form);
    if (keys == null) {
      return SstCliSupport.BAD_FILE;
    }
    Filter filter;
    try {
      filter = KeyFile.build(t, builder, keys, form); // numbers as the library hashes them
    } catch (IllegalArgumentException | IllegalStateException e) {
      c.spec
          .commandLine()
          .getErr()
          .println(
              "sieve build: " + t.cliName() + " over " + keys.size() + " keys: " + e.getMessage());
      c.spec.commandLine().getErr().flush();
      return SstCliSupport.BAD_FILE;
    }
    long[] written = new long[1];
    try {
      AtomicFiles.write(
          c.output,
          ch ->
              SieveFormat.write(
                  filter,
                  new java.nio.channels.WritableByteChannel() {
                    @Override
                    public int write(java.nio.ByteBuffer src) throws IOException {
                      int n = ch.write(src);
                      written[0] += n;
                      return n;
                    }

                    @Override
                    public boolean isOpen() {
                      return ch.isOpen();
                    }

                    @Override
                    public void close() {
                      // the writer owns the channel
                    }
                  },
                  // recorded, so that query takes the keys as numbers by itself
                  form == KeyForm.LONG && filter.keyScheme() == dev.sieve.KeyScheme.XXPH3));
    } catch (IOException e) {
      return SstCliSupport.badFile(c.spec.commandLine().getErr(), "build", c.output.toString(), e);
    }
    c.summary()
        .println(
            String.format(
                Locale.ROOT,
                "wrote %d bytes (%d keys, %s%s, %s bits/key, modelled FPR %s%s) to %s",
                written[0],
                keys.size(),
                t.cliName(),
                c.setting != null
                    ? SizeSettings.describe(t, c.setting)
                    : c.fpRate != null ? " fp-rate " + c.fpRate : "",
                Figures.bitsPerKey(filter.bitsPerKey()),
                Figures.percent(filter.modelledFpRate()),
                form == KeyForm.TEXT ? "" : ", keys " + form.option(),
                c.output));
    String note = BuildNotes.note(t, c.fpRate);
    if (note != null) {
      c.summary().println(note);
    }
    c.summary().flush();
    return 0;
  }
}
