package minutes.keys;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.EnumSet;
import java.util.List;
import java.util.OptionalLong;
import minutes.TestStore;
import minutes.store.Db;
import minutes.store.Importer;
import minutes.store.Migrations;
import minutes.store.Sql;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Resolving a key, alone or with the data version the request's transaction sees (one statement either way). */
class ApiKeysTest {
  @TempDir Path dir;

  @Test
  void theKeysStatementReadsTheTransactionsDataVersionWhenAsked() throws Exception {
    try (TestStore testStore = TestStore.create(dir)) {
      Migrations.migrate(testStore.store());
      Path fixtures = dir.resolve("fixtures.ndjson");
      try (var in = ApiKeysTest.class.getResourceAsStream("/fixtures.ndjson")) {
        Files.copy(in, fixtures);
      }
      new Importer(testStore.store(), Importer.Progress.NONE).run(List.of(fixtures));
      String secret, revoked;
      try (Db db = Db.open(testStore.store(), 1); Connection w = testStore.store().write()) {
        String workspace = new Sql("SELECT slug FROM workspace ORDER BY id LIMIT 1")
            .one(w, rs -> rs.getString(1)).orElseThrow();
        secret = ApiKeys.create(w, workspace, EnumSet.of(Scope.MEETINGS_READ), null, null).secret();
        ApiKeys.Created gone = ApiKeys.create(w, workspace, EnumSet.of(Scope.MEETINGS_READ), null, null);
        revoked = gone.secret();
        assertTrue(ApiKeys.revoke(w, gone.id()));

        try (Connection c = db.read()) {
          c.setAutoCommit(false);
          ApiKeys.Resolved alone = ApiKeys.resolve(c, secret, false).orElseThrow();
          ApiKeys.Resolved withVersion = ApiKeys.resolve(c, secret, true).orElseThrow();
          long version = Db.dataVersion(c);
          assertTrue(version > 0, "the import wrote the change log");
          assertEquals(OptionalLong.empty(), alone.dataVersion());
          assertEquals(OptionalLong.of(version), withVersion.dataVersion());
          assertEquals(alone.principal(), withVersion.principal());
          assertEquals(List.of(), ApiKeys.resolve(c, revoked, true).stream().toList(), "a revoked key resolves to nothing");
          assertEquals(List.of(), ApiKeys.resolve(c, secret + "x", true).stream().toList(), "nor does an unknown one");
          c.rollback();
        }
      }
    }
  }
}
