package minutes.search;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import minutes.keys.Principal;
import minutes.keys.Scope;
import minutes.search.index.IndexDirs;
import minutes.search.index.MeetingDocument;
import minutes.search.index.RankSimilarity;
import minutes.search.index.SearchIndex;
import minutes.search.query.MeetingSearch;
import minutes.search.query.SearchFilters;
import minutes.search.text.SearchAnalyzer;
import minutes.search.text.SearchQuery.Match;
import minutes.store.Db;
import org.apache.lucene.index.BinaryDocValues;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.MultiDocValues;
import org.apache.lucene.index.MultiTerms;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.util.BytesRef;

/**
 * The search benchmark of bench/search-bench.sh (issue 3, "Performance"); not a test. Modes:
 * {@code queries INDEX OUT} writes a fixed, seeded query set drawn from the index;
 * {@code inprocess DB INDEX QUERIES WORKSPACE_SLUG ROUNDS} times the same queries without HTTP;
 * {@code http BASE KEY QUERIES ROUNDS} times them one at a time through the server with the JDK
 * HttpClient, {@code socket BASE KEY QUERIES ROUNDS} the same over one plain keep-alive socket;
 * {@code features BASE KEY QUERIES ROUNDS} the parameters of issue 32 against plain searches;
 * {@code facets BASE KEY QUERIES ROUNDS} only its facets rows, for an A/B of the facet path in a
 * few minutes instead of ten.
 */
public final class SearchBench {
  private SearchBench() {}

  /**
   * A server answers many thousands of searches; after one round of 300 the JIT compiler
   * had not yet compiled Lucene's scoring loops, and the first timed rounds measured it
   * (in-process matching: p50 1.33 ms in the first rounds, 0.63 ms once compiled). The
   * compiler goes on for longer on the second core, which a split search needs: at 20,000
   * meetings "could say" took 11-13 ms split in rounds 1-11 (the compiler thread busy, both
   * halves sharing one core), 6.1-6.4 ms from round 12 on (2026-11-22 23:55).
   */
  private static final int WARM_UP_ROUNDS = 15;
  /** How many of the slowest queries a timing names (system property bench.slowest, default 5). */
  private static final int SLOWEST = Integer.getInteger("bench.slowest", 5);

  public static void main(String[] args) throws Exception {
    switch (args[0]) {
      case "queries" -> writeQueries(Path.of(args[1]), Path.of(args[2]));
      case "inprocess" -> inProcess(Path.of(args[1]), Path.of(args[2]), Path.of(args[3]), args[4],
          Integer.parseInt(args[5]));
      case "http" -> http(args[1], args[2], Path.of(args[3]), Integer.parseInt(args[4]));
      case "socket" -> socket(args[1], args[2], Path.of(args[3]), Integer.parseInt(args[4]));
      case "features", "facets", "moments" -> features(args[1], args[2], Path.of(args[3]), Integer.parseInt(args[4]),
          args[0]);
      case "match" -> match(args[1], args[2], Path.of(args[3]), Path.of(args[4]), Integer.parseInt(args[5]));
      default -> throw new IllegalArgumentException("mode: queries | inprocess | http | socket | features | facets | moments | match");
    }
  }

  // ------------------------------------------------------------------ query set

