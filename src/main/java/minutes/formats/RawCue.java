package minutes.formats;

/** A cue as a file holds it: the line of its timing, its times, and its text lines as written. */
record RawCue(int line, long startMs, long endMs, String payload) {}
