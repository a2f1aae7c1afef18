package minutes.formats;

import java.text.Normalizer;
import java.util.List;
import java.util.Locale;
import java.util.function.IntPredicate;
import java.util.regex.Pattern;
import minutes.formats.MeetingLine.Participant;
import minutes.store.Emails;

/**
 * Which invited participant (a Fathom invitee, a Fireflies attendee) a speaker of the transcript
 * is, by the rules of decisions.md "Transcript files as written": the same email; else names
 * equal ignoring case and accents; else one name is the other's first word and no other
 * attendee's name starts with that word; else the speaker's name, or its first word, is the local
 * part of exactly one attendee's email or that local part's first piece before {@code .},
 * {@code _} or {@code -}. Otherwise the speaker is someone else. Immutable.
 */
final class Attendees {
  private static final Pattern MARKS = Pattern.compile("\\p{M}+");
  private static final Pattern PIECE = Pattern.compile("[._-]");

  private final List<Participant> invited;
  /** Per attendee, folded: the name, its first word, the email's local part and its first piece (null without email). */
  private final String[] names, firstWords, locals, pieces;

  Attendees(List<Participant> invited) {
    this.invited = invited;
    int n = invited.size();
    names = new String[n];
    firstWords = new String[n];
    locals = new String[n];
    pieces = new String[n];
    for (int i = 0; i < n; i++) {
      Participant p = invited.get(i);
      names[i] = fold(p.displayName());
      firstWords[i] = firstWord(names[i]);
      if (p.email() != null) {
        locals[i] = fold(p.email().substring(0, p.email().lastIndexOf('@')));
        pieces[i] = PIECE.split(locals[i], 2)[0];
      }
    }
  }

  /** The index in the invited list of the participant the speaker is, or -1. */
  int of(String name, String email) {
    String key = email == null ? null : Emails.key(email);
    for (int i = 0; i < names.length; i++) {
      if (key != null && invited.get(i).email() != null && key.equals(Emails.key(invited.get(i).email()))) return i;
    }
    String folded = fold(name), first = firstWord(folded);
    for (int i = 0; i < names.length; i++) {
      if (folded.equals(names[i]) || invited.get(i).email() != null && folded.equals(Emails.key(invited.get(i).email()))) return i;
    }
    int byWord = only(i -> first.equals(firstWords[i]));
    if (byWord >= 0 && (folded.equals(first) || names[byWord].equals(first))) return byWord;
    return only(i -> locals[i] != null && (locals[i].equals(folded) || locals[i].equals(first)
        || pieces[i].equals(folded) || pieces[i].equals(first)));
  }

  /** The one attendee that {@code test} holds for, or -1 when none or several. */
  private int only(IntPredicate test) {
    int found = -1;
    for (int i = 0; i < names.length; i++) {
      if (!test.test(i)) continue;
      if (found >= 0) return -1;
      found = i;
    }
    return found;
  }

  /** A name as compared: accents dropped, lower case, one space between words. */
  static String fold(String s) {
    String plain = MARKS.matcher(Normalizer.normalize(s, Normalizer.Form.NFD)).replaceAll("");
    return plain.toLowerCase(Locale.ROOT).strip().replaceAll("\\s+", " ");
  }

  private static String firstWord(String folded) {
    int space = folded.indexOf(' ');
    return space < 0 ? folded : folded.substring(0, space);
  }
}