  /** 300 queries: common, mid and rare words alone and AND-ed, phrases from transcripts, title words. */
  static void writeQueries(Path root, Path out) throws IOException {
    Random random = new Random(42);
    try (FSDirectory dir = FSDirectory.open(root.resolve(IndexDirs.current(root)));
        DirectoryReader reader = DirectoryReader.open(dir)) {
      int docs = reader.numDocs();
      List<String> common = new ArrayList<>(), mid = new ArrayList<>(), rare = new ArrayList<>();
      Terms terms = MultiTerms.getTerms(reader, MeetingDocument.TRANSCRIPT);
      TermsEnum te = terms.iterator();
      for (BytesRef t = te.next(); t != null; t = te.next()) {
        String w = t.utf8ToString();
        if (w.length() < 3 || !w.chars().allMatch(Character::isLetter)) continue;
        double share = (double) te.docFreq() / docs;
        if (share > 0.5) common.add(w);
        else if (share > 0.02) mid.add(w);
        else if (te.docFreq() >= 3) rare.add(w);
      }
      List<String> titleWords = new ArrayList<>();
      BinaryDocValues meta = MultiDocValues.getBinaryValues(reader, MeetingDocument.DISPLAY);
      for (int d = meta.nextDoc(); d != BinaryDocValues.NO_MORE_DOCS && titleWords.size() < 5000; d = meta.nextDoc()) {
        for (String w : MeetingDocument.Display.decode(meta.binaryValue()).title().split("\\s+")) {
          if (w.length() >= 4 && w.chars().allMatch(Character::isLetter)) titleWords.add(w);
        }
      }
      Set<String> phrases = new LinkedHashSet<>();
      var stored = reader.storedFields();
      while (phrases.size() < 60) {
        // The first stored chunk of a transcript (StoredText.store) is text enough to take a phrase from.
        BytesRef chunk = stored.document(random.nextInt(reader.maxDoc())).getBinaryValue(MeetingDocument.TRANSCRIPT + ".text");
        if (chunk == null) continue;
        String text = chunk.utf8ToString();
        String[] words = text.substring(random.nextInt(Math.max(1, text.length() - 200))).split(" ");
        if (words.length < 5) continue;
        int n = 2 + random.nextInt(2);
        String phrase = String.join(" ", Arrays.copyOfRange(words, 1, 1 + n)).replaceAll("[^\\p{L}\\p{N} ']", "");
        if (phrase.split(" ").length == n) phrases.add("\"" + phrase + "\"");
      }
      Set<String> queries = new LinkedHashSet<>();
      while (queries.size() < 40) queries.add(pick(common, random));
      while (queries.size() < 80) queries.add(pick(mid, random));
      while (queries.size() < 120) queries.add(pick(rare, random));
      while (queries.size() < 160) queries.add(pick(mid, random) + " " + pick(mid, random));
      while (queries.size() < 190) queries.add(pick(common, random) + " " + pick(rare, random));
      while (queries.size() < 210) queries.add(pick(common, random) + " " + pick(mid, random) + " " + pick(mid, random));
      for (var it = phrases.iterator(); queries.size() < 250; ) queries.add(it.next()); // 60 distinct phrases
      while (queries.size() < 280) queries.add(pick(titleWords, random));
      while (queries.size() < 300) queries.add(pick(titleWords, random) + " " + pick(titleWords, random));
      Files.write(out, queries);
      List<String> paths = new ArrayList<>();
      for (String q : queries) paths.add(path(q));
      Files.write(out.resolveSibling("paths.txt"), paths); // for wrk (bench/paths.lua)
      System.err.printf("wrote %d queries (%d common, %d mid, %d rare words in %d meetings)%n", queries.size(),
          common.size(), mid.size(), rare.size(), docs);
    }
  }

  private static String pick(List<String> from, Random random) {
    return from.get(random.nextInt(from.size()));
  }

  // ------------------------------------------------------------------ in-process

  /** The server's search path without HTTP, then plain Lucene matching (no snippets, no collapse). */
  static void inProcess(Path dbPath, Path root, Path queryFile, String workspace, int rounds) throws Exception {
    List<String> queries = Files.readAllLines(queryFile);
    Principal p;
    try (Db db = Db.open(minutes.store.Store.sqlite(dbPath), 2)) {
      try (Connection c = db.read()) {
        p = new Principal("bench", Db.workspaceId(c, workspace).orElseThrow(), null, EnumSet.allOf(Scope.class), Set.of());
      }
      SearchIndex index = SearchIndex.open(root, db);
      try (Connection c = db.read()) {
        c.setAutoCommit(false);
        long[] full = time(queries, rounds, q -> SearchData.search(index, c, p, q, 50).size());
        report("in-process, SearchIndex.search (as the server, snippets included)", full);
        c.rollback();
      } finally {
        index.close();
      }
    }
    try (FSDirectory dir = FSDirectory.open(root.resolve(IndexDirs.current(root)));
        DirectoryReader reader = DirectoryReader.open(dir)) {
      IndexSearcher s = new IndexSearcher(reader);
      s.setSimilarity(new RankSimilarity());
      SearchAnalyzer analyzer = new SearchAnalyzer();
      long[] plain = time(queries, rounds, q -> {
        // The server's own query (a workspace key's) and collection, on one thread, without describe and snippets.
        Query match = MeetingSearch.matching(SearchApi.query(q, analyzer), Match.ALL, p, SearchFilters.NONE, List.of());
        return s.search(match, MeetingSearch.collector(50)).scoreDocs.length;
      });
      report("in-process, plain Lucene matching, top 50 (no snippets)", plain);
    }
  }

