package minutes.generate;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import minutes.generate.CorpusGenerator.Person;

/**
 * Who and what the demo data set ({@link DemoData}) is made of: its people, its companies and
 * the plan of each of its 30 meetings. Constant.
 */
final class DemoCast {
  private DemoCast() {}

  record Firm(String key, String workspace, String name, String domain) {}

  /**
   * One meeting of the data set. {@code time} is starts_at, or created_at for an upload;
   * {@code people} are keys of PEOPLE who attend, the first one organizes. {@code flags} switch
   * on the special cases the demo must show: {@code absent=KEY} (invited, never came),
   * {@code guests} (a gmail guest and one without email), {@code manual=KEY} (corrected by
   * hand), {@code shared=KEY} (visible to a user who was not invited), {@code tpl=NAME},
   * {@code edited}, {@code two-protocols}, {@code tldr-null}, {@code no-organizer}, {@code script}
   * (the escaping test segment), {@code german}, {@code protocol} (minutes while processing).
   */
  record Plan(
      String workspace,
      String qmsum,
      String title,
      String platform,
      String source,
      String status,
      String time,
      String company,
      String people,
      String flags) {

    boolean has(String flag) {
      return value(flag) != null;
    }

    /** "absent=emma" gives "emma" for "absent"; a bare flag gives "". */
    String value(String flag) {
      for (String f : flags.split(" ")) {
        if (f.equals(flag)) {
          return "";
        }
        if (f.startsWith(flag + "=")) {
          return f.substring(flag.length() + 1);
        }
      }
      return null;
    }
  }

  static final Map<String, Person> PEOPLE = new LinkedHashMap<>();

  static {
    internal("ann", "Ann Archer", "ann@demo.example");
    internal("bob", "Bob Brennan", "bob@demo.example");
    internal("carla", "Carla Diaz", "carla.diaz@demo.example");
    internal("david", "David Kim", "david.kim@demo.example");
    internal("emma", "Emma Novak", "emma.novak@demo.example");
    internal("farid", "Farid Haddad", "farid.haddad@demo.example");
    internal("lena", "Lena Schröder", "lena.schroeder@demo-example.de");
    internal("olivia", "Olivia Ortiz", "olivia@other.example");
    internal("peter", "Peter Quist", "peter.quist@other.example");
    external("priya", "Priya Patel", "priya.patel@globex.example");
    external("tom", "Tom Becker", "tom.becker@globex.example");
    external("hiro", "Hiro Tanaka", "hiro.tanaka@globex.example");
    external("sara", "Sara Lindqvist", "sara.lindqvist@initech.example");
    external("omar", "Omar Farouk", "omar.farouk@initech.example");
    external("jonas", "Jonas Müller", "jonas.mueller@umbrella.example");
    external("katrin", "Katrin Vogel", "katrin.vogel@umbrella.example");
    external("rosa", "Rosa Delgado", "rosa.delgado@gmail.example");
    external("mark", "Mark T.", null);
  }

  private static void internal(String key, String name, String email) {
    PEOPLE.put(key, new Person(name, email, true));
  }

  private static void external(String key, String name, String email) {
    PEOPLE.put(key, new Person(name, email, false));
  }

  static final List<Firm> FIRMS =
      List.of(
          new Firm("globex", DemoData.WORKSPACE, "Globex", "globex.example"),
          new Firm("initech", DemoData.WORKSPACE, "Initech", "initech.example"),
          new Firm("umbrella", DemoData.WORKSPACE, "Umbrella GmbH", "umbrella.example"),
          // A customer without meetings: listed with meeting_count 0 for a workspace key.
          new Firm("vandelay", DemoData.WORKSPACE, "Vandelay Industries", "vandelay.example"),
          // The same customer in the other workspace: its meetings must not count in demo.
          new Firm("globex-other", DemoData.OTHER_WORKSPACE, "Globex", "globex.example"));

