package minutes.formats;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.UUID;

/**
 * Name-based UUIDs, version 5 (SHA-1, RFC 9562 section 5.5), so that importing the same source
 * again names the same meeting, minutes and tasks. Java has only version 3 (MD5) built in.
 * Every id of an import is derived from {@link #IMPORTS} and a name of zero-separated parts;
 * docs/API.md ("Transcript formats") spells the names out so that other tools can compute them.
 * Thread-safe.
 */
public final class NameBasedIds {
  /** The namespace of every name-based id an import makes (a fixed random UUID). */
  public static final UUID IMPORTS = UUID.fromString("1c4aab5d-8024-4071-a067-59b571e7d89b");

  private NameBasedIds() {}

  /** The version 5 UUID in {@code namespace} of the name that is {@code name}'s byte arrays one after the other. */
  public static UUID v5(UUID namespace, byte[]... name) {
    MessageDigest sha1 = sha1();
    sha1.update(ByteBuffer.allocate(16).putLong(namespace.getMostSignificantBits())
        .putLong(namespace.getLeastSignificantBits()).array());
    for (byte[] part : name) sha1.update(part);
    ByteBuffer hash = ByteBuffer.wrap(sha1.digest());
    long high = hash.getLong(), low = hash.getLong();
    high = (high & ~0xF000L) | 0x5000L; // version 5 in bits 48-51
    low = (low & 0x3FFFFFFFFFFFFFFFL) | 0x8000000000000000L; // the RFC 9562 variant, 0b10
    return new UUID(high, low);
  }

  /** The id named by {@code parts} in {@link #IMPORTS}: each part in UTF-8, a zero byte between two. */
  public static String of(String... parts) {
    return v5(IMPORTS, String.join("\0", parts).getBytes(StandardCharsets.UTF_8)).toString();
  }

  /** The id named by {@code parts} and then, after a zero byte, the raw bytes of a file. */
  public static String of(byte[] file, String... parts) {
    return v5(IMPORTS, (String.join("\0", parts) + "\0").getBytes(StandardCharsets.UTF_8), file).toString();
  }

  private static MessageDigest sha1() {
    try {
      return MessageDigest.getInstance("SHA-1");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java runtime has SHA-1", e);
    }
  }
}
