package minutes.http;

import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.Headers;
import io.undertow.util.PathTemplateMatch;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * The API description, without a key: GET /api/v1/openapi.json and the docs page at /docs
 * (Swagger UI from its webjar, so it works offline). Files are read from the classpath once
 * and kept in memory. Thread-safe.
 */
public final class Docs {
  private static final String WEBJAR = "META-INF/resources/webjars/swagger-ui/";
  // Only plain file names: nothing outside the two folders below can be asked for.
  private static final Pattern FILE = Pattern.compile("[a-z0-9][a-z0-9.-]{0,63}");
  private static final Map<String, String> TYPES = Map.of(
      "html", "text/html; charset=utf-8",
      "js", "text/javascript; charset=utf-8",
      "css", "text/css; charset=utf-8",
      "png", "image/png",
      "json", Json.CONTENT_TYPE);
  // Swagger UI needs inline styles, nothing else from outside this server.
  private static final String CSP = "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
      + "script-src 'self'; connect-src 'self'; frame-ancestors 'none'";

  private final String webjarDir = WEBJAR + swaggerUiVersion() + "/";
  private final byte[] openApi = resource("openapi.json");
  private final Map<String, byte[]> files = new ConcurrentHashMap<>();

  /** GET /api/v1/openapi.json. */
  public HttpHandler openApi() {
    return ex -> send(ex, "json", openApi);
  }

  /** GET /docs: the page itself. */
  public HttpHandler page() {
    return ex -> asset(ex, "index.html");
  }

  /** GET /docs/{file}: our start script, then Swagger UI's own files. */
  public HttpHandler file() {
    return ex -> asset(ex, ex.getAttachment(PathTemplateMatch.ATTACHMENT_KEY).getParameters().get("file"));
  }

  private void asset(HttpServerExchange ex, String name) {
    if (name == null || !FILE.matcher(name).matches() || !TYPES.containsKey(extension(name))) {
      throw ApiError.notFound("no such file: /docs/" + (name == null ? "" : name));
    }
    byte[] body = files.computeIfAbsent(name, n -> {
      byte[] own = resourceOrNull("docs/" + n);
      return own != null ? own : resourceOrNull(webjarDir + n);
    });
    if (body == null) throw ApiError.notFound("no such file: /docs/" + name); // computeIfAbsent kept nothing
    ex.getResponseHeaders().put(Headers.CONTENT_SECURITY_POLICY, CSP);
    send(ex, extension(name), body);
  }

  private static void send(HttpServerExchange ex, String extension, byte[] body) {
    // Revalidate each time (cheap with the ETag), so an upgrade is seen at once.
    ex.getResponseHeaders().put(Headers.CACHE_CONTROL, "no-cache");
    Json.sendBytes(ex, 200, TYPES.get(extension), body);
  }

  private static String extension(String name) {
    int dot = name.lastIndexOf('.');
    return dot < 0 ? "" : name.substring(dot + 1);
  }

  private static String swaggerUiVersion() {
    Properties p = new Properties();
    try (InputStream in = stream("META-INF/maven/org.webjars/swagger-ui/pom.properties")) {
      if (in == null) throw new IllegalStateException("the swagger-ui webjar is missing from the classpath");
      p.load(in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return p.getProperty("version");
  }

  private static byte[] resource(String path) {
    byte[] b = resourceOrNull(path);
    if (b == null) throw new IllegalStateException(path + " is missing from the classpath");
    return b;
  }

  private static byte[] resourceOrNull(String path) {
    try (InputStream in = stream(path)) {
      return in == null ? null : in.readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static InputStream stream(String path) {
    return Docs.class.getClassLoader().getResourceAsStream(path);
  }
}
