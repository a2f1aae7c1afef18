package minutes.generate;

import static minutes.generate.DemoCast.FIRMS;
import static minutes.generate.DemoCast.GERMAN_OPENING;
import static minutes.generate.DemoCast.PEOPLE;
import static minutes.generate.DemoCast.PLANS;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.stream.Stream;
import minutes.formats.ImportWriter;
import minutes.formats.ImportWriter.ActionItem;
import minutes.formats.ImportWriter.Company;
import minutes.formats.ImportWriter.Counts;
import minutes.formats.ImportWriter.Meeting;
import minutes.formats.ImportWriter.Participant;
import minutes.formats.ImportWriter.Protocol;
import minutes.formats.ImportWriter.Segment;
import minutes.formats.ImportWriter.User;
import minutes.formats.ImportWriter.Workspace;
import minutes.generate.CorpusGenerator.Person;
import minutes.generate.DemoCast.Firm;
import minutes.generate.DemoCast.Plan;
import minutes.generate.QmsumCorpus.Turn;

/**
 * The demo data set: workspace {@code demo} (users ann and bob, four companies, 27 meetings) and
 * workspace {@code other} (3 meetings that must never show in demo), built from 30 QMSum
 * meetings so that every status, platform, source, verdict and task status appears. Deterministic.
 */
public final class DemoData {

  public static final String WORKSPACE = "demo";
  public static final String OTHER_WORKSPACE = "other";

  private static final String[] VERDICTS = {
    "open", "open", "open", "open", "open", "resolved_in_meeting", "resolved_in_meeting",
    "discarded", "duplicate", "unclear_owner", "unclear_owner"
  };

  private DemoData() {}

  /**
   * Writes the whole data set as import NDJSON; the caller closes {@code out}. Throws
   * IllegalArgumentException, before writing anything, when the corpus lacks a meeting it needs.
   */
  public static Counts write(QmsumCorpus corpus, Writer out) throws IOException {
    List<QmsumCorpus.Meeting> sources = PLANS.stream().map(p -> corpus.meeting(p.qmsum())).toList();
    ImportWriter w = new ImportWriter(out);
    w.write(new Workspace(WORKSPACE, "Demo Co", List.of("demo.example", "demo-example.de")));
    w.write(new Workspace(OTHER_WORKSPACE, "Other Ltd", List.of("other.example")));
    w.write(new User(WORKSPACE, "ann@demo.example", "Ann Archer"));
    w.write(new User(WORKSPACE, "bob@demo.example", "Bob Brennan"));
    w.write(new User(OTHER_WORKSPACE, "olivia@other.example", "Olivia Ortiz"));
    for (Firm f : FIRMS) {
      w.write(new Company(f.workspace(), uuid("company/" + f.key()), f.name(), List.of(f.domain())));
    }
    for (int i = 0; i < PLANS.size(); i++) {
      w.write(meeting(i, PLANS.get(i), sources.get(i)));
    }
    w.flush();
    return w.counts();
  }

  private static String uuid(String seed) {
    return UUID.nameUUIDFromBytes(("minutes-demo/" + seed).getBytes(StandardCharsets.UTF_8))
        .toString();
  }

