package minutes.mcp;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.json.schema.JsonSchemaValidator;
import io.modelcontextprotocol.json.schema.jackson2.DefaultJsonSchemaValidator;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpStatelessSyncServer;
import io.modelcontextprotocol.server.transport.DefaultServerTransportSecurityValidator;
import io.modelcontextprotocol.server.transport.ServerTransportSecurityException;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.ProtocolVersions;
import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.Headers;
import io.undertow.util.Methods;
import java.util.List;
import java.util.Map;
import minutes.http.ApiError;
import minutes.http.Metrics;
import minutes.http.Routes;
import minutes.keys.Principal;

/**
 * POST /mcp: the Model Context Protocol over Streamable HTTP with JSON answers (decisions.md).
 * The official Java SDK speaks the protocol: a stateless server (no session to keep, so any
 * request can come on its own) on {@link HttpTransport}. In front of it, this class refuses
 * what REST refuses, in REST's error shape: any method but POST (405), a browser page from an
 * origin not allowed (403, DNS-rebinding protection as the MCP specification asks, with the
 * SDK's origin check), no key or a bad one (401, and 429 over its rate limit, through
 * {@link Routes#caller} as for every REST route),
 * an unsupported MCP-Protocol-Version (400), and a body over REST's bound (413).
 * Thread-safe.
 */
public final class McpEndpoint implements HttpHandler, AutoCloseable {
  public static final String PATH = "/mcp";
  /** Protocol versions offered; 2025-06-18 is the first with structured tool output. */
  static final List<String> VERSIONS = List.of(ProtocolVersions.MCP_2025_06_18, ProtocolVersions.MCP_2025_11_25);
  private static final String INSTRUCTIONS = """
      Read-only access to meeting notes: meetings, their minutes and action items, transcripts. \
      Start with search (or list_meetings), then fetch a meeting by id; search_transcript and \
      get_transcript (with from_ms/to_ms) find and read the moment something was said. Snippets \
      are HTML with <mark> around the matches.""";

  private final Routes routes;
  private final String cacheControl;
  private final long maxBodyBytes;
  private final DefaultServerTransportSecurityValidator origins;
  private final HttpTransport transport;
  private final McpStatelessSyncServer server;

  /**
   * {@code allowedOrigins}: config mcp.allowed_origins; {@code maxBodyBytes}: the bound REST
   * requests have; {@code cacheControl}: the Cache-Control of keyed answers.
   */
  public McpEndpoint(Routes routes, Metrics metrics, List<String> allowedOrigins, long maxBodyBytes,
      String cacheControl, String version) {
    this.routes = routes;
    this.cacheControl = cacheControl;
    this.maxBodyBytes = maxBodyBytes;
    this.origins = DefaultServerTransportSecurityValidator.builder().allowedOrigins(allowedOrigins).build();
    McpTools tools = new McpTools(routes, metrics);
    // The SDK's own mapper, not Jackson.MAPPER: it writes and reads the protocol's JSON-RPC shapes
    // (camelCase, absent fields left out, as the MCP specification has them), which the SDK's
    // annotations describe for its default configuration; the API's snake_case and always-written
    // nulls are REST's contract, and reach MCP inside tool results, already written by Json.
    JacksonMcpJsonMapper json = new JacksonMcpJsonMapper(new ObjectMapper());
    transport = new HttpTransport(json, tools, maxBodyBytes);
    server = McpServer.sync(transport)
        .serverInfo("minutes", version)
        .instructions(INSTRUCTIONS)
        .capabilities(McpSchema.ServerCapabilities.builder().tools(false).build())
        .jsonMapper(json)
        // Arguments are checked where REST checks parameters (Params), with the same messages.
        .validateToolInputs(false)
        .jsonSchemaValidator(new SchemasOnly())
        // Tools run on the request's own worker thread: no hand-off to another pool per call.
        .immediateExecution(true)
        .tools(tools.specifications())
        .build();
  }

  /** Answers {@link #PATH}, for every method. */
  @Override
  public void handleRequest(HttpServerExchange ex) throws Exception {
    ex.getResponseHeaders().put(Headers.CACHE_CONTROL, cacheControl);
    if (!ex.getRequestMethod().equals(Methods.POST)) {
      // Streamable HTTP lets a server without a server-to-client stream refuse GET this way.
      throw ApiError.methodNotAllowed(ex.getRequestMethod().toString(), "POST");
    }
    String origin = ex.getRequestHeaders().getFirst(Headers.ORIGIN);
    if (origin != null) {
      try {
        origins.validateHeaders(Map.of("Origin", List.of(origin)));
      } catch (ServerTransportSecurityException e) {
        throw ApiError.forbidden("requests from the page origin " + origin + " are not allowed (config mcp.allowed_origins)");
      }
    }
    // The key and its rate limit here, once per POST; scope and schema in each tool call (Routes.call).
    Principal principal = routes.caller(ex);
    String version = ex.getRequestHeaders().getFirst("MCP-Protocol-Version");
    if (version != null && !VERSIONS.contains(version)) {
      throw ApiError.badParam("MCP-Protocol-Version", "MCP-Protocol-Version must be one of " + String.join(", ", VERSIONS));
    }
    if (ex.getRequestContentLength() > maxBodyBytes) throw ApiError.tooLarge(maxBodyBytes);
    transport.answer(ex, principal);
  }

  @Override
  public void close() {
    server.close();
  }

  /**
   * Checks the tools' schemas when the server starts, as the SDK does, but not each answer
   * against its output schema: an answer is its REST twin's body, which the test suite checks
   * against openapi.json, where the output schemas come from, and the MCP clients' tests check
   * against the output schema itself; checking every answer again costs each call time.
   */
  private static final class SchemasOnly implements JsonSchemaValidator {
    private final JsonSchemaValidator sdk = new DefaultJsonSchemaValidator();

    @Override
    public ValidationResponse validate(Map<String, Object> schema, Object structuredContent) {
      return ValidationResponse.asValid(null);
    }

    @Override
    public ValidationResponse validateSchema(Map<String, Object> schema) {
      return sdk.validateSchema(schema);
    }
  }
}
