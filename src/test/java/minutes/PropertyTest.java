package minutes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The harness itself: sizes grow to the largest, and coverage runs more cases only while it fails, at most as many again. */
@StoreIndependent
class PropertyTest {
  @Test
  void sizesGrowFromZeroToTheLargest() {
    List<Integer> sizes = new ArrayList<>();
    Property.forAll("sizes", 5, 40, c -> sizes.add(c.size()));
    assertEquals(List.of(0, 10, 20, 30, 40), sizes);
    sizes.clear();
    Property.forAll("one case", 1, 40, c -> sizes.add(c.size()));
    assertEquals(List.of(40), sizes);
  }

  @Test
  void coverageRunsMoreCasesOnlyWhileItFails() {
    for (int needed : List.of(0, 3, 10, 11, 17, 20, 21, 100)) {
      List<Integer> sizes = new ArrayList<>();
      Runnable coverage = () -> assertTrue(sizes.size() >= needed);
      Property.forAll("coverage " + needed, 10, 30, coverage, c -> sizes.add(c.size()));
      assertEquals(Math.min(Math.max(needed, 10), 20), sizes.size(), "cases run when " + needed + " are needed");
      assertTrue(sizes.subList(9, sizes.size()).stream().allMatch(s -> s == 30), "extra cases are of the largest size");
    }
  }

  @Test
  void aFailingCaseNamesItsSeedAndReplaysAlone() throws Exception {
    List<Long> seen = new ArrayList<>();
    AssertionError e = assertThrows(AssertionError.class, () -> Property.forAll("fails at the fourth", 10, 9, c -> {
      seen.add(c.random().nextLong());
      if (seen.size() == 4) throw new AssertionError("boom");
    }));
    assertTrue(e.getMessage().contains("failed at case 3 of 10 (size 3"), e.getMessage());
    long seed = Long.parseLong(e.getMessage().replaceAll(".*case seed (-?\\d+)L.*", "$1"));
    Property.example(seed, 3, c -> assertEquals(seen.get(3), c.random().nextLong()));
  }
}