  private static Meeting meeting(int index, Plan p, QmsumCorpus.Meeting q) {
    SplittableRandom rnd = new SplittableRandom(0xD3E0_0000L + index);
    String id = uuid("meeting/" + p.qmsum());
    boolean upload = p.platform().equals("upload");
    boolean calendar = p.source().equals("calendar");
    String status = p.status();
    boolean held = !status.equals("scheduled") && !status.equals("no_bot");

    List<Person> attendees = new ArrayList<>(Stream.of(p.people().split(" ")).map(PEOPLE::get).toList());
    if (p.has("guests")) {
      attendees.add(PEOPLE.get("rosa"));
      attendees.add(PEOPLE.get("mark"));
    }

    List<Segment> transcript = transcript(p, q, attendees, rnd);
    // The appointment lasts as long as the whole QMSum meeting, also when little was recorded.
    long spokenMs =
        status.equals("ready") || status.equals("processing")
            ? transcript.getLast().endMs()
            // No transcript to time: each turn's speech plus about the mean pause drawn below (250-1,200 ms).
            : q.turns().stream().mapToLong(t -> MinutesText.speechMs(t.text()) + 700).sum();
    Instant time = Instant.parse(p.time() + ":00Z");
    Instant startsAt = upload ? null : time;
    Instant endsAt = upload ? null : MinutesText.bookedEnd(time, spokenMs);
    Instant createdAt;
    if (upload) {
      createdAt = time;
    } else if (calendar) {
      // Invitations go out during office hours, days ahead.
      createdAt =
          time.truncatedTo(ChronoUnit.DAYS)
              .minus(Duration.ofDays(2 + rnd.nextInt(18)))
              .plus(Duration.ofMinutes(7 * 60 + rnd.nextInt(600)));
    } else {
      createdAt = time.minus(Duration.ofMinutes(3 + rnd.nextInt(22)));
    }

    Person corrected = p.has("manual") ? PEOPLE.get(p.value("manual")) : null;
    List<Participant> participants = new ArrayList<>();
    for (Person person : attendees) {
      String source =
          upload || person == corrected ? "manual" : calendar && !isGuest(person) ? "calendar" : "platform";
      Instant joined = null;
      Instant left = null;
      if (held && !upload) {
        joined = startsAt.plusSeconds(rnd.nextInt(240));
        left = status.equals("live") ? null : endsAt.minusSeconds(rnd.nextInt(360));
      }
      participants.add(
          new Participant(person.name(), person.email(), source, held, joined, left));
    }
    if (p.has("absent")) {
      Person absent = PEOPLE.get(p.value("absent"));
      participants.add(
          new Participant(absent.name(), absent.email(), "calendar", false, null, null));
    }

    List<String> invited = new ArrayList<>(Arrays.asList(p.people().split(" ")));
    invited.add(p.value("absent"));
    invited.add(p.value("shared"));
    List<String> visibleTo =
        Stream.of("ann", "bob", "olivia").filter(invited::contains).map(u -> PEOPLE.get(u).email()).toList();

    List<Protocol> protocols = new ArrayList<>();
    if (status.equals("ready") || p.has("protocol")) {
      LocalDate day = LocalDate.ofInstant(time, ZoneOffset.UTC);
      Instant done = upload ? createdAt.plusMillis(spokenMs / 3) : endsAt;
      Instant generated = done.plusSeconds(240 + rnd.nextInt(600));
      Context ctx = new Context(index, id, p, q, attendees, day);
      if (p.has("two-protocols")) {
        // Minutes regenerated two days later: the first version had other tasks.
        Instant regenerated = generated.plus(Duration.ofDays(2).plusMinutes(rnd.nextInt(300)));
        protocols.add(protocol(ctx, 1, generated, null, 0, rnd));
        protocols.add(protocol(ctx, 2, regenerated, regenerated.plusSeconds(10_800), 5, rnd));
      } else {
        Instant edited =
            p.has("edited") ? generated.plus(Duration.ofHours(26 + rnd.nextInt(20))) : null;
        protocols.add(protocol(ctx, 1, generated, edited, 0, rnd));
      }
    }

    String organizer = calendar && !p.has("no-organizer") ? attendees.getFirst().email() : null;
    String template = p.has("tpl") ? uuid("template/" + p.value("tpl")) : null;
    String joinUrl =
        upload
            ? null
            : MinutesText.joinUrl(p.platform(), UUID.fromString(id).getMostSignificantBits());
    return new Meeting(
        p.workspace(), id, p.title(), p.platform(), p.source(), status, startsAt, endsAt, joinUrl,
        organizer, createdAt, template, visibleTo, participants, protocols, transcript, null);
  }

  /** The QMSum turns voiced by the attendees; nothing where no recorder listened. */
  private static List<Segment> transcript(
      Plan p, QmsumCorpus.Meeting q, List<Person> attendees, SplittableRandom rnd) {
    String status = p.status();
    List<Map.Entry<Person, String>> lines = new ArrayList<>();
    switch (status) {
      case "scheduled", "no_bot", "failed" -> {
        return List.of();
      }
      case "no_speech" -> {
        lines.add(Map.entry(attendees.getFirst(), "Hello? Can anyone hear me?"));
        lines.add(Map.entry(attendees.getFirst(), "Looks like nobody else has joined yet."));
      }
      default -> {
        if (p.has("german")) {
          for (int i = 0; i < GERMAN_OPENING.length; i += 2) {
            lines.add(Map.entry(PEOPLE.get(GERMAN_OPENING[i]), GERMAN_OPENING[i + 1]));
          }
        }
        // A live meeting is transcribed up to now: a good part, not the end.
        List<Turn> turns =
            status.equals("live") ? q.turns().subList(0, q.turns().size() * 2 / 5) : q.turns();
        Map<String, Person> voices = new LinkedHashMap<>();
        for (Turn turn : turns) {
          Person voice =
              voices.computeIfAbsent(turn.speaker(), k -> attendees.get(voices.size() % attendees.size()));
          lines.add(Map.entry(voice, turn.text()));
          if (p.has("script") && lines.size() == 12) {
            lines.add(Map.entry(PEOPLE.get("david"), SCRIPT_TURN));
          }
        }
      }
    }
    List<Segment> segments = new ArrayList<>(lines.size());
    long clock = 0;
    for (int i = 0; i < lines.size(); i++) {
      Person who = lines.get(i).getKey();
      String text = lines.get(i).getValue();
      long end = clock + MinutesText.speechMs(text);
      boolean stillTalking = status.equals("live") && i == lines.size() - 1;
      segments.add(
          new Segment(who.name(), who.internal() ? who.email() : null, clock, stillTalking ? null : end, text));
      clock = end + 250 + rnd.nextInt(950);
    }
    return segments;
  }

