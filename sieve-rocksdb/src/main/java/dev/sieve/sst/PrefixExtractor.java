package dev.sieve.sst;

import java.util.Arrays;

/**
 * The prefix extractors RocksDB ships, recognised by the name a table records ({@code
 * rocksdb.prefix.extractor.name}; include/rocksdb/slice_transform.h): {@code rocksdb.FixedPrefix.N}
 * (the first N bytes; keys shorter than N are outside its domain), {@code rocksdb.CappedPrefix.N}
 * (the first min(N, length) bytes) and {@code rocksdb.Noop} (the whole key). A custom extractor's
 * name is reported but cannot be evaluated: a prefix-only filter then answers "maybe".
 */
record PrefixExtractor(String name, Type type, int length) {
  enum Type {
    FIXED,
    CAPPED,
    NOOP,
    UNKNOWN
  }

  static PrefixExtractor parse(String name) {
    if (name == null) {
      return null;
    }
    if (name.equals("rocksdb.Noop")) {
      return new PrefixExtractor(name, Type.NOOP, 0);
    }
    for (Type t : new Type[] {Type.FIXED, Type.CAPPED}) {
      String stem = t == Type.FIXED ? "rocksdb.FixedPrefix." : "rocksdb.CappedPrefix.";
      if (name.startsWith(stem)) {
        try {
          int n = Integer.parseInt(name.substring(stem.length()));
          if (n >= 0) {
            return new PrefixExtractor(name, t, n);
          }
        } catch (NumberFormatException e) {
          break;
        }
      }
    }
    return new PrefixExtractor(name, Type.UNKNOWN, 0);
  }

  boolean known() {
    return type != Type.UNKNOWN;
  }

  /** RocksDB's {@code InDomain}: whether the key has a prefix this extractor defines. */
  boolean inDomain(byte[] key) {
    return type == Type.FIXED ? key.length >= length : type != Type.UNKNOWN;
  }

  /** RocksDB's {@code Transform}; call only where {@link #inDomain} holds. */
  byte[] transform(byte[] key) {
    return switch (type) {
      case FIXED, CAPPED -> Arrays.copyOf(key, Math.min(length, key.length));
      default -> key;
    };
  }
}
