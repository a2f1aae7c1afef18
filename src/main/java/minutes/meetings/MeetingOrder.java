package minutes.meetings;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import minutes.http.Pagination;
import minutes.keys.Principal;
import minutes.keys.Visibility;
import minutes.store.DataSnapshot;
import minutes.store.Db;
import minutes.store.ListOrder;
import minutes.store.RawJson;
import minutes.store.Totals;
import minutes.store.Vocabulary;

/**
 * Every meeting in each order of GET /meetings, per workspace, with the values its filters
 * test and its list row as JSON, as of one data version: the only way the list and the
 * companies' counts of GET /customers ({@link #tookPart}) answer. In SQL a deep page steps over
 * every skipped index entry and {@code q} scans titles with LIKE; here both are array work, and
 * a page, rows included, is answered from memory (docs/OPERATIONS.md, "Memory and list orders";
 * the A/B against SQL alone in docs/BENCHMARKS.md). {@link DataSnapshot} says which version a
 * request gets: its own transaction's or a newer one, waiting for a rebuild when it must. The
 * rows are rendered as the SQL oracle of the tests renders them ({@link MeetingsApi#ROW_JSON})
 * and the orders come from the database's own ORDER BY, so they sort text exactly as SQL does.
 * Thread-safe.
 */
public final class MeetingOrder implements AutoCloseable {
  /** Filters and order of the list; empty optionals do not filter. {@code titleContains} is already folded. */
  record Query(Optional<String> from, Optional<String> to, Optional<String> titleContains, Optional<String> status,
      Optional<String> platform, Optional<String> source, Optional<String> language, MeetingsApi.Order order,
      boolean descending) {}

  private final DataSnapshot<Snapshot> snapshot;
  private final Totals totals = new Totals();

  public MeetingOrder(Db db) {
    this.snapshot = new DataSnapshot<>(db, "meeting order", MeetingOrder::load);
  }

  /** Builds the order now: at start, before the server listens. */
  public void build() throws SQLException {
    snapshot.build();
  }

  /** The data version is now {@code version}: rebuild ({@link DataSnapshot#changed}). */
  public void changed(long version) {
    snapshot.changed(version);
  }

  /** The meetings a company took part in, as GET /customers counts them: how many, and the latest sort_at (or null). */
  public record TookPart(long meetings, String lastAt) {}

  /**
   * For each company, given by its domains: the meetings of the key's workspace that it sees
   * with a participant in one of them, from the snapshot of {@code version} or a newer one.
   * Slots are in sort_at order, so the latest meeting is the highest slot set.
   */
  public List<TookPart> tookPart(long version, Principal who, List<List<String>> domainsPerCompany) throws SQLException {
    Snapshot held = snapshot.at(version).value();
    Meetings m = held.byWorkspace.get(who.workspaceId());
    BitSet visible = visible(held, who);
    List<TookPart> took = new ArrayList<>(domainsPerCompany.size());
    BitSet seen = new BitSet();
    for (List<String> domains : domainsPerCompany) {
      seen.clear();
      for (String domain : domains) {
        int[] slots = m == null ? null : m.slotsByDomain.get(domain);
        if (slots == null) continue;
        for (int slot : slots) if (visible == null || visible.get(slot)) seen.set(slot);
      }
      int last = seen.length() - 1;
      took.add(new TookPart(seen.cardinality(), last < 0 ? null : m.sortAt[last]));
    }
    return took;
  }

  /** The slots a personal key sees (null: a workspace key sees every meeting of its workspace). */
  private static BitSet visible(Snapshot s, Principal who) {
    String viewer = Visibility.of(who).viewer();
    return viewer == null ? null : s.viewers.getOrDefault(who.workspaceId() + " " + viewer, new BitSet());
  }

