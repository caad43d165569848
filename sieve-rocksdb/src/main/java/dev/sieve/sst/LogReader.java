package dev.sieve.sst;

import dev.sieve.SieveFormatException;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * RocksDB's log format, read whole: the container of the MANIFEST (and of the WAL, which Sieve does
 * not read). Spec map with file:line references: docs/manifest.md.
 *
 * <h2>Layout (db/log_format.h, db/log_writer.cc, db/log_reader.cc)</h2>
 *
 * The file is a sequence of 32 KiB blocks. Each block holds physical records, each with a header
 *
 * <pre>
 *  checksum (4, masked CRC32C, little-endian) | length (2, little-endian) | type (1)
 *  [| log number (4), recyclable types only] | payload (length bytes)
 * </pre>
 *
 * A record never crosses a block boundary; a block tail shorter than a header is zero padding. A
 * logical record is one FULL record, or FIRST, MIDDLE…, LAST. The checksum covers the type byte,
 * the log number of a recyclable header, and the payload; it is stored masked: {@code ((crc >>> 15)
 * | (crc << 17)) + 0xa282ead8}. Types: 0 zero (preallocated space, skipped), 1–4
 * FULL/FIRST/MIDDLE/LAST, 5–8 their recyclable forms, 9 set-compression (a WAL feature; a MANIFEST
 * with compression is refused), 10/11 user-defined timestamp sizes (WAL only, skipped), 130/131
 * predecessor WAL info (skipped); any other type with bit 7 set is safe to ignore, any other type
 * without it is corruption.
 *
 * <h2>What is an error</h2>
 *
 * As RocksDB reads a MANIFEST (its default {@code kTolerateCorruptedTailRecords}): an incomplete
 * record at the very end of the file (a writer that died mid-record) ends the log and is reported
 * in {@link Result#tailNote()}; a checksum mismatch, a length that overruns its block before the
 * end of the file, a fragment out of order or an unknown required type is a {@link
 * SieveFormatException} naming the file offset. A recyclable record whose log number differs from
 * the first record's is a stale record from a recycled file and ends the log, as in RocksDB.
 */
final class LogReader {
  static final int BLOCK_SIZE = 32768;
  static final int HEADER_SIZE = 7;
  static final int RECYCLABLE_HEADER_SIZE = 11;
  static final int MASK_DELTA = 0xa282ead8;

  static final int ZERO = 0;
  static final int FULL = 1;
  static final int FIRST = 2;
  static final int MIDDLE = 3;
  static final int LAST = 4;
  static final int RECYCLABLE_FULL = 5;
  static final int RECYCLABLE_LAST = 8;
  static final int SET_COMPRESSION = 9;
  static final int UDT_SIZE = 10;
  static final int RECYCLABLE_UDT_SIZE = 11;
  static final int PREDECESSOR_WAL_INFO = 130;
  static final int RECYCLE_PREDECESSOR_WAL_INFO = 131;
  static final int SAFE_IGNORE_MASK = 1 << 7;

  private LogReader() {}

  /** A logical record and the file offset of its first fragment's header. */
  // payload held as read; the nested name is RocksDB's term
  @SuppressWarnings({"ArrayRecordComponent", "JavaLangClash"})
  record Record(long offset, byte[] payload) {}

  /** The records, and a note on an incomplete tail ({@code null} when the log ended cleanly). */
  record Result(List<Record> records, String tailNote) {}

  /** RocksDB's {@code crc32c::Mask}. */
  static int mask(int crc) {
    return ((crc >>> 15) | (crc << 17)) + MASK_DELTA;
  }

  /** Reads every logical record of a log file held in memory. */
  // arms throw, accumulate and break; statement form is clearer
  @SuppressWarnings("StatementSwitchToExpressionSwitch")
  static Result read(byte[] file) {
    List<Record> out = new ArrayList<>();
    java.io.ByteArrayOutputStream pending = null;
    long pendingOffset = -1;
    boolean recycled = false;
    boolean firstRead = false;
    long logNumber = -1;
    int pos = 0;
    while (pos < file.length) {
      int blockLeft = BLOCK_SIZE - (pos % BLOCK_SIZE);
      if (blockLeft < HEADER_SIZE) {
        pos += blockLeft; // trailer padding
        continue;
      }
      if (file.length - pos < HEADER_SIZE) {
        return new Result(out, incomplete(pos, file.length, "a truncated record header"));
      }
      int length = (file[pos + 4] & 0xFF) | (file[pos + 5] & 0xFF) << 8;
      int type = file[pos + 6] & 0xFF;
      boolean recyclable =
          (type >= RECYCLABLE_FULL && type <= RECYCLABLE_LAST)
              || type == RECYCLABLE_UDT_SIZE
              || type == RECYCLE_PREDECESSOR_WAL_INFO;
      int headerSize = recyclable ? RECYCLABLE_HEADER_SIZE : HEADER_SIZE;
      if (recyclable) {
        if (firstRead && !recycled) {
          throw new SieveFormatException(
              pos, "recyclable record type " + type + " in a log that did not start with one");
        }
        recycled = true;
      }
      if (type == ZERO && length == 0) {
        // preallocated space (mmap writes): RocksDB drops the rest of the block
        pos += blockLeft;
        continue;
      }
      long end = (long) pos + headerSize + length;
      if (end > pos + (long) blockLeft) {
        if (file.length < pos + (long) blockLeft) {
          return new Result(
              out, incomplete(pos, file.length, "a record of " + length + " bytes cut short"));
        }
        throw new SieveFormatException(
            pos,
            "log record length "
                + length
                + " (+"
                + headerSize
                + "-byte header) overruns its 32 KiB block, which ends at "
                + (pos + (long) blockLeft));
      }
      if (end > file.length) {
        return new Result(
            out, incomplete(pos, file.length, "a record of " + length + " bytes cut short"));
      }
      if (recyclable) {
        long num = LittleEndian.i32(file, pos + 7) & 0xFFFFFFFFL;
        if (logNumber < 0) {
          logNumber = num;
        } else if (num != logNumber) {
          // a stale record from the file's previous life: the log ends here
          return new Result(out, null);
        }
      }
      CRC32C crc = new CRC32C();
      crc.update(file, pos + 6, headerSize - 6 + length);
      int stored = LittleEndian.i32(file, pos);
      int computed = mask((int) crc.getValue());
      if (stored != computed) {
        throw new SieveFormatException(
            pos,
            "log record checksum mismatch (stored 0x"
                + Integer.toHexString(stored)
                + ", computed 0x"
                + Integer.toHexString(computed)
                + ")");
      }
      firstRead = true;
      int payload = pos + headerSize;
      int base = recyclable && type <= RECYCLABLE_LAST ? type - 4 : type;
      switch (base) {
        case FULL:
          if (pending != null) {
            throw new SieveFormatException(pos, "FULL log record inside a fragmented record");
          }
          out.add(new Record(pos, java.util.Arrays.copyOfRange(file, payload, payload + length)));
          break;
        case FIRST:
          if (pending != null) {
            throw new SieveFormatException(pos, "FIRST log record inside a fragmented record");
          }
          pending = new java.io.ByteArrayOutputStream(Math.max(length * 2, 64));
          pending.write(file, payload, length);
          pendingOffset = pos;
          break;
        case MIDDLE:
        case LAST:
          if (pending == null) {
            throw new SieveFormatException(
                pos,
                (base == MIDDLE ? "MIDDLE" : "LAST")
                    + " log record without a FIRST before it (a missing fragment)");
          }
          pending.write(file, payload, length);
          if (base == LAST) {
            out.add(new Record(pendingOffset, pending.toByteArray()));
            pending = null;
          }
          break;
        case SET_COMPRESSION:
          throw new SieveFormatException(
              pos, "log record sets a compression type: compressed logs are not read");
        case UDT_SIZE:
        case RECYCLABLE_UDT_SIZE:
        case PREDECESSOR_WAL_INFO:
        case RECYCLE_PREDECESSOR_WAL_INFO:
          break; // WAL metadata, nothing a MANIFEST reader needs
        default:
          if ((type & SAFE_IGNORE_MASK) == 0) {
            throw new SieveFormatException(pos, "unknown log record type " + type);
          }
          pending = null; // RocksDB drops a fragmented record interrupted by an ignorable one
      }
      pos = (int) end;
    }
    if (pending != null) {
      return new Result(
          out,
          incomplete(pendingOffset, file.length, "a fragmented record without its LAST fragment"));
    }
    return new Result(out, null);
  }

  private static String incomplete(long at, long fileLength, String what) {
    return "the log ends at "
        + fileLength
        + " in "
        + what
        + " starting at "
        + at
        + "; ignored, as RocksDB ignores an incomplete last record";
  }
}
