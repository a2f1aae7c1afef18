package minutes.generate;

import java.text.Normalizer;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.regex.Pattern;
import minutes.formats.ImportWriter.ActionItem;
import minutes.generate.QmsumCorpus.Topic;

/**
 * The texts a notetaker writes around a meeting, derived from QMSum topics and answers: task
 * sentences, minutes in Markdown, the tl;dr, plus people's names, emails and join links.
 */
final class MinutesText {

  static final String[] FIRST_NAMES = {
    "Ann", "Bob", "Carla", "David", "Emma", "Farid", "Grace", "Hannah", "Ivan", "Julia",
    "Kenji", "Laura", "Mateo", "Nina", "Oscar", "Priya", "Quentin", "Rosa", "Samuel", "Tanja",
    "Umar", "Vera", "William", "Xenia", "Yusuf", "Zoe", "Aisha", "Ben", "Chloe", "Daniel",
    "Elif", "Felix", "Greta", "Hugo", "Ingrid", "Jonas", "Kai", "Lucia", "Marek", "Noah"
  };

  // 41 (a prime) last names against 40 first names: see person(int).
  static final String[] LAST_NAMES = {
    "Archer", "Brennan", "Diaz", "Kim", "Novak", "Haddad", "Liu", "Schröder", "Okafor", "Rossi",
    "Tanaka", "Fischer", "Silva", "Kowalski", "Nguyen", "Jensen", "Moreau", "Patel", "Costa",
    "Weber", "Andersen", "Dubois", "Ivanova", "Larsen", "Mendes", "Nakamura", "O'Brien",
    "Petrov", "Quinn", "Ramirez", "Sato", "Torres", "Ueda", "Varga", "Walsh", "Yilmaz",
    "Zimmermann", "Berg", "Castillo", "Horvat", "Lindqvist"
  };

  private static final String[] TASKS = {
    "Send the revised proposal on %s to the group.",
    "Write up the decision on %s and share it before the next meeting.",
    "Collect the open questions about %s and circulate them.",
    "Check the cost impact of %s with finance.",
    "Prepare two options for %s for the next review.",
    "Schedule a follow-up session on %s.",
    "Update the project plan with the outcome of the discussion on %s.",
    "Ask %2$s for feedback on %1$s.",
    "Draft slides summarising %s for the steering group.",
    "Verify the figures behind %s and correct the shared sheet.",
    "Review the notes on %s and flag anything missing.",
    "Book time with the designers to walk through %s.",
    "Confirm who owns the next steps on %s.",
    "Share the reference material on %s in the project folder."
  };

  // Topics that name a ritual rather than a subject make poor titles and tasks.
  private static final Pattern GENERIC_TOPIC =
      Pattern.compile(
          "(?i)\\b(?:self[- ]introduction|introductions?$|team ?building|ice ?break|warm-up"
              + "|tool training|favou?rite animals?|drawings?|agenda|preliminaries|wrap[- ]?up"
              + "|closing|celebration|casual talk|familiarization|getting used to|group warming"
              + "|name pronunciations|tax return|logistics|technical issues|opening"
              + "|participants expressed|meeting (?:close|conclusion)|next meeting)");
  // "Presentation on X", "Marketing's presentation about X" and the like: the subject is X.
  private static final Pattern LEADING_FRAME =
      Pattern.compile(
          "(?i)^(?:(?:\\S+\\s){0,2}\\S+'s\\s+)?(?:(?:a|the)\\s+)?(?:(?:brief|short|individual"
              + "|personal|group|general|decision|detailed|additional|further|final|first)\\s+)*"
              + "(?:presentations?|discussions?|debates?|talks?|reviews?|recap|introduction"
              + "|overview|evaluation|update|arguments|concerns|comments|ideas|questions)\\s+"
              + "(?:on|about|of|over|to|regarding|for|from)\\s+(?:the\\s+)?");
  private static final Pattern CUT_BEFORE =
      Pattern.compile(",| and | followed | regarding | – | - | \\(|;");
  private static final Pattern TRAILING_FILLER =
      Pattern.compile(
          "(?i)(?:\\s+(?:of|the|and|to|for|in|on|with|a|an|about|its|their|from|by|than|other"
              + "|as|at|into|between|within|which|that))+$");
  // Words that read wrong without an article: "on best way" wants "on the best way".
  private static final Pattern NEEDS_ARTICLE =
      Pattern.compile(
          "(?i)^(?:best|current|final|main|new|next|overall|general|first|second|last|same)\\b.*"
              + "|^[a-z]+$");
  private static final Pattern SENTENCE_END = Pattern.compile("(?<=[.!?])\\s+(?=[A-Z])");
  private static final int PHRASE_MAX = 60;

