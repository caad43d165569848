package dev.sieve.cli;

import dev.sieve.FastLongKeyFilter;
import dev.sieve.sst.SstFile;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code sieve query FILE [KEY...]}: asks an SST file's filter about keys, or, for a database,
 * every filter a point lookup would probe, per column family ({@link DbCommands}); also a Parquet
 * file's column, a Sieve container (by its recorded key scheme) and a raw filter block.
 */
@Command(
    name = "query",
    mixinStandardHelpOptions = true,
    description = {
      "Asks a filter about keys: of an SST file, a database directory, a Parquet file, a Sieve"
          + " container (.sieve) or a raw filter block.",
      "An SST file's filter is asked as RocksDB's point lookup does (a prefix-only filter is"
          + " asked for the key's prefix).",
      "Prints KEY<TAB>maybe or KEY<TAB>absent for each key given, or for each line of standard"
          + " input when no key is given.",
      "A Parquet file (PAR1) takes a COLUMN (dotted path) and values, parsed for the column's"
          + " type (INT32, INT64, FLOAT, DOUBLE; BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY as UTF-8, or"
          + " hex with --hex), and prints VALUE<TAB>maybe|absent<TAB>the row groups a Parquet"
          + " reader's Bloom filter check would still read.",
      "Keys are UTF-8 text unless --hex, --long or --int say otherwise: --long 42 is the key of"
          + " 8 big-endian bytes that Filter.mayContain(42L) asks for, not the 2-byte text \"42\"."
          + " A Sieve container that records its long-key hash (FastLongKeyFilter, flags 1 or 2)"
          + " takes its keys as decimal longs by itself. A numeric-looking text key that answers"
          + " absent gets a one-line note on stderr.",
      "Given a database directory, prints for each key and column family"
          + " KEY<TAB>CF<TAB>maybe|absent<TAB>the files a point lookup probes, level by level (L0"
          + " newest first, then the one file per level whose key range holds the key), each with"
          + " its filter's answer (L1:000012.sst=maybe).",
      "Exit status: 0 ok, 1 bad file, 2 bad usage."
    })
