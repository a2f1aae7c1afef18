package minutes.reliability;

import java.io.ByteArrayOutputStream;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.UUID;
import java.util.function.UnaryOperator;
import minutes.ApiServer;

/**
 * The fuzzer's requests as bytes for a raw socket: keys of every kind (well-formed, odd,
 * revoked, garbage), paths, query parameters (each route's own among them: feed cursors,
 * transcript windows, search filters) and headers, JSON-RPC bodies for /mcp ({@link FuzzMcp}),
 * about one in ten malformed on purpose below the HTTP layer, saying how. Each is derived from (seed, index) alone, so that a failure
 * is replayed by its number. Thread-safe.
 */
final class FuzzRequests {
  /** One generated request: the bytes sent, a readable form, and what the generator did to it. */
  record Req(int index, String key, String method, String target, byte[] bytes, boolean malformed, String why) {
    String show() {
      String s = new String(bytes, StandardCharsets.ISO_8859_1);
      return "#" + index + " key=" + key + (malformed ? " malformed(" + why + ")" : "") + "\n"
          + (s.length() > 1500 ? s.substring(0, 1500) + "...[" + s.length() + " bytes]" : s);
    }
  }

  private final long seed;
  private final List<String> keyNames;
  private final UnaryOperator<String> secretOf;
  private final String[] fixtureIds;
  private final String[] cursors;
  private final String[] companyIds;

  /**
   * {@code secretOf}: a key's secret by its name in {@code keyNames}; {@code fixtureIds}: meetings
   * to aim at; {@code cursors}: change feed cursors of the server (one from before changes);
   * {@code companyIds}: companies to filter search by.
   */
  FuzzRequests(long seed, List<String> keyNames, UnaryOperator<String> secretOf, List<String> fixtureIds,
      List<String> cursors, List<String> companyIds) {
    this.seed = seed;
    this.keyNames = List.copyOf(keyNames);
    this.secretOf = secretOf;
    this.fixtureIds = fixtureIds.toArray(String[]::new);
    this.cursors = cursors.toArray(String[]::new);
    this.companyIds = companyIds.toArray(String[]::new);
  }

  private static final String[] TEMPLATES = {"/api/v1/meetings", "/api/v1/meetings/{id}", "/api/v1/meetings/{id}/participants",
      "/api/v1/meetings/{id}/action-items", "/api/v1/meetings/{id}/transcript", "/api/v1/action-items", "/api/v1/search",
      "/api/v1/customers", "/healthz", "/api/v1/changes", "/api/v1/meetings/{id}/transcript/search", "/mcp"};
  private static final String[] PARAMS = {"limit", "offset", "from", "to", "q", "order", "status", "platform", "source",
      "verdict", "due_from", "due_to", "meeting_id", "id", "key", "api_key", "access_token", "token", "workspace",
      "user", "callback", "format", "fields", "sort", "page", "since", "from_ms", "to_ms", "participant", "company",
      "moments", "facets", "facet_limit"};
  private static final String[] VALUES = {"", "0", "1", "-1", "200", "201", "5000", "100000000000000000000", "2.5", "1e3",
      "abc", "2026-03-01", "2026-02-30", "2026-13-01", "0000-00-00", "2026-03-02T09:30:00Z", "2026-03-02T09:30:00+01:00",
      "yesterday", "open", "done", "dismissed", "resolved_in_meeting", "ready", "zoom", "teams", "upload", "calendar",
      "starts_at", "-starts_at", "title", "-title", "created_at", "--title", "planning", "Müller", "muller", "\"budget\"",
      "\"unterminated", "a*", "*", "?", "title:x", "AND", "OR NOT", "(", ")", "[", "{!}", "\\", "%", "_", "'", "' OR 1=1 --",
      "'; DROP TABLE meeting; --", "1; SELECT * FROM api_key", "<script>alert(1)</script>", "../../etc/passwd",
      "null", "true", "[]", "{}", "𝔘𝔫𝔦𝔠𝔬𝔡𝔢", "日本語の会議", "\u202Eevil", "\u0000", "a\u0000b", "\r\nX-Injected: 1", "\t",
      "\u00A0\u00A0", "é", "ée", "\uFEFF", "\uD83D\uDE00\uD83D\uDE00", "０１", "٣", "NaN", "Infinity", "0x10", "+5", " 5 ",
      "4000", "3999", "9223372036854775807", "9223372036854775808", "ann@acme.com", "ANN@ACME.COM", "gina@globex.com",
      "a@b@c", "@", "platform,company,participant,month", "month,", "vtt", "srt"};
  private static final String[] METHODS = {"GET", "GET", "GET", "GET", "GET", "GET", "HEAD", "POST", "PUT", "DELETE",
      "PATCH", "OPTIONS", "TRACE", "CONNECT", "get", "BREW", "PROPFIND"};

