package minutes.customers;

import java.sql.Connection;
import java.sql.SQLException;
import minutes.keys.Principal;
import minutes.keys.Visibility;
import minutes.store.Sql;
import minutes.store.WorkspaceCompanies;

/**
 * GET /customers counted in SQL alone, the simple way: the oracle the counts in the in-memory
 * meeting order ({@code MeetingOrder.tookPart}, the only way the server counts) are compared with.
 */
final class CustomersSql {
  private CustomersSql() {}

  static CustomersApi.CustomerList list(Connection c, Principal who) throws SQLException {
    // DISTINCT because several participants may come from the same company.
    Sql counted = new Sql("SELECT cd.company_id, count(DISTINCT m.id) AS meetings, max(m.sort_at) AS last_at"
        + " FROM company_domain cd JOIN participant p ON p.domain = cd.domain JOIN meeting m ON m.id = p.meeting_id"
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
    return new CustomersApi.CustomerList(sql.list(c, rs -> new CustomersApi.Customer(rs.getString(1), rs.getString(2),
        WorkspaceCompanies.domains(rs.getString(3)), rs.getLong(4), rs.getString(5))));
  }
}
