package minutes.config;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;

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
    Path source) {

  public static final Path DEFAULT_FILE = Path.of("config", "minutes.properties");

  /** Keys of the properties file, each overridable by the environment variable next to it. */
  enum Key {
    HTTP_HOST("http.host", "MINUTES_HTTP_HOST", "127.0.0.1"),
    HTTP_PORT("http.port", "MINUTES_HTTP_PORT", "8080"),
    DB_PATH("db.path", "MINUTES_DB_PATH", "data/minutes.db"),
    INDEX_PATH("index.path", "MINUTES_INDEX_PATH", "index/"),
    DB_AUTO_MIGRATE("db.auto_migrate", "MINUTES_DB_AUTO_MIGRATE", "true"),
    DB_POOL_SIZE("db.pool_size", "MINUTES_DB_POOL_SIZE", "8");

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
        used);
  }

  public Config withHttpPort(int port) {
    return new Config(httpHost, port, dbPath, indexPath, autoMigrate, dbPoolSize, source);
  }

  public Config withAutoMigrate(boolean migrate) {
    return new Config(httpHost, httpPort, dbPath, indexPath, migrate, dbPoolSize, source);
  }

  private static String value(Key key, Properties props, Map<String, String> env) {
    String fromEnv = env.get(key.env);
    if (fromEnv != null && !fromEnv.isBlank()) return fromEnv.trim();
    return props.getProperty(key.property, key.defaultValue).trim();
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
