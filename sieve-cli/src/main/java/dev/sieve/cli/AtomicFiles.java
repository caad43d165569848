package dev.sieve.cli;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Output files written whole or not at all: the bytes go to a new temporary file in the target's
 * directory ({@code .NAME.PID-N.tmp}), are forced to disk, and the file is renamed over the target
 * atomically. An interrupted or failed write leaves the target as it was (and no temporary file,
 * except after a crash). A symbolic link at the target is written through.
 */
final class AtomicFiles {
  private AtomicFiles() {}

  private static final AtomicLong COUNTER = new AtomicLong();

  static void write(Path file, byte[] bytes) throws IOException {
    Path target = Files.isSymbolicLink(file) ? file.toRealPath() : file.toAbsolutePath();
    Path dir = target.getParent();
    Path tmp;
    FileChannel ch;
    while (true) {
      tmp =
          dir.resolve(
              "."
                  + target.getFileName()
                  + "."
                  + ProcessHandle.current().pid()
                  + "-"
                  + COUNTER.incrementAndGet()
                  + ".tmp");
      try {
        ch = FileChannel.open(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        break;
      } catch (FileAlreadyExistsException e) {
        // a crashed writer's leftover with the same pid: take the next name
      }
    }
    boolean done = false;
    try {
      try (FileChannel out = ch) {
        ByteBuffer b = ByteBuffer.wrap(bytes);
        while (b.hasRemaining()) {
          out.write(b);
        }
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
