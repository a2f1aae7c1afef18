package minutes;

import io.undertow.Undertow;
import io.undertow.UndertowOptions;
import io.undertow.server.HttpHandler;
import io.undertow.predicate.Predicates;
import io.undertow.server.handlers.encoding.ContentEncodingRepository;
import io.undertow.server.handlers.encoding.EncodingHandler;
import io.undertow.server.handlers.encoding.GzipEncodingProvider;
import io.undertow.util.Headers;
import io.undertow.util.HttpString;
import io.undertow.util.Methods;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import minutes.changes.ChangeStream;
import minutes.changes.ChangesApi;
import minutes.changes.FeedWatch;
import minutes.config.Config;
import minutes.customers.CustomersApi;
import minutes.http.AccessLog;
import minutes.http.Docs;
import minutes.http.Drain;
import minutes.http.ErrorMapper;
import minutes.http.Health;
import minutes.http.LoadShedding;
import minutes.http.Metrics;
import minutes.http.Routes;
import minutes.keys.Scope;
import minutes.mcp.McpEndpoint;
import minutes.meetings.MeetingOrder;
import minutes.meetings.MeetingsApi;
import minutes.search.SearchApi;
import minutes.search.index.SearchIndex;
import minutes.search.query.SplitSearch;
import minutes.store.DataWatch;
import minutes.store.Db;
import minutes.store.Store;
import minutes.tasks.TaskOrder;
import minutes.tasks.TasksApi;
import minutes.transcripts.TranscriptApi;
import minutes.webhooks.Deliverer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Wires configuration, database, index and routes into a running server; start() and close(). */
public final class App implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(App.class);
  /** Meetings carry their language from migration V9 on (the list order and the index read it too). */
  private static final Set<String> CORE = Set.of("meeting", "meeting.language");
  /** The task rows carry their meeting's title from migration V6 on. */
  private static final Set<String> TASKS = Set.of("meeting", "action_item", "action_item.meeting_title", "change_log");
  private static final long GZIP_MIN_BYTES = 1024;
  private static final long STOP_WAIT_MILLIS = 1000;
  /** The largest request body read, for every route (/mcp is the only one that reads one). */
  private static final long MAX_BODY_BYTES = 64L * 1024;
  private static final HttpString NOSNIFF = HttpString.tryFromString("X-Content-Type-Options");

  private final Config config;
  private Db db;
  private DataWatch watch;
  private TaskOrder taskOrder;
  private MeetingOrder meetingOrder;
  private SearchIndex search;
  private SplitSearch split;
  private McpEndpoint mcp;
  private FeedWatch feedWatch;
  private ChangeStream stream;
  private Deliverer webhooks;
  private Undertow server;
  private Drain drain;
  private final AtomicBoolean closed = new AtomicBoolean();
  private int port;

  public App(Config config) {
    this.config = config;
  }

  public App start() {
    long started = System.nanoTime();
    db = Db.open(Store.of(config), config.dbPoolSize(), Duration.ofMillis(config.limits().statementTimeoutMs()));
    taskOrder = new TaskOrder(db);
    TasksApi tasks = new TasksApi(taskOrder);
    meetingOrder = new MeetingOrder(db);
    MeetingsApi meetings = new MeetingsApi(meetingOrder);
    search = SearchIndex.start(config, db);
    split = new SplitSearch(Runtime.getRuntime().availableProcessors());
    Metrics metrics = new Metrics(db, () -> {
      SearchIndex.Stats s = search.stats();
      return s == null ? null : new Metrics.IndexStats(s.documents(), s.deletedDocuments(), s.bytes(), s.seq());
    }, split::splits);
    metrics.watchOrder("tasks", taskOrder::status);
    metrics.watchOrder("meetings", meetingOrder::status);
    Docs docs = new Docs();
    // Each newer data version starts the orders' rebuild at once: a list request waits for the
    // rest of it, never answers from an older version (DataSnapshot).
    feedWatch = new FeedWatch(db).onNewVersion(taskOrder::changed).onNewVersion(meetingOrder::changed).start();
    stream = new ChangeStream(db, feedWatch);
    Set<String> feedTables = Set.of("change_log", "change_feed", "change_state");
    watch = db.store().watch();
    Routes routes = new Routes(db, config.cacheControl(), config.limits().rateLimitPerMinute(), watch)
        .api("/api/v1/meetings", Scope.MEETINGS_READ, CORE, meetings::list)
        .api("/api/v1/meetings/{id}", Scope.MEETINGS_READ, CORE, MeetingsApi::get)
        .api("/api/v1/meetings/{id}/participants", Scope.MEETINGS_READ, CORE, MeetingsApi::participantList)
        .api("/api/v1/meetings/{id}/action-items", Scope.ACTION_ITEMS_READ, TASKS, tasks::ofMeeting)
        .api("/api/v1/action-items", Scope.ACTION_ITEMS_READ, TASKS, tasks::all)
        .api("/api/v1/customers", Scope.MEETINGS_READ, Set.of("company", "meeting.language"),
            new CustomersApi(meetingOrder)::list)
        .api("/api/v1/meetings/{id}/transcript", Scope.TRANSCRIPTS_READ, Set.of("transcript_segment"), TranscriptApi::get)
        .api("/api/v1/meetings/{id}/transcript/search", Scope.TRANSCRIPTS_READ, Set.of("transcript_segment", "meeting.language"),
            TranscriptApi::search)
        .api(ChangesApi.PATH, Scope.MEETINGS_READ, feedTables, new ChangesApi(feedWatch)::list)
        .api(ChangesApi.STREAM, Scope.MEETINGS_READ, feedTables, stream::start)
        .apiByStatement("/api/v1/search", Scope.MEETINGS_READ,
            Set.of("meeting", "meeting.language", "change_log", "change_state"),
            new SearchApi(search, split, config.searchTimeoutMs(), () -> metrics.timedOut("search")))
        .open("/healthz", new Health(db, search::unavailable))
        .open("/api/v1/openapi.json", docs.openApi())
        .open("/docs", docs.page())
        .open("/docs/{file}", docs.file());
    if (config.metricsRequireKey()) routes.keyed("/metrics", metrics.endpoint());
    else routes.open("/metrics", metrics.endpoint());
    mcp = new McpEndpoint(routes, metrics, config.mcpAllowedOrigins(), MAX_BODY_BYTES, config.cacheControl(), version());
    routes.anyMethod(McpEndpoint.PATH, mcp);
    // Before listening, as the search index: the orders are the only way the lists answer. After
    // the index opened and before the warm-up, so that they do not share the cores with it.
    buildOrders();
    // Before listening, so that the first clients find the search path compiled.
    metrics.warmedUp(SearchWarmUp.run(db, search, routes, config.searchWarmupMs()));
    HttpHandler answer = new ErrorMapper(metrics, exchange -> {
      exchange.getResponseHeaders().put(NOSNIFF, "nosniff");
      exchange.getResponseHeaders().put(Headers.VARY, "Accept-Encoding"); // caches must not mix gzip and plain
      routes.handler().handleRequest(exchange);
    });
    routes.answerAgainThrough(answer);
    // Answers are computed on a worker thread (they read the database and Lucene); Json sends them
    // from the connection's I/O thread.
    HttpHandler api = exchange -> {
      if (exchange.isInIoThread()) {
        exchange.dispatch(answer);
      } else {
        answer.handleRequest(exchange);
      }
    };
    // Before the dispatch to a worker: a request waiting for its turn holds no thread.
    LoadShedding shedding = new LoadShedding(config.limits().maxInFlight(), config.limits().maxQueued(),
        config.limits().maxQueueWaitMs(), ChangesApi::mayBeHeld, config.changesMaxWaiting(), api);
    metrics.watch(shedding);
    metrics.watchPush(feedWatch::waiting, stream::open);
    webhooks = new Deliverer(db, version()).start();
    metrics.watchWebhooks(webhooks);
    // gzip only pays off above about a kilobyte. HEAD stays plain, so its Content-Length is true.
    HttpHandler gzip = new EncodingHandler(new ContentEncodingRepository()
        .addEncodingHandler("gzip", new GzipEncodingProvider(), 50,
            Predicates.and(ex -> ex.getRequestMethod().equals(Methods.GET), Predicates.maxContentSize(GZIP_MIN_BYTES))))
        .setNext(shedding);
    drain = new Drain(gzip);
    HttpHandler root = new AccessLog(metrics.recording(drain), config.logQueryText());
    server = Undertow.builder()
        .addHttpListener(config.httpPort(), config.httpHost())
        .setServerOption(UndertowOptions.MAX_HEADER_SIZE, 16 * 1024)
        .setServerOption(UndertowOptions.MAX_PARAMETERS, 200)
        .setServerOption(UndertowOptions.MAX_HEADERS, 100)
        .setServerOption(UndertowOptions.MAX_ENTITY_SIZE, MAX_BODY_BYTES)
        .setServerOption(UndertowOptions.ALLOW_ENCODED_SLASH, false)
        .setServerOption(UndertowOptions.RECORD_REQUEST_START_TIME, true)
        .setHandler(root)
        .build();
    server.start();
    port = ((InetSocketAddress) server.getListenerInfo().get(0).getAddress()).getPort();
    log.info("minutes {} listening on http://{}:{}, ready in {} ms ({} ms since the JVM started); {}",
        version(), config.httpHost(), port, (System.nanoTime() - started) / 1_000_000,
        System.currentTimeMillis() - ManagementFactory.getRuntimeMXBean().getStartTime(), config.summary());
    if (!config.metricsRequireKey() && !isLoopback(config.httpHost())) {
      log.warn("/metrics answers without a key on {}, which is not loopback; set metrics.require_key=true "
          + "or keep /metrics away from untrusted networks (see docs/OPERATIONS.md)", config.httpHost());
    }
    return this;
  }

  /**
   * Builds the list orders now. One that cannot be built yet (the database is away, or a
   * pending migration has not created its tables) is built by the first request that needs it,
   * which waits for it, as after an import.
   */
  private void buildOrders() {
    try {
      taskOrder.build();
    } catch (SQLException e) {
      log.warn("task order not built at start ({}); the first request of GET /action-items builds it", e.getMessage());
    }
    try {
      meetingOrder.build();
    } catch (SQLException e) {
      log.warn("meeting order not built at start ({}); the first request of GET /meetings or /customers builds it",
          e.getMessage());
    }
  }

  public int port() {
    return port;
  }

  public static String version() {
    String v = App.class.getPackage().getImplementationVersion();
    return v == null ? "dev" : v;
  }

  /**
   * Undertow's stop() waits for every open connection to close, so a client that never
   * finishes its request would hold shutdown forever: after a short wait, close them all.
   */
  private void stopServer() {
    Thread stopper = new Thread(server::stop, "http-stop");
    stopper.start();
    try {
      stopper.join(STOP_WAIT_MILLIS);
      if (stopper.isAlive()) {
        server.getWorker().shutdownNow();
        stopper.join(STOP_WAIT_MILLIS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static boolean isLoopback(String host) {
    try {
      return InetAddress.getByName(host).isLoopbackAddress();
    } catch (UnknownHostException e) {
      return false;
    }
  }

  /**
   * Stops gracefully: held long-polls are answered and streams end, new requests get 503 at
   * once, requests in flight may finish (up to
   * http.shutdown_seconds), then the listener stops, the search index is committed and
   * closed, and the database closed. Safe to call more than once.
   */
  @Override
  public void close() {
    if (closed.getAndSet(true)) return;
    long started = System.nanoTime();
    // Held long-polls answer at once and streams end, before the wait for requests in flight.
    if (feedWatch != null) feedWatch.close();
    if (stream != null) stream.close();
    if (server != null) {
      try {
        int left = drain.drain(Duration.ofSeconds(config.shutdownSeconds()));
        if (left > 0) log.warn("stopping with {} request(s) still running after {} s", left, config.shutdownSeconds());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      stopServer();
    }
    if (webhooks != null) webhooks.close();
    if (mcp != null) mcp.close();
    if (taskOrder != null) taskOrder.close();
    if (meetingOrder != null) meetingOrder.close();
    if (search != null) search.close();
    if (split != null) split.close();
    if (watch != null) watch.close();
    if (db != null) db.close();
    if (server != null) log.info("minutes stopped in {} ms", (System.nanoTime() - started) / 1_000_000);
  }
}
