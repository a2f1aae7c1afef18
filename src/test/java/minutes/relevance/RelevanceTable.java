package minutes.relevance;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The benchmark's rows (each query group in each form, searched by minutes with {@code
 * match=all}, with {@code match=most}, by the BM25 reference, and by BM25 ranking only the
 * meetings that {@code match=all} finds: how far ranks alone could take {@code match=all},
 * whose hits lack the right meeting whenever it misses a word), its Markdown table, and the
 * floor file the regression guard compares with. A row is null where the server does not know
 * the mode ("n/a"). Questions come in three forms; topics, short phrases already, as given and
 * as content words.
 */
final class RelevanceTable {
  static final String ALL = "minutes match=all", MOST = "minutes match=most", BM25 = "BM25 (reference)",
      BM25_WITHIN_ALL = "BM25 over match=all's meetings";

  private RelevanceTable() {}

  record Row(QmsumSet.Kind kind, QueryForms form, String engine) {
    String key() {
      return kind.name().toLowerCase(Locale.ROOT) + "\t" + formLabel() + "\t" + engine;
    }

    /** Topics are phrases, not questions: theirs is "as written". */
    String formLabel() {
      return kind == QmsumSet.Kind.TOPIC && form == QueryForms.ASKED ? "as written" : form.label;
    }
  }

  static List<Row> rows(boolean withBm25) {
    List<Row> rows = new ArrayList<>();
    for (QmsumSet.Kind kind : QmsumSet.Kind.values()) {
      for (QueryForms form : QueryForms.values()) {
        if (kind == QmsumSet.Kind.TOPIC && form == QueryForms.FIRST_THREE) continue;
        rows.add(new Row(kind, form, ALL));
        rows.add(new Row(kind, form, MOST));
        if (withBm25) {
          rows.add(new Row(kind, form, BM25));
          rows.add(new Row(kind, form, BM25_WITHIN_ALL));
        }
      }
    }
    return rows;
  }

  /** Every row measured; {@code bm25} null leaves its rows out (the guard measures minutes only). */
  static Map<Row, Figures> measure(QmsumSet set, MinutesRun minutes, Bm25Reference bm25) {
    boolean most = minutes.knowsMatch();
    Map<Row, Figures> figures = new LinkedHashMap<>();
    for (Row row : rows(bm25 != null)) {
      List<QmsumSet.Query> queries = set.queries(row.kind());
      Figures f = switch (row.engine()) {
        case ALL -> minutes.measure(queries, row.form(), "all");
        case MOST -> most ? minutes.measure(queries, row.form(), "most") : null;
        case BM25_WITHIN_ALL -> bm25.measure(queries, row.form(), minutes::allHits);
        default -> bm25.measure(queries, row.form());
      };
      figures.put(row, f);
    }
    return figures;
  }

  static String markdown(Map<Row, Figures> figures) {
    StringBuilder out = new StringBuilder("""
        | queries | form | searched by | n | answered | right meeting at 1 | in top 5 | MRR@10 \
        | right turn among 3 moments | in-meeting: right turn among first 3 |
        |---|---|---|---|---|---|---|---|---|---|
        """);
    figures.forEach((row, f) -> {
      out.append("| ").append(row.kind() == QmsumSet.Kind.QUESTION ? "questions" : "topics")
          .append(" | ").append(row.formLabel()).append(" | ").append(row.engine());
      if (f == null) {
        out.append(" | n/a".repeat(Figures.NAMES.size() + 1));
      } else {
        out.append(" | ").append(f.queries());
        for (int i = 0; i < Figures.NAMES.size(); i++) {
          double v = f.values().get(i);
          out.append(" | ").append(Figures.NAMES.get(i).equals("mrr_10")
              ? String.format(Locale.ROOT, "%.3f", v) : String.format(Locale.ROOT, "%.1f %%", v));
        }
      }
      out.append(" |\n");
    });
    return out.toString();
  }

  /** The floor file: a header, then a line per row, tab-separated, "n/a" where not measured. */
  static String floor(Map<Row, Figures> figures) {
    StringBuilder out = new StringBuilder("queries\tform\tsearched by\t" + String.join("\t", Figures.NAMES) + "\n");
    figures.forEach((row, f) -> {
      out.append(row.key());
      for (int i = 0; i < Figures.NAMES.size(); i++) {
        out.append('\t').append(f == null ? "n/a" : String.format(Locale.ROOT, "%.3f", f.values().get(i)));
      }
      out.append('\n');
    });
    return out.toString();
  }

  /**
   * What fell: each figure more than {@link Figures#allowedFall} below its recorded value, and
   * each recorded row the server no longer answers. A figure recorded as "n/a" but now measured
   * is no failure (it is new; record it with {@code --write-floor}). Rows not measured now (the
   * BM25 rows, if recorded) are skipped.
   */
  static List<String> fallen(Map<Row, Figures> now, String floorFile) {
    Map<String, Figures> byKey = new LinkedHashMap<>();
    now.forEach((row, f) -> byKey.put(row.key(), f));
    List<String> fallen = new ArrayList<>();
    for (String line : floorFile.lines().skip(1).filter(l -> !l.isBlank()).toList()) {
      String[] cells = line.split("\t");
      String key = cells[0] + "\t" + cells[1] + "\t" + cells[2];
      if (!byKey.containsKey(key)) continue;
      Figures f = byKey.get(key);
      for (int i = 0; i < Figures.NAMES.size(); i++) {
        String recorded = cells[3 + i];
        if (recorded.equals("n/a")) continue;
        String what = key.replace('\t', '/') + " " + Figures.NAMES.get(i);
        if (f == null) {
          fallen.add(what + ": recorded " + recorded + ", now not answered (n/a)");
        } else if (f.values().get(i) < Double.parseDouble(recorded) - Figures.allowedFall(Figures.NAMES.get(i))) {
          fallen.add(String.format(Locale.ROOT, "%s: %.3f, recorded %s (may fall at most %s)", what,
              f.values().get(i), recorded, Figures.allowedFall(Figures.NAMES.get(i))));
        }
      }
    }
    return fallen;
  }
}
