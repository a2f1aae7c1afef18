package minutes.reliability;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.GZIPInputStream;

/**
 * One HTTP exchange over a raw loopback socket: the request's bytes go out exactly as given
 * (malformed ones included, which no HTTP client would send), and the answer is parsed only as
 * far as status, headers and body (gunzipped). Stateless.
 */
final class RawHttp {
  private RawHttp() {}

  /** An answer; {@code status} 0 when none came that parses; {@code timedOut} when it stopped coming. */
  record Resp(int status, Map<String, String> headers, byte[] body, boolean timedOut) {
    String text() {
      return new String(body, StandardCharsets.UTF_8);
    }
  }

  /** Sends request to 127.0.0.1:port and reads the answer until the server closes, keeping at most about maxBytes. */
  static Resp send(int port, byte[] request, int maxBytes) throws IOException {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress("127.0.0.1", port), 5000);
      s.setSoTimeout(20_000);
      OutputStream out = s.getOutputStream();
      try {
        out.write(request);
        out.flush();
      } catch (IOException e) {
        // The server may answer and close before reading all of an oversized request.
      }
      InputStream in = s.getInputStream();
      ByteArrayOutputStream all = new ByteArrayOutputStream();
      byte[] buf = new byte[16384];
      boolean timedOut = false;
      try {
        for (int r; (r = in.read(buf)) > 0; ) {
          all.write(buf, 0, r);
          if (all.size() > maxBytes + 65536) break;
        }
      } catch (SocketTimeoutException e) {
        timedOut = true;
      } catch (IOException e) {
        // connection reset after the answer: keep what arrived
      }
      return parse(all.toByteArray(), timedOut);
    }
  }

  private static Resp parse(byte[] raw, boolean timedOut) {
    String text = new String(raw, StandardCharsets.ISO_8859_1);
    int end = text.indexOf("\r\n\r\n");
    if (end < 0) return new Resp(0, Map.of(), raw, timedOut);
    String[] lines = text.substring(0, end).split("\r\n");
    String[] status = lines[0].split(" ", 3);
    int code;
    try {
      code = Integer.parseInt(status[1]);
    } catch (RuntimeException e) {
      return new Resp(0, Map.of(), raw, timedOut);
    }
    Map<String, String> headers = new TreeMap<>();
    for (int i = 1; i < lines.length; i++) {
      int colon = lines[i].indexOf(':');
      if (colon > 0) headers.put(lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT), lines[i].substring(colon + 1).trim());
    }
    byte[] body = Arrays.copyOfRange(raw, end + 4, raw.length);
    String cl = headers.get("content-length");
    if (cl != null) {
      try {
        int len = Integer.parseInt(cl);
        if (len < body.length) body = Arrays.copyOf(body, len);
      } catch (NumberFormatException ignored) {
        // kept whole
      }
    }
    if ("gzip".equals(headers.get("content-encoding")) && body.length > 0) {
      try (var in = new GZIPInputStream(new ByteArrayInputStream(body))) {
        body = in.readAllBytes();
      } catch (IOException e) {
        body = ("<<not gzip: " + e + ">>").getBytes(StandardCharsets.UTF_8);
      }
    }
    return new Resp(code, headers, body, timedOut);
  }
}
