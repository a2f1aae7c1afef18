package minutes.search.index;

/** Reports how far an index build has got; called from every indexing thread. */
@FunctionalInterface
public interface BuildProgress {
  void update(long meetingsDone, long meetingsTotal, long charsDone);

  BuildProgress NONE = (done, total, chars) -> {};
}
