package minutes.http;

/** An API endpoint: turns a checked request into the JSON body of a 200 answer. */
@FunctionalInterface
public interface Endpoint {
  Object answer(Request request) throws Exception;
}
