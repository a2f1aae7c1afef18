package minutes.formats;

/** A cue as a file holds it: its times, and its text lines as written. */
record RawCue(long startMs, long endMs, String payload) {}
