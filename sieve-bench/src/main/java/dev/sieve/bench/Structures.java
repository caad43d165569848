package dev.sieve.bench;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The registry of every structure under test, by name, in report order. */
public final class Structures {
  private Structures() {}

  private static final Map<String, StructureKind> BY_NAME = index();

  private static Map<String, StructureKind> index() {
    Map<String, StructureKind> map = new LinkedHashMap<>();
    List<StructureKind> all = new ArrayList<>();
    all.addAll(SieveAdapters.kinds());
    all.addAll(PeerAdapters.kinds());
    all.addAll(ExactBaselines.kinds());
    all.addAll(RawRandomRead.kinds());
    all.addAll(Diagnostics.kinds());
    all.addAll(ProbeForms.kinds());
    for (StructureKind kind : all) {
      if (map.put(kind.name(), kind) != null) {
        throw new IllegalStateException("duplicate structure name " + kind.name());
      }
    }
    return Collections.unmodifiableMap(map);
  }

  /** Every kind, Sieve first, then peers, exact baselines and the raw-read limit. */
  public static List<StructureKind> all() {
    return List.copyOf(BY_NAME.values());
  }

  /** The kind called {@code name}. */
  public static StructureKind byName(String name) {
    StructureKind kind = BY_NAME.get(name);
    if (kind == null) {
      throw new IllegalArgumentException(
          "unknown structure '" + name + "'; known: " + String.join(", ", BY_NAME.keySet()));
    }
    return kind;
  }

  /** Whether {@code name} is a known kind. */
  public static boolean exists(String name) {
    return BY_NAME.containsKey(name);
  }
}
