#!/usr/bin/env bash
# Transcript formats import (issue 33): 1,000 one-hour WebVTT files against the NDJSON of the
# same text. Generates meetings of QMSum talk (38-42 KiB of text each; the generator's 400 ms a
# word and pauses between turns make that about an hour), keeps the first MEETINGS (default
# 1000) that are ready (the others have no or a two-line transcript), writes each transcript as
# a Microsoft Teams WebVTT file (cue identifiers, voice spans) and all of them as the meeting
# lines `import --format vtt` makes of those files, then imports both ROUNDS (default 3) times,
# alternating, each into a fresh database with only the workspace in it: `import --format vtt`
# of all files in one process, and `import` of the NDJSON. Prints, per format, the median MB/s
# of the import's own summary line (the input's bytes over the import's seconds, conversion
# included; JVM start and the search index build left out) and of the whole command's wall
# time, the MB per CPU-second of the whole command (steadier on a shared machine), and the
# ratio VTT/NDJSON of each (target: VTT >= 0.5x NDJSON). Files stay in
# bench/out/vtt-import (ignored by git); FRESH=1 generates them again.
#   bench/vtt-import-bench.sh
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=bench/out/vtt-import MEETINGS=${MEETINGS:-1000} ROUNDS=${ROUNDS:-3}
mkdir -p "$OUT"
JAVA_HOME=$(./run.sh java-home)
export JAVA_HOME PATH="$JAVA_HOME/bin:$PATH"
mvn -B -q -DskipTests package >&2
rm -rf "$OUT/cp" && mkdir -p "$OUT/cp" && cp -r target/classes target/lib "$OUT/cp/"
read -ra BUILD_OPTS <<<"$(./run.sh java-opts build)"   # as run.sh runs import
RUN=("$JAVA_HOME/bin/java" "${BUILD_OPTS[@]}" -cp "$OUT/cp/classes:$OUT/cp/lib/*" minutes.cli.Main)
unset MINUTES_DB_URL

if [ "${FRESH:-0}" = 1 ] || [ ! -f "$OUT/same-text.ndjson" ]; then
  rm -rf "$OUT/vtt" "$OUT/same-text.ndjson"
  echo "generating $MEETINGS meetings..." >&2
  "${RUN[@]}" generate --meetings $((MEETINGS * 3 / 2)) --transcript-kb 38-42 --tasks-per-meeting 0 --workspaces 1 \
    --seed 33 --out "$OUT/generated.ndjson"
  python3 - "$OUT" "$MEETINGS" <<'PY'
