package dev.sieve.sst;

import dev.sieve.SieveFormatException;
import java.util.List;

/**
 * A MANIFEST whose records replay without error but lack an entry RocksDB requires before it opens
 * the database: a log number, a next file number and a last sequence number ({@code
 * VersionEditHandler::CheckIterationResult}, db/version_edit_handler.cc, which answers {@code
 * Corruption: no log_file_number, next_file_number, last_sequence entry in MANIFEST}). A MANIFEST
 * cut short (a crash while it was rewritten, a truncated copy) reads so: its first records, the
 * column families and files of a snapshot, parse, and the edit that carries these entries is gone,
 * so the files it lists need not be the database's. It is refused, never read as a smaller
 * database.
 */
public final class IncompleteManifestException extends SieveFormatException {
  private static final long serialVersionUID = 1L;

  /** The names of the missing entries, as RocksDB spells them. */
  private final List<String> missingEntries;

  IncompleteManifestException(long offset, String manifestName, List<String> missing, String note) {
    super(
        offset,
        "no "
            + String.join(", ", missing)
            + " entry in "
            + manifestName
            + " (RocksDB refuses it: Corruption)"
            + (note == null ? "" : "; " + note));
    this.missingEntries = List.copyOf(missing);
  }

  /** {@return the missing entries: some of log_file_number, next_file_number, last_sequence} */
  public List<String> missingEntries() {
    return missingEntries;
  }
}