  static final List<Plan> PLANS =
      List.of(
          demo("ES2002a", "Globex remote control: project kick-off", "teams", "calendar", "ready",
              "2026-01-13T09:00", "globex", "ann carla david priya tom", "absent=emma"),
          demo("ES2002b", "Functional design of the Globex remote", "teams", "calendar", "ready",
              "2026-01-27T10:00", "globex", "ann carla david priya", "tpl=engineering"),
          demo("ES2002c", "Conceptual design: market trends and components", "teams", "calendar",
              "ready", "2026-02-10T10:00", "globex", "ann bob carla priya hiro", "edited"),
          demo("ES2002d", "Detailed design review and price list", "teams", "calendar", "ready",
              "2026-02-24T14:00", "globex", "ann bob carla david priya tom", "two-protocols"),
          demo("Bdb001", "Transcript storage format: XML, P-files or ATLAS", "zoom", "url",
              "ready", "2026-03-04T16:00", null, "bob david farid", "script"),
          demo("Bmr025", "Transcription status, DARPA demo and backups", "meet", "calendar",
              "ready", "2026-03-18T15:00", null, "bob farid emma", "guests absent=carla"),
          demo("Bro025", "Noise suppression: finalising the model", "zoom", "calendar", "ready",
              "2026-04-08T08:30", null, "bob emma farid", "tldr-null"),
          demo("Bed009", "SmartKom architecture for the tourist domain", "meet", "url", "ready",
              "2026-04-22T12:00", "initech", "ann bob sara omar", ""),
          demo("TS3003a", "Initech remote: financial aims and use cases", "teams", "calendar",
              "ready", "2026-05-05T09:00", "initech", "ann carla sara omar", "tpl=customer"),
          demo("TS3003b", "User requirements and functional design for elderly users", "teams",
              "calendar", "ready", "2026-05-19T09:00", "initech", "ann carla emma sara",
              "edited no-organizer"),
          demo("TS3003c", "Energy source, voice recognition and LCD screen", "teams", "calendar",
              "ready", "2026-06-02T09:00", "initech", "carla emma sara omar", ""),
          demo("TS3003d", "Initech prototype presentation and project evaluation", "teams",
              "calendar", "ready", "2026-06-16T09:00", "initech", "ann bob carla sara omar",
              "tpl=customer absent=hiro"),
          demo("ES2006d", "Quartalsplanung mit Müller", "meet", "calendar", "ready",
              "2026-07-07T08:00", "umbrella", "bob lena jonas katrin", "german"),
          demo("IS1009b", "Umbrella GmbH: product positioning and appearance", "zoom", "calendar",
              "ready", "2026-07-21T13:00", "umbrella", "bob lena jonas", "manual=jonas tpl=customer"),
          demo("ES2007d", "Prototype cost review and team wrap-up", "upload", "upload", "ready",
              "2026-08-04T16:20", null, "ann carla david", ""),
          demo("Bro007", "Feature streams, data set and model size", "zoom", "url", "failed",
              "2026-08-19T15:30", null, "bob farid", "shared=ann"),
          demo("Bed017", "Wizard data collection: progress and Bayes-net", "meet", "calendar",
              "no_speech", "2026-09-09T10:00", null, "ann david", ""),
          demo("IS1001a", "Initech design requirements workshop", "teams", "calendar", "failed",
              "2026-09-23T14:00", "initech", "ann sara", ""),
          demo("TS3007a", "Financial targets and new remote features", "meet", "url", "no_speech",
              "2026-09-30T11:00", "globex", "bob tom", ""),
          demo("ES2008a", "Globex use cases and remote control style", "zoom", "calendar",
              "no_bot", "2026-06-24T15:00", "globex", "ann priya", ""),
          demo("IS1005a", "Expected price, profit and sales area", "teams", "calendar", "no_bot",
              "2026-08-26T09:30", null, "carla david", ""),
          demo("Bmr026", "Transcription status and storage disks", "meet", "calendar",
              "processing", "2026-10-14T15:00", null, "bob emma farid", "protocol"),
          demo("TS3009a", "Initech marketing strategy and company website", "teams", "calendar",
              "processing", "2026-10-15T09:00", "initech", "ann sara omar", ""),
          demo("Bro013", "Digits recordings and backend feature extraction", "zoom", "url", "live",
              "2026-10-15T13:00", null, "bob farid emma", ""),
          demo("ES2009a", "Globex financial blueprint for the multi-function remote", "teams",
              "calendar", "scheduled", "2026-11-03T10:00", "globex", "ann priya tom", ""),
          demo("IS1006a", "Umbrella GmbH: remote control for children", "meet", "calendar",
              "scheduled", "2026-11-19T09:00", "umbrella", "bob lena jonas katrin", ""),
          demo("Bed004", "Wizard setup and participant recruiting", "zoom", "calendar",
              "scheduled", "2026-12-08T16:00", null, "ann bob farid", "tpl=engineering"),
          other("ES2005a", "New remote control: desired features", "2026-02-17T10:00"),
          other("ES2005b", "TV remote market potential and budget limits", "2026-03-10T10:00"),
          other("ES2005d", "Prototype presentation and cost review", "2026-04-14T10:00"));

  private static Plan demo(
      String qmsum, String title, String platform, String source, String status, String time,
      String company, String people, String flags) {
    return new Plan(
        DemoData.WORKSPACE, qmsum, title, platform, source, status, time, company, people, flags);
  }

  private static Plan other(String qmsum, String title, String time) {
    return new Plan(
        DemoData.OTHER_WORKSPACE, qmsum, title, "teams", "calendar", "ready", time, "globex-other",
        "olivia peter tom", "");
  }

  static final String[] GERMAN_OPENING = {
    "bob", "Guten Morgen zusammen, schön, dass alle da sind.",
    "jonas", "Guten Morgen! Wir prüfen die Größe der Änderung bis Freitag.",
    "lena", "Gut. Herr Müller, übernehmen Sie die Zahlen für das dritte Quartal?",
    "jonas", "Ja, gerne. Die Übersicht schicke ich nächste Woche, spätestens am Dienstag.",
    "bob", "Danke. Dann machen wir auf Englisch weiter, damit alle folgen können."
  };
}