  Req generate(int index) {
    Random rnd = new Random(seed * 1_000_003L + index);
    String malformed = null;
    int mk = rnd.nextInt(100);
    String method = mk < 78 ? "GET" : mk < 86 ? "HEAD" : pick(rnd, METHODS);

    // Key: every kind, well-formed or odd.
    String keyName;
    String auth;
    int k = rnd.nextInt(20);
    if (k < 12) {
      keyName = keyNames.get(rnd.nextInt(keyNames.size()));
      auth = "Bearer " + secretOf.apply(keyName);
    } else {
      keyName = "none";
      String some = secretOf.apply(keyNames.get(rnd.nextInt(keyNames.size())));
      auth = switch (k) {
        case 12 -> null;
        case 13 -> pick(rnd, new String[] {"", " ", "Bearer", "Bearer ", "bearer", "Basic dXNlcjpwYXNz", "Token " + some,
            "Bearer" + some, "Digest x", "Bearer null", "Bearer undefined"});
        case 14 -> "Bearer " + some.substring(0, some.length() - 1) + (some.endsWith("A") ? "B" : "A");
        case 15 -> "Bearer " + some + pick(rnd, new String[] {"x", " x", ",", ";", "\u00e9", "=="});
        case 16 -> "Bearer " + "A".repeat(rnd.nextInt(2) == 0 ? 43 : 5000);
        case 17 -> pick(rnd, new String[] {"BEARER ", "bearer ", "BeArEr   ", "Bearer\t"}) + some;
        case 18 -> "Bearer " + randomText(rnd, 1 + rnd.nextInt(80)).replaceAll("[\\x00-\\x1f\\x7f]", "");
        default -> "Bearer mk_" + UUID.randomUUID();
      };
      // Any case of the scheme, several spaces, and a tab (Undertow hands the value on as sent) all
      // authenticate: the key is then the one named.
      if (k == 17) keyName = nameOf(some);
    }

    // Path.
    String path;
    int p = rnd.nextInt(20);
    if (p < 15) {
      // /mcp more often than its share: each POST carries a body of its own to fuzz.
      path = rnd.nextInt(6) == 0 ? "/mcp" : pick(rnd, TEMPLATES).replace("{id}", pathId(rnd));
    } else {
      path = switch (p) {
        case 15 -> pick(rnd, new String[] {"/", "", "*", "/api", "/api/v1", "/api/v1/", "/api/v2/meetings", "/API/V1/MEETINGS",
            "//api/v1/meetings", "/api/v1/meetings/", "/api/v1//meetings", "/api/v1/meetings/./x", "/healthz/",
            "/api/v1/meetings;jsessionid=1", "/api/v1/meetings/%2e%2e/%2e%2e/etc/passwd", "/api/v1/..;/..;/etc/passwd",
            "/.env", "/.git/config", "/api/v1/search/../meetings", "/WEB-INF/web.xml", "/api/v1/meetings%3Fq=x",
            "/api/v1/meetings%23x", "/api/v1/meetings/%2F", "/api/v1/meetings%2F" + pick(rnd, fixtureIds)});
        case 16 -> "/api/v1/" + encodeSegment(randomText(rnd, 1 + rnd.nextInt(30)));
        case 17 -> "/api/v1/meetings/" + pick(rnd, fixtureIds) + "/" + encodeSegment(randomText(rnd, 1 + rnd.nextInt(12)));
        case 18 -> "/api/v1/meetings/" + "a".repeat(1000 + rnd.nextInt(9000));
        default -> "/api/v1/meetings/" + pick(rnd, fixtureIds) + pick(rnd, new String[] {"/action-items/", "/../"
            + pick(rnd, fixtureIds), "/%2e%2e/participants", "/transcript/x", "/participants%00"});
      };
    }

    boolean mcp = path.equals("/mcp");
    if (mcp && rnd.nextInt(5) > 0) method = "POST";

    // Query: known and unknown names, odd values, repeats.
    StringBuilder query = new StringBuilder();
    int n = rnd.nextInt(4) == 0 ? 0 : rnd.nextInt(6);
    if (rnd.nextInt(60) == 0) n = 150 + rnd.nextInt(100); // around Undertow's MAX_PARAMETERS (200)
    // Each newer route's own parameters, more often than a pick out of all names would give them.
    List<String> names = new java.util.ArrayList<>();
    for (String own : ownParameters(path)) if (rnd.nextInt(3) > 0) names.add(own);
    for (int i = 0; i < n; i++) names.add(rnd.nextInt(8) == 0 ? randomText(rnd, 1 + rnd.nextInt(10)) : pick(rnd, PARAMS));
    for (int i = 0; i < names.size(); i++) {
      String name = names.get(i);
      String value = switch (rnd.nextInt(10)) {
        case 0, 1 -> randomText(rnd, rnd.nextInt(40));
        case 2 -> rnd.nextInt(10) == 0 ? "x".repeat(2000 + rnd.nextInt(8000)) : randomText(rnd, 100 + rnd.nextInt(500));
        case 3 -> name.equals("meeting_id") || rnd.nextBoolean() ? pathIdRaw(rnd) : secretOf.apply(pick(rnd, keyNames.toArray(String[]::new)));
        case 4, 5, 6 -> ownValue(rnd, name);
        default -> pick(rnd, VALUES);
      };
      if (i > 0) query.append('&');
      query.append(URLEncoder.encode(name, StandardCharsets.UTF_8));
      if (rnd.nextInt(12) != 0) query.append('=').append(URLEncoder.encode(value, StandardCharsets.UTF_8));
      if (rnd.nextInt(8) == 0) { // repeated parameter
        query.append('&').append(URLEncoder.encode(name, StandardCharsets.UTF_8)).append('=')
            .append(URLEncoder.encode(pick(rnd, VALUES), StandardCharsets.UTF_8));
      }
    }
    if (names.size() > 200) malformed = "more than 200 parameters";
    String target = query.isEmpty() ? path : path + "?" + query;
    if (target.isEmpty()) target = "/";

    // Raw-level mutations: the request is malformed on purpose.
    if (rnd.nextInt(10) == 0) {
      int m = rnd.nextInt(8);
      switch (m) {
        case 0 -> { target = target + (target.contains("?") ? "&" : "?") + "q=" + pick(rnd, new String[] {"%", "%zz", "%2", "100%", "%%", "%G0"}); malformed = "invalid percent-encoding"; }
        case 1 -> { target = target + (target.contains("?") ? "&" : "?") + "q=" + pick(rnd, new String[] {"a b", "<x>", "\"", "{}", "|", "^", "`", "\\"}); malformed = "unencoded character in the request target"; }
        case 2 -> { target = target.replaceFirst("/", "/" + (char) rnd.nextInt(32)); malformed = "control character in the request line"; }
        case 3 -> { target = target + "/\u00fc\u00e9"; malformed = "raw non-ASCII byte in the request line"; }
        case 4 -> { target = target + "?q=" + "y".repeat(17_000); malformed = "request line over the 16 KiB header limit"; }
        default -> { /* malformed request line or header, below */ }
      }
      if (m >= 5) malformed = "malformed request line or header:" + m;
    }

    ByteArrayOutputStream b = new ByteArrayOutputStream();
    String version = "HTTP/1.1";
    String sep = " ";
    if (malformed != null && malformed.endsWith(":5")) {
      version = pick(rnd, new String[] {"HTTP/1.1", "HTTP/2.0", "HTTP/9.9", "HTTP/1", "http/1.1", "", "HTTP/1.1 extra"});
      sep = pick(rnd, new String[] {" ", "  ", "\t"});
      if (version.equals("HTTP/1.1") && sep.equals(" ")) malformed = null;
    }
    if (rnd.nextInt(25) == 0 && malformed == null) version = "HTTP/1.0";
    write(b, method + sep + target + (version.isEmpty() ? "" : sep + version) + "\r\n");
    write(b, "Host: 127.0.0.1\r\n");
    if (auth != null) {
      if (rnd.nextInt(15) == 0) {
        // Two Authorization headers: the first one counts.
        boolean other = rnd.nextBoolean();
        write(b, "Authorization: " + (other ? "Bearer " + secretOf.apply(ApiServer.OTHER) : pick(rnd, new String[] {"Basic eA==", ""})) + "\r\n");
        keyName = other ? ApiServer.OTHER : "none";
      }
      writeHeader(b, "Authorization", auth);
    }
    int extra = rnd.nextInt(4);
    for (int i = 0; i < extra; i++) {
      switch (rnd.nextInt(8)) {
        case 0 -> write(b, "Accept: " + pick(rnd, new String[] {"*/*", "text/html", "application/xml", "", "application/json;q=0"}) + "\r\n");
        case 1 -> write(b, "X-Forwarded-For: " + pick(rnd, new String[] {"127.0.0.1", "1.2.3.4, 5.6.7.8", "evil"}) + "\r\n");
        case 2 -> write(b, "Accept-Encoding: " + pick(rnd, new String[] {"gzip", "br", "identity", "*", "gzip;q=0"}) + "\r\n");
        case 3 -> write(b, "If-None-Match: " + pick(rnd, new String[] {"\"x\"", "*", "W/\"1\"", "garbage"}) + "\r\n");
        case 4 -> write(b, "X-" + Integer.toString(rnd.nextInt(1000)) + ": " + asciiText(rnd, rnd.nextInt(200)) + "\r\n");
        case 5 -> write(b, "Cookie: session=" + asciiText(rnd, 30) + "\r\n");
        case 6 -> write(b, "Range: bytes=0-10\r\n");
        default -> write(b, "User-Agent: fuzz/" + index + "\r\n");
      }
    }
    if (malformed != null && malformed.endsWith(":6")) {
      write(b, pick(rnd, new String[] {"NoColonHeader\r\n", "X-A: a\u0001b\r\n", ": empty-name\r\n", "X-Big: " + "b".repeat(17_000) + "\r\n",
          " folded: header\r\n", "X-Nul: a\u0000b\r\n"}));
    }
    boolean body = method.equals("POST") || method.equals("PUT") || method.equals("PATCH");
    byte[] content = (mcp ? FuzzMcp.body(rnd, fixtureIds, VALUES) : "{\"title\":\"evil\"}\n").getBytes(StandardCharsets.UTF_8);
    if (malformed != null && malformed.endsWith(":7")) {
      write(b, pick(rnd, new String[] {"Content-Length: -1\r\n", "Content-Length: abc\r\n", "Content-Length: 100000000\r\n",
          "Transfer-Encoding: chunked\r\nContent-Length: 5\r\n", "Content-Length: 1\r\nContent-Length: 2\r\n"}));
      body = false;
    } else if (body) {
      if (mcp) mcpHeaders(rnd, b);
      else write(b, "Content-Type: application/json\r\n");
      write(b, "Content-Length: " + content.length + "\r\n");
    }
    write(b, "Connection: close\r\n\r\n");
    if (body) b.writeBytes(content);
    if (malformed == null && b.size() > 15_000) malformed = "request head near the 16 KiB limit";
    // Only OPTIONS may use "*" (RFC 9112 3.2.4); Undertow refuses the rest in its parser.
    if (malformed == null && !target.startsWith("/")) malformed = "request target not a path";
    return new Req(index, keyName, method, target, b.toByteArray(), malformed != null, malformed == null ? "" : malformed);
  }

