package dev.sieve.expand;

import dev.sieve.internal.PayloadForm;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.WritableByteChannel;
import java.util.concurrent.locks.StampedLock;

/**
 * The container's payload form (type id 13) of an {@link ExpandableFilter}: {@link ExpandableForm};
 * parameter A the slot width in bits, B log2 of the slots. Read in place (a wrapped filter is
 * read-only); past one buffer's 2 GiB the table is mapped in segments ({@link ExpandableForm#map})
 * and written streamed, up to the largest table one heap array holds (2^31 − 9 words, 16 GiB: what
 * a filter on the heap can reach). The form is written under the filter's read lock: writers wait
 * until it is written.
 */
final class ExpandablePayload extends PayloadForm<ExpandableFilter> {
  ExpandablePayload() {
    super(ExpandableFilter.class);
  }

  /** {@return the serialized form of {@code f}, under its read lock} */
  static byte[] bytes(ExpandableFilter f) {
    long stamp = settled(f);
    try {
      return ExpandableForm.write(f, f.words, f.wrapped);
    } finally {
      f.lock.unlockRead(stamp);
    }
  }

  /**
   * Writes the serialized form of {@code f} to {@code out} in chunks (a table past one array's 2
   * GiB too), under its read lock.
   */
  static void write(ExpandableFilter f, WritableByteChannel out) throws IOException {
    long stamp = settled(f);
    try {
      ExpandableForm.write(f, f.words, f.wrapped, out);
    } finally {
      f.lock.unlockRead(stamp);
    }
  }

  /**
   * {@return a read lock of {@code f} with no doubling under way} The write lock first, to end a
   * doubling under way ({@link ExpandableMigration}), then held on as the read lock: the form is
   * that of one table, and a form's length, header and payload are of one state.
   */
  static long settled(ExpandableFilter f) {
    long stamp = f.lock.writeLock();
    ExpandableMigration.finish(f);
    return f.lock.tryConvertToReadLock(stamp);
  }

  @Override
  public byte[] payload(ExpandableFilter f) {
    return bytes(f);
  }

  /**
   * Runs {@code action} on {@code f} held still (the container writer's one moment for header and
   * payload, so that the header matches it): under the read lock, so writers wait, on a view that
   * shares the table but has its own lock and its own copy of the counts (the key count, the size,
   * the slot width read by the header), so the form's methods on it do not take the filter's lock
   * again (a {@link StampedLock} is not reentrant: a second read lock behind a queued writer would
   * wait forever). The view must not outlive the call. A wrapped filter is read-only: it is its own
   * snapshot.
   */
  @Override
  public <R, X extends Exception> R holdStill(
      ExpandableFilter f, HeldAction<? super ExpandableFilter, R, X> action) throws X {
    if (f.words == null) {
      return action.apply(f);
    }
    long stamp = settled(f);
    try {
      return action.apply(ExpandableOps.copyOf(f, f.keyScheme(), false, true));
    } finally {
      f.lock.unlockRead(stamp);
    }
  }

  @Override
  public int parameterA(ExpandableFilter f) {
    return f.width;
  }

  @Override
  public int parameterB(ExpandableFilter f) {
    return f.log;
  }

  /**
   * Width, log2 of the slots, table size and key count from the payload's header, checked with its
   * exact length ({@code ExpandableForm.shape}).
   */
  @Override
  public HeaderFields headerFields(ByteBuffer head, long payloadLength) {
    ExpandableFormCheck.Shape h = ExpandableFormCheck.shape(head, payloadLength);
    long bits = ExpandableSlots.tableBits(h.slots(), h.width());
    return new HeaderFields(h.width(), h.log(), bits, h.numKeys());
  }

  @Override
  public ExpandableFilter read(byte[] payload, long numKeys) {
    return ExpandableForm.read(ByteBuffer.wrap(payload), false);
  }

  @Override
  public ExpandableFilter wrap(ByteBuffer payload, long numKeys) {
    return ExpandableForm.read(payload, true);
  }

  @Override
  public boolean zeroCopy() {
    return true;
  }

  /** {@return the length in bytes of the serialized form, under the filter's read lock} */
  @Override
  public long payloadLength(ExpandableFilter f) {
    long stamp = settled(f);
    try {
      return ExpandableForm.length(f.slots, f.width);
    } finally {
      f.lock.unlockRead(stamp);
    }
  }

  @Override
  public void writePayload(ExpandableFilter f, WritableByteChannel out) throws IOException {
    write(f, out);
  }

  @Override
  public ExpandableFilter mapLarge(
      FileChannel channel, long payloadOffset, long payloadLength, int segmentShift, long numKeys)
      throws IOException {
    return ExpandableForm.map(channel, payloadOffset, payloadLength, segmentShift);
  }
}
