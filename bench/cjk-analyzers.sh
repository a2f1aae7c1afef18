#!/usr/bin/env bash
# Issue 46: minutes' character pairs for Chinese, Japanese and Korean against Lucene's
# morphological analysers and the ICU tokenizer, on the test fixture's sentences (what each
# finds of what a user types, and how fast it reads): see bench/CjkAnalyzers.java. The
# analysers come from Maven Central; kuromoji, nori and smartcn at 10.5.0, the newest this
# project's registry serves (10.6.0, the project's Lucene, is not there), ICU at 10.6.0.
#   bench/cjk-analyzers.sh
set -euo pipefail
cd "$(dirname "$0")/.."
JAVA_HOME=$(./run.sh java-home)
export JAVA_HOME PATH="$JAVA_HOME/bin:$PATH"
mvn -B -q -DskipTests package >&2
CP="target/classes:target/lib/*"
for a in kuromoji:10.5.0 nori:10.5.0 smartcn:10.5.0 icu:10.6.0; do
  mvn -B -q dependency:get -Dartifact="org.apache.lucene:lucene-analysis-$a" >&2
  CP="$CP:$HOME/.m2/repository/org/apache/lucene/lucene-analysis-${a%%:*}/${a#*:}/lucene-analysis-${a%%:*}-${a#*:}.jar"
done
ICU4J=$(mvn -B -q dependency:get -Dartifact=org.apache.lucene:lucene-analysis-icu:10.6.0 >&2;
  find "$HOME/.m2/repository/com/ibm/icu/icu4j" -name 'icu4j-*.jar' | sort -V | tail -1)
echo "date: $(date -u +%Y-%m-%dT%H:%MZ), commit $(git rev-parse --short HEAD), load average $(cut -d' ' -f1-3 /proc/loadavg)"
java -cp "$CP:$ICU4J" bench/CjkAnalyzers.java src/test/resources/languages
