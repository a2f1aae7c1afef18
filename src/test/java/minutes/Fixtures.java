package minutes;

/** Ids of the records in src/test/resources/fixtures.ndjson. */
public final class Fixtures {
  private Fixtures() {}

  /** "Quarterly planning with Müller": acme, visible to ann, regenerated minutes (two protocols). */
  public static final String M1 = "46f339d8-d0a0-51d6-a86b-905be5300d15";
  /** "Weekly sync with Initech": acme, visible to bob, starts 2026-03-05T13:00:00Z (given as +01:00). */
  public static final String M2 = "f47dcb28-7653-5f45-b2d5-68084f55ca06";
  /** Upload: no start, created 2026-02-20T12:00:00Z, visible to ann and bob. */
  public static final String M3 = "0b079ab6-9afd-5c2d-87bd-2db5cf4dc8d5";
  /** "Kickoff Hooli": scheduled, no minutes, visible to nobody. */
  public static final String M4 = "54a3619f-e61f-54cf-bae4-45b9915965ac";
  /** "No bot joined": no participants, no minutes, visible to bob. */
  public static final String M5 = "9328fb66-d950-564f-9ce5-3140b3851399";
  /** The other workspace's only meeting. */
  public static final String O1 = "90ef9494-ef2c-55d7-af6c-7bfe6154da5f";
}
