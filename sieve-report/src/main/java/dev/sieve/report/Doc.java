package dev.sieve.report;

import java.util.ArrayList;
import java.util.List;

/**
 * A report document as a list of blocks (headings, paragraphs, tables, images), rendered both as
 * Markdown and as one self-contained HTML page from the same content.
 */
public final class Doc {
  private sealed interface Block permits Heading, Para, Bullets, Table, Image {}

  private record Heading(int level, String text) implements Block {}

  private record Para(String text) implements Block {}

  private record Bullets(List<String> items) implements Block {}

  private record Table(List<String> header, List<List<String>> rows) implements Block {}

  private record Image(String alt, String path) implements Block {}

  private final List<Block> blocks = new ArrayList<>();

  public Doc heading(int level, String text) {
    blocks.add(new Heading(level, text));
    return this;
  }

  public Doc para(String text) {
    blocks.add(new Para(text));
    return this;
  }

  /** A bulleted list. */
  public Doc bullets(List<String> items) {
    blocks.add(new Bullets(List.copyOf(items)));
    return this;
  }

  public Doc table(List<String> header, List<List<String>> rows) {
    blocks.add(new Table(List.copyOf(header), List.copyOf(rows)));
    return this;
  }

  public Doc image(String alt, String path) {
    blocks.add(new Image(alt, path));
    return this;
  }

  /** The Markdown text. */
  public String markdown() {
    StringBuilder sb = new StringBuilder();
    for (Block b : blocks) {
      if (b instanceof Heading h) {
        sb.append("#".repeat(h.level())).append(' ').append(h.text()).append("\n\n");
      } else if (b instanceof Para p) {
        sb.append(p.text()).append("\n\n");
      } else if (b instanceof Bullets l) {
        for (String item : l.items()) {
          sb.append("- ").append(item).append('\n');
        }
        sb.append('\n');
      } else if (b instanceof Table t) {
        sb.append("| ").append(String.join(" | ", t.header())).append(" |\n");
        sb.append("|").append("---|".repeat(t.header().size())).append('\n');
        for (List<String> row : t.rows()) {
          sb.append("| ").append(String.join(" | ", row)).append(" |\n");
        }
        sb.append('\n');
      } else if (b instanceof Image i) {
        sb.append("![").append(i.alt()).append("](").append(i.path()).append(")\n\n");
      }
    }
    return sb.toString();
  }

  /** One HTML page (the images are referenced next to it). */
  public String html(String title) {
    StringBuilder sb = new StringBuilder();
    sb.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>")
        .append(esc(title))
        .append("</title>\n<style>body{font-family:sans-serif;max-width:1400px;margin:2em auto;}")
        .append("table{border-collapse:collapse;font-size:13px;margin-bottom:1.5em}")
        .append("td,th{border:1px solid #bbb;padding:3px 6px;text-align:right}")
        .append("td:first-child,th:first-child{text-align:left}th{background:#eee}")
        .append("img{max-width:100%;border:1px solid #ddd}</style></head><body>\n");
    for (Block b : blocks) {
      if (b instanceof Heading h) {
        sb.append("<h")
            .append(h.level())
            .append('>')
            .append(inline(h.text()))
            .append("</h")
            .append(h.level())
            .append(">\n");
      } else if (b instanceof Para p) {
        sb.append("<p>").append(inline(p.text())).append("</p>\n");
      } else if (b instanceof Bullets l) {
        sb.append("<ul>\n");
        for (String item : l.items()) {
          sb.append("<li>").append(inline(item)).append("</li>\n");
        }
        sb.append("</ul>\n");
      } else if (b instanceof Table t) {
        sb.append("<table><tr>");
        for (String h : t.header()) {
          sb.append("<th>").append(inline(h)).append("</th>");
        }
        sb.append("</tr>\n");
        for (List<String> row : t.rows()) {
          sb.append("<tr>");
          for (String c : row) {
            sb.append("<td>").append(inline(c)).append("</td>");
          }
          sb.append("</tr>\n");
        }
        sb.append("</table>\n");
      } else if (b instanceof Image i) {
        sb.append("<p><img alt=\"")
            .append(esc(i.alt()))
            .append("\" src=\"")
            .append(esc(i.path()))
            .append("\"></p>\n");
      }
    }
    return sb.append("</body></html>\n").toString();
  }

  /** Escapes HTML and renders Markdown's **bold**, `code` and hard line breaks (two spaces). */
  private static String inline(String s) {
    String e = esc(s).replace("  \n", "<br>\n");
    e = e.replaceAll("\\*\\*(.+?)\\*\\*", "<b>$1</b>");
    e = e.replaceAll("`(.+?)`", "<code>$1</code>");
    return e;
  }

  private static String esc(String s) {
    return s.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace("\"", "&quot;");
  }
}
