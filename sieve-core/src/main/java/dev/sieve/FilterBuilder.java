package dev.sieve;

import dev.sieve.hash.KeyEncoder;
import dev.sieve.hash.KeyHash;
import dev.sieve.internal.base.LongList;
import java.util.Iterator;
import java.util.Objects;
import java.util.stream.Stream;

/**
 * Builds a filter of one type from a key set, with one vocabulary for every type (each filter class
 * has its own concrete builder, e.g. {@code BlockedBloomFilter.builder()}, and {@link
 * dev.sieve.registry.FilterType#builder()} gives any of them by name):
 *
 * <ul>
 *   <li>{@link #fpRate(double)}: the target false-positive rate, meaning the same in every class:
 *       the filter is sized so that its modelled rate at the key count it is built for is at most
 *       {@code fpRate} (a fixed-width filter such as Xor8 accepts the rates it reaches and rejects
 *       a lower one, naming the limit; it keeps its width, so {@code fpRate} does not shrink it:
 *       Xor16 or Binary Fuse 16 at {@code fpRate(0.01)} still stores 16-bit fingerprints, about
 *       18-20 bits/key at 0.0015%).
 *   <li>The size setting under its own name, where a class has one: {@code bitsPerKey} (the Bloom
 *       filters), {@code bloomEquivalentBitsPerKey} (Ribbon, RocksDB's setting: the rate of a
 *       blocked Bloom filter at that many bits/key), {@code fingerprintBits} (Cuckoo). The last
 *       call of {@code fpRate} or the size setting wins.
 *   <li>{@link #seed(long)} for the types whose construction takes a seed (Xor, Binary Fuse); the
 *       others hash exactly as RocksDB does and reject a seed.
 *   <li>{@link #keyScheme(KeyScheme)}: how keys are hashed ({@link KeyScheme}; unless set, the
 *       type's default: {@link KeyScheme#FAST} where no format fixes the hash, RocksDB's XXPH3 for
 *       blocked Bloom and Standard128 Ribbon), which the filter built keeps and hashes every key
 *       by.
 *   <li>{@code expectedKeys(n)} and {@code create()} for the mutable types ({@link
 *       MutableFilterBuilder}).
 *   <li>{@code build(...)} over {@code long[]}, {@code byte[][]}, text keys, an {@code Iterable} or
 *       {@code Stream} of any key type with its {@link KeyEncoder}, and pre-computed 64-bit key
 *       hashes ({@link #buildFromHashes(long[])}).
 * </ul>
 *
 * <p>This base class turns every kind of key input into 64-bit key hashes by the scheme ({@link
 * KeyScheme}), so a subclass implements one build method, {@link #buildFromHashes(long[], int)},
 * and the filter it returns is given the scheme here. The same keys give the same filter bytes
 * whichever input form carries them ({@code "a"} as a {@code String}, as its UTF-8 {@code byte[]}
 * or through an encoder writing those bytes), except for numbers under {@link KeyScheme#FAST} (the
 * {@code long} 42 and its eight bytes are two keys) and the range filters' {@code long} keys, which
 * their builders take as they are while no scheme is set ({@link #buildFromLongKeys}: a range
 * filter's keys are values in order).
 *
 * <p>Duplicate keys are always accepted. Builders are not thread-safe; the filters they build are.
 *
 * @param <F> the filter type built
 */
public abstract class FilterBuilder<F extends Filter> {

  /** The most keys one build accepts: one Java array of hashes. */
  public static final int MAX_KEYS = Integer.MAX_VALUE - 8;

  private KeyScheme keyScheme;

  /** A builder whose filters hash by {@link KeyScheme#XXPH3} unless {@link #keyScheme} is set. */
  protected FilterBuilder() {
    this(KeyScheme.XXPH3);
  }

  /**
   * A builder whose filters hash by {@code defaultScheme} unless {@link #keyScheme} is set: {@link
   * KeyScheme#FAST} for a type whose bytes no other system reads, the owner's hash where a format
   * fixes it.
   *
   * @param defaultScheme the type's default scheme
   */
  protected FilterBuilder(KeyScheme defaultScheme) {
    this.keyScheme = Objects.requireNonNull(defaultScheme, "defaultScheme");
  }

