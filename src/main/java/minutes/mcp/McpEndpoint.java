package minutes.mcp;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.json.jackson2.JacksonMcpJsonMapper;
import io.modelcontextprotocol.json.schema.JsonSchemaValidator;
import io.modelcontextprotocol.json.schema.jackson2.DefaultJsonSchemaValidator;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpStatelessServerHandler;
import io.modelcontextprotocol.server.McpStatelessSyncServer;
import io.modelcontextprotocol.server.transport.DefaultServerTransportSecurityValidator;
import io.modelcontextprotocol.server.transport.HttpServletStatelessServerTransport;
import io.modelcontextprotocol.server.transport.ServerTransportSecurityException;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpStatelessServerTransport;
import io.modelcontextprotocol.spec.ProtocolVersions;
import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.servlet.Servlets;
import io.undertow.servlet.api.DeploymentManager;
import io.undertow.servlet.handlers.ServletRequestContext;
import io.undertow.servlet.util.ImmediateInstanceFactory;
import io.undertow.util.AttachmentKey;
import io.undertow.util.Headers;
import io.undertow.util.Methods;
import jakarta.servlet.ServletException;
import java.io.IOException;
import java.sql.Connection;
import java.util.List;
import java.util.Map;
import minutes.http.ApiError;
import minutes.http.Auth;
import minutes.http.Routes;
import minutes.keys.Principal;
import minutes.store.Db;
import reactor.core.publisher.Mono;

/**
 * POST /mcp: the Model Context Protocol over Streamable HTTP with JSON answers (decisions.md).
 * The official Java SDK speaks the protocol: a stateless server (no session to keep, so any
 * request can come on its own) behind the SDK's servlet transport on Undertow's servlet layer.
 * In front of it, this class refuses what REST refuses, in REST's error shape: any method but
 * POST (405), a browser page from an origin not allowed (403, DNS-rebinding protection, as the
 * MCP specification asks), no key or a bad one (401, through {@link Auth} like every REST
 * route), an unsupported MCP-Protocol-Version (400), and a body over REST's bound (413).
 * Thread-safe.
 */
public final class McpEndpoint implements AutoCloseable {
  public static final String PATH = "/mcp";
  /** Protocol versions offered; 2025-06-18 is the first with structured tool output. */
  static final List<String> VERSIONS = List.of(ProtocolVersions.MCP_2025_06_18, ProtocolVersions.MCP_2025_11_25);
  private static final AttachmentKey<Principal> PRINCIPAL = AttachmentKey.create(Principal.class);
  private static final String CONTEXT_PRINCIPAL = "minutes.principal";
  private static final String INSTRUCTIONS = """
      Read-only access to meeting notes: meetings, their minutes and action items, transcripts. \
      Start with search (or list_meetings), then fetch a meeting by id; search_transcript and \
      get_transcript (with from_ms/to_ms) find and read the moment something was said. Snippets \
      are HTML with <mark> around the matches.""";

  private final Db db;
  private final String cacheControl;
  private final long maxBodyBytes;
  private final DefaultServerTransportSecurityValidator origins;
  private final McpStatelessSyncServer server;
  private final DeploymentManager deployment;
  private final HttpHandler servlet;

  /**
   * {@code allowedOrigins}: config mcp.allowed_origins; {@code maxBodyBytes}: the bound REST
   * requests have; {@code cacheControl}: the Cache-Control of keyed answers.
   */
  public McpEndpoint(Routes routes, Db db, List<String> allowedOrigins, long maxBodyBytes, String cacheControl,
      String version) {
    this.db = db;
    this.cacheControl = cacheControl;
    this.maxBodyBytes = maxBodyBytes;
    this.origins = DefaultServerTransportSecurityValidator.builder().allowedOrigins(allowedOrigins).build();
    McpTools tools = new McpTools(routes);
    JacksonMcpJsonMapper json = new JacksonMcpJsonMapper(new ObjectMapper().registerModule(
        new SimpleModule().addSerializer(McpError.class, new JsonRpcErrorWriter())));
    HttpServletStatelessServerTransport transport = HttpServletStatelessServerTransport.builder()
        .jsonMapper(json)
        .messageEndpoint(PATH)
        .maxRequestSize((int) maxBodyBytes)
        .contextExtractor(request -> McpTransportContext.create(Map.of(CONTEXT_PRINCIPAL,
            ServletRequestContext.requireCurrent().getExchange().getAttachment(PRINCIPAL))))
        .build();
    server = McpServer.sync(new ScopedTools(transport, tools))
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
    deployment = Servlets.newContainer().addDeployment(Servlets.deployment()
        .setClassLoader(McpEndpoint.class.getClassLoader())
        .setContextPath("")
        .setDeploymentName("mcp")
        .addServlet(Servlets.servlet("mcp", HttpServletStatelessServerTransport.class,
            new ImmediateInstanceFactory<>(transport)).addMapping(PATH)));
    deployment.deploy();
    try {
      servlet = deployment.start();
    } catch (ServletException e) {
      throw new IllegalStateException("cannot start the MCP servlet", e);
    }
  }

