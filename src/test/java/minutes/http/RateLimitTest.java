package minutes.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import minutes.StoreIndependent;
import minutes.store.DataWatch;
import org.junit.jupiter.api.Test;

/** The per-key token bucket of {@link Admission} on a clock the test moves by hand: quota, refill, headers' values, keys apart, threads. */
@StoreIndependent
class RateLimitTest {
  private final AtomicLong now = new AtomicLong(1_000_000_000_000L);
  private final Admission limit = new Admission(3000, now::get, DataWatch.NONE); // one request every 20 ms, a minute's worth saved up

  private void advanceMillis(long ms) {
    now.addAndGet(ms * 1_000_000L);
  }

  @Test
  void anIdleKeyHasAMinutesQuotaThenOneRequestPerInterval() {
    Admission.Outcome first = limit.take("k");
    assertEquals(new Admission.Outcome(true, 2999, 1, 0), first);
    for (int i = 2; i <= 3000; i++) assertTrue(limit.take("k").admitted(), "request " + i);
    Admission.Outcome refused = limit.take("k");
    assertFalse(refused.admitted());
    assertEquals(0, refused.remaining());
    assertEquals(60, refused.resetSeconds()); // 3000 requests owed, 20 ms each
    assertEquals(1, refused.retryAfterSeconds()); // the next one is 20 ms away; Retry-After counts whole seconds
    advanceMillis(19);
    assertFalse(limit.take("k").admitted());
    advanceMillis(1);
    Admission.Outcome next = limit.take("k");
    assertTrue(next.admitted());
    assertEquals(0, next.remaining());
    assertFalse(limit.take("k").admitted());
  }

  @Test
  void theQuotaComesBackEvenlyAndNeverAboveOneMinutesWorth() {
    for (int i = 0; i < 3000; i++) limit.take("k");
    advanceMillis(30_000); // half a minute: 1500 requests back
    assertEquals(1499, limit.take("k").remaining());
    advanceMillis(600_000); // idle for ten minutes: still one minute's worth, not ten
    assertEquals(2999, limit.take("k").remaining());
  }

  @Test
  void oneKeysBurstLeavesAnotherKeyUntouched() {
    for (int i = 0; i < 3001; i++) limit.take("busy");
    assertFalse(limit.take("busy").admitted());
    assertEquals(new Admission.Outcome(true, 2999, 1, 0), limit.take("quiet"));
  }

  @Test
  void manyThreadsTakingFromOneKeyGetExactlyItsQuota() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      List<Future<Integer>> admitted = new ArrayList<>();
      for (int t = 0; t < 8; t++) {
        admitted.add(pool.submit(() -> {
          int n = 0;
          for (int i = 0; i < 1000; i++) if (limit.take("shared").admitted()) n++;
          return n;
        }));
      }
      int total = 0;
      for (Future<Integer> f : admitted) total += f.get();
      assertEquals(3000, total, "8,000 requests in one instant: exactly the quota passes, none lost or doubled");
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void aLimitThatDoesNotDivideAMinuteStillHoldsItsQuota() {
    Admission seven = new Admission(7, now::get, DataWatch.NONE);
    int admitted = 0;
    for (int i = 0; i < 20; i++) if (seven.take("k").admitted()) admitted++;
    assertEquals(7, admitted);
  }
}
