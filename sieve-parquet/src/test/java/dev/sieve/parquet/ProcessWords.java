package dev.sieve.parquet;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The words by which a text in this repository would speak of how Sieve was made instead of what it
 * is: numbers of work items, documents that live outside the repository, and the machines it was
 * developed on. A comment gives the design reason, a figure lives in a results file the report
 * writes, and a test or script is named after what it checks; none of them needs these words, and a
 * reader of the repository cannot follow them. {@link ProcessWordsTest} runs {@link #RULES} over
 * the name and every line of every tracked text file.
 *
 * <p>This class is the one place that says what counts: each {@link Rule} has a name and the reason
 * it is flagged, and {@link #ALLOWED} is the short list of legitimate hits, each with its reason. A
 * pattern's first word may start with a capital (a sentence's start) or, after a lower-case letter
 * or a digit, be the capital of a camel-case word (a method named after a work item).
 */
final class ProcessWords {

  private ProcessWords() {}

  /** One kind of process word: its name, its pattern, and why it has no place in the repository. */
  record Rule(String name, Pattern pattern, String why) {}

  /**
   * A legitimate hit: a hit is allowed when the file's path matches {@code path} and a match of
   * {@code around} in the same text covers the hit.
   */
  record Allowed(Pattern path, Pattern around, String why) {}

  /** A flagged line: the file, the line (1-based; 0 for the file's name), the rule, the text. */
  record Hit(String path, int line, String rule, String text) {
    @Override
    public String toString() {
      return path + ":" + line + ": " + text.strip() + "   [" + rule + "]";
    }
  }

  // the start of a word: after a non-letter, or a capital after a lower-case letter or digit
  // (camel case, as in a test method named after a work item)
  private static String word(char first, String rest) {
    char upper = Character.toUpperCase(first);
    char lower = Character.toLowerCase(first);
    return "(?:(?<![A-Za-z])[" + upper + lower + "]|(?<=[a-z0-9])" + upper + ")" + rest;
  }

  private static final String QUANTITY =
      "(?:%|(?:s|ms|µs|ns|seconds?|minutes?|hours?|threads?|writers?|readers?|keys?|times?|bytes?"
          + "|of)\\b)";

  static final List<Rule> RULES =
      List.of(
          new Rule(
              "work item: issue number",
              Pattern.compile(
                  word('i', "ssues?[-_ ]?#?\\d+")
                      + "(?:(?:\\s*,\\s*|\\s+)(?:and\\s+)?\\d+)*(?:\\s*,?\\s*items?\\s+\\d+)?"),
              "names a numbered work item (with its item numbers); say the design reason or what"
                  + " the code guarantees instead"),
          new Rule(
              "work item: stop number",
              // not the verb before a quantity (stop 2 threads, stop 10 s later)
              Pattern.compile(word('s', "tops?[-_ ]?\\d+") + "(?![\\d.,]*\\s*" + QUANTITY + ")"),
              "names a numbered stage of the development; say what holds now instead"),
          new Rule(
              "work item: target id",
              // 2a, 11b, G1, G5 ...; not a number in exponent form (1e-3) nor a factor (10x)
              Pattern.compile(word('t', "argets?[-_ ]?(?:\\d+[a-wyz]\\b(?!-\\d)|[A-Z]\\d+\\b)")),
              "names a work item's goal by its id; state the goal itself (the target FPR, the"
                  + " time) where a reader can check it"),
          new Rule(
              "document outside the repository",
              Pattern.compile(
                  "(?<![\\w-])(?:api-and-house|anatomy|house-and-words|rocksdb-filters)\\.md\\b"
                      + "|\\.\\./shared\\b|\\bseed chapter\\b"),
              "points at a document a reader of the repository does not have; say what it said"),
          new Rule(
              "machine words",
              Pattern.compile(
                  "\\b\\d+-core\\s+(?:\\w+\\s+)?machine\\b|\\bshared\\s+(?:\\d+-core\\s+)?machine\\b"
                      + "|\\bdevelopment machine\\b|\\bvCPUs?\\b|\\bother helpers\\b"),
              "describes the machine the code was developed on, not a property of Sieve; a timing"
                  + " belongs in a results file that names its own machine"));

  static final List<Allowed> ALLOWED =
      List.of(
          new Allowed(
              Pattern.compile("(?:.*/)?ProcessWordsTest\\.java"),
              Pattern.compile(".+"),
              "the matcher's own tests plant each process word to show that it is flagged"),
          new Allowed(
              Pattern.compile(".*"),
              Pattern.compile(
                  "\\b(?:RocksDB|parquet-java|Parquet|Spark|ORC|OpenJDK|JDK|Guava|Cassandra"
                      + "|DataSketches|Hadoop|JUnit|Maven|Jazzer)(?:'s)?\\s+(?:GitHub\\s+|Jira\\s+)?"
                      + "issues?\\s+#?\\d+"),
              "another project's issue, cited by that project's name, is a reference a reader can"
                  + " follow"));

  /** The names of the rules that flag {@code text} anywhere in a file named {@code path}. */
  static List<String> rulesFlagging(String path, String text) {
    List<String> names = new ArrayList<>();
    for (Rule rule : RULES) {
      Matcher m = rule.pattern().matcher(text);
      while (m.find()) {
        if (!allowed(path, text, m.start(), m.end())) {
          names.add(rule.name());
          break;
        }
      }
    }
    return names;
  }

  /** The names of the rules that flag {@code text} in an ordinary file. */
  static List<String> rulesFlagging(String text) {
    return rulesFlagging("any/File.java", text);
  }

  private static boolean allowed(String path, String text, int start, int end) {
    for (Allowed a : ALLOWED) {
      if (!a.path().matcher(path).matches()) {
        continue;
      }
      Matcher m = a.around().matcher(text);
      while (m.find()) {
        if (m.start() <= start && end <= m.end()) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * The hits in one file: its name (line 0), each line, and each pair of adjacent lines joined
   * (comment leaders such as {@code *}, {@code //}, {@code #} dropped from the second), for the
   * words a line break splits; such a hit is reported on the first line of the pair.
   */
  static List<Hit> scan(String path, String content) {
    List<Hit> hits = new ArrayList<>();
    for (String rule : rulesFlagging(path, path)) {
      hits.add(new Hit(path, 0, rule, "(the file's name) " + path));
    }
    if (!mayHold(content)) {
      return hits;
    }
    String[] lines = content.split("\r?\n", -1);
    boolean[] may = new boolean[lines.length];
    for (int i = 0; i < lines.length; i++) {
      may[i] = mayHold(lines[i]);
    }
    for (int i = 0; i < lines.length; i++) {
      boolean pair = i + 1 < lines.length && (may[i] || may[i + 1]);
      if (!may[i] && !pair) {
        continue;
      }
      List<String> own = may[i] ? rulesFlagging(path, lines[i]) : List.of();
      for (String rule : own) {
        hits.add(new Hit(path, i + 1, rule, lines[i]));
      }
      if (pair) {
        String next = COMMENT_LEADER.matcher(lines[i + 1]).replaceFirst("");
        String joined = lines[i].stripTrailing() + " " + next;
        for (String rule : rulesFlagging(path, joined)) {
          if (!own.contains(rule) && !rulesFlagging(path, next).contains(rule)) {
            hits.add(new Hit(path, i + 1, rule, lines[i].stripTrailing() + " / " + next));
          }
        }
      }
    }
    return hits;
  }

  /**
   * Whether {@code text} holds a word that every rule's match contains (lower-cased): the cheap
   * test that spares the patterns the lines that cannot match.
   */
  static boolean mayHold(String text) {
    String lower = text.toLowerCase(Locale.ROOT);
    for (String key : KEYS) {
      if (lower.contains(key)) {
        return true;
      }
    }
    return false;
  }

  // one of these is in every match of every rule (a rule's pattern changed: change these too)
  private static final List<String> KEYS =
      List.of("issue", "stop", "target", ".md", "shared", "chapter", "machine", "vcpu", "helpers");

  private static final Pattern COMMENT_LEADER =
      Pattern.compile("^\\s*(?:\\*(?!/)|//+|#+|<!--|--|;+)?\\s*");
}
