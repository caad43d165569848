package dev.sieve.cli;

import dev.sieve.Filter;
import dev.sieve.KeyFilter;
import dev.sieve.KeyScheme;
import dev.sieve.interop.ForeignFormat;
import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The picocli-free core of {@code sieve query FILE [KEY...]} for a single filter (an SST file, a
 * Sieve container, a raw filter block): opening the file, decoding the keys, answering them and the
 * note on a numeric-looking text key that answered absent. {@link QueryCommand} calls it (and turns
 * a {@link Usage} into picocli's bad-usage error), and so does {@link FastQuery}, which runs the
 * plain form {@code sieve query FILE KEY...} without building picocli's command model at all.
 * Neither a Parquet file nor a database directory is queried here: the caller checks for Parquet
 * first, and {@link #queryFilter} returns {@link #DATABASE}, having printed nothing, for a
 * directory.
 */
final class QueryCore {
  /** What {@link #queryFilter} returns for a database directory: nothing printed, not queried. */
  static final int DATABASE = -1;

  /** Bad usage: its message is the one line of picocli's bad-usage error (exit status 2). */
  static final class Usage extends Exception {
    private static final long serialVersionUID = 1L;

    Usage(String message) {
      super(message, null, false, false);
    }
  }

  private final Path file;
  private final List<String> keys;
  private final PrintWriter out;
  private final PrintWriter err;

  /** Set once a numeric-looking text key answered absent (the note is printed at the end). */
  private String numericAbsent;

  /** The form {@code --format} forces, or {@code null} to tell the input by its structure. */
  ForeignFormat format;

  /** Whether a filter block RocksDB reads as "always true" is accepted (every key maybe). */
  boolean acceptAlwaysTrue;

  QueryCore(Path file, List<String> keys, PrintWriter out, PrintWriter err) {
    this.file = file;
    this.keys = keys;
    this.out = out;
    this.err = err;
  }

  /**
   * Queries FILE's filter for the keys (or, with none, for each line of standard input).
   *
   * @param form how keys are decoded (a long-key container overrides it with {@link KeyForm#LONG})
   * @param hex whether --hex was given (refused for a long-key container)
   * @param asInt whether --int was given (refused for a long-key container)
   * @param allowEmptyKey whether an empty stdin line is the empty key
   * @return the exit status, or {@link #DATABASE} for a database directory (nothing printed)
   * @throws Usage on bad usage (a key that does not decode, a partitioned filter's directory)
   * @throws java.io.IOException if standard input cannot be read
   */
  int queryFilter(KeyForm form, boolean hex, boolean asInt, boolean allowEmptyKey)
      throws Usage, java.io.IOException {
    KeyFilter filter;
    boolean recordsLongKeys = false;
    try {
      InputKind kind = format != null ? InputKind.FOREIGN : InputKind.of(file);
      switch (kind) {
        case DATABASE:
          return DATABASE;
        case SIEVE_CONTAINER:
          filter = dev.sieve.format.SieveFormat.map(file, KeyFilter.class);
          recordsLongKeys =
              (OtherInputs.containerFlags(file) & dev.sieve.format.SieveFormat.FLAG_LONG_KEYS) != 0;
          break;
        case FILTER_BLOCK:
          filter = OtherInputs.readNamedBlock(file, acceptAlwaysTrue);
          break;
        case FOREIGN:
          filter =
              ForeignFileReader.read(
                  file, format != null ? format : ForeignFileReader.recognize(file));
          break;
        case PARTITIONED_FILTER:
          throw new Usage(
              file
                  + " is a partitioned filter (build --partition-size): query one partition's"
                  + " .block file (index.tsv gives each one's last key), or inspect the"
                  + " directory");
        default:
          filter = UnrecognisedInput.openSst(file, kind).filter();
      }
    } catch (Usage e) {
      throw e;
    } catch (Exception e) {
      return SstCliSupport.badFile(err, "query", file.toString(), e);
    }
    // the key scheme the filter records (a container's flags, a Parquet bitset): XXPH3 for the
    // filters that are not Filters (SST files, blocks, other systems' filters), which hash key
    // bytes their own way
    KeyScheme scheme = filter instanceof Filter f ? f.keyScheme() : KeyScheme.XXPH3;
    boolean longKeys = scheme.longKeysOnly() || recordsLongKeys;
    if (longKeys) {
      // the container records that its keys are longs: they are given as decimal longs
      if (hex || asInt) {
        throw new Usage(
            file
                + " holds long keys (its flags record "
                + (scheme.longKeysOnly() ? "the " + scheme + " key scheme" : "keys added as longs")
                + "): give them as decimal longs, not with "
                + (hex ? "--hex" : "--int"));
      }
      form = KeyForm.LONG;
    }
    List<byte[]> decoded = decode(form, longKeys);
    if (!keys.isEmpty()) {
      for (int i = 0; i < keys.size(); i++) {
        answer(keys.get(i), decoded.get(i), filter, form);
      }
    } else {
      KeyLines lines = new KeyLines(System.in, form, allowEmptyKey);
      try {
        for (byte[] key = lines.next(); key != null; key = lines.next()) {
          answer(lines.text(), key, filter, form);
        }
      } catch (KeyLines.BadLine e) {
        return badStdin(e);
      }
    }
    out.flush();
    noteNumericAbsent();
    return 0;
  }

  /**
   * The keys decoded in {@code form}.
   *
   * @param longKeys whether FILE is a long-key container (named in the error)
   * @throws Usage if a key does not decode
   */
  List<byte[]> decode(KeyForm form, boolean longKeys) throws Usage {
    List<byte[]> decoded = new ArrayList<>(keys.size());
    for (String k : keys) {
      try {
        decoded.add(form.decode(k));
      } catch (IllegalArgumentException e) {
        throw new Usage(
            e.getMessage() + (longKeys ? "; " + file + " records long keys (its key scheme)" : ""));
      }
    }
    return decoded;
  }

  /** Reports a bad line of standard input; returns the bad-file status. */
  int badStdin(KeyLines.BadLine e) {
    out.flush();
    err.println("sieve query: stdin " + e.getMessage());
    err.flush();
    return SstCliSupport.BAD_FILE;
  }

  /**
   * Answers one key. Under the default scheme a number's bytes are its key (the same hash as {@code
   * mayContain(long)}); under another scheme a {@code --long} or {@code --int} key is asked as that
   * number, which the scheme hashes its own way (Parquet: little-endian; MIX64, IDENTITY: long keys
   * only).
   */
  private void answer(String text, byte[] key, KeyFilter filter, KeyForm form) {
    boolean maybe;
    if (ownNumbers(filter) && form == KeyForm.LONG) {
      maybe = filter.mayContain(ByteBuffer.wrap(key).getLong());
    } else if (ownNumbers(filter) && form == KeyForm.INT) {
      maybe = filter.mayContainInt(ByteBuffer.wrap(key).getInt());
    } else {
      maybe = filter.mayContain(key);
    }
    out.print(text);
    out.print('\t');
    out.println(maybe ? "maybe" : "absent");
    seen(text, maybe, form);
  }

  /**
   * Whether the filter hashes numbers its own way: a scheme other than the default, or another
   * system's filter (Guava's long funnel: 8 little-endian bytes; Spark's putLong).
   */
  private static boolean ownNumbers(KeyFilter f) {
    return f instanceof dev.sieve.interop.ForeignBloomFilter
        || f instanceof Filter g && g.keyScheme() != KeyScheme.XXPH3;
  }

  /** Remembers the first numeric-looking text key that answered absent. */
  void seen(String text, boolean maybe, KeyForm form) {
    if (!maybe && form == KeyForm.TEXT && numericAbsent == null && KeyForm.looksNumeric(text)) {
      numericAbsent = text;
    }
  }

  /**
   * One line on stderr when a numeric-looking key was asked as text and answered absent: a filter
   * built over numbers ({@code mayContain(42L)}) holds 8-byte keys, and reading that "absent" as a
   * false negative is the mistake this note prevents.
   */
  void noteNumericAbsent() {
    if (numericAbsent == null) {
      return;
    }
    err.println(
        "sieve query: note: "
            + numericAbsent
            + " was asked as the text \""
            + numericAbsent
            + "\" (its UTF-8 bytes) and is absent as text; if the filter's keys were added as"
            + " numbers, ask with --long (8 big-endian bytes, as Filter.mayContain(long)) or"
            + " --int (4)");
    err.flush();
  }
}