import json, os, sys, uuid
out, wanted = sys.argv[1], int(sys.argv[2])
os.makedirs(f"{out}/vtt")
def ts(ms):
    return "%02d:%02d:%02d.%03d" % (ms // 3600000, ms // 60000 % 60, ms // 1000 % 60, ms % 1000)
def esc(s):
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
with open(f"{out}/generated.ndjson") as src, open(f"{out}/same-text.ndjson", "w") as ndjson:
    n = 0
    for line in src:
        m = json.loads(line)
        if m["kind"] == "workspace":
            with open(f"{out}/workspace.ndjson", "w") as w:
                w.write(line)
        if m["kind"] != "meeting" or m["status"] != "ready" or n == wanted:
            continue
        n += 1
        name = f"meeting-{n:04d}"
        cue_ids = uuid.uuid5(uuid.NAMESPACE_URL, name)
        segments, speakers = [], []
        with open(f"{out}/vtt/{name}.vtt", "w") as vtt:
            vtt.write("WEBVTT\n")
            for i, s in enumerate(m["transcript"]):
                text = " ".join(s["text"].split())
                vtt.write(f"\n{cue_ids}/{i}-0\n{ts(s['start_ms'])} --> {ts(s['end_ms'])}\n<v {esc(s['speaker_name'])}>{esc(text)}</v>\n")
                segments.append({"speaker_name": s["speaker_name"], "speaker_email": None, "start_ms": s["start_ms"],
                                 "end_ms": s["end_ms"], "text": text})
                if s["speaker_name"] not in speakers:
                    speakers.append(s["speaker_name"])
        # The meeting line the VTT import makes of that file (decisions.md "Transcripts in and out").
        ndjson.write(json.dumps({"kind": "meeting", "workspace": m["workspace"], "id": str(uuid.uuid5(uuid.NAMESPACE_URL, name + "/ndjson")),
            "title": name, "platform": "upload", "source": "upload", "status": "ready", "starts_at": None, "ends_at": None,
            "organizer_email": None, "created_at": m["created_at"], "visible_to": [],
            "participants": [{"display_name": p, "email": None, "source": "platform", "attended": True} for p in speakers],
            "protocols": [], "transcript": segments}, ensure_ascii=False) + "\n")
PY
  rm -f "$OUT/generated.ndjson"
  [ "$(ls "$OUT/vtt" | wc -l)" = "$MEETINGS" ] || { echo "fewer than $MEETINGS ready meetings generated" >&2; exit 1; }
fi
WORKSPACE=$(python3 -c 'import json,sys; print(json.loads(open(sys.argv[1]).readline())["slug"])' "$OUT/workspace.ndjson")
VTT_MB=$(du -cb "$OUT"/vtt/*.vtt | tail -1 | awk '{printf "%.1f", $1 / 1e6}')
NDJSON_MB=$(du -b "$OUT/same-text.ndjson" | awk '{printf "%.1f", $1 / 1e6}')
echo "$(ls "$OUT"/vtt | wc -l) VTT files, $VTT_MB MB; the NDJSON of the same text: $NDJSON_MB MB" >&2

# One import into a fresh database holding only the workspace; appends "summary-MB/s wall-ms cpu-s"
# to $OUT/$1.times.
import_once() {
  local format=$1 started ended line cpu
  rm -rf "$OUT/db-$format" && mkdir -p "$OUT/db-$format"
  export MINUTES_DB_PATH="$OUT/db-$format/minutes.db" MINUTES_INDEX_PATH="$OUT/db-$format/index"
  "${RUN[@]}" import "$OUT/workspace.ndjson" > /dev/null
  started=$(date +%s%N)
  if [ "$format" = vtt ]; then
    line=$(/usr/bin/time -f "%U %S" -o "$OUT/cpu" "${RUN[@]}" import --format vtt --workspace "$WORKSPACE" "$OUT"/vtt/*.vtt \
      2>/dev/null | grep '^imported')
  else
    line=$(/usr/bin/time -f "%U %S" -o "$OUT/cpu" "${RUN[@]}" import "$OUT/same-text.ndjson" 2>/dev/null | grep '^imported')
  fi
  ended=$(date +%s%N)
  cpu=$(awk '{printf "%.1f", $1 + $2}' "$OUT/cpu")
  echo "$format: $line; wall $(( (ended - started) / 1000000 )) ms, CPU $cpu s" >&2
  echo "$(sed -n 's/.* \([0-9.,]*\) MB\/s).*/\1/p' <<<"$line" | tr -d ,) $(( (ended - started) / 1000000 )) $cpu" \
    >> "$OUT/$format.times"
}

rm -f "$OUT/vtt.times" "$OUT/ndjson.times"
for _ in $(seq 1 "$ROUNDS"); do
  import_once vtt
  import_once ndjson
done
median() { sort -n | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
VTT_RATE=$(awk '{print $1}' "$OUT/vtt.times" | median)
NDJSON_RATE=$(awk '{print $1}' "$OUT/ndjson.times" | median)
VTT_WALL=$(awk -v mb="$VTT_MB" '{printf "%.2f\n", mb / ($2 / 1000)}' "$OUT/vtt.times" | median)
NDJSON_WALL=$(awk -v mb="$NDJSON_MB" '{printf "%.2f\n", mb / ($2 / 1000)}' "$OUT/ndjson.times" | median)
VTT_CPU=$(awk -v mb="$VTT_MB" '{printf "%.2f\n", mb / $3}' "$OUT/vtt.times" | median)
NDJSON_CPU=$(awk -v mb="$NDJSON_MB" '{printf "%.2f\n", mb / $3}' "$OUT/ndjson.times" | median)
awk -v v="$VTT_RATE" -v n="$NDJSON_RATE" -v vw="$VTT_WALL" -v nw="$NDJSON_WALL" -v vc="$VTT_CPU" -v nc="$NDJSON_CPU" \
    -v r="$ROUNDS" -v vmb="$VTT_MB" -v nmb="$NDJSON_MB" 'BEGIN {
  printf "import of %s MB of VTT vs %s MB of NDJSON (same text), median of %d alternating rounds:\n", vmb, nmb, r
  printf "  import (summary line): VTT %.1f MB/s, NDJSON %.1f MB/s, ratio %.2f\n", v, n, v / n
  printf "  whole command (wall, JVM start and index build included): VTT %.1f MB/s, NDJSON %.1f MB/s, ratio %.2f\n", vw, nw, vw / nw
  printf "  whole command per CPU-second (user+sys): VTT %.2f MB, NDJSON %.2f MB, ratio %.2f\n", vc, nc, vc / nc
}'