  /** The caller a tool call runs for, as the front handler authenticated it. */
  static Principal principal(McpTransportContext context) {
    return (Principal) context.get(CONTEXT_PRINCIPAL);
  }

  /** The handler of {@link #PATH}, for every method. */
  public HttpHandler handler() {
    return this::handle;
  }

  private void handle(HttpServerExchange ex) throws Exception {
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
    try (Connection c = db.read()) {
      ex.putAttachment(PRINCIPAL, Auth.authenticate(ex, c));
    }
    String version = ex.getRequestHeaders().getFirst("MCP-Protocol-Version");
    if (version != null && !VERSIONS.contains(version)) {
      throw ApiError.badParam("MCP-Protocol-Version", "MCP-Protocol-Version must be one of " + String.join(", ", VERSIONS));
    }
    if (ex.getRequestContentLength() > maxBodyBytes) throw ApiError.tooLarge(maxBodyBytes);
    servlet.handleRequest(ex);
  }

  @Override
  public void close() {
    server.close();
    try {
      deployment.stop();
    } catch (ServletException e) {
      throw new IllegalStateException("cannot stop the MCP servlet", e);
    }
    deployment.undeploy();
  }

  /**
   * Checks the tools' schemas when the server starts, as the SDK does, but not each answer
   * against its output schema: an answer is its REST twin's body, which the test suite checks
   * against openapi.json, where the output schemas come from, and the MCP clients' tests check
   * against the output schema itself. Checking a 50-hit search answer on every call cost
   * 0.2 ms, a fifth of what an MCP search may cost more than REST.
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

  /**
   * The SDK's transport answers a message it cannot read (not JSON, no JSON-RPC, a wrong Accept
   * header) by writing its McpError exception with the JSON mapper, which without this wrote
   * the exception's stack trace into the body. With it, that answer is the JSON-RPC error
   * response the protocol prescribes for a message without a readable id.
   */
  private static final class JsonRpcErrorWriter extends StdSerializer<McpError> {
    JsonRpcErrorWriter() {
      super(McpError.class);
    }

    @Override
    public void serialize(McpError e, JsonGenerator out, SerializerProvider provider) throws IOException {
      McpSchema.JSONRPCResponse.JSONRPCError error = e.getJsonRpcError();
      out.writeStartObject();
      out.writeStringField("jsonrpc", McpSchema.JSONRPC_VERSION);
      out.writeNullField("id");
      out.writeObjectFieldStart("error");
      out.writeNumberField("code", error.code());
      out.writeStringField("message", error.message());
      out.writeEndObject();
      out.writeEndObject();
    }
  }

  /**
   * The SDK's transport, offering only {@link #VERSIONS} and narrowing tools/list to the tools
   * the caller's scopes allow: the SDK lists every tool it serves to everyone.
   */
  private record ScopedTools(HttpServletStatelessServerTransport transport, McpTools tools)
      implements McpStatelessServerTransport {

    @Override
    public void setMcpHandler(McpStatelessServerHandler handler) {
      transport.setMcpHandler(new McpStatelessServerHandler() {
        @Override
        public Mono<McpSchema.JSONRPCResponse> handleRequest(McpTransportContext context,
            McpSchema.JSONRPCRequest request) {
          // The SDK reads params into its records inside the handler: params of the wrong shape
          // (arguments given as a string, or none at all) fail there, and the transport would
          // answer 500. Tools never throw (McpTools turns every failure into a tool error).
          Mono<McpSchema.JSONRPCResponse> answer = Mono.defer(() -> handler.handleRequest(context, request))
              .onErrorResume(e -> !(e instanceof McpError), e -> Mono.just(McpSchema.JSONRPCResponse.error(
                  request.id(), new McpSchema.JSONRPCResponse.JSONRPCError(McpSchema.ErrorCodes.INVALID_PARAMS,
                      "the params of " + request.method() + " do not have the form the protocol gives them", null))));
          if (!McpSchema.METHOD_TOOLS_LIST.equals(request.method())) return answer;
          Principal principal = principal(context);
          return answer.map(r -> r.result() instanceof McpSchema.ListToolsResult list
              ? McpSchema.JSONRPCResponse.result(r.id(), new McpSchema.ListToolsResult(
                  list.tools().stream().filter(t -> tools.allowed(t.name(), principal)).toList(), list.nextCursor()))
              : r);
        }

        @Override
        public Mono<Void> handleNotification(McpTransportContext context, McpSchema.JSONRPCNotification notification) {
          return handler.handleNotification(context, notification);
        }
      });
    }

    @Override
    public Mono<Void> closeGracefully() {
      return transport.closeGracefully();
    }

    @Override
    public List<String> protocolVersions() {
      return VERSIONS;
    }
  }
}