  @FunctionalInterface
  interface Search {
    int run(String q) throws Exception;
  }

  /**
   * {@link #WARM_UP_ROUNDS} untimed rounds, then {@code rounds} timed rounds over the query
   * list; nanoseconds per query. Names the queries slowest at their median, which a moment of
   * load on a shared machine does not move the way it moves a single worst time.
   */
  static long[] time(List<String> queries, int rounds, Search search) throws Exception {
    long hits = 0;
    for (int r = 0; r < WARM_UP_ROUNDS; r++) {
      hits = 0;
      for (String q : queries) hits += search.run(q);
    }
    long[] nanos = new long[queries.size() * rounds];
    long[][] perQuery = new long[queries.size()][rounds];
    int i = 0;
    for (int r = 0; r < rounds; r++) {
      for (int k = 0; k < queries.size(); k++) {
        long t = System.nanoTime();
        search.run(queries.get(k));
        nanos[i++] = System.nanoTime() - t;
        perQuery[k][r] = nanos[i - 1];
      }
    }
    long[] median = new long[queries.size()];
    for (int k = 0; k < median.length; k++) {
      Arrays.sort(perQuery[k]);
      median[k] = perQuery[k][rounds / 2];
    }
    Integer[] order = new Integer[queries.size()];
    for (int k = 0; k < order.length; k++) order[k] = k;
    Arrays.sort(order, (a, b) -> Long.compare(median[b], median[a]));
    StringBuilder slowest = new StringBuilder();
    for (int k = 0; k < Math.min(SLOWEST, order.length); k++) {
      slowest.append(String.format(" %s %.1f ms;", queries.get(order[k]), median[order[k]] / 1e6));
    }
    System.err.printf("(%d queries, %.1f hits per query on average; slowest at their median:%s)%n", queries.size(),
        (double) hits / queries.size(), slowest);
    return nanos;
  }

  public static void report(String what, long[] nanos) {
    long[] sorted = nanos.clone();
    Arrays.sort(sorted);
    System.out.printf("| %s | %.2f | %.2f | %.2f | %d |%n", what, pct(sorted, 50), pct(sorted, 95), pct(sorted, 99),
        sorted.length);
  }

  private static double pct(long[] sorted, int p) {
    return sorted[Math.min(sorted.length - 1, (int) Math.ceil(p / 100.0 * sorted.length) - 1)] / 1e6;
  }

  // ------------------------------------------------------------------ over HTTP

  /** One client, one request at a time: the latency a user sees, HTTP and JSON included. */
  static void http(String base, String key, Path queryFile, int rounds) throws Exception {
    List<String> queries = Files.readAllLines(queryFile);
    HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    long[] nanos = time(queries, rounds, q -> {
      HttpRequest r = HttpRequest.newBuilder(URI.create(base + path(q)))
          .header("Authorization", "Bearer " + key).build();
      HttpResponse<String> res = client.send(r, HttpResponse.BodyHandlers.ofString());
      if (res.statusCode() != 200) throw new IllegalStateException(res.statusCode() + " for " + q + ": " + res.body());
      return hits(res.body());
    });
    report("server over HTTP, 1 client, JDK HttpClient (snippets included)", nanos);
  }

