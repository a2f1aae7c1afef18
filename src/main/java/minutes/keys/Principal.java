package minutes.keys;

import java.util.Set;

/**
 * Who is asking: the key's workspace, its scopes and, for a personal key, the user whose
 * meetings it may see. {@code ownDomains} decides {@code is_internal} of participants.
 */
public record Principal(
    String keyId, long workspaceId, String userEmail, Set<Scope> scopes, Set<String> ownDomains) {

  public boolean isPersonal() {
    return userEmail != null;
  }
}
