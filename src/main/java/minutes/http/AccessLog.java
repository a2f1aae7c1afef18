package minutes.http;

import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.AttachmentKey;
import io.undertow.util.HttpString;
import io.undertow.util.PathTemplateMatch;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Locale;
import java.util.UUID;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Gives every request an id (a sane incoming {@code X-Request-Id}, else a new one), echoes it,
 * and writes one logfmt line per request when it completes: never the key, only its id, and
 * the value of {@code q} only when {@code log.query_text} allows it. Thread-safe.
 */
public final class AccessLog implements HttpHandler {
  private static final Logger log = LoggerFactory.getLogger("access");
  private static final HttpString REQUEST_ID = HttpString.tryFromString("X-Request-Id");
  /** The id of the key that authenticated the request, set by {@link Admission}. */
  static final AttachmentKey<String> KEY_ID = AttachmentKey.create(String.class);
  // Short, printable, no spaces or quotes: safe to echo and to log as it is.
  private static final Pattern SANE_ID = Pattern.compile("[A-Za-z0-9._:@/+=-]{1,128}");
  // An API key (mk_ and 43 characters) pasted where it does not belong: never log or echo it.
  private static final Pattern KEY_LIKE = Pattern.compile("mk_[A-Za-z0-9_-]{20,}");
  private static final String REDACTED = "[redacted]";

  private final HttpHandler next;
  private final boolean logQueryText;

  public AccessLog(HttpHandler next, boolean logQueryText) {
    this.next = next;
    this.logQueryText = logQueryText;
  }

  @Override
  public void handleRequest(HttpServerExchange ex) throws Exception {
    String incoming = ex.getRequestHeaders().getFirst(REQUEST_ID);
    String id = incoming != null && SANE_ID.matcher(incoming).matches() && !KEY_LIKE.matcher(incoming).find()
        ? incoming : UUID.randomUUID().toString();
    ex.getResponseHeaders().put(REQUEST_ID, id);
    Instant arrived = Instant.now();
    ex.addExchangeCompleteListener((done, nextListener) -> {
      try {
        log.info(line(done, id, arrived));
      } finally {
        nextListener.proceed();
      }
    });
    next.handleRequest(ex);
  }

  private String line(HttpServerExchange ex, String id, Instant arrived) {
    long started = ex.getRequestStartTime(); // RECORD_REQUEST_START_TIME is on (App)
    double ms = started > 0 ? (System.nanoTime() - started) / 1e6 : -1;
    String key = ex.getAttachment(KEY_ID);
    StringBuilder b = new StringBuilder(200)
        .append("time=").append(arrived)
        .append(" request_id=").append(id)
        .append(" method=").append(quote(ex.getRequestMethod().toString()))
        .append(" route=").append(quote(route(ex)))
        .append(" path=").append(quote(KEY_LIKE.matcher(ex.getRequestPath()).replaceAll(REDACTED)));
    if (!ex.getQueryString().isEmpty()) b.append(" query=").append(quote(query(ex.getQueryString())));
    return b.append(" status=").append(ex.getStatusCode())
        .append(" ms=").append(String.format(Locale.ROOT, "%.1f", ms))
        .append(" bytes=").append(ex.getResponseBytesSent())
        .append(" key=").append(key == null ? "-" : key)
        .toString();
  }

  /** The route template that answered (bounded set, fit for metrics labels), or "unmatched". */
  static String route(HttpServerExchange ex) {
    PathTemplateMatch m = ex.getAttachment(PathTemplateMatch.ATTACHMENT_KEY);
    return m == null ? "unmatched" : m.getMatchedTemplate();
  }

  /**
   * The raw query string with the value of q replaced, unless the operator asked for search
   * terms, and any parameter that holds something shaped like a key replaced whole.
   */
  private String query(String raw) {
    StringBuilder b = new StringBuilder(raw.length());
    for (String pair : raw.split("&", -1)) {
      if (!b.isEmpty()) b.append('&');
      int eq = pair.indexOf('=');
      String name = eq < 0 ? pair : pair.substring(0, eq);
      if (KEY_LIKE.matcher(pair).find() || KEY_LIKE.matcher(decoded(pair)).find()) b.append(REDACTED);
      else if (!logQueryText && "q".equals(decoded(name))) b.append(name).append('=').append(REDACTED);
      else b.append(pair);
    }
    return b.toString();
  }

  private static String decoded(String raw) {
    try {
      return URLDecoder.decode(raw, StandardCharsets.UTF_8);
    } catch (IllegalArgumentException malformed) {
      return raw;
    }
  }

  /** A logfmt value: quoted, with quotes, backslashes and control characters escaped. */
  static String quote(String s) {
    StringBuilder b = new StringBuilder(s.length() + 2).append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '"' || c == '\\') b.append('\\').append(c);
      else if (c < 0x20 || c == 0x7f) b.append(String.format("\\u%04x", (int) c));
      else b.append(c);
    }
    return b.append('"').toString();
  }
}