  /**
   * The same single client as {@link #http}, writing each request on one keep-alive socket and
   * reading the answer by its Content-Length: the time from the first byte sent to the last
   * byte read, without any client thread handoffs. The JDK client adds about half a
   * millisecond of its own; wrk's latency histogram, with one connection and a request script,
   * disagreed with its own request count (average 6.0 ms at 370 requests/s, 2026-11-22), so
   * neither measures the server alone.
   */
  static void socket(String base, String key, Path queryFile, int rounds) throws Exception {
    List<String> queries = Files.readAllLines(queryFile);
    try (SocketClient client = new SocketClient(base, key)) {
      report("server over HTTP, 1 client, one plain socket (snippets included)",
          time(queries, rounds, q -> hits(client.get(path(q)))));
    }
  }

  /**
   * The parameters of issue 32 against the plain search they extend, over one plain socket, on
   * the same queries: each variant's p50 and its ratio to its baseline (the targets: facets at
   * most 2x, moments=3 at most 1 ms more, -starts_at no slower than rank, offset=900&limit=100
   * under 2x the first page of 100), and facets again on the tenth of the queries that match
   * most meetings.
   */
  static void features(String base, String key, Path queryFile, int rounds, String which) throws Exception {
    List<String> queries = Files.readAllLines(queryFile);
    String all = "&facets=platform,company,participant,month";
    try (SocketClient client = new SocketClient(base, key)) {
      Map<String, Long> totals = new java.util.HashMap<>();
      for (String q : queries) {
        String body = client.get(path(q) + "&offset=0&limit=1");
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("\"total\":(\\d+)").matcher(body);
        totals.put(q, m.find() ? Long.parseLong(m.group(1)) : 0);
      }
      List<String> most = queries.stream().sorted(Comparator.comparing(totals::get).reversed())
          .limit(Math.max(1, queries.size() / 10)).toList();
      String[][] pairs = {
          {"plain (limit 50)", "", "facets=all four", all},
          {"plain (limit 50)", "", "moments=3", "&moments=3"},
          {"order=rank (limit 50)", "&order=rank", "order=-starts_at", "&order=-starts_at"},
          {"first page offset=0&limit=100", "&offset=0&limit=100", "offset=900&limit=100", "&offset=900&limit=100"}};
      System.out.println("| variant (p50 over HTTP, one socket, interleaved with its baseline) | baseline p50 ms"
          + " | variant p50 ms | ratio | difference ms | p99 ms baseline · variant (ratio) |");
      System.out.println("|---|---|---|---|---|---|");
      for (String[] pair : pairs) {
        if (which.equals("features") || pair[2].startsWith(which)) ab(client, queries, rounds, pair[2] + " vs " + pair[0], pair[1], pair[3]);
      }
      if (!which.equals("moments")) ab(client, most, rounds * 3, "facets=all four vs plain, the " + most.size() + " queries matching most ("
          + totals.get(most.getLast()) + " to " + totals.get(most.getFirst()) + " meetings)", "", all);
    }
  }

  /**
   * {@code match=most} against the default {@code match=all} (issue 49's targets: p50 at most 2x,
   * p99 at most 3x) on the benchmark's queries and on five-word questions, and its moments best
   * first against the same moments in time order (at most 1 ms more), over one plain socket.
   */
  static void match(String base, String key, Path queryFile, Path questionFile, int rounds) throws Exception {
    List<String> queries = Files.readAllLines(queryFile), questions = Files.readAllLines(questionFile);
    try (SocketClient client = new SocketClient(base, key)) {
      System.out.println("| variant (over HTTP, one socket, interleaved with its baseline) | baseline p50 ms"
          + " | variant p50 ms | ratio | difference ms | p99 ms baseline · variant (ratio) |");
      System.out.println("|---|---|---|---|---|---|");
      ab(client, queries, rounds, "match=most vs match=all, the " + queries.size() + " queries", "", "&match=most");
      ab(client, questions, rounds, "match=most vs match=all, " + questions.size() + " five-word questions", "",
          "&match=most");
      ab(client, questions, rounds, "match=most&moments=3, best first vs in time order, the questions",
          "&match=most&moments=3&moments_order=time", "&match=most&moments=3");
    }
  }

