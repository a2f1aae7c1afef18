import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Search on several running nodes at once, for bench/search-nodes-ab.sh (issue 45: the
 * PostgreSQL node against the SQLite node, before against after), so that the machine's noise
 * falls on all alike. JDK only: {@code java bench/NodesBench.java MODE ROUNDS SECONDS QUERIES
 * NAME=PORT=KEY=PID...}, each search {@code limit=50} with snippets, as bench/search-bench.sh.
 * <ul>
 *   <li>{@code one}: one client, one keep-alive socket per node; each query goes to every node in
 *   turn, the order turning each round, ROUNDS rounds over the queries (SECONDS unused).
 *   <li>{@code eight}: 8 clients on sockets of their own against one node for SECONDS, cycling
 *   through the queries, then the next node; ROUNDS times, the order turning each round.
 * </ul>
 * Prints per node p5 (the floor a round trip adds to), p50 and p99 (ms, from the first byte sent to the last read), searches, and the
 * node's CPU per search (user + system of the whole process over the node's own time, from
 * /proc/PID/stat; clock ticks of 10 ms), each with its ratio to the first node.
 */
public class NodesBench {
  record Node(String name, int port, String key, long pid) {}

  static final class Tally {
    final List<long[]> nanos = new ArrayList<>();
    long searches, cpuTicks, dbTicks;
    final AtomicInteger shed = new AtomicInteger();
  }

  /** PostgreSQL's postmaster (env DB_PID), whose backends' CPU mode eight counts per node; 0 for none. */
  static final long DB_PID = Long.parseLong(System.getenv().getOrDefault("DB_PID", "0"));

  public static void main(String[] args) throws Exception {
    String mode = args[0];
    int rounds = Integer.parseInt(args[1]), seconds = Integer.parseInt(args[2]);
    List<String> paths = Files.readAllLines(Path.of(args[3])).stream()
        .map(q -> "/api/v1/search?q=" + URLEncoder.encode(q, StandardCharsets.UTF_8) + "&limit=50").toList();
    List<Node> nodes = new ArrayList<>();
    for (int i = 4; i < args.length; i++) {
      String[] p = args[i].split("=", 4);
      nodes.add(new Node(p[0], Integer.parseInt(p[1]), p[2], Long.parseLong(p[3])));
    }
    Tally[] tally = new Tally[nodes.size()];
    for (int n = 0; n < tally.length; n++) tally[n] = new Tally();
    if (mode.equals("one")) one(nodes, paths, rounds, tally);
    else eight(nodes, paths, rounds, seconds, tally);
    System.out.printf("| node (%s) | p5 ms | p50 ms | p99 ms | searches (shed) | CPU ms per search | PostgreSQL CPU ms per search | p50 · p99 · CPU ratio to %s |%n",
        mode.equals("one") ? "1 client, interleaved query by query" : "8 clients, " + seconds + " s a turn",
        nodes.getFirst().name());
    System.out.println("|---|---|---|---|---|---|---|---|");
    double[] first = null;
    for (int n = 0; n < nodes.size(); n++) {
      long[] all = tally[n].nanos.stream().flatMapToLong(Arrays::stream).filter(v -> v > 0).sorted().toArray();
      double[] f = {pct(all, 50), pct(all, 99), tally[n].cpuTicks * 10.0 / tally[n].searches, pct(all, 5)};
      if (first == null) first = f;
      String db = mode.equals("one") || DB_PID == 0 ? "-" : String.format("%.3f", tally[n].dbTicks * 10.0 / tally[n].searches);
      System.out.printf("| %s | %.2f | %.2f | %.2f | %d (%d) | %.3f | %s | %.2fx · %.2fx · %.2fx |%n", nodes.get(n).name(), f[3], f[0], f[1],
          tally[n].searches, tally[n].shed.get(), f[2], db, f[0] / first[0], f[1] / first[1], f[2] / first[2]);
    }
  }

  static void one(List<Node> nodes, List<String> paths, int rounds, Tally[] tally) throws Exception {
    List<Client> clients = new ArrayList<>();
    for (Node n : nodes) clients.add(new Client(n));
    // Each path once on every node, and the answers compared: a node's must be byte for byte
    // those of the first node on the same store (the name before the first '-').
    int[] differ = new int[nodes.size()];
    for (String p : paths) {
      String[] bodies = new String[nodes.size()];
      for (int n = 0; n < nodes.size(); n++) bodies[n] = clients.get(n).get(p);
      for (int n = 0; n < nodes.size(); n++) {
        int same = sameStore(nodes, n);
        if (bodies[n] != null && bodies[same] != null && !bodies[n].equals(bodies[same])) differ[n]++;
      }
    }
    for (int n = 0; n < nodes.size(); n++) {
      int same = sameStore(nodes, n);
      if (same != n) System.out.printf("answers of %s against %s: %d of %d differ%n", nodes.get(n).name(),
          nodes.get(same).name(), differ[n], paths.size());
    }
    for (int n = 0; n < nodes.size(); n++) tally[n].nanos.add(new long[paths.size() * rounds]);
    long[] cpu = new long[nodes.size()];
    for (int r = 0; r < rounds; r++) {
      for (int n = 0; n < nodes.size(); n++) cpu[n] = ticks(nodes.get(n).pid());
      for (int q = 0; q < paths.size(); q++) {
        for (int k = 0; k < nodes.size(); k++) {
          int n = (k + r + q) % nodes.size();
          long t = System.nanoTime();
          boolean answered = clients.get(n).get(paths.get(q)) != null;
          if (answered) tally[n].nanos.getFirst()[r * paths.size() + q] = System.nanoTime() - t;
          else tally[n].shed.incrementAndGet();
        }
      }
      // Each node's process time over the round: the others were idle but for their background threads.
      for (int n = 0; n < nodes.size(); n++) {
        tally[n].cpuTicks += ticks(nodes.get(n).pid()) - cpu[n];
        tally[n].searches += paths.size();
      }
    }
    for (Client c : clients) c.close();
  }

