package dev.sieve.cli;

import java.util.Collection;

/**
 * The line for an unknown command name ({@code sieve qurey}): the nearest command by edit distance
 * when one is close enough to be a typo, and the list of commands either way. picocli's own message
 * for it, "Unmatched argument at index 0", names neither the mistake nor the fix.
 */
final class NearestCommand {
  private NearestCommand() {}

  /**
   * The message for {@code given}, an unknown command, among {@code commands}.
   *
   * @return "unknown command 'given'; did you mean 'x'? commands: a, b, ..." (no suggestion when
   *     none is within a third of the name's length, at least 1, edits)
   */
  static String message(String given, Collection<String> commands) {
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    for (String c : commands) {
      int d = distance(given.toLowerCase(java.util.Locale.ROOT), c);
      if (d < bestDistance) {
        bestDistance = d;
        best = c;
      }
    }
    int allowed = Math.max(1, Math.max(given.length(), best == null ? 0 : best.length()) / 3);
    boolean close =
        best != null
            && (bestDistance <= allowed
                || (given.length() >= 3
                    && best.startsWith(given.toLowerCase(java.util.Locale.ROOT))));
    return "unknown command '"
        + given
        + "'"
        + (close ? "; did you mean '" + best + "'?" : ";")
        + " commands: "
        + String.join(", ", commands);
  }

  /** The Damerau-Levenshtein (optimal string alignment) distance: a swap of two letters is one. */
  static int distance(String a, String b) {
    int n = a.length();
    int m = b.length();
    if (n > 64 || m > 64) {
      return Math.max(n, m); // no command is that long: not a typo of one
    }
    int[][] d = new int[n + 1][m + 1];
    for (int i = 0; i <= n; i++) {
      d[i][0] = i;
    }
    for (int j = 0; j <= m; j++) {
      d[0][j] = j;
    }
    for (int i = 1; i <= n; i++) {
      for (int j = 1; j <= m; j++) {
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        int v = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
        if (i > 1
            && j > 1
            && a.charAt(i - 1) == b.charAt(j - 2)
            && a.charAt(i - 2) == b.charAt(j - 1)) {
          v = Math.min(v, d[i - 2][j - 2] + 1);
        }
        d[i][j] = v;
      }
    }
    return d[n][m];
  }
}
