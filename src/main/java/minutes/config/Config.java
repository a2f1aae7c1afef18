package minutes.config;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
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
    Path indexPath,
    boolean autoMigrate,
    int dbPoolSize,
    boolean metricsRequireKey,
    String cacheControl,
    boolean logQueryText,
    int shutdownSeconds,
    List<String> mcpAllowedOrigins,
    Path source) {

  public static final Path DEFAULT_FILE = Path.of("config", "minutes.properties");

  /** Keys of the properties file, each overridable by the environment variable next to it. */
  enum Key {
    HTTP_HOST("http.host", "MINUTES_HTTP_HOST", "127.0.0.1"),
    HTTP_PORT("http.port", "MINUTES_HTTP_PORT", "8080"),
    DB_PATH("db.path", "MINUTES_DB_PATH", "data/minutes.db"),
    INDEX_PATH("index.path", "MINUTES_INDEX_PATH", "index/"),
    DB_AUTO_MIGRATE("db.auto_migrate", "MINUTES_DB_AUTO_MIGRATE", "true"),
    DB_POOL_SIZE("db.pool_size", "MINUTES_DB_POOL_SIZE", "8"),
    // Off by default because http.host defaults to loopback; see docs/OPERATIONS.md.
    METRICS_REQUIRE_KEY("metrics.require_key", "MINUTES_METRICS_REQUIRE_KEY", "false"),
    HTTP_CACHE_CONTROL("http.cache_control", "MINUTES_HTTP_CACHE_CONTROL", "private, no-store"),
    // Search terms can be personal data, so the access log leaves them out unless asked.
    LOG_QUERY_TEXT("log.query_text", "MINUTES_LOG_QUERY_TEXT", "false"),
    HTTP_SHUTDOWN_SECONDS("http.shutdown_seconds", "MINUTES_HTTP_SHUTDOWN_SECONDS", "10"),
    // Browser pages allowed to call /mcp (DNS-rebinding protection); loopback pages only by default.
    MCP_ALLOWED_ORIGINS("mcp.allowed_origins", "MINUTES_MCP_ALLOWED_ORIGINS",
        "http://localhost:*,http://127.0.0.1:*,http://[::1]:*");

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
      boolean known = false;
      for (Key k : Key.values()) known |= k.property.equals(name);
      if (!known) throw new ConfigException("unknown config key '" + name + "' in " + used);
    }
    return new Config(
        value(Key.HTTP_HOST, props, env),
        intValue(Key.HTTP_PORT, props, env, 0, 65535),
        Path.of(value(Key.DB_PATH, props, env)),
        Path.of(value(Key.INDEX_PATH, props, env)),
        boolValue(Key.DB_AUTO_MIGRATE, props, env),
        intValue(Key.DB_POOL_SIZE, props, env, 1, 64),
        boolValue(Key.METRICS_REQUIRE_KEY, props, env),
        headerValue(Key.HTTP_CACHE_CONTROL, props, env),
        boolValue(Key.LOG_QUERY_TEXT, props, env),
        intValue(Key.HTTP_SHUTDOWN_SECONDS, props, env, 0, 600),
        origins(Key.MCP_ALLOWED_ORIGINS, props, env),
        used);
  }

  /** The settings in force, for the start-up log line (nothing here is secret). */
  public String summary() {
    return "http.host=" + httpHost + " http.port=" + httpPort + " db.path=" + dbPath + " index.path=" + indexPath
        + " db.auto_migrate=" + autoMigrate + " db.pool_size=" + dbPoolSize
        + " metrics.require_key=" + metricsRequireKey + " http.cache_control=\"" + cacheControl + "\""
        + " log.query_text=" + logQueryText + " http.shutdown_seconds=" + shutdownSeconds
        + " mcp.allowed_origins=" + (mcpAllowedOrigins.isEmpty() ? "none" : String.join(",", mcpAllowedOrigins))
        + " config=" + (source == null ? "(defaults and environment)" : source);
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
