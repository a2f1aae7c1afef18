package minutes.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import minutes.TestStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Commands run in-process with captured output, through a config file as users pass it. */
class CliTest {
  @TempDir Path dir;
  Path config;
  TestStore store;

  record Run(int code, String out, String err) {
    String lastLine() {
      String[] lines = out.strip().split("\n");
      return lines[lines.length - 1];
    }
  }

  Run run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    String[] withConfig = new String[args.length + 2];
    System.arraycopy(args, 0, withConfig, 0, args.length);
    withConfig[args.length] = "--config";
    withConfig[args.length + 1] = config.toString();
    int code = Cli.run(withConfig, new PrintWriter(out, true), new PrintWriter(err, true));
    return new Run(code, out.toString(), err.toString());
  }

  @BeforeEach
  void setUp() throws Exception {
    config = dir.resolve("minutes.properties");
    store = TestStore.create(Files.createDirectories(dir.resolve("db")));
    Files.writeString(config, store.properties() + "index.path=" + dir.resolve("index") + "\n");
    Path fixtures = dir.resolve("fixtures.ndjson");
    try (var in = CliTest.class.getResourceAsStream("/fixtures.ndjson")) {
      Files.copy(in, fixtures);
    }
    Run imported = run("import", fixtures.toString());
    assertEquals(0, imported.code(), imported.err());
    assertTrue(imported.out().contains("6 meetings"), imported.out());
  }

  @AfterEach
  void dropDatabase() {
    store.close();
  }

  @Test
  void databaseFileIsOwnerOnly() throws Exception {
    assumeFalse(store.isPostgres(), "a SQLite file");
    assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("db/minutes.db"))));
  }

  @Test
  void keysCreatePrintsTheKeyAloneOnTheLastLineAndListNeverShowsIt() {
    Run created = run("keys", "create", "--workspace", "acme", "--scopes", "meetings:read,transcripts:read", "--name", "ci");
    assertEquals(0, created.code(), created.err());
    String key = created.lastLine();
    assertTrue(key.matches("[A-Za-z0-9_-]{43,}"), key);
    Run personal = run("keys", "create", "--workspace", "acme", "--scopes", "meetings:read", "--user", "ann@acme.com");
    assertEquals(0, personal.code(), personal.err());
    Run list = run("keys", "list");
    assertEquals(0, list.code());
    assertFalse(list.out().contains(key));
    assertFalse(list.out().contains(personal.lastLine()));
    assertTrue(list.out().contains("meetings:read,transcripts:read"));
    assertTrue(list.out().contains("ann@acme.com"));
  }

  @Test
  void keysRevokeMarksTheKey() {
    run("keys", "create", "--workspace", "acme", "--scopes", "meetings:read");
    String id = run("keys", "list").out().lines().skip(1).findFirst().orElseThrow().split("\\s+")[0];
    Run revoked = run("keys", "revoke", id);
    assertEquals(0, revoked.code(), revoked.err());
    assertFalse(run("keys", "list").out().lines().skip(1).findFirst().orElseThrow().endsWith(" -"));
    assertEquals(1, run("keys", "revoke", "key_nope").code());
  }

  @Test
  void keyMistakesAreOneLineErrors() {
    Run badScope = run("keys", "create", "--workspace", "acme", "--scopes", "meetings:write");
    assertEquals(1, badScope.code());
    assertTrue(badScope.err().contains("unknown scope 'meetings:write'"), badScope.err());
    Run noWorkspace = run("keys", "create", "--workspace", "nope", "--scopes", "meetings:read");
    assertEquals(1, noWorkspace.code());
    assertTrue(noWorkspace.err().contains("no workspace 'nope'"));
    Run noUser = run("keys", "create", "--workspace", "acme", "--scopes", "meetings:read", "--user", "zed@acme.com");
    assertEquals(1, noUser.code());
    assertFalse(noUser.err().contains("Exception"), noUser.err());
    assertEquals(2, run("keys", "create", "--workspace", "acme").code(), "usage error");
  }

  @Test
  void refusedImportExitsNonZeroAndNamesLineAndField() throws Exception {
    Path bad = dir.resolve("bad.ndjson");
    Files.writeString(bad, "{\"kind\":\"user\",\"workspace\":\"acme\",\"email\":\"not-an-email\"}\n");
    Run r = run("import", bad.toString());
    assertEquals(1, r.code());
    assertTrue(r.err().contains("bad.ndjson:1: email: email must be an email address"), r.err());
    assertTrue(r.err().contains("nothing was imported"), r.err());
  }

  @Test
  void importReadsStandardInputForDash() throws Exception {
    var saved = System.in;
    System.setIn(new java.io.ByteArrayInputStream(
        "{\"kind\":\"user\",\"workspace\":\"acme\",\"email\":\"new@acme.com\",\"name\":\"New\"}\n"
            .getBytes(java.nio.charset.StandardCharsets.UTF_8)));
    try {
      Run r = run("import", "-");
      assertEquals(0, r.code(), r.err());
      assertTrue(r.out().contains("1 users"), r.out());
    } finally {
      System.setIn(saved);
    }
    assertEquals(0, run("keys", "create", "--workspace", "acme", "--scopes", "meetings:read", "--user", "new@acme.com").code());
  }

  @Test
  void migrateCreatesANewDatabaseOwnerOnlyAndItsFolder() throws Exception {
    assumeFalse(store.isPostgres(), "a SQLite file");
    Path fresh = dir.resolve("new/folder/minutes.db");
    Files.writeString(config, "db.path=" + fresh + "\nindex.path=" + dir.resolve("index2") + "\n");
    Run r = run("migrate");
    assertEquals(0, r.code(), r.err());
    assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(fresh)));
  }

  @Test
  void migrateAppliesEveryMigrationToAnEmptyDatabaseOnce() throws Exception {
    try (TestStore empty = TestStore.create(Files.createDirectories(dir.resolve("empty")))) {
      Files.writeString(config, empty.properties() + "index.path=" + dir.resolve("index2") + "\n");
      Run first = run("migrate");
      assertEquals(0, first.code(), first.err());
      assertTrue(first.out().startsWith("applied ") && first.out().contains("V1__core.sql"), first.out());
      assertFalse(first.out().contains("password"), first.out());
      Run again = run("migrate");
      assertTrue(again.out().contains("up to date"), again.out());
    }
  }

  @Test
  void migrateReportsUpToDate() {
    Run r = run("migrate");
    assertEquals(0, r.code(), r.err());
    assertTrue(r.out().contains("up to date"), r.out());
  }
}
