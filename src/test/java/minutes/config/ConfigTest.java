package minutes.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import minutes.StoreIndependent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The operational settings: defaults, file, environment over file, and refused values. */
@StoreIndependent
class ConfigTest {
  @TempDir Path dir;

  private Path file(String text) throws Exception {
    Path f = dir.resolve("minutes.properties");
    Files.writeString(f, text);
    return f;
  }

  @Test
  void defaultsAreTheSafeOnes() throws Exception {
    Config c = Config.load(file(""), Map.of());
    assertFalse(c.metricsRequireKey());
    assertEquals("private, no-store", c.cacheControl());
    assertFalse(c.logQueryText());
    assertEquals(10, c.shutdownSeconds());
    assertEquals(2000, c.searchTimeoutMs());
    assertEquals(2000, c.searchWarmupMs());
    assertEquals("127.0.0.1", c.httpHost());
    assertEquals(new Config.Limits(3000, 2 * Runtime.getRuntime().availableProcessors(), 16, 50, 5000), c.limits());
  }

  @Test
  void overloadLimitsFromFileAndEnvironment() throws Exception {
    Path f = file("http.rate_limit_per_minute=600\nhttp.max_in_flight=3\nhttp.max_queued=7\nhttp.max_queue_wait_ms=20\ndb.statement_timeout_ms=250\n");
    assertEquals(new Config.Limits(600, 3, 7, 20, 250), Config.load(f, Map.of()).limits());
    Config fromEnv = Config.load(f, Map.of("MINUTES_HTTP_RATE_LIMIT_PER_MINUTE", "0", "MINUTES_HTTP_MAX_IN_FLIGHT", "1",
        "MINUTES_HTTP_MAX_QUEUED", "1", "MINUTES_HTTP_MAX_QUEUE_WAIT_MS", "0", "MINUTES_DB_STATEMENT_TIMEOUT_MS", "0"));
    assertEquals(new Config.Limits(0, 1, 1, 0, 0), fromEnv.limits());
    assertTrue(fromEnv.summary().contains("http.rate_limit_per_minute=0 http.max_in_flight=1 http.max_queued=1 "
        + "http.max_queue_wait_ms=0 db.statement_timeout_ms=0"), fromEnv.summary());
    // Undertow reads a queue of 0 as unbounded, so 0 is refused rather than silently meaning "no limit".
    var e = assertThrows(Config.ConfigException.class, () -> Config.load(file(""), Map.of("MINUTES_HTTP_MAX_QUEUED", "0")));
    assertTrue(e.getMessage().contains("http.max_queued (MINUTES_HTTP_MAX_QUEUED) must be an integer from 1"), e.getMessage());
    e = assertThrows(Config.ConfigException.class, () -> Config.load(file(""), Map.of("MINUTES_HTTP_RATE_LIMIT_PER_MINUTE", "-1")));
    assertTrue(e.getMessage().contains("http.rate_limit_per_minute"), e.getMessage());
  }

  @Test
  void fileThenEnvironment() throws Exception {
    Path f = file("metrics.require_key=true\nhttp.cache_control=private, max-age=30\nlog.query_text=yes\nhttp.shutdown_seconds=3\n");
    Config fromFile = Config.load(f, Map.of());
    assertTrue(fromFile.metricsRequireKey());
    assertEquals("private, max-age=30", fromFile.cacheControl());
    assertTrue(fromFile.logQueryText());
    assertEquals(3, fromFile.shutdownSeconds());
    Config fromEnv = Config.load(f, Map.of("MINUTES_METRICS_REQUIRE_KEY", "false", "MINUTES_HTTP_SHUTDOWN_SECONDS", "0",
        "MINUTES_HTTP_CACHE_CONTROL", "no-cache", "MINUTES_LOG_QUERY_TEXT", "0"));
    assertFalse(fromEnv.metricsRequireKey());
    assertEquals(0, fromEnv.shutdownSeconds());
    assertEquals("no-cache", fromEnv.cacheControl());
    assertFalse(fromEnv.logQueryText());
    assertTrue(fromEnv.summary().contains("metrics.require_key=false http.cache_control=\"no-cache\""), fromEnv.summary());
  }

  @Test
  void unusableValuesAreRefusedNamingKeyAndVariable() throws Exception {
    var e = assertThrows(Config.ConfigException.class, () -> Config.load(file("http.shutdown_seconds=601\n"), Map.of()));
    assertTrue(e.getMessage().contains("http.shutdown_seconds (MINUTES_HTTP_SHUTDOWN_SECONDS)"), e.getMessage());
    e = assertThrows(Config.ConfigException.class, () -> Config.load(file(""), Map.of("MINUTES_METRICS_REQUIRE_KEY", "maybe")));
    assertTrue(e.getMessage().contains("metrics.require_key"), e.getMessage());
    // A header value must not be able to split the header (CR/LF) or smuggle non-ASCII.
    e = assertThrows(Config.ConfigException.class, () -> Config.load(file(""), Map.of("MINUTES_HTTP_CACHE_CONTROL", "no-store\r\nX-Evil: 1")));
    assertTrue(e.getMessage().contains("http.cache_control"), e.getMessage());
    e = assertThrows(Config.ConfigException.class, () -> Config.load(file("search.timeout_ms=0\n"), Map.of()));
    assertTrue(e.getMessage().contains("search.timeout_ms (MINUTES_SEARCH_TIMEOUT_MS) must be an integer from 1"),
        e.getMessage());
    assertEquals(150, Config.load(file("search.timeout_ms=900\n"), Map.of("MINUTES_SEARCH_TIMEOUT_MS", "150"))
        .searchTimeoutMs());
  }

  @Test
  void mcpAllowedOriginsDefaultToLoopbackPagesAndCanBeListedOrNone() throws Exception {
    assertEquals(List.of("http://localhost:*", "http://127.0.0.1:*", "http://[::1]:*"),
        Config.load(file(""), Map.of()).mcpAllowedOrigins());
    Config listed = Config.load(file("mcp.allowed_origins=https://agent.example.com, http://10.0.0.5:8080\n"), Map.of());
    assertEquals(List.of("https://agent.example.com", "http://10.0.0.5:8080"), listed.mcpAllowedOrigins());
    assertTrue(listed.summary().contains("mcp.allowed_origins=https://agent.example.com,http://10.0.0.5:8080"));
    assertEquals(List.of(), Config.load(file(""), Map.of("MINUTES_MCP_ALLOWED_ORIGINS", "none")).mcpAllowedOrigins());
    for (String bad : List.of("*", "agent.example.com", "https://agent.example.com/path", "ftp://x")) {
      var e = assertThrows(Config.ConfigException.class,
          () -> Config.load(file(""), Map.of("MINUTES_MCP_ALLOWED_ORIGINS", bad)), bad);
      assertTrue(e.getMessage().contains("mcp.allowed_origins (MINUTES_MCP_ALLOWED_ORIGINS)"), e.getMessage());
    }
  }
}
