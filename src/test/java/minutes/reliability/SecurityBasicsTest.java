package minutes.reliability;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.util.List;
import java.util.Map;
import minutes.ApiServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The security basics of issue 5, each pinned: keys stored only as hashes and never echoed,
 * keys in the query string refused, bounds on request line, headers, parameters, q and page
 * sizes, nosniff on every answer, and a private database file.
 */
class SecurityBasicsTest {
  @RegisterExtension static final ApiServer api = new ApiServer();

  private static final List<String> KEYS = List.of(ApiServer.ALL, ApiServer.MEETINGS, ApiServer.TASKS,
      ApiServer.TRANSCRIPTS, ApiServer.ANN, ApiServer.BOB, ApiServer.OTHER, ApiServer.REVOKED);

  @Test
  void theDatabaseHoldsNoKeyOnlyItsHash() throws Exception {
    if (!api.testStore().isPostgres()) {
      // Every byte of the database (and its WAL): no secret, in any form a careless store would use.
      byte[] all = readAll(api.testStore().sqliteFile());
      String text = new String(all, StandardCharsets.ISO_8859_1);
      for (String name : KEYS) {
        String secret = api.key(name);
        assertFalse(text.contains(secret), "the database holds the secret of " + name);
        assertFalse(text.contains(secret.substring(3)), "the database holds the secret of " + name + " without prefix");
      }
    }
    try (Connection c = api.store().write();
        ResultSet rs = c.createStatement().executeQuery("SELECT length(secret_hash) FROM api_key")) {
      int rows = 0;
      while (rs.next()) {
        assertEquals(32, rs.getInt(1), "a SHA-256 per key");
        rows++;
      }
      assertEquals(KEYS.size(), rows, "one row per key ApiServer creates");
    }
  }

