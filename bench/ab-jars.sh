# Sourced by bench/import-ab.sh and bench/reindex-ab.sh (needs JAVA): the two jars an import A/B
# compares, and the corpus both scripts import, so that the same file name always holds the same
# generated meetings.
#   ab_jars OTHER_REV     builds target/ab-this.jar (this checkout) and target/ab-other.jar (OTHER_REV,
#                         in a worktree; the jar finds target/lib)
#   ab_jars_remove        removes the worktree and both jars (call it from the script's cleanup)
#   this_label            HEAD's short hash, with "+changes" where the working tree differs from HEAD:
#                         the label of this checkout's jar, taken as it is built, so that its rows and
#                         those of HEAD asked for as the other side never carry one label (bench/jar-ab.sh
#                         sources this file for it alone)
#   ab_corpus MEETINGS    prints bench/out/import-ab/corpus-MEETINGS.ndjson, generated once: MEETINGS
#                         meetings with 4-12 KiB transcripts and 10 tasks each, seed 5
this_label() { echo "$(git rev-parse --short HEAD)$([ -z "$(git status --porcelain)" ] || echo +changes)"; }
ab_jars() {
  AB_WT=$(mktemp -d)
  THIS_LABEL=$(this_label)
  mvn -B -q -DskipTests package >&2 && cp target/minutes.jar target/ab-this.jar
  git worktree add -q --detach "$AB_WT" "$1"
  (cd "$AB_WT" && mvn -B -q -DskipTests package >&2) && cp "$AB_WT/target/minutes.jar" target/ab-other.jar
}
ab_jars_remove() {
  [ -z "${AB_WT:-}" ] || git worktree remove --force "$AB_WT" 2>/dev/null || rm -rf "$AB_WT"
  rm -f target/ab-this.jar target/ab-other.jar
}
ab_corpus() {
  local corpus=bench/out/import-ab/corpus-$1.ndjson
  if [ ! -f "$corpus" ]; then
    mkdir -p bench/out/import-ab
    "$JAVA" -jar target/ab-this.jar generate --meetings "$1" --transcript-kb 4-12 --tasks-per-meeting 10 \
      --workspaces 2 --seed 5 --out "$corpus" >&2
  fi
  echo "$corpus"
}
