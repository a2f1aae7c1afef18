package minutes.formats;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import minutes.formats.ImportWriter.Meeting;
import minutes.formats.ImportWriter.Participant;
import minutes.formats.ImportWriter.Protocol;
import minutes.formats.ImportWriter.Segment;

/** What every converter's meeting has in common (decisions.md "Transcripts in and out"). Stateless. */
final class ConvertedMeetings {
  /** The speaker of a segment whose source names nobody; never a participant. */
  static final String UNKNOWN_SPEAKER = "Unknown speaker";

  private ConvertedMeetings() {}

  /**
   * A ready meeting of the options' workspace, platform ({@code upload} unless given) and
   * visibility, source {@code upload}; its participants are the invited ones (marked attended
   * when they speak, see {@link Attendees}) and then one per other speaker of the transcript
   * (source {@code platform}), by name or email. Its language: {@code --language}, else the
   * source's own ({@code sourceLanguage}, null when it gives none), else none, so that the
   * import detects it.
   */
  static Meeting line(ImportOptions o, String id, String title, Instant startsAt, Instant endsAt,
      String organizerEmail, Instant createdAt, List<Participant> invited, List<Protocol> protocols,
      List<Segment> transcript, String sourceLanguage) {
    List<Participant> participants = new ArrayList<>(invited);
    Attendees attendees = new Attendees(invited);
    Set<String> speakers = new HashSet<>(), seen = new HashSet<>();
    for (Segment s : transcript) {
      // A speaker says many segments: each name and email is matched once.
      if (s.speakerName().equals(UNKNOWN_SPEAKER) || !seen.add(s.speakerName() + '\0' + s.speakerEmail())) continue;
      int i = attendees.of(s.speakerName(), s.speakerEmail());
      if (i >= 0) {
        Participant p = participants.get(i);
        participants.set(i, new Participant(p.displayName(), p.email(), p.source(), true, p.approxJoinedAt(), p.approxLeftAt()));
      } else if (speakers.add(Attendees.fold(s.speakerName())) && (s.speakerEmail() == null || speakers.add(s.speakerEmail()))) {
        participants.add(new Participant(s.speakerName(), s.speakerEmail(), "platform", true, null, null));
      }
    }
    return new Meeting(o.workspace(), id, title, o.platform(), "upload", "ready", startsAt, endsAt, null, organizerEmail,
        createdAt, null, o.visibleTo(), participants, protocols, transcript,
        o.language() != null ? o.language() : sourceLanguage);
  }
}