  /** The first node whose name starts with the same store as node n's. */
  static int sameStore(List<Node> nodes, int n) {
    String store = nodes.get(n).name().split("-")[0];
    for (int i = 0; ; i++) if (nodes.get(i).name().split("-")[0].equals(store)) return i;
  }

  static void eight(List<Node> nodes, List<String> paths, int rounds, int seconds, Tally[] tally) throws Exception {
    for (int r = 0; r < rounds + 1; r++) { // round 0 warms up and is not counted
      for (int k = 0; k < nodes.size(); k++) {
        int n = (k + r) % nodes.size(), round = r;
        Node node = nodes.get(n);
        AtomicBoolean stop = new AtomicBoolean();
        AtomicInteger next = new AtomicInteger();
        long[][] times = new long[8][];
        List<Thread> threads = new ArrayList<>();
        long cpu = ticks(node.pid()), db = dbTicks();
        for (int c = 0; c < 8; c++) {
          int client = c;
          threads.add(Thread.ofPlatform().start(() -> {
            long[] mine = new long[1 << 20];
            int i = 0;
            try (Client cl = new Client(node)) {
              while (!stop.get()) {
                String p = paths.get(Math.floorMod(next.getAndIncrement(), paths.size()));
                long t = System.nanoTime();
                if (cl.get(p) != null) mine[i++] = System.nanoTime() - t;
                else if (round > 0) tally[n].shed.incrementAndGet();
              }
            } catch (IOException e) {
              throw new IllegalStateException(node.name() + ": " + e, e);
            }
            times[client] = Arrays.copyOf(mine, i);
          }));
        }
        Thread.sleep(seconds * 1000L);
        stop.set(true);
        for (Thread t : threads) t.join();
        if (r == 0) continue;
        tally[n].cpuTicks += ticks(node.pid()) - cpu;
        tally[n].dbTicks += dbTicks() - db;
        for (long[] t : times) {
          tally[n].nanos.add(t);
          tally[n].searches += t.length;
        }
      }
    }
  }

  /** User + system clock ticks of the process so far. */
  static long ticks(long pid) throws IOException {
    String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
    String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    return Long.parseLong(f[11]) + Long.parseLong(f[12]);
  }

  /** User + system clock ticks of PostgreSQL's postmaster and its backends so far; 0 without DB_PID. */
  static long dbTicks() throws IOException {
    if (DB_PID == 0) return 0;
    long sum = ticks(DB_PID);
    for (ProcessHandle child : ProcessHandle.of(DB_PID).orElseThrow().children().toList()) {
      try {
        sum += ticks(child.pid());
      } catch (IOException gone) {
        // a backend that ended meanwhile
      }
    }
    return sum;
  }

  static double pct(long[] sorted, int p) {
    return sorted.length == 0 ? 0 : sorted[Math.min(sorted.length - 1, (int) Math.ceil(p / 100.0 * sorted.length) - 1)] / 1e6;
  }

  /** One keep-alive socket; reads each answer by its Content-Length, refuses anything but 200. */
  static final class Client implements AutoCloseable {
    private final Node node;
    private final Socket socket;
    private final OutputStream out;
    private final InputStream in;

    Client(Node node) throws IOException {
      this.node = node;
      socket = new Socket("127.0.0.1", node.port());
      socket.setTcpNoDelay(true);
      out = socket.getOutputStream();
      in = new BufferedInputStream(socket.getInputStream(), 1 << 16);
    }

    /** The body; null for a 503 that load shedding sent (the node was busy): not a search, not timed. */
    String get(String path) throws IOException {
      out.write(("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + node.key() + "\r\n\r\n")
          .getBytes(StandardCharsets.US_ASCII));
      out.flush();
      String status = line();
      int length = -1;
      for (String h = line(); !h.isEmpty(); h = line()) {
        if (h.regionMatches(true, 0, "Content-Length:", 0, 15)) length = Integer.parseInt(h.substring(15).trim());
      }
      if (length < 0) throw new IOException(node.name() + ": no Content-Length");
      byte[] body = in.readNBytes(length);
      String text = new String(body, StandardCharsets.UTF_8);
      if (status.contains(" 503 ") && text.contains("the server is busy")) return null;
      if (!status.contains(" 200 ")) throw new IOException(node.name() + " answered " + status + ": " + text);
      return text;
    }

    private String line() throws IOException {
      StringBuilder b = new StringBuilder();
      for (int c = in.read(); c != '\n'; c = in.read()) {
        if (c < 0) throw new IOException(node.name() + ": connection closed");
        if (c != '\r') b.append((char) c);
      }
      return b.toString();
    }

    @Override
    public void close() throws IOException {
      socket.close();
    }
  }
}
