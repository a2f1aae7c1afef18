package minutes.http;

import io.undertow.Undertow;
import io.undertow.server.HttpHandler;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * One handler of the HTTP layer served on a free loopback port, on a worker thread as the
 * server runs its routes, for tests of that piece alone over real HTTP. Close it to stop it.
 */
final class HandlerServer implements AutoCloseable {
  private final Undertow server;
  private final String base;

  HandlerServer(HttpHandler handler) {
    server = Undertow.builder().addHttpListener(0, "127.0.0.1").setHandler(ex -> {
      if (ex.isInIoThread()) ex.dispatch(handler);
    }).build();
    server.start();
    base = "http://127.0.0.1:" + ((InetSocketAddress) server.getListenerInfo().get(0).getAddress()).getPort();
  }

  /** GET path with the given header name/value pairs; fails past {@code timeout}. */
  HttpResponse<String> get(String path, Duration timeout, String... headers) throws Exception {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + path)).timeout(timeout);
    if (headers.length > 0) request.headers(headers);
    return HttpClient.newHttpClient().send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  @Override
  public void close() {
    server.stop();
  }
}