public final class QueryCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Parameters(
      index = "0",
      paramLabel = "FILE",
      description =
          "an SST file, a RocksDB database directory, a .parquet file, a Sieve container or a"
              + " raw filter block")
  Path file;

  @Parameters(
      index = "1..*",
      paramLabel = "KEY",
      description =
          "keys (UTF-8 text, or hex with --hex); none: one a line on stdin, read as build"
              + " --keys reads its file (strict UTF-8, line numbers in errors, no empty line"
              + " unless --allow-empty-key)")
  List<String> keys = new ArrayList<>();

  @Option(
      names = "--allow-empty-key",
      description = "on stdin, an empty line is the empty key instead of an error")
  boolean allowEmptyKey;

  @Option(names = "--hex", description = "keys are hex bytes (e.g. 6b6579 or 0x6b6579)")
  boolean hex;

  @Option(
      names = "--long",
      description =
          "keys are decimal longs: the key is its 8 big-endian bytes (Filter.mayContain(long))")
  boolean asLong;

  @Option(
      names = "--int",
      description = "keys are decimal ints: the key is its 4 big-endian bytes (mayContainInt)")
  boolean asInt;

  /** Set once a numeric-looking text key answered absent (the note is printed at the end). */
  private String numericAbsent;

  @Override
  public Integer call() throws Exception {
    KeyForm form;
    try {
      form = KeyForm.of(hex, asLong, asInt);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage());
    }
    if (ParquetCliSupport.isParquet(file)) { // FILE.parquet COLUMN VALUE...
      if (asLong || asInt) {
        throw new ParameterException(
            spec.commandLine(),
            "--long and --int do not apply to a Parquet file: the column's type decides how"
                + " values are read");
      }
      return ParquetCliSupport.query(spec.commandLine(), file, keys, hex);
    }
    dev.sieve.KeyFilter filter;
    InputKind kind;
    try {
      kind = InputKind.of(file);
      switch (kind) {
        case DATABASE:
          filter = null;
          break;
        case SIEVE_CONTAINER:
          filter = dev.sieve.format.SieveFormat.map(file);
          break;
        case FILTER_BLOCK:
          filter = OtherInputs.readBlock(file);
          break;
        case PARTITIONED_FILTER:
          throw new ParameterException(
              spec.commandLine(),
              file
                  + " is a partitioned filter (build --partition-size): query one partition's"
                  + " .block file (index.tsv gives each one's last key), or inspect the"
                  + " directory");
        default:
          filter = SstFile.open(file).filter();
      }
    } catch (ParameterException e) {
      throw e;
    } catch (Exception e) {
      return SstCliSupport.badFile(spec.commandLine().getErr(), "query", file.toString(), e);
    }
    FastLongKeyFilter<?> longKeys =
        filter instanceof FastLongKeyFilter ? (FastLongKeyFilter<?>) filter : null;
    if (longKeys != null) {
      // the container records how its long keys were hashed: they are decimal longs
      if (hex || asInt) {
        throw new ParameterException(
            spec.commandLine(),
            file
                + " holds long keys (its flags record the "
                + longKeys.keyHash()
                + " long-key hash): give them as decimal longs, not with "
                + (hex ? "--hex" : "--int"));
      }
      form = KeyForm.LONG;
    }
    List<byte[]> decoded = new ArrayList<>();
    for (String k : keys) {
      try {
        decoded.add(form.decode(k));
      } catch (IllegalArgumentException e) {
        throw new ParameterException(
            spec.commandLine(),
            e.getMessage()
                + (longKeys != null ? "; " + file + " records long keys (FastLongKeyFilter)" : ""));
      }
    }
    if (kind == InputKind.DATABASE) {
      return queryDb(decoded, form);
    }
    PrintWriter out = spec.commandLine().getOut();
    if (!keys.isEmpty()) {
      for (int i = 0; i < keys.size(); i++) {
        answer(out, keys.get(i), decoded.get(i), filter, longKeys, form);
      }
    } else {
      KeyLines lines = new KeyLines(System.in, form, allowEmptyKey);
      try {
        for (byte[] key = lines.next(); key != null; key = lines.next()) {
          answer(out, lines.text(), key, filter, longKeys, form);
        }
      } catch (KeyLines.BadLine e) {
        out.flush();
        spec.commandLine().getErr().println("sieve query: stdin " + e.getMessage());
        spec.commandLine().getErr().flush();
        return SstCliSupport.BAD_FILE;
      }
    }
    out.flush();
    noteNumericAbsent();
    return 0;
  }

  private void answer(
      PrintWriter out,
      String text,
      byte[] key,
      dev.sieve.KeyFilter filter,
      FastLongKeyFilter<?> longKeys,
      KeyForm form) {
    boolean maybe =
        longKeys != null
            ? longKeys.mayContain(java.nio.ByteBuffer.wrap(key).getLong())
            : filter.mayContain(key);
    print(out, text, maybe);
    seen(text, maybe, form);
  }

  /** Remembers the first numeric-looking text key that answered absent. */
  private void seen(String text, boolean maybe, KeyForm form) {
    if (!maybe && form == KeyForm.TEXT && numericAbsent == null && KeyForm.looksNumeric(text)) {
      numericAbsent = text;
    }
  }

  /**
   * One line on stderr when a numeric-looking key was asked as text and answered absent: a filter
   * built over numbers ({@code mayContain(42L)}) holds 8-byte keys, and reading that "absent" as a
   * false negative is the mistake this note prevents.
   */
  private void noteNumericAbsent() {
    if (numericAbsent == null) {
      return;
    }
    spec.commandLine()
        .getErr()
        .println(
            "sieve query: note: "
                + numericAbsent
                + " was asked as the text \""
                + numericAbsent
                + "\" (its UTF-8 bytes) and is absent as text; if the filter's keys were added as"
                + " numbers, ask with --long (8 big-endian bytes, as Filter.mayContain(long)) or"
                + " --int (4)");
    spec.commandLine().getErr().flush();
  }

  private int queryDb(List<byte[]> decoded, KeyForm form) throws java.io.IOException {
    dev.sieve.sst.DbView db =
        DbCommands.open(spec.commandLine(), "query", file, DbCommands.defaultThreads(), false);
    if (db == null) {
      return SstCliSupport.BAD_FILE;
    }
    PrintWriter out = spec.commandLine().getOut();
    if (!keys.isEmpty()) {
      for (int i = 0; i < keys.size(); i++) {
        seen(keys.get(i), DbCommands.query(out, db, keys.get(i), decoded.get(i)), form);
      }
    } else {
      KeyLines lines = new KeyLines(System.in, form, allowEmptyKey);
      try {
        for (byte[] key = lines.next(); key != null; key = lines.next()) {
          seen(lines.text(), DbCommands.query(out, db, lines.text(), key), form);
        }
      } catch (KeyLines.BadLine e) {
        out.flush();
        spec.commandLine().getErr().println("sieve query: stdin " + e.getMessage());
        spec.commandLine().getErr().flush();
        return SstCliSupport.BAD_FILE;
      }
    }
    out.flush();
    noteNumericAbsent();
    return DbCommands.reportErrors(spec.commandLine(), "query", db);
  }

  private static void print(PrintWriter out, String key, boolean maybe) {
    out.print(key);
    out.print('\t');
    out.println(maybe ? "maybe" : "absent");
  }
}
