package minutes.http;

import io.undertow.server.HttpServerExchange;
import io.undertow.util.Headers;
import io.undertow.util.Methods;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;

/**
 * ETag and If-None-Match for GET and HEAD answers (RFC 9110 section 13.1.2). The tag is
 * weak because gzip may change the bytes on the wire while the content stays the same.
 * Stateless.
 */
final class Conditional {
  private Conditional() {}

  /**
   * Sets the ETag of a 200 answer to GET or HEAD and, when the client already holds that
   * version, turns the answer into a bodiless 304. Returns true when it did.
   */
  static boolean notModified(HttpServerExchange ex, byte[] body) {
    if (!ex.getRequestMethod().equals(Methods.GET) && !ex.getRequestMethod().equals(Methods.HEAD)) return false;
    String tag = "W/\"" + hash(body) + "\"";
    ex.getResponseHeaders().put(Headers.ETAG, tag);
    String ifNoneMatch = ex.getRequestHeaders().getFirst(Headers.IF_NONE_MATCH);
    if (ifNoneMatch == null || !matches(ifNoneMatch, tag)) return false;
    ex.setStatusCode(304);
    return true;
  }

  /** Weak comparison against a list of tags, or "*". */
  static boolean matches(String ifNoneMatch, String tag) {
    String opaque = opaque(tag);
    for (String candidate : ifNoneMatch.split(",")) {
      String c = candidate.trim();
      if (c.equals("*") || opaque(c).equals(opaque)) return true;
    }
    return false;
  }

  private static String opaque(String tag) {
    return tag.startsWith("W/") ? tag.substring(2) : tag;
  }

  private static String hash(byte[] body) {
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(body);
      // 128 bits are plenty to tell versions of one resource apart.
      return Base64.getUrlEncoder().withoutPadding().encodeToString(java.util.Arrays.copyOf(digest, 16));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JVM has SHA-256", e);
    }
  }
}