  /**
   * How the filter built hashes its keys ({@link KeyScheme}); unless set, the type's default:
   * {@link KeyScheme#FAST} where no format fixes the hash, {@link KeyScheme#XXPH3} for RocksDB's
   * types (blocked Bloom, Standard128 Ribbon) and the other format-bound builders. The keys given
   * to {@code build} are hashed by it, and the filter keeps it for its queries and adds and records
   * it in its container.
   *
   * @param scheme the scheme
   * @return this builder
   * @throws IllegalArgumentException for {@link KeyScheme#IDENTITY} on a type that does not mix
   *     hashes itself (only Xor and Binary Fuse take it)
   */
  public FilterBuilder<F> keyScheme(KeyScheme scheme) {
    Objects.requireNonNull(scheme, "scheme");
    if (scheme == KeyScheme.IDENTITY && !isIdentitySafe()) {
      throw new IllegalArgumentException(
          "keys as their own hash (IDENTITY) need a filter that mixes them itself (Xor, Binary"
              + " Fuse), not "
              + getClass().getName().replaceFirst(".*\\.", ""));
    }
    this.keyScheme = scheme;
    return this;
  }

  /**
   * Whether the filters built may take keys as their own hashes ({@link KeyScheme#IDENTITY}): their
   * probe sends the 64-bit key hash and its seed through a full 64-bit finalizer, every input bit
   * reaching every output bit, so that neither the false-positive rate nor the construction's
   * success rate depends on the keys being mixed first. {@code false} here; the builders of such
   * types (Xor, Binary Fuse, the range filters) return {@code true}, as their registry type's
   * {@code isIdentitySafe()} does. {@link #keyScheme(KeyScheme)} refuses {@code IDENTITY} where
   * this is {@code false}.
   *
   * @return whether {@link KeyScheme#IDENTITY} is accepted
   */
  protected boolean isIdentitySafe() {
    return false;
  }

  /**
   * The scheme the filter built hashes its keys by.
   *
   * @return the scheme
   */
  public final KeyScheme keyScheme() {
    return keyScheme;
  }

  /**
   * {@code filter}, just built or created by a subclass, under this builder's scheme.
   *
   * @param filter the filter
   * @return it, carrying {@link #keyScheme()}
   */
  @SuppressWarnings("unchecked")
  protected final F schemed(F filter) {
    if (keyScheme == KeyScheme.XXPH3 || filter.keyScheme() == keyScheme) {
      return filter;
    }
    // the filter's withKeyScheme refuses a scheme its type cannot carry
    Filter schemed = filter.withKeyScheme(keyScheme);
    if (schemed.getClass() != filter.getClass()) {
      throw new IllegalStateException(
          filter.getClass().getName() + ".withKeyScheme gave a " + schemed.getClass().getName());
    }
    return (F) schemed; // the same class as the F given
  }

  /**
   * Sizes for a target false-positive rate in (0, 1): the filter's modelled rate at the key count
   * it is built (or created) for is at most {@code fpRate}. The types whose size follows a setting
   * (Bloom, Ribbon, Cuckoo) take the smallest setting that meets the rate; the Xor and Binary Fuse
   * filters, whose fingerprint width the class fixes, only check that their width meets it and keep
   * their size ({@code Xor16Filter.builder().fpRate(0.01)}: 19.7 bits/key at 0.0015%; {@code
   * Xor8Filter} meets the same rate at 9.8).
   *
   * @param fpRate the target rate
   * @return this builder
   * @throws IllegalArgumentException if {@code fpRate} is not in (0, 1) or below the lowest rate
   *     the type reaches (the message names it)
   */
  public abstract FilterBuilder<F> fpRate(double fpRate);

  /**
   * The seed of a construction that takes one (Xor, Binary Fuse: the first construction attempt);
   * builds are deterministic for a given seed.
   *
   * @param seed the seed
   * @return this builder
   * @throws UnsupportedOperationException for the types that hash exactly as RocksDB does and have
   *     no seed (the Bloom filters, Ribbon, whose seed is chosen by its construction) or whose
   *     layout takes none (Cuckoo)
   */
  public FilterBuilder<F> seed(long seed) {
    throw new UnsupportedOperationException(
        filterName() + " takes no seed: its hashing is fixed (the same keys give the same bytes)");
  }

  /** The simple name of the filter class built, for messages. */
  String filterName() {
    String name = getClass().getName();
    int dollar = name.lastIndexOf('$');
    name = dollar > 0 ? name.substring(0, dollar) : name;
    return name.substring(name.lastIndexOf('.') + 1);
  }

  /**
   * Builds the filter from the first {@code count} entries of {@code hashes}, 64-bit key hashes as
   * {@link KeyHash} computes them (or any well-mixed 64-bit hashes). The builder may reorder the
   * array's first {@code count} entries but keeps no reference to it.
   *
   * @param hashes the key hashes
   * @param count how many of them to use
   * @return the filter
   */
  protected abstract F buildFromHashes(long[] hashes, int count);

  /**
   * Builds the filter from pre-computed 64-bit key hashes, as the builder's {@link #keyScheme()}
   * computes them ({@code keyScheme().hash(key)}); the array is not modified.
   *
   * @param hashes the key hashes
   * @return the filter
   */
  public final F buildFromHashes(long[] hashes) {
    Objects.requireNonNull(hashes, "hashes");
    return schemed(buildFromHashes(hashes.clone(), hashes.length));
  }

