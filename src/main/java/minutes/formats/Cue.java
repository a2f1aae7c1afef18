package minutes.formats;

/** A transcript segment as a cue file shows it: times, who spoke and what was said. */
public record Cue(long startMs, long endMs, String speaker, String text) {}
