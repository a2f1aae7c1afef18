package minutes.formats;

import java.time.Instant;
import java.util.List;

/**
 * What the import command's options say about the meetings a converter makes (decisions.md
 * "Transcripts in and out"): the workspace, the platform, who may see them and the time of the
 * import; for a transcript file also its title, start and id (each null when not given); the
 * meetings' language (null: the source's own, else detected).
 */
public record ImportOptions(String workspace, String title, Instant startsAt, String platform, String id,
    List<String> visibleTo, Instant now, String language) {}