  /** The parameters of the routes and filters added after the first fuzzing (decisions.md, 2026-11-25 and -27). */
  private static List<String> ownParameters(String path) {
    if (path.startsWith("/api/v1/changes")) return List.of("since", "limit");
    if (path.endsWith("/transcript/search")) return List.of("q", "limit");
    if (path.endsWith("/transcript")) return List.of("from_ms", "to_ms", "format");
    if (path.startsWith("/api/v1/search")) return List.of("q", "from", "to", "platform", "participant", "company");
    return List.of();
  }

  /** A value for the parameters of the newer routes: cursors, emails, company ids, times, as they are or spoilt. */
  private String ownValue(Random rnd, String name) {
    return switch (name) {
      case "since" -> {
        String cursor = pick(rnd, cursors);
        yield switch (rnd.nextInt(5)) {
          case 0, 1 -> cursor;
          case 2 -> mutate(rnd, cursor);
          case 3 -> cursor.substring(0, rnd.nextInt(cursor.length()));
          default -> cursor + pick(rnd, new String[] {"=", "==", "A", "%3D"});
        };
      }
      case "company" -> rnd.nextBoolean() ? pick(rnd, companyIds) : mutate(rnd, pick(rnd, companyIds));
      case "participant" -> pick(rnd, new String[] {"ann@acme.com", "Ann@Acme.COM", "hans@globex.com", "carl@other.test",
          "nobody@acme.com", "ann@", "ann@acme.com ", "ann@acme.com,bob@acme.com"});
      case "from_ms", "to_ms" -> Long.toString(rnd.nextInt(3) == 0 ? rnd.nextLong() : rnd.nextInt(20_000) - 1000);
      case "q" -> pick(rnd, new String[] {"budget", "planning", "\"launch plan\"", "müller", "b", "<script>", "\"", "a*"});
      case "platform" -> pick(rnd, new String[] {"zoom", "teams", "meet", "upload", "ZOOM", "skype"});
      case "from", "to" -> pick(rnd, new String[] {"2026-01-01", "2026-03-02T09:30:00Z", "2027-01-01", "2026-02-30", "x"});
      default -> pick(rnd, VALUES);
    };
  }

