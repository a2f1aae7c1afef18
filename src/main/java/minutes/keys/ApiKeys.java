package minutes.keys;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Base64;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import minutes.store.Db;
import minutes.store.Emails;
import minutes.store.Sql;
import minutes.store.Times;

/**
 * Issuing, listing, revoking and resolving API keys. A key is 256 random bits in URL-safe
 * base64 behind a short prefix; only its SHA-256 is stored, so a lookup by hash needs no
 * secret comparison at all and a stolen database yields no usable key.
 */
public final class ApiKeys {
  private static final SecureRandom RANDOM = new SecureRandom();
  private static final String PREFIX = "mk_";

  private ApiKeys() {}

  /** What {@code keys list} shows: never the secret. */
  public record KeyInfo(String id, String workspace, String user, String name, String scopes,
      String createdAt, String revokedAt) {}

  public record Created(String id, String secret) {}

  public static Created create(Connection c, String workspaceSlug, Set<Scope> scopes, String userEmail, String name)
      throws SQLException {
    long workspaceId = Db.workspaceId(c, workspaceSlug)
        .orElseThrow(() -> new KeyException("no workspace '" + workspaceSlug + "'; import it first"));
    if (userEmail != null && !userExists(c, workspaceId, userEmail)) {
      throw new KeyException("no user '" + userEmail + "' in workspace '" + workspaceSlug + "'; import it first");
    }
    byte[] secretBytes = new byte[32];
    RANDOM.nextBytes(secretBytes);
    String secret = PREFIX + Base64.getUrlEncoder().withoutPadding().encodeToString(secretBytes);
    byte[] idBytes = new byte[6];
    RANDOM.nextBytes(idBytes);
    String id = "key_" + HexFormat.of().formatHex(idBytes);
    new Sql("""
        INSERT INTO api_key(id, workspace_id, user_email, name, scopes, secret_hash, created_at)
        VALUES (?, ?, ?, ?, ?, ?, ?)""", id, workspaceId, userEmail, name,
        String.join(",", scopes.stream().map(Scope::value).sorted().toList()), hash(secret), Times.format(Instant.now()))
        .update(c);
    return new Created(id, secret);
  }

  public static List<KeyInfo> list(Connection c) throws SQLException {
    return new Sql("""
        SELECT k.id, w.slug, k.user_email, k.name, k.scopes, k.created_at, k.revoked_at
        FROM api_key k JOIN workspace w ON w.id = k.workspace_id
        ORDER BY k.created_at, k.id""")
        .list(c, rs -> new KeyInfo(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4),
            rs.getString(5), rs.getString(6), rs.getString(7)));
  }

  /** Returns false when there is no such key; revoking twice keeps the first time. */
  public static boolean revoke(Connection c, String id) throws SQLException {
    return new Sql("UPDATE api_key SET revoked_at = coalesce(revoked_at, ?) WHERE id = ?", Times.format(Instant.now()), id)
        .update(c) == 1;
  }

  /** A live key's principal, and the data version its statement read when asked to. */
  public record Resolved(Principal principal, OptionalLong dataVersion) {}

  /**
   * The principal of a live key, or empty for an unknown or revoked one: one query on every
   * request, the workspace's domains included (a domain name holds no comma). With
   * {@code withDataVersion} (only where change_log exists) the
   * same statement reads the data version ({@link Db#dataVersion}), which the lists and search need
   * next: one round trip fewer a request on PostgreSQL. Read first in the request's
   * transaction, it is the version of the snapshot every later statement sees.
   */
  public static Optional<Resolved> resolve(Connection c, String secret, boolean withDataVersion) throws SQLException {
    return new Sql(PRINCIPAL.formatted(withDataVersion ? Db.DATA_VERSION_VALUE : "NULL") + " k.secret_hash = ?",
        (Object) hash(secret))
        .one(c, rs -> new Resolved(principal(rs), withDataVersion ? OptionalLong.of(rs.getLong(6)) : OptionalLong.empty()));
  }

  /** The principal of the live key with this id (a webhook's), or empty when it is unknown or revoked. */
  public static Optional<Principal> live(Connection c, String id) throws SQLException {
    return new Sql(PRINCIPAL.formatted("NULL") + " k.id = ?", id).one(c, ApiKeys::principal);
  }

  /** A live key's principal in columns 1-5, then the value of %s, for a condition on k appended. */
  private static final String PRINCIPAL = """
      SELECT k.id, k.workspace_id, k.user_email, k.scopes,
             (SELECT string_agg(d.domain, ',') FROM workspace_domain d WHERE d.workspace_id = k.workspace_id),
             %s
      FROM api_key k WHERE k.revoked_at IS NULL AND""";

  private static Principal principal(java.sql.ResultSet rs) throws SQLException {
    String domains = rs.getString(5);
    return new Principal(rs.getString(1), rs.getLong(2), rs.getString(3),
        parseScopes(rs.getString(4)), domains == null ? Set.of() : Set.copyOf(List.of(domains.split(","))));
  }

  public static Set<Scope> parseScopes(String commaSeparated) {
    Set<Scope> scopes = EnumSet.noneOf(Scope.class);
    for (String s : commaSeparated.split(",")) {
      String trimmed = s.trim();
      if (trimmed.isEmpty()) continue;
      scopes.add(Scope.parse(trimmed).orElseThrow(() -> new KeyException(
          "unknown scope '" + trimmed + "'; scopes are meetings:read, action_items:read, transcripts:read")));
    }
    return scopes;
  }

  public static byte[] hash(String secret) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(secret.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every JDK", e);
    }
  }

  private static boolean userExists(Connection c, long workspaceId, String email) throws SQLException {
    return new Sql("SELECT 1 FROM app_user WHERE workspace_id = ? AND email = ?", workspaceId, Emails.key(email))
        .one(c, rs -> true).isPresent();
  }

  /** A mistake in a keys command, shown to the user as one line. */
  public static final class KeyException extends RuntimeException {
    public KeyException(String message) {
      super(message);
    }
  }
}
