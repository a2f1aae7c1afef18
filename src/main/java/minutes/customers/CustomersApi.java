package minutes.customers;

import java.sql.SQLException;
import java.util.Arrays;
import java.util.List;
import minutes.http.Request;
import minutes.keys.Principal;
import minutes.keys.Visibility;
import minutes.store.Dialect;
import minutes.store.Sql;

/**
 * GET /customers: the workspace's companies, each with the meetings it took part in, counted
 * over the meetings the key sees. Stateless.
 */
public final class CustomersApi {
  private CustomersApi() {}

  public record Customer(String id, String name, List<String> domains, long meetingCount, String lastMeetingAt) {}

  public record CustomerList(List<Customer> data) {}

  public static CustomerList list(Request r) throws SQLException {
    Principal who = r.principal();
    // A company counts a meeting when one of the meeting's participants has an email in one
    // of its domains; DISTINCT because several participants may come from the same company.
    // The join order is fixed (SQLite: CROSS JOIN, Dialect.orderedJoin): from the company's domains to their
    // participants. Left to itself, the planner starts from the visibility condition on m and
    // walks every meeting of the workspace: 10 s instead of 0.2 s for 20,000 meetings, which
    // held pool connections long enough to fail other requests (bench/load-while-importing.sh).
    String join = Dialect.of(r.db()).orderedJoin();
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
    // A personal key sees only companies it shares a meeting with (decisions.md).
    if (who.isPersonal()) sql.add("AND k.meetings > 0");
    sql.add("ORDER BY k.last_at IS NULL, k.last_at DESC, c.name, c.id");
    return new CustomerList(sql.list(r.db(), rs -> {
      String domains = rs.getString(3);
      return new Customer(rs.getString(1), rs.getString(2),
          domains == null ? List.of() : Arrays.asList(domains.split(" ")), rs.getLong(4), rs.getString(5));
    }));
  }
}
