package minutes.formats;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import minutes.formats.MeetingLine.Participant;
import minutes.formats.MeetingLine.Protocol;
import minutes.formats.MeetingLine.Segment;
import minutes.store.Times;

/** What every converter's meeting has in common (decisions.md "Transcripts in and out"). Stateless. */
final class Meetings {
  /** The speaker of a segment whose source names nobody; never a participant. */
  static final String UNKNOWN_SPEAKER = "Unknown speaker";

  private Meetings() {}

  /**
   * A ready meeting of the options' workspace, platform ({@code upload} unless given) and
   * visibility, source {@code upload}; its participants are the invited ones and then one per
   * other speaker of the transcript (source {@code platform}), by name or email. Its language:
   * {@code --language}, else the source's own ({@code sourceLanguage}, null when it gives none),
   * else none, so that the import detects it.
   */
  static MeetingLine line(ImportOptions o, String id, String title, Instant startsAt, Instant endsAt,
      String organizerEmail, Instant createdAt, List<Participant> invited, List<Protocol> protocols,
      List<Segment> transcript, String sourceLanguage) {
    List<Participant> participants = new ArrayList<>(invited);
    Set<String> known = new HashSet<>();
    for (Participant p : invited) {
      known.add(key(p.displayName()));
      if (p.email() != null) known.add(key(p.email()));
    }
    for (Segment s : transcript) {
      if (s.speakerName().equals(UNKNOWN_SPEAKER) || known.contains(key(s.speakerName()))
          || s.speakerEmail() != null && known.contains(key(s.speakerEmail()))) {
        continue;
      }
      known.add(key(s.speakerName()));
      participants.add(new Participant(s.speakerName(), s.speakerEmail(), "platform", true));
    }
    return new MeetingLine(o.workspace(), id, title, o.platform(), "upload", "ready", time(startsAt), time(endsAt),
        organizerEmail, time(createdAt), o.visibleTo(), participants, protocols, transcript,
        o.language() != null ? o.language() : sourceLanguage);
  }

  private static String key(String nameOrEmail) {
    return nameOrEmail.toLowerCase(Locale.ROOT);
  }

  static String time(Instant t) {
    return t == null ? null : Times.format(t);
  }
}
