package minutes.webhooks;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Standard Webhooks 1.0 signing: a secret is {@code whsec_} and the base64 of 32 random bytes,
 * and a delivery's {@code webhook-signature} is {@code v1,} and the base64 HMAC-SHA256, keyed
 * with those bytes, of {@code webhook-id.webhook-timestamp.body}. Any Standard Webhooks
 * library verifies it (the tests use the npm package's). Stateless.
 */
public final class Signature {
  static final String PREFIX = "whsec_";
  private static final SecureRandom RANDOM = new SecureRandom();

  private Signature() {}

  /** A new secret, as {@code webhooks create} prints it once. */
  public static String newSecret() {
    byte[] key = new byte[32];
    RANDOM.nextBytes(key);
    return PREFIX + Base64.getEncoder().encodeToString(key);
  }

  /** The {@code webhook-signature} header of one attempt. */
  public static String sign(String secret, String id, long timestampSeconds, byte[] body) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(Base64.getDecoder().decode(secret.substring(PREFIX.length())), "HmacSHA256"));
      mac.update((id + "." + timestampSeconds + ".").getBytes(StandardCharsets.UTF_8));
      return "v1," + Base64.getEncoder().encodeToString(mac.doFinal(body));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
    }
  }
}
