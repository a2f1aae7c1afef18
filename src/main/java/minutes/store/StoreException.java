package minutes.store;

/** The database cannot be used (missing, unreadable, corrupt); carries a message for people. */
public final class StoreException extends RuntimeException {
  public StoreException(String message, Throwable cause) {
    super(message, cause);
  }
}
