package minutes.generate;

import java.io.IOException;
import java.io.Writer;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.stream.IntStream;
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
import minutes.store.Vocabulary;

/**
 * Synthetic import NDJSON for benchmarks: any number of meetings made from varied QMSum material,
 * the same bytes for the same seed and options, written one meeting at a time.
 */
public final class CorpusGenerator {

  /**
   * Sizing of a run. Transcript sizes are UTF-8 bytes of segment text in KiB; a maximum of 0
   * means no transcripts. The first workspace gets most meetings.
   */
  public record Options(
      int meetings,
      long seed,
      int tasksPerMeeting,
      int transcriptMinKb,
      int transcriptMaxKb,
      int workspaces,
      int usersPerWorkspace) {

    public Options {
      if (meetings < 0 || tasksPerMeeting < 0 || workspaces < 1 || usersPerWorkspace < 1) {
        throw new IllegalArgumentException(
            "meetings and tasks must be at least 0, workspaces and users at least 1");
      }
      if (transcriptMinKb < 0 || transcriptMaxKb < transcriptMinKb) {
        throw new IllegalArgumentException("transcript size range must be MIN-MAX with 0 <= MIN <= MAX");
      }
    }
  }

  /** Someone in a meeting; {@code internal}: of the workspace itself. */
  record Person(String name, String email, boolean internal) {}

  private record Firm(String name, String domain, int index) {}

  private record Space(
      String slug, String domain, List<Person> employees, List<Firm> firms, List<String> templates) {}

  private static final String[] STATUSES = {
    "ready", "processing", "live", "scheduled", "failed", "no_bot", "no_speech"
  };
  private static final int[] STATUS_WEIGHTS = {82, 4, 1, 5, 3, 3, 2};
  /**
   * Weights of Vocabulary.VERDICTS, in its order (open, resolved_in_meeting, discarded,
   * duplicate, unclear_owner).
   */
  private static final int[] VERDICT_WEIGHTS = {50, 15, 10, 10, 15};
  private static final String[] WORKSPACE_NAMES = {
    "Acme Corp", "Contoso", "Fabrikam", "Tailspin Toys", "Wide World Importers", "Litware",
    "Adventure Works", "Northwind Traders"
  };
  private static final String[] FIRM_WORDS = {
    "Northwind", "Blue Harbor", "Silverline", "Redwood", "Brightwater", "Ironbridge",
    "Greenfield", "Stonegate", "Clearpath", "Highland", "Oakridge", "Sunbeam", "Riverside",
    "Granite", "Lakeshore", "Westbrook", "Eastgate", "Summit", "Maple", "Copperfield"
  };
  private static final String[] FIRM_TRADES = {
    "Logistics", "Analytics", "Foods", "Robotics", "Energy", "Media", "Health", "Systems",
    "Retail", "Capital", "Labs", "Motors", "Textiles", "Pharma", "Telecom", "Software",
    "Insurance", "Airlines", "Consulting", "Studios"
  };
  private static final String[] FIRM_SUFFIXES = {"", " GmbH", " Inc.", " Ltd", " AG", " Group"};
  private static final Instant YEAR_START = Instant.parse("2026-01-01T00:00:00Z");
  private static final int EMPLOYEES = 60;

  private final QmsumCorpus corpus;
  // Per QMSum meeting, its useful topics as phrases: worked out once, used by every task.
  private final List<List<String>> phrases;
  private final Transcripts transcripts;

  /** Prepares the corpus for any number of runs (this takes a moment; runs share it). */
  public CorpusGenerator(QmsumCorpus corpus) {
    this.corpus = corpus;
    phrases =
        corpus.meetings().stream()
            .map(m -> MinutesText.usefulTopics(m.topics()).stream().map(t -> MinutesText.phrase(t.text())).toList())
            .toList();
    transcripts = new Transcripts(corpus);
  }