  /** The page from the snapshot of {@code version} or a newer one. */
  Pagination.Page<RawJson> page(long version, Principal who, Query f, int offset, int limit) throws SQLException {
    DataSnapshot.Held<Snapshot> held = snapshot.at(version);
    Meetings m = held.value().byWorkspace.get(who.workspaceId());
    if (m == null) return new Pagination.Page<>(List.of(), new Pagination(limit, offset, 0));
    String viewer = Visibility.of(who).viewer();
    BitSet visible = visible(held.value(), who);
    byte status = Vocabulary.code(Vocabulary.MEETING_STATUSES, f.status());
    byte platform = Vocabulary.code(Vocabulary.PLATFORMS, f.platform());
    byte source = Vocabulary.code(Vocabulary.MEETING_SOURCES, f.source());
    String from = f.from().orElse(null);
    String to = f.to().orElse(null);
    String title = f.titleContains().orElse(null);
    String language = f.language().orElse(null);
    long titlePairs = title == null ? 0 : Meetings.pairs(title);
    int[] sequence = m.orders[f.order().ordinal()];
    boolean descending = f.descending();
    boolean filtered = visible != null || status >= 0 || platform >= 0 || source >= 0 || from != null || to != null
        || title != null || language != null;
    // The order does not change the total, so it is not part of the key.
    String filterKey = !filtered ? null : who.workspaceId() + "|"
        + (viewer == null ? "" : viewer) + "|" + status + "|" + platform + "|" + source
        + "|" + from + "|" + to + "|" + title + "|" + language;
    ListOrder.Entries entries = new ListOrder.Entries() {
      private int slot(int position) {
        return sequence[descending ? m.size - 1 - position : position];
      }

      @Override
      public boolean keep(int position) {
        int at = slot(position);
        return (status < 0 || m.status[at] == status)
            && (platform < 0 || m.platform[at] == platform)
            && (source < 0 || m.source[at] == source)
            && (language == null || language.equals(m.language[at]))
            && (from == null || m.sortAt[at].compareTo(from) >= 0)
            && (to == null || m.sortAt[at].compareTo(to) < 0)
            && (title == null || ((m.titlePairs[at] & titlePairs) == titlePairs && m.titleFolded[at].contains(title)))
            && (visible == null || visible.get(at));
      }

      @Override
      public long id(int position) {
        return slot(position);
      }
    };
    ListOrder.Page page = ListOrder.page(m.size, entries, filterKey, offset, limit, totals, held.version());
    List<RawJson> rows = new ArrayList<>(page.ids().length);
    for (long slot : page.ids()) rows.add(m.row[(int) slot]);
    return new Pagination.Page<>(rows, new Pagination(limit, offset, page.total()));
  }

