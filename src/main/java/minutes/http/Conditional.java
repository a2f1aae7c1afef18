package minutes.http;

import io.undertow.server.HttpServerExchange;
import io.undertow.util.Headers;
import io.undertow.util.Methods;
import java.util.zip.Adler32;
import java.util.zip.CRC32C;

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

  /**
   * Length, CRC-32C and Adler-32 of the body: both checksums are CPU intrinsics, and the tag
   * only has to tell versions of one resource apart, not resist forgery (docs/BENCHMARKS.md).
   */
  private static String hash(byte[] body) {
    CRC32C crc = new CRC32C();
    crc.update(body);
    Adler32 adler = new Adler32();
    adler.update(body);
    return Integer.toHexString(body.length) + "-" + Long.toHexString(crc.getValue() << 32 | adler.getValue());
  }
}