  /** Writes workspaces, users and companies, then the meetings; the caller closes {@code out}. */
  public Counts write(Options options, Writer out) throws IOException {
    SplittableRandom root = new SplittableRandom(options.seed());
    SplittableRandom plan = root.split();
    SplittableRandom rnd = root.split();
    int n = options.meetings();

    // Statuses are drawn up front so that the task total can come out exact.
    byte[] statuses = new byte[n];
    byte[] protocolCounts = new byte[n];
    long protocolTotal = 0;
    for (int i = 0; i < n; i++) {
      statuses[i] = (byte) weighted(plan, STATUS_WEIGHTS);
      String status = STATUSES[statuses[i]];
      int count =
          switch (status) {
            case "ready" -> plan.nextInt(100) < 4 ? 2 : 1;
            case "processing" -> plan.nextInt(2);
            default -> 0;
          };
      protocolCounts[i] = (byte) count;
      protocolTotal += count;
    }
    if (protocolTotal == 0 && n > 0 && options.tasksPerMeeting() > 0) {
      statuses[0] = 0;
      protocolCounts[0] = 1;
      protocolTotal = 1;
    }
    TaskBudget budget = new TaskBudget((long) n * options.tasksPerMeeting(), protocolTotal);

    ImportWriter w = new ImportWriter(out);
    List<Space> spaces = spaces(options, rnd);
    for (int s = 0; s < spaces.size(); s++) {
      w.write(new Workspace(spaces.get(s).slug(), workspaceName(s), List.of(spaces.get(s).domain())));
    }
    for (Space s : spaces) {
      for (Person u : s.employees().subList(0, options.usersPerWorkspace())) {
        w.write(new User(s.slug(), u.email(), u.name()));
      }
      for (Firm f : s.firms()) {
        w.write(new Company(s.slug(), uuid(rnd), f.name(), List.of(f.domain())));
      }
    }
    for (int i = 0; i < n; i++) {
      w.write(meeting(options, spaces, STATUSES[statuses[i]], protocolCounts[i], budget, rnd));
    }
    w.flush();
    return w.counts();
  }

  private static List<Space> spaces(Options options, SplittableRandom rnd) {
    int count = options.workspaces();
    List<Space> spaces = new ArrayList<>();
    for (int s = 0; s < count; s++) {
      String slug = "bench-" + (s + 1);
      String domain = slug + ".example";
      List<Person> employees = new ArrayList<>();
      for (int j = 0; j < Math.max(EMPLOYEES, options.usersPerWorkspace()); j++) {
        String name = MinutesText.person(j + s * EMPLOYEES);
        // Names repeat once the pool of 1,640 runs out; the index keeps emails unique.
        String email = MinutesText.email(name, domain);
        if (j >= EMPLOYEES) {
          email = email.replace("@", "." + j + "@");
        }
        employees.add(new Person(name, email, true));
      }
      double share = count == 1 ? 1 : s == 0 ? 0.7 : 0.3 / (count - 1);
      int firmCount = (int) Math.max(4, Math.min(400, options.meetings() * share / 40));
      List<Firm> firms = IntStream.range(0, firmCount).mapToObj(CorpusGenerator::firm).toList();
      List<String> templates = List.of(uuid(rnd), uuid(rnd), uuid(rnd));
      spaces.add(new Space(slug, domain, employees, firms, templates));
    }
    return spaces;
  }

  private static String workspaceName(int index) {
    String name = WORKSPACE_NAMES[index % WORKSPACE_NAMES.length];
    return index < WORKSPACE_NAMES.length ? name : name + " " + (index / WORKSPACE_NAMES.length + 1);
  }

  /** Distinct names for the first 400 firms (the trade index steps coprime to 20). */
  private static Firm firm(int i) {
    int w = FIRM_WORDS.length;
    String base = FIRM_WORDS[i % w] + " " + FIRM_TRADES[(i / w + i) % FIRM_TRADES.length];
    int round = i / (w * FIRM_TRADES.length);
    String slug = base.toLowerCase().replace(' ', '-') + (round > 0 ? "-" + (round + 1) : "");
    return new Firm(
        base + (round > 0 ? " " + (round + 1) : "") + FIRM_SUFFIXES[i % FIRM_SUFFIXES.length],
        slug + ".example",
        i);
  }

