package minutes.tasks;

/** A task nested in its minutes: the common fields of api-spec 2.4 (shape 2.4a). */
public record ActionItem(String id, String task, String ownerName, String due, String verdict, String status) {}