  private MinutesText() {}

  /** The meeting's topics minus agenda rituals; all topics when nothing else is left. */
  static List<Topic> usefulTopics(List<Topic> topics) {
    List<Topic> useful = topics.stream().filter(t -> !GENERIC_TOPIC.matcher(t.text()).find()).toList();
    return useful.isEmpty() ? topics : useful;
  }

  /** A topic as a short noun phrase that fits after "on": "Presentation on X" gives "x". */
  static String phrase(String topic) {
    String p = LEADING_FRAME.matcher(topic.replace("\"", "").strip()).replaceFirst("");
    if (p.length() > PHRASE_MAX) {
      var cut = CUT_BEFORE.matcher(p);
      int at =
          cut.find(15) && cut.start() <= PHRASE_MAX ? cut.start() : p.lastIndexOf(' ', PHRASE_MAX);
      p = p.substring(0, at > 0 ? at : PHRASE_MAX);
    }
    p = TRAILING_FILLER.matcher(p.strip()).replaceFirst("");
    if (startsWithCommonWord(p)) {
      p = Character.toLowerCase(p.charAt(0)) + p.substring(1);
    }
    return NEEDS_ARTICLE.matcher(p).matches() ? "the " + p : p;
  }

  /**
   * True for "Current XML format" and "Adapting SmartKom", false for "XML format", "SmartKom
   * modules" or "User Interface's design": a plain capitalised word is lowered unless it starts
   * a name ("Project Manager", "Wall Street Journal").
   */
  private static boolean startsWithCommonWord(String p) {
    int space = p.indexOf(' ');
    String first = space < 0 ? p : p.substring(0, space);
    if (first.length() < 2
        || !Character.isUpperCase(first.charAt(0))
        || !first.chars().skip(1).allMatch(Character::isLowerCase)) {
      return false;
    }
    return space < 0 || first.endsWith("ing") || !isNameLike(p.substring(space + 1));
  }

  /** "Interface's", "Street": capital then lower case; acronyms like "XML" are not names. */
  private static boolean isNameLike(String rest) {
    return rest.length() > 1
        && Character.isUpperCase(rest.charAt(0))
        && Character.isLowerCase(rest.charAt(1));
  }

  static String capitalize(String s) {
    return s.isEmpty() ? s : Character.toUpperCase(s.charAt(0)) + s.substring(1);
  }

  /** A status a person could plausibly have set after the model's verdict. */
  static String taskStatus(String verdict, SplittableRandom rnd) {
    return switch (verdict) {
      case "resolved_in_meeting" -> rnd.nextInt(4) == 0 ? "open" : "done";
      case "discarded", "duplicate" -> rnd.nextInt(4) == 0 ? "open" : "dismissed";
      case "unclear_owner" -> "open";
      default -> rnd.nextInt(3) == 0 ? "done" : "open";
    };
  }

  /** A one-sentence task about the phrase; {@code counterpart} is whom one would ask. */
  static String task(int template, String phrase, String counterpart) {
    return String.format(Locale.ROOT, TASKS[Math.floorMod(template, TASKS.length)], phrase, counterpart);
  }

  static int taskTemplates() {
    return TASKS.length;
  }

  /** The first two sentences of the summary, the length a reader skims. */
  static String tldr(String summary) {
    String[] sentences = SENTENCE_END.split(summary, 3);
    return sentences.length < 2 ? summary : sentences[0] + " " + sentences[1];
  }

