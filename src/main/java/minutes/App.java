package minutes;

import io.undertow.Undertow;
import io.undertow.UndertowOptions;
import io.undertow.server.HttpHandler;
import io.undertow.server.handlers.BlockingHandler;
import io.undertow.util.HttpString;
import java.net.InetSocketAddress;
import java.util.Set;
import minutes.config.Config;
import minutes.customers.CustomersApi;
import minutes.http.ErrorMapper;
import minutes.http.Health;
import minutes.http.Routes;
import minutes.http.Scope;
import minutes.meetings.MeetingsApi;
import minutes.search.SearchApi;
import minutes.search.SearchIndex;
import minutes.store.Db;
import minutes.tasks.TaskIndex;
import minutes.tasks.TasksApi;
import minutes.transcripts.TranscriptApi;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Wires configuration, database, index and routes into a running server; start() and close(). */
public final class App implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(App.class);
  private static final Set<String> CORE = Set.of("meeting");
  private static final Set<String> TASKS = Set.of("meeting", "action_item", "change_log");
  private static final HttpString NOSNIFF = HttpString.tryFromString("X-Content-Type-Options");

  private final Config config;
  private Db db;
  private TaskIndex taskIndex;
  private SearchIndex search;
  private Undertow server;
  private int port;

  public App(Config config) {
    this.config = config;
  }

  public App start() {
    long started = System.nanoTime();
    db = Db.open(config.dbPath(), config.dbPoolSize());
    taskIndex = new TaskIndex(db);
    taskIndex.buildNow();
    TasksApi tasks = new TasksApi(taskIndex);
    search = SearchIndex.start(config, db);
    Routes routes = new Routes(db)
        .api("/api/v1/meetings", Scope.MEETINGS_READ, CORE, MeetingsApi::list)
        .api("/api/v1/meetings/{id}", Scope.MEETINGS_READ, CORE, MeetingsApi::get)
        .api("/api/v1/meetings/{id}/participants", Scope.MEETINGS_READ, CORE, MeetingsApi::participantList)
        .api("/api/v1/meetings/{id}/action-items", Scope.ACTION_ITEMS_READ, TASKS, tasks::ofMeeting)
        .api("/api/v1/action-items", Scope.ACTION_ITEMS_READ, TASKS, tasks::all)
        .api("/api/v1/customers", Scope.MEETINGS_READ, Set.of("company"), CustomersApi::list)
        .api("/api/v1/meetings/{id}/transcript", Scope.TRANSCRIPTS_READ, Set.of("transcript_segment"), TranscriptApi::get)
        .api("/api/v1/search", Scope.MEETINGS_READ, Set.of("meeting", "change_log"), new SearchApi(search)::search)
        .open("/healthz", new Health(db, search::ready));
    HttpHandler root = new BlockingHandler(new ErrorMapper(exchange -> {
      exchange.getResponseHeaders().put(NOSNIFF, "nosniff");
      routes.handler().handleRequest(exchange);
    }));
    server = Undertow.builder()
        .addHttpListener(config.httpPort(), config.httpHost())
        .setServerOption(UndertowOptions.MAX_HEADER_SIZE, 16 * 1024)
        .setServerOption(UndertowOptions.MAX_PARAMETERS, 200)
        .setServerOption(UndertowOptions.MAX_HEADERS, 100)
        .setServerOption(UndertowOptions.MAX_ENTITY_SIZE, 64L * 1024)
        .setServerOption(UndertowOptions.ALLOW_ENCODED_SLASH, false)
        .setServerOption(UndertowOptions.RECORD_REQUEST_START_TIME, true)
        .setHandler(root)
        .build();
    server.start();
    port = ((InetSocketAddress) server.getListenerInfo().get(0).getAddress()).getPort();
    log.info("minutes {} listening on http://{}:{} (database {}, index {}) ready in {} ms",
        version(), config.httpHost(), port, config.dbPath(), config.indexPath(),
        (System.nanoTime() - started) / 1_000_000);
    return this;
  }

  public int port() {
    return port;
  }

  public static String version() {
    String v = App.class.getPackage().getImplementationVersion();
    return v == null ? "dev" : v;
  }

  @Override
  public void close() {
    if (server != null) server.stop();
    if (taskIndex != null) taskIndex.close();
    if (search != null) search.close();
    if (db != null) db.close();
  }
}
