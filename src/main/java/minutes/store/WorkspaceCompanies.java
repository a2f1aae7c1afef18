package minutes.store;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.List;

/**
 * The companies of a workspace and their domains as the database holds them now (lower case),
 * for the customer list and for search, whose company filter and facet follow a company's
 * domains without a reindex. Stateless.
 */
public final class WorkspaceCompanies {
  private WorkspaceCompanies() {}

  /** A company: its id, name and domains, the domains in ascending order. */
  public record Company(String id, String name, List<String> domains) {}

  /** Every company of the workspace, by name, then id. */
  public static List<Company> read(Connection c, long workspaceId) throws SQLException {
    return new Sql("""
        SELECT c.id, c.name, (SELECT string_agg(domain, ' ' ORDER BY domain) FROM company_domain WHERE company_id = c.id)
        FROM company c WHERE c.workspace_id = ? ORDER BY c.name, c.id""", workspaceId)
        .list(c, rs -> new Company(rs.getString(1), rs.getString(2), domains(rs.getString(3))));
  }

  /** The domains of one company of the workspace; empty for an unknown id or another workspace's. */
  public static List<String> domains(Connection c, long workspaceId, String companyId) throws SQLException {
    return new Sql("""
        SELECT cd.domain FROM company_domain cd JOIN company co ON co.id = cd.company_id
        WHERE co.id = ? AND co.workspace_id = ?""", companyId, workspaceId).list(c, rs -> rs.getString(1));
  }

  /** The domains of a string_agg of them, space-separated (a domain holds no space). */
  public static List<String> domains(String spaceSeparated) {
    return spaceSeparated == null ? List.of() : Arrays.asList(spaceSeparated.split(" "));
  }
}
