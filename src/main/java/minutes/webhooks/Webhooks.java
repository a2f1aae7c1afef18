package minutes.webhooks;

import java.net.URI;
import java.net.URISyntaxException;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import minutes.store.Db;
import minutes.store.Sql;
import minutes.store.Times;

/**
 * The webhook table (migration V7): what {@code webhooks create | list | delete | enable} change,
 * and each webhook's delivery state as the {@link Deliverer} records it, one row per webhook
 * (it delivers in change order, one change at a time). Stateless.
 */
public final class Webhooks {
  public static final String ACTIVE = "active", FAILING = "failing", DISABLED = "disabled";
  private static final SecureRandom RANDOM = new SecureRandom();

  private Webhooks() {}

  /** One webhook as stored; {@code secret} never leaves the server but in its creation's output. */
  public record Webhook(String id, String keyId, String url, String name, String secret, String state,
      long deliveredThrough, int attempts, long nextAttemptMs, String failingSince, String lastDeliveryAt,
      String lastError, String createdAt) {}

  public record Created(String id, String secret) {}

  /** A mistake of the operator's (an unknown key, a URL that is not http), said in one line. */
  public static final class WebhookException extends RuntimeException {
    public WebhookException(String message) {
      super(message);
    }
  }

  /**
   * Creates a webhook for the live key {@code keyId}, delivering the changes committed from now
   * on to {@code url} (http or https).
   */
  public static Created create(Connection c, String keyId, String url, String name) throws SQLException {
    checkUrl(url);
    String revokedAt = new Sql("SELECT coalesce(revoked_at, '') FROM api_key WHERE id = ?", keyId)
        .one(c, rs -> rs.getString(1))
        .orElseThrow(() -> new WebhookException("no key with id " + keyId + " (see: keys list)"));
    if (!revokedAt.isEmpty()) throw new WebhookException("key " + keyId + " was revoked at " + revokedAt);
    byte[] idBytes = new byte[6];
    RANDOM.nextBytes(idBytes);
    String id = "wh_" + HexFormat.of().formatHex(idBytes);
    String secret = Signature.newSecret();
    new Sql("""
        INSERT INTO webhook(id, key_id, url, name, secret, state, delivered_through, attempts, next_attempt_ms, created_at)
        VALUES (?, ?, ?, ?, ?, ?, ?, 0, 0, ?)""", id, keyId, url, name, secret, ACTIVE, Db.dataVersion(c),
        Times.format(Instant.now())).update(c);
    return new Created(id, secret);
  }

  /** Only an absolute http or https URL with a host: a receiver, not a file or another scheme. */
  static void checkUrl(String url) {
    URI uri;
    try {
      uri = new URI(url);
    } catch (URISyntaxException e) {
      throw new WebhookException("--url is not a URL (" + e.getReason() + "): " + url);
    }
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase();
    if (!scheme.equals("http") && !scheme.equals("https")) {
      throw new WebhookException("--url must be an http or https URL such as https://example.com/hooks/minutes, got " + url);
    }
    if (uri.getHost() == null || uri.getHost().isEmpty()) throw new WebhookException("--url has no host: " + url);
  }

  private static final String COLUMNS = "id, key_id, url, name, secret, state, delivered_through, attempts,"
      + " next_attempt_ms, failing_since, last_delivery_at, last_error, created_at";

  public static List<Webhook> list(Connection c) throws SQLException {
    return new Sql("SELECT " + COLUMNS + " FROM webhook ORDER BY created_at, id").list(c, Webhooks::read);
  }

  /** The webhooks not disabled: those the {@link Deliverer} sends to, now or after their wait. */
  static List<Webhook> notDisabled(Connection c) throws SQLException {
    return new Sql("SELECT " + COLUMNS + " FROM webhook WHERE state <> ? ORDER BY id", DISABLED).list(c, Webhooks::read);
  }

  private static Webhook read(java.sql.ResultSet rs) throws SQLException {
    return new Webhook(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4), rs.getString(5),
        rs.getString(6), rs.getLong(7), rs.getInt(8), rs.getLong(9), rs.getString(10), rs.getString(11),
        rs.getString(12), rs.getString(13));
  }

  public static boolean delete(Connection c, String id) throws SQLException {
    return new Sql("DELETE FROM webhook WHERE id = ?", id).update(c) == 1;
  }

  /** Delivers again from the change it stopped at (the history kept allowing), as if it had never failed. */
  public static boolean enable(Connection c, String id) throws SQLException {
    return new Sql("UPDATE webhook SET state = ?, attempts = 0, next_attempt_ms = 0, failing_since = NULL,"
        + " last_error = NULL WHERE id = ?", ACTIVE, id).update(c) == 1;
  }

  /** Change {@code seq} was delivered (2xx): the next one goes at once. */
  static void delivered(Connection c, String id, long seq, Instant at) throws SQLException {
    new Sql("UPDATE webhook SET delivered_through = ?, state = ?, attempts = 0, next_attempt_ms = 0,"
        + " failing_since = NULL, last_delivery_at = ?, last_error = NULL WHERE id = ? AND state <> ?",
        seq, ACTIVE, Times.format(at), id, DISABLED).update(c);
  }

  /** An attempt failed: {@code attempts} failures so far, the next one at {@code nextMs}. */
  static void failed(Connection c, String id, int attempts, long nextMs, String error, Instant at) throws SQLException {
    new Sql("UPDATE webhook SET state = ?, attempts = ?, next_attempt_ms = ?, failing_since = coalesce(failing_since, ?),"
        + " last_error = ? WHERE id = ? AND state <> ?", FAILING, attempts, nextMs, Times.format(at), error, id, DISABLED)
        .update(c);
  }

  /** Stops for good (410, retries spent, key revoked) until {@code webhooks enable}. */
  static void disable(Connection c, String id, String why, Instant at) throws SQLException {
    new Sql("UPDATE webhook SET state = ?, failing_since = coalesce(failing_since, ?), last_error = ? WHERE id = ?",
        DISABLED, Times.format(at), why, id).update(c);
  }

  /** Goes on after {@code seq} without delivering what lies before it (history pruned, database restored), saying why. */
  static void skipTo(Connection c, String id, long seq, String why) throws SQLException {
    new Sql("UPDATE webhook SET delivered_through = ?, last_error = ? WHERE id = ?", seq, why, id).update(c);
  }

  /** Nothing for it from {@code from} through {@code to}: it goes on after {@code to} (unless it moved meanwhile). */
  static void caughtUp(Connection c, String id, long from, long to) throws SQLException {
    new Sql("UPDATE webhook SET delivered_through = ? WHERE id = ? AND delivered_through = ?", to, id, from).update(c);
  }

  /** The webhook as stored now, if it still exists. */
  static Optional<Webhook> find(Connection c, String id) throws SQLException {
    return new Sql("SELECT " + COLUMNS + " FROM webhook WHERE id = ?", id).one(c, Webhooks::read);
  }
}
