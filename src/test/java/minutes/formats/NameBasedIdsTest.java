package minutes.formats;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.UUID;
import minutes.StoreIndependent;
import org.junit.jupiter.api.Test;

@StoreIndependent
class NameBasedIdsTest {
  private static final UUID DNS = UUID.fromString("6ba7b810-9dad-11d1-80b4-00c04fd430c8");

  @Test
  void matchesThePublishedVersion5Examples() {
    // RFC 9562, appendix A.4: "www.example.com" in the DNS namespace.
    assertEquals(UUID.fromString("2ed6657d-e927-568b-95e1-2665a8aea6a2"),
        NameBasedIds.v5(DNS, "www.example.com".getBytes(StandardCharsets.UTF_8)));
    // Python's uuid documentation: uuid5(NAMESPACE_DNS, 'python.org').
    assertEquals(UUID.fromString("886313e1-3b8a-5372-9b90-0c9aee199e5d"),
        NameBasedIds.v5(DNS, "python.org".getBytes(StandardCharsets.UTF_8)));
  }

  @Test
  void aNameSplitIntoArraysIsTheSameName() {
    assertEquals(NameBasedIds.v5(DNS, "python.org".getBytes(StandardCharsets.UTF_8)),
        NameBasedIds.v5(DNS, "pyth".getBytes(StandardCharsets.UTF_8), "on.org".getBytes(StandardCharsets.UTF_8)));
  }

  @Test
  void partsAreJoinedByZeroBytesAndAFileFollowsTheLastOne() {
    // Both computed with Python: uuid.uuid5(UUID("1c4aab5d-8024-4071-a067-59b571e7d89b"), "acme\x00WEBVTT\n"), ...
    byte[] file = {'W', 'E', 'B', 'V', 'T', 'T', '\n'};
    assertEquals("d791041c-dbc1-5b5d-9979-fd1f4000b3a8", NameBasedIds.of(file, "acme"));
    assertEquals("04c0f734-c3b2-5100-973f-8920954f169f", NameBasedIds.of("acme", "fathom", "123"));
    UUID id = UUID.fromString(NameBasedIds.of("acme", "fathom", "123"));
    assertEquals(5, id.version());
    assertEquals(2, id.variant());
  }
}