  /** Minutes in Markdown: summary, topics, what was said per topic, tasks, a link. */
  static String contentMd(
      String title, String summary, List<Topic> topics, List<ActionItem> items, String link) {
    StringBuilder md = new StringBuilder(4096);
    md.append("# ").append(title).append("\n\n## Summary\n\n").append(summary).append("\n\n");
    md.append("## Topics\n\n");
    for (Topic t : topics) {
      md.append("- **").append(t.text()).append("**\n");
    }
    md.append("\n## Discussion\n");
    for (Topic t : topics) {
      if (!t.answers().isEmpty()) {
        md.append("\n### ").append(t.text()).append("\n\n");
        // Two answers per topic say what was decided without repeating the transcript.
        for (int i = 0; i < Math.min(2, t.answers().size()); i++) {
          md.append(t.answers().get(i)).append("\n\n");
        }
      }
    }
    md.append("\n## Action items\n\n");
    for (ActionItem a : items) {
      md.append("- **").append(a.ownerName() == null ? "Unassigned" : a.ownerName()).append("**: ");
      md.append(a.task());
      if (a.due() != null) {
        md.append(" (due ").append(a.due()).append(')');
      }
      md.append('\n');
    }
    md.append("\n[Open the recording and transcript](").append(link).append(")\n");
    return md.toString();
  }

  /** A realistic link for the platform; {@code bits} makes it unique and deterministic. */
  static String joinUrl(String platform, long bits) {
    SplittableRandom r = new SplittableRandom(bits);
    return switch (platform) {
      case "teams" ->
          "https://teams.microsoft.com/l/meetup-join/19%3ameeting_"
              + Long.toHexString(r.nextLong() | Long.MIN_VALUE)
              + Long.toHexString(r.nextLong() | Long.MIN_VALUE)
              + "%40thread.v2/0";
      case "meet" ->
          "https://meet.google.com/" + letters(r, 3) + "-" + letters(r, 4) + "-" + letters(r, 3);
      case "zoom" -> "https://us02web.zoom.us/j/" + (81_000_000_000L + r.nextLong(9_000_000_000L));
      default -> null;
    };
  }

  private static String letters(SplittableRandom r, int n) {
    char[] c = new char[n];
    for (int i = 0; i < n; i++) {
      c[i] = (char) ('a' + r.nextInt(26));
    }
    return new String(c);
  }

  /** "Jonas Müller" at umbrella.example gives jonas.mueller@umbrella.example. */
  static String email(String name, String domain) {
    String s =
        name.toLowerCase(Locale.ROOT)
            .replace("ä", "ae")
            .replace("ö", "oe")
            .replace("ü", "ue")
            .replace("ß", "ss");
    s = Normalizer.normalize(s, Normalizer.Form.NFD).replaceAll("\\p{M}", "");
    s = s.replaceAll("[^a-z0-9 ]", "").strip().replaceAll("\\s+", ".");
    return s + "@" + domain;
  }

  /**
   * The j-th name of a pool of distinct people (distinct for j below 40 * 41): first names cycle
   * fast, and the last-name step is coprime to the prime 41, so no pair repeats.
   */
  static String person(int j) {
    int f = FIRST_NAMES.length;
    return FIRST_NAMES[j % f] + " " + LAST_NAMES[(j / f + 7 * j) % LAST_NAMES.length];
  }

  /** Milliseconds a turn takes at about 150 words a minute. */
  static long speechMs(String text) {
    int words = 1;
    for (int i = 0; i < text.length(); i++) {
      if (text.charAt(i) == ' ') {
        words++;
      }
    }
    return words * 400L;
  }

  /**
   * When a meeting booked at {@code start} ends: the spoken time plus three minutes, rounded
   * up to whole quarter hours (at least one), as calendars book.
   */
  static Instant bookedEnd(Instant start, long spokenMs) {
    long quarters = Math.max(1, (spokenMs + 180_000 + 899_999) / 900_000);
    return start.plus(Duration.ofMinutes(quarters * 15));
  }
}