  /** Headers of a POST /mcp: mostly what Streamable HTTP asks, sometimes not (each refusal is ours, 400 or 403). */
  private static void mcpHeaders(Random rnd, ByteArrayOutputStream b) {
    int h = rnd.nextInt(10);
    write(b, "Content-Type: " + (h == 0 ? pick(rnd, new String[] {"text/plain", "application/jsonx", "", "multipart/form-data"})
        : pick(rnd, new String[] {"application/json", "application/json; charset=utf-8", "APPLICATION/JSON"})) + "\r\n");
    write(b, "Accept: " + (h == 1 ? pick(rnd, new String[] {"application/json", "text/event-stream", "*/*", ""})
        : "application/json, text/event-stream") + "\r\n");
    if (h == 2 || rnd.nextBoolean()) {
      write(b, "MCP-Protocol-Version: " + pick(rnd, new String[] {"2025-06-18", "2025-11-25", "2025-06-18", "2024-11-05", "x"})
          + "\r\n");
    }
    if (h == 3) write(b, "Origin: " + pick(rnd, new String[] {"https://evil.example", "null", "http://localhost"}) + "\r\n");
  }

  private String nameOf(String secret) {
    for (String name : keyNames) if (secretOf.apply(name).equals(secret)) return name;
    return "none";
  }