  private Meeting meeting(
      Options options,
      List<Space> spaces, String status, int protocolCount, TaskBudget budget, SplittableRandom rnd) {
    Space space =
        spaces.size() == 1 || rnd.nextInt(10) < 7
            ? spaces.getFirst()
            : spaces.get(1 + rnd.nextInt(spaces.size() - 1));
    int qi = rnd.nextInt(corpus.meetings().size());
    QmsumCorpus.Meeting q = corpus.meetings().get(qi);
    List<String> topics = phrases.get(qi);
    Firm firm = rnd.nextInt(100) < 65 ? space.firms().get(rnd.nextInt(space.firms().size())) : null;
    String platform;
    String source;
    if (rnd.nextInt(100) < 2) {
      platform = "upload";
      source = "upload";
    } else {
      int p = rnd.nextInt(10);
      platform = p < 4 ? "teams" : p < 7 ? "meet" : "zoom";
      source = rnd.nextInt(100) < 75 ? "calendar" : "url";
    }
    boolean upload = platform.equals("upload");
    boolean calendar = source.equals("calendar");
    boolean held = !status.equals("scheduled") && !status.equals("no_bot");

    List<Person> attendees = new ArrayList<>();
    Set<Integer> picked = new HashSet<>();
    int internalCount = 2 + rnd.nextInt(5);
    int users = options.usersPerWorkspace();
    while (picked.size() < internalCount) {
      // Half the picks come from the users, so that personal keys see a fair share.
      int j = rnd.nextBoolean() ? rnd.nextInt(users) : rnd.nextInt(space.employees().size());
      if (picked.add(j)) {
        attendees.add(space.employees().get(j));
      }
    }
    if (firm != null) {
      for (int r = 1 + rnd.nextInt(3); r > 0; r--) {
        String name = MinutesText.person(7 * firm.index() + r + 1000);
        attendees.add(new Person(name, MinutesText.email(name, firm.domain()), false));
      }
    }
    if (rnd.nextInt(100) < 5) {
      String name = MinutesText.person(rnd.nextInt(1600));
      attendees.add(new Person(name, MinutesText.email(name, "gmail.example"), false));
    }
    if (rnd.nextInt(100) < 3) {
      String[] first = MinutesText.FIRST_NAMES;
      attendees.add(new Person(first[rnd.nextInt(first.length)] + " (guest)", null, false));
    }
    Person absent = null;
    if (calendar && rnd.nextInt(100) < 20) {
      int j = rnd.nextInt(space.employees().size());
      if (picked.add(j)) {
        absent = space.employees().get(j);
      }
    }

    List<Segment> transcript = transcripts.transcript(options, status, q, attendees, rnd);
    long spokenMs =
        transcript.size() > 2 ? transcript.getLast().endMs() : (30 + rnd.nextInt(60)) * 60_000L;
    Instant time =
        YEAR_START.plus(Duration.ofDays(rnd.nextInt(365)).plusMinutes(7 * 60 + 15 * rnd.nextInt(40)));
    Instant startsAt = upload ? null : time;
    Instant endsAt = upload ? null : MinutesText.bookedEnd(time, spokenMs);
    Instant createdAt;
    if (upload) {
      createdAt = time;
    } else if (calendar) {
      createdAt = time.minus(Duration.ofDays(1 + rnd.nextInt(20)).plusMinutes(rnd.nextInt(600)));
    } else {
      createdAt = time.minus(Duration.ofMinutes(2 + rnd.nextInt(28)));
    }

    List<Participant> participants = new ArrayList<>();
    for (Person p : attendees) {
      String psource = upload ? "manual" : calendar && p.email() != null ? "calendar" : "platform";
      Instant joined = null;
      Instant left = null;
      if (held && !upload) {
        joined = startsAt.plusSeconds(rnd.nextInt(300));
        left = status.equals("live") ? null : endsAt.minusSeconds(rnd.nextInt(420));
      }
      participants.add(new Participant(p.name(), p.email(), psource, held, joined, left));
    }
    if (absent != null) {
      participants.add(new Participant(absent.name(), absent.email(), "calendar", false, null, null));
    }

    List<String> visibleTo = new ArrayList<>();
    for (int u = 0; u < users; u++) {
      if (picked.contains(u) || rnd.nextInt(100) < 15) {
        visibleTo.add(space.employees().get(u).email());
      }
    }

    String id = uuid(rnd);
    String title = title(topics.get(rnd.nextInt(topics.size())), firm, rnd);
    List<Protocol> protocols = new ArrayList<>();
    Instant generated =
        (upload ? createdAt.plusMillis(spokenMs / 3) : endsAt).plusSeconds(180 + rnd.nextInt(720));
    LocalDate day = LocalDate.ofInstant(time, ZoneOffset.UTC);
    for (int v = 0; v < protocolCount; v++) {
      List<ActionItem> items = new ArrayList<>();
      for (int t = budget.next(rnd); t > 0; t--) {
        items.add(task(topics, attendees, firm, day, rnd));
      }
      Instant edited =
          rnd.nextInt(100) < 15 ? generated.plus(Duration.ofMinutes(600 + rnd.nextInt(3000))) : null;
      String link = "https://app." + space.domain() + "/meetings/" + id;
      String md = MinutesText.contentMd(title, q.summary(), q.topics(), items, link);
      String tldr = rnd.nextInt(100) < 3 ? null : MinutesText.tldr(q.summary());
      protocols.add(new Protocol(uuid(rnd), tldr, md, generated, edited, items));
      // A regenerated version comes a day or more later.
      generated = generated.plus(Duration.ofMinutes(1440 + rnd.nextInt(2880)));
    }

    String organizer =
        calendar && rnd.nextInt(10) > 0 ? attendees.getFirst().email() : null;
    String template =
        rnd.nextInt(100) < 20 ? space.templates().get(rnd.nextInt(space.templates().size())) : null;
    String joinUrl = upload ? null : MinutesText.joinUrl(platform, rnd.nextLong());
    return new Meeting(
        space.slug(), id, title, platform, source, status, startsAt, endsAt, joinUrl, organizer,
        createdAt, template, visibleTo, participants, protocols, transcript, null);
  }