  /**
   * Times each query with {@code base} and then {@code with} appended, one right after the
   * other, the order swapped every round, so that a shared machine's changing load falls on
   * both alike; prints both p50s, their ratio and difference.
   */
  private static void ab(SocketClient client, List<String> queries, int rounds, String what, String base, String with)
      throws Exception {
    for (int r = 0; r < 2; r++) { // the server is warm from the modes before; this warms the variant's own path
      for (String q : queries) {
        client.get(path(q) + base);
        client.get(path(q) + with);
      }
    }
    long[] a = new long[queries.size() * rounds], b = new long[a.length];
    int i = 0;
    for (int r = 0; r < rounds; r++) {
      for (String q : queries) {
        boolean baseFirst = r % 2 == 0;
        for (int k = 0; k < 2; k++) {
          boolean isBase = (k == 0) == baseFirst;
          long t = System.nanoTime();
          client.get(path(q) + (isBase ? base : with));
          (isBase ? a : b)[i] = System.nanoTime() - t;
        }
        i++;
      }
    }
    Arrays.sort(a);
    Arrays.sort(b);
    double pa = pct(a, 50), pb = pct(b, 50), qa = pct(a, 99), qb = pct(b, 99);
    System.out.printf("| %s | %.2f | %.2f | %.2fx | %+.2f | %.2f · %.2f (%.2fx) |%n", what, pa, pb, pb / pa, pb - pa,
        qa, qb, qb / qa);
  }

  /**
   * One client writing each request on one keep-alive socket and reading the answer by its
   * Content-Length: the time from the first byte sent to the last byte read, without any client
   * thread handoffs. The JDK client adds about half a millisecond of its own; wrk's latency
   * histogram, with one connection and a request script, disagreed with its own request count
   * (average 6.0 ms at 370 requests/s, 2026-11-22), so neither measures the server alone.
   */
  private static final class SocketClient implements AutoCloseable {
    private final URI uri;
    private final String key;
    private final Socket socket;
    private final OutputStream out;
    private final DataInputStream in;

    SocketClient(String base, String key) throws IOException {
      this.uri = URI.create(base);
      this.key = key;
      socket = new Socket(uri.getHost(), uri.getPort());
      socket.setTcpNoDelay(true);
      out = socket.getOutputStream();
      in = new DataInputStream(new BufferedInputStream(socket.getInputStream(), 1 << 16));
    }

    /** The body of a 200 answer to GET path; anything else fails. */
    String get(String path) throws IOException {
      String request = "GET " + path + " HTTP/1.1\r\n" + "Host: " + uri.getHost() + "\r\nAuthorization: Bearer " + key
          + "\r\n\r\n";
      out.write(request.getBytes(StandardCharsets.UTF_8));
      out.flush();
      String status = line(in);
      int length = -1;
      for (String header = line(in); !header.isEmpty(); header = line(in)) {
        if (header.regionMatches(true, 0, "Content-Length:", 0, 15)) length = Integer.parseInt(header.substring(15).trim());
      }
      byte[] body = new byte[length];
      in.readFully(body);
      String text = new String(body, StandardCharsets.UTF_8);
      if (!status.startsWith("HTTP/1.1 200")) throw new IllegalStateException(status + " for " + path + ": " + text);
      return text;
    }

    @Override
    public void close() throws IOException {
      socket.close();
    }
  }

  private static String path(String q) {
    return "/api/v1/search?q=" + URLEncoder.encode(q, StandardCharsets.UTF_8);
  }

  /** The hits in a search answer, counted by their meeting_id fields. */
  private static int hits(String body) {
    return body.split("\"meeting_id\"", -1).length - 1;
  }

  /** One header line of an HTTP answer, without its CRLF. */
  private static String line(DataInputStream in) throws IOException {
    StringBuilder b = new StringBuilder();
    for (int c = in.read(); c != '\n'; c = in.read()) {
      if (c < 0) throw new IOException("the server closed the connection");
      if (c != '\r') b.append((char) c);
    }
    return b.toString();
  }
}
