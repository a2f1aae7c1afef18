package minutes.customers;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import minutes.http.Request;
import minutes.keys.Principal;
import minutes.keys.Visibility;
import minutes.meetings.MeetingOrder;
import minutes.store.Db;
import minutes.store.Dialect;
import minutes.store.KeptByVersion;
import minutes.store.Sql;
import minutes.store.WorkspaceCompanies;

/**
 * GET /customers: the workspace's companies, each with the meetings it took part in, counted
 * over the meetings the key sees. A company counts a meeting when one of the meeting's
 * participants has an email in one of its domains. The companies are read from the database
 * once per import (an import may change them without changing a meeting); their meetings are
 * counted in the in-memory meeting snapshot when it is current, else in SQL. An answer is a
 * function of the import count (every import, of meetings or companies, adds one), the
 * workspace and the key's viewer, and is kept by them: counting 400 companies' meetings took
 * about 2 ms of CPU a request at 200,000 meetings. Thread-safe.
 */
public final class CustomersApi {
  private final MeetingOrder meetings;

  /** A workspace's companies as read at one import count ({@link Db#knownImportCount}). */
  private record Companies(long imports, List<Customer> list) {}

  private final Map<Long, Companies> companiesByWorkspace = new ConcurrentHashMap<>();
  /** Answers counted from the snapshot, by import count and "workspace|viewer" (personal keys each have their own). */
  private final KeptByVersion<CustomerList> answers = new KeptByVersion<>(256);

  public CustomersApi(MeetingOrder meetings) {
    this.meetings = meetings;
  }

  public record Customer(String id, String name, List<String> domains, long meetingCount, String lastMeetingAt) {}

  public record CustomerList(List<Customer> data) {}

  /** Order of the list: latest meeting first, companies without one last; ties keep the name order they come in. */
  private static final Comparator<Customer> BY_LAST_MEETING = Comparator.comparing(Customer::lastMeetingAt,
      Comparator.nullsLast(Comparator.<String>reverseOrder()));

  public CustomerList list(Request r) throws SQLException {
    Principal who = r.principal();
    Optional<Long> imports = Db.knownImportCount(r.db());
    String answerKey = who.workspaceId() + "|" + Visibility.of(who).viewer();
    Optional<CustomerList> known = imports.flatMap(n -> answers.get(n, answerKey));
    if (known.isPresent()) return known.get();
    Optional<Long> version = r.knownDataVersion();
    List<Customer> companies = companies(r.db(), imports, who.workspaceId());
    Optional<List<MeetingOrder.TookPart>> took = version.flatMap(v ->
        meetings.tookPart(v, who, companies.stream().map(Customer::domains).toList()));
    if (took.isEmpty()) return fromSql(r.db(), who);
    List<Customer> counted = new ArrayList<>(companies.size());
    for (int i = 0; i < companies.size(); i++) {
      Customer c = companies.get(i);
      MeetingOrder.TookPart t = took.get().get(i);
      // A personal key sees only companies it shares a meeting with (decisions.md).
      if (who.isPersonal() && t.meetings() == 0) continue;
      counted.add(new Customer(c.id(), c.name(), c.domains(), t.meetings(), t.lastAt()));
    }
    counted.sort(BY_LAST_MEETING);
    CustomerList answer = new CustomerList(List.copyOf(counted));
    imports.ifPresent(n -> answers.put(n, answerKey, answer));
    return answer;
  }

  /**
   * The workspace's companies in name order (as SQL sorts text; the list is then sorted stably
   * by latest meeting), with no counts: kept per workspace until the next import, the only
   * writer of companies, so that a request reads one number instead of every company.
   */
  private List<Customer> companies(Connection c, Optional<Long> imports, long workspaceId) throws SQLException {
    Companies held = companiesByWorkspace.get(workspaceId);
    if (held != null && imports.isPresent() && held.imports() == imports.get()) return held.list();
    List<Customer> read = WorkspaceCompanies.read(c, workspaceId).stream()
        .map(co -> new Customer(co.id(), co.name(), co.domains(), 0, null)).toList();
    // Two requests on either side of an import may store in either order: a held list is only
    // used at exactly its count, so the older one is just read again once.
    imports.ifPresent(n -> companiesByWorkspace.put(workspaceId, new Companies(n, List.copyOf(read))));
    return read;
  }

  /** The same list counted in SQL alone: while the in-memory snapshot is being rebuilt after an import. */
  static CustomerList fromSql(Connection c, Principal who) throws SQLException {
    // DISTINCT because several participants may come from the same company. The join order is
    // fixed (SQLite: CROSS JOIN, Dialect.orderedJoin): from the company's domains to their
    // participants. Left to itself, the planner starts from the visibility condition on m and
    // walks every meeting of the workspace: 10 s instead of 0.2 s for 20,000 meetings, which
    // held pool connections long enough to fail other requests (bench/load-while-importing.sh).
    String join = Dialect.of(c).orderedJoin();
    Sql counted = new Sql("SELECT cd.company_id, count(DISTINCT m.id) AS meetings, max(m.sort_at) AS last_at"
        + " FROM company_domain cd"
        + " " + join + " participant p ON p.domain = cd.domain"
        + " " + join + " meeting m ON m.id = p.meeting_id"
        + " WHERE cd.company_id IN (SELECT id FROM company WHERE workspace_id = ?)", who.workspaceId());
    Visibility.restrict(counted, "m", who);
    counted.add("GROUP BY cd.company_id");

    Sql sql = new Sql("""
        SELECT c.id, c.name,
               (SELECT string_agg(domain, ' ' ORDER BY domain) FROM company_domain WHERE company_id = c.id),
               coalesce(k.meetings, 0), k.last_at
        FROM company c LEFT JOIN (""").add(counted).add(") k ON k.company_id = c.id WHERE c.workspace_id = ?",
            who.workspaceId());
    if (who.isPersonal()) sql.add("AND k.meetings > 0");
    sql.add("ORDER BY k.last_at IS NULL, k.last_at DESC, c.name, c.id");
    return new CustomerList(sql.list(c, rs -> new Customer(rs.getString(1), rs.getString(2),
        WorkspaceCompanies.domains(rs.getString(3)), rs.getLong(4), rs.getString(5))));
  }
}