  private static byte[] readAll(Path db) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (String suffix : List.of("", "-wal")) {
      Path p = Path.of(db + suffix);
      if (Files.exists(p)) out.writeBytes(Files.readAllBytes(p));
    }
    return out.toByteArray();
  }

  @Test
  void aKeyInTheQueryStringNeverAuthenticates() {
    String key = api.key(ApiServer.ALL);
    for (String name : List.of("key", "api_key", "apikey", "access_token", "token", "auth", "authorization", "bearer")) {
      ApiServer.Response r = api.get("/api/v1/meetings?" + name + "=" + key, null);
      assertEquals(401, r.status(), name + ": " + r.body());
      assertFalse(r.body().contains(key), "the key is echoed");
    }
    ApiServer.Response r = api.get("/api/v1/meetings?access_token=Bearer%20" + key, null);
    assertEquals(401, r.status());
  }

  @Test
  void nosniffOnEveryKindOfAnswer() {
    for (ApiServer.Response r : List.of(api.get("/api/v1/meetings", ApiServer.ALL), api.get("/api/v1/meetings", null),
        api.get("/api/v1/nowhere", ApiServer.ALL), api.get("/api/v1/search?q=x", ApiServer.ALL),
        api.get("/api/v1/meetings", ApiServer.TASKS), api.get("/healthz", null),
        api.send("DELETE", "/api/v1/meetings", Map.of()))) {
      assertEquals("nosniff", r.header("X-Content-Type-Options"), r.status() + " " + r.body());
    }
  }

  @Test
  void requestLineHeadersAndParametersAreBounded() throws Exception {
    // Undertow refuses these in its parser (docs/RELIABILITY.md): a bare 400, connection closed.
    assertEquals(400, rawStatus("GET /api/v1/meetings?q=" + "a".repeat(17_000) + " HTTP/1.1\r\nHost: x\r\n\r\n"));
    assertEquals(400, rawStatus("GET /api/v1/meetings HTTP/1.1\r\nHost: x\r\nX-Big: " + "b".repeat(17_000) + "\r\n\r\n"));
    StringBuilder many = new StringBuilder("GET /api/v1/meetings HTTP/1.1\r\nHost: x\r\n");
    for (int i = 0; i < 120; i++) many.append("X-H").append(i).append(": 1\r\n");
    assertEquals(400, rawStatus(many + "\r\n"));
    StringBuilder params = new StringBuilder("GET /api/v1/meetings?");
    for (int i = 0; i < 250; i++) params.append("p").append(i).append("=1&");
    assertEquals(400, rawStatus(params + " HTTP/1.1\r\nHost: x\r\n\r\n"));
    // Never read: the route refuses the method before anything reads a body (decisions.md: 405).
    assertEquals(405, rawStatus("POST /api/v1/meetings HTTP/1.1\r\nHost: x\r\nContent-Length: 100000000\r\n\r\n"));
  }

  @Test
  void searchTextAndPageSizesAreBounded() throws Exception {
    ApiServer.Response q = api.get("/api/v1/search?q=" + "ab+".repeat(200), ApiServer.ALL);
    assertEquals(400, q.status(), q.body());
    assertEquals("q", q.json().at("/error/field").asText());
    assertEquals(200, api.get("/api/v1/meetings?limit=100000", ApiServer.ALL).json().at("/pagination/limit").asInt());
    assertEquals(200, api.get("/api/v1/action-items?limit=100000", ApiServer.ALL).json().at("/pagination/limit").asInt());
    assertEquals(5000, api.get("/api/v1/meetings/" + minutes.Fixtures.M1 + "/transcript?limit=100000", ApiServer.ALL)
        .json().at("/pagination/limit").asInt());
    // The fixture has only a few planning meetings: import more than the search bound, so that
    // a limit the server failed to clamp would show as more than 100 hits.
    Path file = Files.createTempFile("minutes-security-", ".ndjson");
    try {
      List<String> lines = new java.util.ArrayList<>();
      for (int i = 0; i < 130; i++) {
        lines.add("{\"kind\":\"meeting\",\"workspace\":\"acme\",\"id\":\"" + new java.util.UUID(0x5ec0L, i)
            + "\",\"title\":\"Bulk planning " + i + "\",\"platform\":\"zoom\",\"source\":\"calendar\","
            + "\"status\":\"ready\",\"created_at\":\"2026-03-01T12:00:00Z\"}");
      }
      Files.write(file, lines);
      new minutes.store.Importer(api.store(), minutes.store.Importer.Progress.NONE).run(List.of(file));
    } finally {
      Files.delete(file);
    }
    // The server's search index follows the import within its poll interval.
    ApiServer.Response hits = null;
    for (int i = 0; i < 200; i++) {
      hits = api.get("/api/v1/search?q=planning&limit=100000", ApiServer.ALL);
      assertEquals(200, hits.status(), hits.body());
      if (hits.json().get("data").size() >= 100) break;
      Thread.sleep(50);
    }
    assertEquals(100, hits.json().get("data").size(), "limit=100000 is clamped to 100");
    assertEquals(50, api.get("/api/v1/search?q=planning", ApiServer.ALL).json().get("data").size(), "default limit");
  }

  @Test
  void theDatabaseFileIsPrivate() throws Exception {
    org.junit.jupiter.api.Assumptions.assumeFalse(api.testStore().isPostgres(), "a SQLite file");
    assertEquals("rw-------", java.nio.file.attribute.PosixFilePermissions.toString(
        Files.getPosixFilePermissions(api.testStore().sqliteFile())));
  }

  @Test
  void aBackupIsAsPrivateAsTheDatabase(@org.junit.jupiter.api.io.TempDir Path tmp) throws Exception {
    org.junit.jupiter.api.Assumptions.assumeFalse(api.testStore().isPostgres(), "backup copies SQLite");
    Path props = tmp.resolve("minutes.properties");
    Files.writeString(props, api.testStore().properties() + "index.path=" + api.config().indexPath() + "\n");
    Path out = tmp.resolve("backup");
    java.io.StringWriter err = new java.io.StringWriter();
    int code = minutes.cli.Cli.run(new String[] {"backup", "--out", out.toString(), "--config", props.toString()},
        new java.io.PrintWriter(new java.io.StringWriter(), true), new java.io.PrintWriter(err, true));
    assertEquals(0, code, err.toString());
    assertEquals("rwx------", java.nio.file.attribute.PosixFilePermissions.toString(Files.getPosixFilePermissions(out)));
    assertEquals("rw-------", java.nio.file.attribute.PosixFilePermissions.toString(
        Files.getPosixFilePermissions(out.resolve("minutes.db"))));
  }

  /** Sends raw bytes, returns the status code of the answer (0 when the server just closed). */
  private static int rawStatus(String request) throws Exception {
    try (Socket s = new Socket("127.0.0.1", api.uri("/").getPort())) {
      s.setSoTimeout(10_000);
      OutputStream out = s.getOutputStream();
      try {
        out.write(request.getBytes(StandardCharsets.ISO_8859_1));
        out.flush();
      } catch (java.io.IOException e) {
        // closed early: the answer may still be readable
      }
      InputStream in = s.getInputStream();
      byte[] head = in.readNBytes(12);
      String line = new String(head, StandardCharsets.ISO_8859_1);
      return line.startsWith("HTTP/1.1 ") ? Integer.parseInt(line.substring(9, 12)) : 0;
    }
  }
}
