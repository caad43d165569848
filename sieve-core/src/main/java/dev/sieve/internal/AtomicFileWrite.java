package dev.sieve.internal;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;

/**
 * Writing an output file whole or not at all, without destroying what is not a file: the one
 * implementation behind {@code SieveFormat.write(Filter, Path)} and the CLI's {@code -o}.
 *
 * <h2>The idea</h2>
 *
 * A <em>regular file</em> (or a missing path) is replaced atomically: the bytes go to a new
 * temporary file in the target's directory ({@code .NAME.PID-N.tmp}, created exclusively), are
 * forced to disk, and the temporary file is renamed over the target ({@link
 * StandardCopyOption#ATOMIC_MOVE}; a plain replacing move where the file system cannot rename
 * atomically). The target then holds its old bytes or all of the new ones, never a truncated
 * mixture, even if the write fails or the process dies; a reader that mapped the old file keeps its
 * bytes. A symbolic link is written through: the file it points to is replaced.
 *
 * <p>Renaming over anything else destroys it: over a character device ({@code /dev/null}, {@code
 * /dev/full}) it turns the device node into a regular file for every process on the host, and over
 * a named pipe (FIFO) it unlinks the pipe while its reader waits for bytes that never come. So
 * anything that exists and is neither a regular file nor a directory — a character or block device,
 * a FIFO, a socket — is <em>opened and written in place</em>, as {@code cat > target} would: no
 * temporary file, no rename, no truncation and no {@code fsync} (which pipes and devices refuse). A
 * path that names an open file descriptor ({@code /dev/stdout}, {@code /dev/stderr}, {@code
 * /dev/fd/N}, {@code /proc/self/fd/N}, {@code /proc/PID/fd/N}) is also written in place, appending
 * when the descriptor is a regular file, so a shell's {@code > file} or {@code >> file} redirection
 * receives the bytes instead of having its file renamed away. A directory is refused with a {@link
 * FileSystemException} naming it.
 *
 * <p>The trade-off: an in-place write is not atomic (a reader of the pipe or device sees the bytes
 * as they are written, and a failure leaves part of them written), which is what writing to a pipe
 * or device means.
 */
public final class AtomicFileWrite {
  private AtomicFileWrite() {}

  /** The bytes of one output, written to the channel given (which the caller must not close). */
  @FunctionalInterface
  public interface Body {
    /**
     * Writes the whole output to {@code out}.
     *
     * @param out the channel; not to be closed
     * @throws IOException if writing fails
     */
    void writeTo(WritableByteChannel out) throws IOException;
  }

  /** How {@link #write} delivered the bytes. */
  public enum Outcome {
    /** A temporary file renamed over a regular file or a missing path. */
    REPLACED,
    /** Written in place into a device, pipe, socket or open file descriptor. */
    IN_PLACE
  }

  private static final AtomicLong COUNTER = new AtomicLong();

  /** Paths naming an open file descriptor of this process (Linux, the BSDs, macOS). */
  private static final Pattern DESCRIPTOR_PATH =
      Pattern.compile("/dev/(stdout|stderr|fd/[0-9]+)|/proc/(self|[0-9]+)/fd/[0-9]+");

  /**
   * Writes {@code body}'s bytes to {@code file}: atomically over a regular file or a missing path,
   * in place into anything else that is not a directory (see the class comment).
   *
   * @param file the target
   * @param body writes the bytes
   * @return how the bytes were delivered
   * @throws FileSystemException if {@code file} is a directory
   * @throws IOException if writing fails (the target is then unchanged, for a regular file)
   */
  public static Outcome write(Path file, Body body) throws IOException {
    Objects.requireNonNull(file, "file");
    Objects.requireNonNull(body, "body");
    BasicFileAttributes attrs = attributes(file);
    if (attrs != null && attrs.isDirectory()) {
      throw new FileSystemException(file.toString(), null, "is a directory, not a file");
    }
    if (attrs != null && (!attrs.isRegularFile() || isDescriptorPath(file))) {
      writeInPlace(file, body, attrs.isRegularFile());
      return Outcome.IN_PLACE;
    }
    replace(file, body);
    return Outcome.REPLACED;
  }

  /** Whether {@code file}, as written, names an open file descriptor ({@code /dev/stdout}). */
  public static boolean isDescriptorPath(Path file) {
    return DESCRIPTOR_PATH.matcher(file.toAbsolutePath().normalize().toString()).matches();
  }

  /** The attributes of what {@code file} names, links followed; {@code null} if nothing. */
  private static BasicFileAttributes attributes(Path file) throws IOException {
    try {
      return Files.readAttributes(file, BasicFileAttributes.class);
    } catch (NoSuchFileException e) {
      return null;
    }
  }

  private static void writeInPlace(Path file, Body body, boolean append) throws IOException {
    try (FileChannel out =
        append
            ? FileChannel.open(file, StandardOpenOption.WRITE, StandardOpenOption.APPEND)
            : FileChannel.open(file, StandardOpenOption.WRITE)) {
      body.writeTo(out);
    }
  }

  private static void replace(Path file, Body body) throws IOException {
    Path target = Files.isSymbolicLink(file) ? file.toRealPath() : file.toAbsolutePath();
    Path dir = target.getParent();
    String name = target.getFileName().toString();
    Path tmp;
    FileChannel ch;
    while (true) {
      tmp =
          dir.resolve(
              "."
                  + name
                  + "."
                  + ProcessHandle.current().pid()
                  + "-"
                  + COUNTER.incrementAndGet()
                  + ".tmp");
      try {
        ch = FileChannel.open(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        break;
      } catch (FileAlreadyExistsException e) {
        // a leftover of a crashed writer with the same pid: take the next name
      } catch (NoSuchFileException e) {
        if (!Files.isDirectory(dir)) {
          // the temporary file is ours, not the caller's: name what is missing, the directory
          throw new NoSuchFileException(
              dir.toString(), null, "no such directory to write " + name + " in");
        }
        throw e;
      }
    }
    boolean done = false;
    try {
      try (FileChannel out = ch) {
        body.writeTo(out);
        out.force(true);
      }
      try {
        Files.move(
            tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
      }
      done = true;
    } finally {
      if (!done) {
        Files.deleteIfExists(tmp);
      }
    }
  }
}
