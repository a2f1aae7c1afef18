package minutes.config;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Pattern;

/**
 * Settings, read once at start: defaults, then the properties file, then MINUTES_* environment
 * variables. Immutable and passed down; nothing else reads the environment.
 */
public record Config(
    String httpHost,
    int httpPort,
    Path dbPath,
    String dbUrl,
    Path indexPath,
    boolean autoMigrate,
    int dbPoolSize,
    boolean metricsRequireKey,
    String cacheControl,
    boolean logQueryText,
    int shutdownSeconds,
    Limits limits,
    int searchTimeoutMs,
    int searchWarmupMs,
    List<String> mcpAllowedOrigins,
    int changesRetentionDays,
    int changesMaxWaiting,
    Path source) {

  public static final Path DEFAULT_FILE = Path.of("config", "minutes.properties");
  /** decisions.md "Change feed": history is kept 30 days unless configured otherwise. */
  public static final int DEFAULT_CHANGES_RETENTION_DAYS = 30;

  /** Keys of the properties file, each overridable by the environment variable next to it. */
  enum Key {
    HTTP_HOST("http.host", "MINUTES_HTTP_HOST", "127.0.0.1"),
    HTTP_PORT("http.port", "MINUTES_HTTP_PORT", "8080"),
    DB_PATH("db.path", "MINUTES_DB_PATH", "data/minutes.db"),
    // Cluster mode (decisions.md): a PostgreSQL JDBC URL; when set it replaces db.path.
    DB_URL("db.url", "MINUTES_DB_URL", ""),
    INDEX_PATH("index.path", "MINUTES_INDEX_PATH", "index/"),
    DB_AUTO_MIGRATE("db.auto_migrate", "MINUTES_DB_AUTO_MIGRATE", "true"),
    DB_POOL_SIZE("db.pool_size", "MINUTES_DB_POOL_SIZE", "8"),
    // Off by default because http.host defaults to loopback; see docs/OPERATIONS.md.
    METRICS_REQUIRE_KEY("metrics.require_key", "MINUTES_METRICS_REQUIRE_KEY", "false"),
    HTTP_CACHE_CONTROL("http.cache_control", "MINUTES_HTTP_CACHE_CONTROL", "private, no-store"),
    // Search terms can be personal data, so the access log leaves them out unless asked.
    LOG_QUERY_TEXT("log.query_text", "MINUTES_LOG_QUERY_TEXT", "false"),
    HTTP_SHUTDOWN_SECONDS("http.shutdown_seconds", "MINUTES_HTTP_SHUTDOWN_SECONDS", "10"),
    // Over a hundred times the slowest bench search at 20,000 meetings (about 13 ms), yet short
    // of a client's usual 5-10 s timeout: only a runaway search reaches it, and it then frees
    // its thread instead of holding it. See docs/OPERATIONS.md, "Search time limit".
    SEARCH_TIMEOUT_MS("search.timeout_ms", "MINUTES_SEARCH_TIMEOUT_MS", "2000"),
    // Searches the server runs on itself before it listens, so that the first clients' searches
    // do not wait for the JIT (docs/BENCHMARKS.md, "Cold start"); 0 turns the warm-up off.
    SEARCH_WARMUP_MS("search.warmup_ms", "MINUTES_SEARCH_WARMUP_MS", "2000"),
    // decisions.md "Rate limits and overload": 50 a second per key on average.
    HTTP_RATE_LIMIT_PER_MINUTE("http.rate_limit_per_minute", "MINUTES_HTTP_RATE_LIMIT_PER_MINUTE", "3000"),
    // Two per core: on SQLite a request is CPU work (the database and Lucene read from memory),
    // and more at once only made each one slower on the 2-core machine (docs/RELIABILITY.md,
    // "Overload"); PostgreSQL nodes were not measured apart and keep the same default.
    HTTP_MAX_IN_FLIGHT("http.max_in_flight", "MINUTES_HTTP_MAX_IN_FLIGHT",
        Integer.toString(2 * Runtime.getRuntime().availableProcessors())),
    HTTP_MAX_QUEUED("http.max_queued", "MINUTES_HTTP_MAX_QUEUED", "16"),
    // A request that could not start within this is refused rather than answered late: under
    // 64 clients, an import and a reindex, waiting in the queue was most of the accepted
    // requests' latency (docs/RELIABILITY.md, "Overload").
    HTTP_MAX_QUEUE_WAIT_MS("http.max_queue_wait_ms", "MINUTES_HTTP_MAX_QUEUE_WAIT_MS", "50"),
    // 25 times the slowest request statement measured at 20,000 meetings (customers, 0.2 s), and
    // well under the time clients and proxies wait (30-60 s), so they get a clear 503 instead.
    DB_STATEMENT_TIMEOUT_MS("db.statement_timeout_ms", "MINUTES_DB_STATEMENT_TIMEOUT_MS", "5000"),
    // Browser pages allowed to call /mcp (DNS-rebinding protection); loopback pages only by default.
    MCP_ALLOWED_ORIGINS("mcp.allowed_origins", "MINUTES_MCP_ALLOWED_ORIGINS",
        "http://localhost:*,http://127.0.0.1:*,http://[::1]:*"),
    // How long change history (the feed, and what search indexes follow) is kept; imports prune it.
    CHANGES_RETENTION_DAYS("changes.retention_days", "MINUTES_CHANGES_RETENTION_DAYS",
        Integer.toString(DEFAULT_CHANGES_RETENTION_DAYS)),
    // Held long-polls and open streams at once (decisions.md "Push"); each costs a connection and
    // a few kilobytes, no thread. Room for issue 47's 1,000 long-polls and 100 streams.
    CHANGES_MAX_WAITING("changes.max_waiting", "MINUTES_CHANGES_MAX_WAITING", "2000");

    final String property;
    final String env;
    final String defaultValue;

    Key(String property, String env, String defaultValue) {
      this.property = property;
      this.env = env;
      this.defaultValue = defaultValue;
    }
  }

  /**
   * Loads the given file (or {@link #DEFAULT_FILE} when it exists and none is given), then
   * applies environment overrides.
   */
  public static Config load(Path file, Map<String, String> env) {
    Properties props = new Properties();
    Path used = file != null ? file : (Files.isRegularFile(DEFAULT_FILE) ? DEFAULT_FILE : null);
    if (used != null) {
      try (Reader r = Files.newBufferedReader(used)) {
        props.load(r);
      } catch (IOException e) {
        throw new ConfigException("cannot read config file " + used + ": " + e.getMessage());
      }
    }
    for (Object name : props.keySet()) {
      if (Arrays.stream(Key.values()).noneMatch(k -> k.property.equals(name))) {
        throw new ConfigException("unknown config key '" + name + "' in " + used);
      }
    }
    return new Config(
        value(Key.HTTP_HOST, props, env),
        intValue(Key.HTTP_PORT, props, env, 0, 65535),
        Path.of(value(Key.DB_PATH, props, env)),
        dbUrl(value(Key.DB_URL, props, env)),
        Path.of(value(Key.INDEX_PATH, props, env)),
        boolValue(Key.DB_AUTO_MIGRATE, props, env),
        intValue(Key.DB_POOL_SIZE, props, env, 1, 64),
        boolValue(Key.METRICS_REQUIRE_KEY, props, env),
        headerValue(Key.HTTP_CACHE_CONTROL, props, env),
        boolValue(Key.LOG_QUERY_TEXT, props, env),
        intValue(Key.HTTP_SHUTDOWN_SECONDS, props, env, 0, 600),
        new Limits(
            intValue(Key.HTTP_RATE_LIMIT_PER_MINUTE, props, env, 0, 1_000_000),
            intValue(Key.HTTP_MAX_IN_FLIGHT, props, env, 1, 1024),
            // At least 1: Undertow's RequestLimit reads a queue size of 0 as "unbounded".
            intValue(Key.HTTP_MAX_QUEUED, props, env, 1, 100_000),
            intValue(Key.HTTP_MAX_QUEUE_WAIT_MS, props, env, 0, 600_000),
            intValue(Key.DB_STATEMENT_TIMEOUT_MS, props, env, 0, 3_600_000)),
        intValue(Key.SEARCH_TIMEOUT_MS, props, env, 1, 600_000),
        intValue(Key.SEARCH_WARMUP_MS, props, env, 0, 600_000),
        origins(Key.MCP_ALLOWED_ORIGINS, props, env),
        intValue(Key.CHANGES_RETENTION_DAYS, props, env, 1, 36_500),
        intValue(Key.CHANGES_MAX_WAITING, props, env, 0, 100_000),
        used);
  }

  /**
   * How much the server takes on: requests per minute and key (0: no limit), requests answered
   * at once and waiting to start (beyond both: 503 at once), and the time one database statement
   * of a request may run (0: no limit).
   */
  public record Limits(int rateLimitPerMinute, int maxInFlight, int maxQueued, int maxQueueWaitMs,
      int statementTimeoutMs) {}

  /** The settings in force, for the start-up log line (nothing here is secret). */
  public String summary() {
    return "http.host=" + httpHost + " http.port=" + httpPort
        + (dbUrl.isEmpty() ? " db.path=" + dbPath : " db.url=" + withoutPassword(dbUrl)) + " index.path=" + indexPath
        + " db.auto_migrate=" + autoMigrate + " db.pool_size=" + dbPoolSize
        + " metrics.require_key=" + metricsRequireKey + " http.cache_control=\"" + cacheControl + "\""
        + " log.query_text=" + logQueryText + " http.shutdown_seconds=" + shutdownSeconds
        + " http.rate_limit_per_minute=" + limits.rateLimitPerMinute() + " http.max_in_flight=" + limits.maxInFlight()
        + " http.max_queued=" + limits.maxQueued() + " http.max_queue_wait_ms=" + limits.maxQueueWaitMs()
        + " db.statement_timeout_ms=" + limits.statementTimeoutMs()
        + " search.timeout_ms=" + searchTimeoutMs + " search.warmup_ms=" + searchWarmupMs
        + " mcp.allowed_origins=" + (mcpAllowedOrigins.isEmpty() ? "none" : String.join(",", mcpAllowedOrigins))
        + " changes.retention_days=" + changesRetentionDays + " changes.max_waiting=" + changesMaxWaiting
        + " config=" + (source == null ? "(defaults and environment)" : source);
  }

  /** True in cluster mode: the records live in the PostgreSQL database of {@link #dbUrl}. */
  public boolean usesPostgres() {
    return !dbUrl.isEmpty();
  }

  /** The URL as it may be logged or printed: any password replaced by ***. */
  public static String withoutPassword(String url) {
    return url.replaceAll("(?i)(password=)[^&]*", "$1***");
  }

  private static String dbUrl(String raw) {
    if (!raw.isEmpty() && !raw.startsWith("jdbc:postgresql://")) {
      throw new ConfigException("db.url (MINUTES_DB_URL) must be a PostgreSQL JDBC URL such as "
          + "jdbc:postgresql://host:5432/minutes?user=minutes&password=..., got '" + withoutPassword(raw) + "'");
    }
    return raw;
  }

  private static String value(Key key, Properties props, Map<String, String> env) {
    String fromEnv = env.get(key.env);
    if (fromEnv != null && !fromEnv.isBlank()) return fromEnv.trim();
    return props.getProperty(key.property, key.defaultValue).trim();
  }

  /** A value sent as an HTTP header: printable ASCII only, so it can never split the header. */
  private static String headerValue(Key key, Properties props, Map<String, String> env) {
    String raw = value(key, props, env);
    if (raw.isEmpty() || !raw.chars().allMatch(ch -> ch >= 0x20 && ch < 0x7f)) {
      throw new ConfigException(key.property + " (" + key.env + ") must be non-empty printable ASCII, got '" + raw + "'");
    }
    return raw;
  }

  private static int intValue(Key key, Properties props, Map<String, String> env, int min, int max) {
    String raw = value(key, props, env);
    try {
      int v = Integer.parseInt(raw);
      if (v < min || v > max) throw new NumberFormatException();
      return v;
    } catch (NumberFormatException e) {
      throw new ConfigException(
          key.property + " (" + key.env + ") must be an integer from " + min + " to " + max + ", got '" + raw + "'");
    }
  }

  /** An origin as browsers send it, scheme://host[:port], or with :* for any port. */
  private static final Pattern ORIGIN = Pattern.compile("https?://[^/?#\\s,]+?(:(\\d{1,5}|\\*))?");

  /** Comma-separated origins; {@code none} allows no browser page at all. */
  private static List<String> origins(Key key, Properties props, Map<String, String> env) {
    String raw = value(key, props, env);
    if (raw.equalsIgnoreCase("none")) return List.of();
    List<String> out = new ArrayList<>();
    for (String part : raw.split(",")) {
      String origin = part.trim();
      if (!ORIGIN.matcher(origin).matches()) {
        throw new ConfigException(key.property + " (" + key.env + ") must list origins such as http://localhost:* or "
            + "https://agent.example.com, separated by commas, or be none; got '" + origin + "'");
      }
      out.add(origin);
    }
    return List.copyOf(out);
  }

  private static boolean boolValue(Key key, Properties props, Map<String, String> env) {
    String raw = value(key, props, env);
    return switch (raw.toLowerCase()) {
      case "true", "yes", "1" -> true;
      case "false", "no", "0" -> false;
      default -> throw new ConfigException(key.property + " (" + key.env + ") must be true or false, got '" + raw + "'");
    };
  }

  /** A configuration mistake, reported to the user as one line, never as a stack trace. */
  public static final class ConfigException extends RuntimeException {
    public ConfigException(String message) {
      super(message);
    }
  }
}