  private static final String SCRIPT_TURN =
      "For the web viewer, paste the test string <script>alert(1)</script> into a note and check"
          + " that it shows up as plain text.";

  /** What the minutes of one meeting are written from. */
  private record Context(
      int index,
      String meetingId,
      Plan plan,
      QmsumCorpus.Meeting qmsum,
      List<Person> attendees,
      LocalDate day) {}

  /** Version 1, 2, ... of the meeting's minutes; {@code variant} shifts topics and wording. */
  private static Protocol protocol(
      Context ctx, int version, Instant generated, Instant edited, int variant,
      SplittableRandom rnd) {
    Plan p = ctx.plan();
    QmsumCorpus.Meeting q = ctx.qmsum();
    List<Person> attendees = ctx.attendees();
    LocalDate day = ctx.day();
    String key = p.qmsum() + "/" + version;
    List<QmsumCorpus.Topic> topics = MinutesText.usefulTopics(q.topics());
    String firm =
        p.company() == null
            ? null
            : FIRMS.stream().filter(f -> f.key().equals(p.company())).findFirst().orElseThrow().name();
    List<ActionItem> items = new ArrayList<>();
    if (p.has("german")) {
      items.add(
          new ActionItem(
              uuid("task/" + key + "/de"),
              "Größe der Änderung bis Freitag prüfen und die Zahlen für das dritte Quartal schicken.",
              PEOPLE.get("jonas").name(),
              day.plusDays(3),
              "open",
              "open"));
    }
    int count = 3 + rnd.nextInt(8);
    for (int i = items.size(); i < count; i++) {
      QmsumCorpus.Topic topic = topics.get((i + variant) % topics.size());
      String counterpart =
          firm != null ? firm : attendees.get(rnd.nextInt(attendees.size())).name().split(" ")[0];
      String task =
          MinutesText.task(i * 5 + variant * 3 + ctx.index(), MinutesText.phrase(topic.text()), counterpart);
      String verdict = VERDICTS[rnd.nextInt(VERDICTS.length)];
      String owner =
          verdict.equals("unclear_owner") || rnd.nextInt(8) == 0 ? null : owner(attendees, rnd);
      String status = MinutesText.taskStatus(verdict, rnd);
      LocalDate due = rnd.nextInt(5) == 0 ? null : day.plusDays(2 + rnd.nextInt(28));
      items.add(new ActionItem(uuid("task/" + key + "/" + i), task, owner, due, verdict, status));
    }
    String summary =
        p.has("german")
            ? "Herr Müller prüft die Größe der Änderung bis Freitag; die Zahlen für das dritte"
                + " Quartal folgen nächste Woche. "
                + q.summary()
            : q.summary();
    String domain = p.workspace().equals(WORKSPACE) ? "demo.example" : "other.example";
    String md =
        MinutesText.contentMd(
            p.title(), summary, q.topics(), items, "https://app." + domain + "/meetings/" + ctx.meetingId());
    String tldr = p.has("tldr-null") ? null : MinutesText.tldr(summary);
    return new Protocol(uuid("protocol/" + key), tldr, md, generated, edited, items);
  }

  /** Mostly someone from the own side takes a task; sometimes a guest does. */
  private static String owner(List<Person> attendees, SplittableRandom rnd) {
    List<Person> internal = attendees.stream().filter(Person::internal).toList();
    List<Person> pool = internal.isEmpty() || rnd.nextInt(4) == 0 ? attendees : internal;
    return pool.get(rnd.nextInt(pool.size())).name();
  }

  private static boolean isGuest(Person person) {
    return person == PEOPLE.get("rosa") || person == PEOPLE.get("mark");
  }
}
