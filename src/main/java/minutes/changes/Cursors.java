package minutes.changes;

import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.Base64;
import java.util.Optional;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Feed cursors: a change_log number, signed with the database's cursor key (change_state), as
 * 27 characters of URL-safe text. Every node of a cluster reads the same key, so each accepts
 * the others' cursors; a value we did not issue (typed, cut short, from another database) fails
 * the signature. Opaque to clients: only this class reads one (webhooks send them too). Thread-safe.
 */
public final class Cursors {
  private static final String MAC = "HmacSHA256";
  /** 96 bits of signature: guessing one is hopeless, and the cursor stays short. */
  private static final int SIGNATURE_BYTES = 12;

  private final SecretKeySpec key;

  public Cursors(byte[] key) {
    this.key = new SecretKeySpec(key, MAC);
  }

  public String encode(long seq) {
    byte[] number = ByteBuffer.allocate(Long.BYTES).putLong(seq).array();
    byte[] out = Arrays.copyOf(number, Long.BYTES + SIGNATURE_BYTES);
    System.arraycopy(sign(number), 0, out, Long.BYTES, SIGNATURE_BYTES);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(out);
  }

  /** The change_log number of one of our cursors; empty for anything else. */
  Optional<Long> decode(String cursor) {
    byte[] raw;
    try {
      raw = Base64.getUrlDecoder().decode(cursor);
    } catch (IllegalArgumentException notBase64) {
      return Optional.empty();
    }
    if (raw.length != Long.BYTES + SIGNATURE_BYTES) return Optional.empty();
    byte[] number = Arrays.copyOf(raw, Long.BYTES);
    byte[] expected = Arrays.copyOf(sign(number), SIGNATURE_BYTES);
    // Constant time, so that timing tells nothing about a near miss.
    if (!MessageDigest.isEqual(expected, Arrays.copyOfRange(raw, Long.BYTES, raw.length))) return Optional.empty();
    long seq = ByteBuffer.wrap(number).getLong();
    return seq < 0 ? Optional.empty() : Optional.of(seq);
  }

  private byte[] sign(byte[] number) {
    try {
      Mac mac = Mac.getInstance(MAC);
      mac.init(key);
      return mac.doFinal(number);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
    }
  }
}
