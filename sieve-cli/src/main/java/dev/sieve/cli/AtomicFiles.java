package dev.sieve.cli;

import dev.sieve.internal.AtomicFileWrite;
import dev.sieve.internal.ChannelWrites;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.file.Path;
import java.util.Set;

/**
 * The CLI's output files ({@code -o}): standard output for {@code -}, {@code /dev/stdout}, {@code
 * /dev/fd/1} and {@code /proc/self/fd/1}; anything else through sieve-core's {@link
 * AtomicFileWrite}, the library's one writer: a regular file (or a missing path) is written to a
 * temporary file beside it and renamed into place whole, while a device, a named pipe or another
 * descriptor path is written in place and never replaced. A symbolic link is written through; a
 * directory is refused.
 */
final class AtomicFiles {
  private AtomicFiles() {}

  private static final Set<String> STDOUT =
      Set.of("-", "/dev/stdout", "/dev/fd/1", "/proc/self/fd/1");

  /** Whether {@code -o file} means standard output. */
  static boolean isStdout(Path file) {
    return STDOUT.contains(file.toString());
  }

  static void write(Path file, byte[] bytes) throws IOException {
    write(file, out -> ChannelWrites.writeFully(out, ByteBuffer.wrap(bytes)));
  }

  static void write(Path file, AtomicFileWrite.Body body) throws IOException {
    if (!isStdout(file)) {
      AtomicFileWrite.write(file, body);
      return;
    }
    PrintStream stdout = System.out;
    stdout.flush();
    body.writeTo(Channels.newChannel(stdout));
    stdout.flush();
    if (stdout.checkError()) {
      throw new IOException("writing to standard output failed");
    }
  }
}
