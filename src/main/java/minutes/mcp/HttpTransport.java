package minutes.mcp;

import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.server.McpStatelessServerHandler;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpStatelessServerTransport;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.Headers;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import minutes.http.ApiError;
import minutes.http.Json;
import minutes.keys.Principal;
import reactor.core.publisher.Mono;

/**
 * The Streamable HTTP binding of the SDK's stateless server on Undertow: one POST carries one
 * JSON-RPC message; a request is answered with its JSON-RPC response as application/json, a
 * notification with 202. The SDK's server does all of the protocol (initialize and version
 * negotiation, tools/list, tools/call, JSON-RPC errors); this class moves bytes, and narrows
 * tools/list to the tools the caller's scopes allow (the SDK lists every tool to everyone).
 * Thread-safe once the server has set its handler.
 */
final class HttpTransport implements McpStatelessServerTransport {
  private static final String PRINCIPAL = "minutes.principal";
  /** JSON-RPC's codes for a body that is not JSON, and for JSON that is no request or notification. */
  private static final int PARSE_ERROR = -32700, INVALID_REQUEST = -32600;

  private final McpJsonMapper json;
  private final McpTools tools;
  private final long maxBodyBytes;
  private volatile McpStatelessServerHandler handler;

  HttpTransport(McpJsonMapper json, McpTools tools, long maxBodyBytes) {
    this.json = json;
    this.tools = tools;
    this.maxBodyBytes = maxBodyBytes;
  }

  /** The caller a tool call runs for. */
  static Principal principal(McpTransportContext context) {
    return (Principal) context.get(PRINCIPAL);
  }

  /** A JSON-RPC error without a request id, for a message that could not be read. */
  record RpcError(String jsonrpc, Object id, McpSchema.JSONRPCResponse.JSONRPCError error) {
    RpcError(int code, String message) {
      this(McpSchema.JSONRPC_VERSION, null, new McpSchema.JSONRPCResponse.JSONRPCError(code, message, null));
    }
  }

  /** Answers one POST /mcp of an authenticated caller (on a worker thread: it reads the body blocking). */
  void answer(HttpServerExchange ex, Principal principal) throws IOException {
    String accept = ex.getRequestHeaders().getFirst(Headers.ACCEPT);
    if (accept == null || !accept.contains("application/json") || !accept.contains("text/event-stream")) {
      throw ApiError.badParam("Accept", "Accept must list both application/json and text/event-stream (Streamable HTTP)");
    }
    String type = ex.getRequestHeaders().getFirst(Headers.CONTENT_TYPE);
    if (type == null || !type.toLowerCase().startsWith("application/json")) {
      throw ApiError.badParam("Content-Type", "Content-Type must be application/json");
    }
    String text = new String(body(ex), StandardCharsets.UTF_8);
    McpSchema.JSONRPCMessage message;
    try {
      // A message is a JSON object; the SDK's reader fails on the JSON null with a
      // NullPointerException (a 500 found by fuzzing), so other JSON values stop here.
      if (!text.strip().startsWith("{")) throw new IllegalArgumentException("not a JSON object");
      message = McpSchema.deserializeJsonRpcMessage(json, text);
    } catch (IOException | IllegalArgumentException e) {
      Json.send(ex, 400, new RpcError(PARSE_ERROR, "the body is not one JSON-RPC 2.0 message"));
      return;
    }
    McpTransportContext context = McpTransportContext.create(Map.of(PRINCIPAL, principal));
    if (message instanceof McpSchema.JSONRPCRequest request) {
      McpSchema.JSONRPCResponse response = respond(context, request).block();
      Json.sendBytes(ex, 200, Json.CONTENT_TYPE, json.writeValueAsBytes(response));
    } else if (message instanceof McpSchema.JSONRPCNotification notification) {
      handler.handleNotification(context, notification).block();
      Json.sendBytes(ex, 202, Json.CONTENT_TYPE, new byte[0]);
    } else {
      Json.send(ex, 400, new RpcError(INVALID_REQUEST, "the server accepts requests and notifications only"));
    }
  }

  private byte[] body(HttpServerExchange ex) throws IOException {
    ex.startBlocking();
    try (InputStream in = ex.getInputStream()) {
      byte[] body = in.readNBytes((int) maxBodyBytes + 1);
      if (body.length > maxBodyBytes) throw ApiError.tooLarge(maxBodyBytes);
      return body;
    }
  }

  /**
   * The SDK's answer to a request. The SDK reads params into its records inside the handler:
   * params of the wrong shape (arguments given as a string, or none at all) fail there, and
   * are the caller's mistake, not the server's. Tools never fail (McpTools turns every failure
   * into a tool error).
   */
  private Mono<McpSchema.JSONRPCResponse> respond(McpTransportContext context, McpSchema.JSONRPCRequest request) {
    Mono<McpSchema.JSONRPCResponse> answer = Mono.defer(() -> handler.handleRequest(context, request))
        .onErrorResume(e -> !(e instanceof McpError), e -> Mono.just(McpSchema.JSONRPCResponse.error(request.id(),
            new McpSchema.JSONRPCResponse.JSONRPCError(McpSchema.ErrorCodes.INVALID_PARAMS,
                "the params of " + request.method() + " do not have the form the protocol gives them", null))));
    if (!McpSchema.METHOD_TOOLS_LIST.equals(request.method())) return answer;
    Principal principal = principal(context);
    return answer.map(r -> r.result() instanceof McpSchema.ListToolsResult list
        ? McpSchema.JSONRPCResponse.result(r.id(), new McpSchema.ListToolsResult(
            list.tools().stream().filter(t -> tools.allowed(t.name(), principal)).toList(), list.nextCursor()))
        : r);
  }

  @Override
  public void setMcpHandler(McpStatelessServerHandler handler) {
    this.handler = handler;
  }

  @Override
  public Mono<Void> closeGracefully() {
    return Mono.empty();
  }

  @Override
  public List<String> protocolVersions() {
    return McpEndpoint.VERSIONS;
  }
}