  /**
   * Builds the filter from {@code long} keys, each hashed by the scheme ({@link KeyHash#mix64}
   * under {@link KeyScheme#FAST}, its eight big-endian bytes under XXPH3); a type whose {@code
   * long} keys are values in order (the range filters) builds over them as they are instead, unless
   * a scheme was set ({@link #buildFromLongKeys}).
   *
   * @param keys the keys
   * @return the filter
   */
  public final F build(long[] keys) {
    Objects.requireNonNull(keys, "keys");
    F own = buildFromLongKeys(keys);
    if (own != null) {
      return own;
    }
    long[] hashes = new long[keys.length];
    keyScheme.hash(keys, 0, keys.length, hashes, 0);
    return schemed(buildFromHashes(hashes, hashes.length));
  }

  /**
   * A subclass's own build from {@code long} keys, in place of hashing them all by the scheme into
   * one array for {@link #buildFromHashes(long[], int)}: a type whose keys are values in order
   * builds over them as they are, so that {@link #build(long[])} gives the filter its name promises
   * (a range filter over the keys, not a point filter over their hashes); a type that hashes the
   * keys by {@link #keyScheme()} itself as it adds them (a block at a time, without an array of
   * {@code n} hashes) returns the filter {@code buildFromHashes} gives for their hashes. {@code
   * null}, the default, hashes them by the scheme. The array is not modified.
   *
   * @param keys the keys
   * @return the filter, carrying its own scheme, or {@code null}
   */
  protected F buildFromLongKeys(long[] keys) {
    return null;
  }

  /**
   * Builds the filter from byte-string keys.
   *
   * @param keys the keys, none {@code null}
   * @return the filter
   * @throws KeySchemeException if the scheme takes {@code long} keys only
   */
  public final F build(byte[][] keys) {
    Objects.requireNonNull(keys, "keys");
    long[] hashes = new long[keys.length];
    for (int i = 0; i < keys.length; i++) {
      byte[] key = Objects.requireNonNull(keys[i], "keys[i]");
      hashes[i] = keyScheme.hash(key, 0, key.length);
    }
    return schemed(buildFromHashes(hashes, hashes.length));
  }

  /**
   * Builds the filter from text keys, each hashed as its UTF-8 bytes ({@link
   * KeyHash#hash64(CharSequence)} under XXPH3 and FAST).
   *
   * @param keys the keys, none {@code null}
   * @return the filter
   * @throws KeySchemeException if the scheme takes {@code long} keys only
   */
  public final F build(CharSequence[] keys) {
    Objects.requireNonNull(keys, "keys");
    long[] hashes = new long[keys.length];
    for (int i = 0; i < keys.length; i++) {
      hashes[i] = keyScheme.hash(Objects.requireNonNull(keys[i], "keys[i]"));
    }
    return schemed(buildFromHashes(hashes, hashes.length));
  }

  /**
   * Builds the filter from byte-string keys, iterated once.
   *
   * @param keys the keys, none {@code null}
   * @return the filter
   */
  public final F build(Iterable<byte[]> keys) {
    return build(keys, KeyEncoder.BYTES);
  }

  /**
   * Builds the filter from keys of any type, iterated once, each hashed as the bytes {@code
   * encoder} writes for it.
   *
   * @param <T> the key type
   * @param keys the keys, none {@code null}
   * @param encoder how a key becomes bytes, e.g. {@link KeyEncoder#UTF8}
   * @return the filter
   */
  public final <T> F build(Iterable<? extends T> keys, KeyEncoder<? super T> encoder) {
    Objects.requireNonNull(keys, "keys");
    return build(keys.iterator(), encoder);
  }

  /**
   * Builds the filter from a stream of keys of any type, each hashed as the bytes {@code encoder}
   * writes for it. The stream is consumed.
   *
   * @param <T> the key type
   * @param keys the keys, none {@code null}
   * @param encoder how a key becomes bytes
   * @return the filter
   */
  public final <T> F build(Stream<? extends T> keys, KeyEncoder<? super T> encoder) {
    Objects.requireNonNull(keys, "keys");
    return build(keys.iterator(), encoder);
  }

  private <T> F build(Iterator<? extends T> keys, KeyEncoder<? super T> encoder) {
    Objects.requireNonNull(encoder, "encoder");
    LongList hashes = new LongList(16);
    while (keys.hasNext()) {
      if (hashes.size() >= MAX_KEYS) {
        throw new IllegalArgumentException("more than " + MAX_KEYS + " keys in one build");
      }
      hashes.add(keyScheme.hash(Objects.requireNonNull(keys.next(), "key"), encoder));
    }
    return schemed(buildFromHashes(hashes.array(), hashes.size()));
  }
}