    /** A meeting id for a path: a fixture id (every kind of visibility), mutated, or odd; percent-encoded. */
  private String pathId(Random rnd) {
    return encodeSegment(pathIdRaw(rnd));
  }

  private String pathIdRaw(Random rnd) {
    String id = pick(rnd, fixtureIds);
    return switch (rnd.nextInt(12)) {
      case 0, 1, 2, 3 -> id;
      case 4 -> id.toUpperCase(Locale.ROOT);
      case 5 -> UUID.randomUUID().toString();
      case 6 -> id.substring(0, rnd.nextInt(id.length()));
      case 7 -> id + pick(rnd, new String[] {"0", " ", "\u0000", "'", "/", ".json", "%"});
      case 8 -> mutate(rnd, id);
      case 9 -> pick(rnd, new String[] {"..", ".", "", "null", "0", "-1", "' OR '1'='1", "%00", "*", "../" + id});
      case 10 -> randomText(rnd, 1 + rnd.nextInt(50));
      default -> "{" + id + "}";
    };
  }

  private static String mutate(Random rnd, String s) {
    char[] c = s.toCharArray();
    c[rnd.nextInt(c.length)] = "0123456789abcdefg-G".charAt(rnd.nextInt(19));
    return new String(c);
  }

  private static String encodeSegment(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
  }

  /** Random text across the ranges that break parsers: ASCII, controls, Latin, CJK, astral, lone surrogates' neighbours. */
  private static String randomText(Random rnd, int length) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < length; i++) {
      int kind = rnd.nextInt(10);
      int cp = switch (kind) {
        case 0 -> rnd.nextInt(32);
        case 1, 2, 3, 4 -> 32 + rnd.nextInt(95);
        case 5 -> 0xA0 + rnd.nextInt(0x200);
        case 6 -> 0x3040 + rnd.nextInt(0x5000);
        case 7 -> 0x1F300 + rnd.nextInt(0x300);
        case 8 -> pick(rnd, new Integer[] {0x202E, 0x200B, 0xFEFF, 0xFFFD, 0x2028, 0x7F, 0x85, 0xFFFF});
        default -> SPECIAL.charAt(rnd.nextInt(SPECIAL.length()));
      };
      sb.appendCodePoint(cp);
    }
    return sb.toString();
  }

  private static final String SPECIAL = "\"'\\%&=+#?/<>;:*()[]{}";

  private static String asciiText(Random rnd, int length) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < length; i++) sb.append((char) (33 + rnd.nextInt(94)));
    return sb.toString();
  }

  private static <T> T pick(Random rnd, T[] options) {
    return options[rnd.nextInt(options.length)];
  }

  private static void write(ByteArrayOutputStream b, String s) {
    // Header bytes are ISO-8859-1 on the wire except where a mutation puts raw UTF-8 in on purpose.
    b.writeBytes(s.getBytes(StandardCharsets.UTF_8));
  }

  private static void writeHeader(ByteArrayOutputStream b, String name, String value) {
    write(b, name + ": " + value + "\r\n");
  }
}