  private static String title(String phrase, Firm firm, SplittableRandom rnd) {
    String subject = MinutesText.capitalize(phrase);
    return switch (rnd.nextInt(6)) {
      case 1 -> (firm != null ? firm.name() : "Weekly sync") + ": " + subject;
      case 2 -> "Workshop: " + subject;
      case 3 -> subject + " (follow-up)";
      case 4 -> "Review: " + subject;
      case 5 -> "Planning: " + subject;
      default -> subject;
    };
  }

  private static ActionItem task(
      List<String> topics, List<Person> attendees, Firm firm, LocalDate day, SplittableRandom rnd) {
    String phrase = topics.get(rnd.nextInt(topics.size()));
    String counterpart =
        firm != null ? firm.name() : attendees.get(rnd.nextInt(attendees.size())).name();
    String text = MinutesText.task(rnd.nextInt(MinutesText.taskTemplates()), phrase, counterpart);
    String verdict = Vocabulary.VERDICTS.get(weighted(rnd, VERDICT_WEIGHTS));
    String owner =
        verdict.equals("unclear_owner") || rnd.nextInt(100) < 10
            ? null
            : attendees.get(rnd.nextInt(attendees.size())).name();
    String status = MinutesText.taskStatus(verdict, rnd);
    LocalDate due = rnd.nextInt(5) == 0 ? null : day.plusDays(2 + rnd.nextInt(44));
    return new ActionItem(uuid(rnd), text, owner, due, verdict, status);
  }

  private static int weighted(SplittableRandom rnd, int[] weights) {
    int r = rnd.nextInt(Arrays.stream(weights).sum());
    for (int i = 0; i < weights.length; i++) {
      r -= weights[i];
      if (r < 0) {
        return i;
      }
    }
    throw new AssertionError();
  }

  /** A version-4 UUID from the run's random stream: unique, yet the same for the same seed. */
  private static String uuid(SplittableRandom rnd) {
    long hi = (rnd.nextLong() & ~0xF000L) | 0x4000L;
    long lo = (rnd.nextLong() & 0x3FFF_FFFF_FFFF_FFFFL) | 0x8000_0000_0000_0000L;
    return new UUID(hi, lo).toString();
  }
}