  private static Snapshot load(Connection c) throws SQLException {
    Map<Long, Meetings> byWorkspace = new HashMap<>();
    Db.rowsPerWorkspace(c, "meeting").forEach((ws, n) -> byWorkspace.put(ws, new Meetings(n)));
    Map<String, Integer> slotOf = new HashMap<>(); // meeting id -> slot in its workspace's arrays
    // Slots in starts_at order, so that order is the slots themselves; the others are read below.
    MeetingsApi.Order slotOrder = MeetingsApi.Order.STARTS_AT;
    int w = MeetingsApi.ROW_JSON.width(); // the row's columns come first
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT " + MeetingsApi.ROW_JSON.in()
        + ", m.workspace_id, m.id, m.status, m.platform, m.source, m.sort_at, m.title_folded, m.language FROM meeting m"
        + " ORDER BY m.workspace_id, " + slotOrder.column + ", m.id")) {
      while (rs.next()) {
        Meetings m = byWorkspace.get(rs.getLong(w + 1));
        slotOf.put(rs.getString(w + 2), m.size);
        m.orders[slotOrder.ordinal()][m.size] = m.size;
        m.add(MeetingsApi.ROW_JSON.read(rs), Vocabulary.code(Vocabulary.MEETING_STATUSES, rs.getString(w + 3)),
            Vocabulary.code(Vocabulary.PLATFORMS, rs.getString(w + 4)),
            Vocabulary.code(Vocabulary.MEETING_SOURCES, rs.getString(w + 5)), rs.getString(w + 6), rs.getString(w + 7),
            rs.getString(w + 8).intern());
      }
    }
    for (MeetingsApi.Order order : MeetingsApi.Order.values()) {
      if (order == slotOrder) continue;
      // The same columns as the list's ORDER BY, so that SQLite decides how text sorts.
      try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(
          "SELECT m.workspace_id, m.id FROM meeting m ORDER BY m.workspace_id, " + order.column + ", m.id")) {
        Meetings m = null;
        int next = 0;
        while (rs.next()) {
          Meetings of = byWorkspace.get(rs.getLong(1));
          if (of != m) { // rows come grouped by workspace
            m = of;
            next = 0;
          }
          m.orders[order.ordinal()][next++] = slotOf.get(rs.getString(2));
        }
      }
    }
    Map<String, BitSet> viewers = new HashMap<>();
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("""
        SELECT m.workspace_id, v.email, v.meeting_id FROM meeting_viewer v JOIN meeting m ON m.id = v.meeting_id""")) {
      while (rs.next()) {
        viewers.computeIfAbsent(rs.getLong(1) + " " + Visibility.viewerKey(rs.getString(2)), k -> new BitSet())
            .set(slotOf.get(rs.getString(3)));
      }
    }
    // The domains of each meeting's participants, for the companies' counts (GET /customers).
    Map<Meetings, Map<String, List<Integer>>> byDomain = new HashMap<>();
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("""
        SELECT m.workspace_id, p.domain, p.meeting_id FROM participant p JOIN meeting m ON m.id = p.meeting_id
        WHERE p.domain IS NOT NULL""")) {
      while (rs.next()) {
        byDomain.computeIfAbsent(byWorkspace.get(rs.getLong(1)), k -> new HashMap<>())
            .computeIfAbsent(rs.getString(2), k -> new ArrayList<>()).add(slotOf.get(rs.getString(3)));
      }
    }
    byDomain.forEach((m, domains) -> domains.forEach((domain, slots) ->
        m.slotsByDomain.put(domain, slots.stream().mapToInt(Integer::intValue).sorted().distinct().toArray())));
    return new Snapshot(byWorkspace, viewers);
  }

  /** Whether the order is built now, and how long its last build took (/metrics). */
  public DataSnapshot.Status status() {
    return snapshot.status();
  }

  @Override
  public void close() {
    snapshot.close();
  }

  /** viewers: "workspace email" to the slots of the meetings that user sees. */
  private record Snapshot(Map<Long, Meetings> byWorkspace, Map<String, BitSet> viewers) {}

  /** Parallel arrays, one slot per meeting of a workspace, in starts_at order; orders[o] lists slots in order o. */
  private static final class Meetings {
    int size;
    /** The meeting as a row of the list, as {@link MeetingsApi#ROW_JSON} renders it. */
    final RawJson[] row;
    final byte[] status;
    final byte[] platform;
    final byte[] source;
    /** Interned: a workspace's meetings share a few languages. */
    final String[] language;
    final String[] sortAt;
    final String[] titleFolded;
    /** {@link #pairs} of each folded title. */
    final long[] titlePairs;
    final int[][] orders;
    /** Participants' email domains: the slots of the meetings with one, ascending, each once. */
    final Map<String, int[]> slotsByDomain = new HashMap<>();

    Meetings(int capacity) {
      row = new RawJson[capacity];
      status = new byte[capacity];
      platform = new byte[capacity];
      source = new byte[capacity];
      language = new String[capacity];
      sortAt = new String[capacity];
      titleFolded = new String[capacity];
      titlePairs = new long[capacity];
      orders = new int[MeetingsApi.Order.values().length][capacity];
    }

    void add(RawJson json, byte st, byte pl, byte so, String at, String title, String lang) {
      row[size] = json;
      status[size] = st;
      platform[size] = pl;
      source[size] = so;
      language[size] = lang;
      sortAt[size] = at;
      titleFolded[size] = title;
      titlePairs[size] = pairs(title);
      size++;
    }

    /**
     * The pairs of neighbouring characters of {@code text}, hashed into 64 bits: a title holds
     * {@code q} only if its set has every bit of q's, which rules out almost every other title
     * with one AND before the substring search.
     */
    static long pairs(String text) {
      long bits = 0;
      for (int i = 1; i < text.length(); i++) {
        bits |= 1L << ((text.charAt(i - 1) * 31 + text.charAt(i)) * 0x9E3779B1 >>> 26);
      }
      return bits;
    }
  }
}
