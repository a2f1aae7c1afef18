#!/usr/bin/env bash
# Issue 46: the Polish reading (Lucene's Stempel) against the default one, measured over PoliMorf,
# Morfologik's dictionary of Polish forms and lemmas, fetched from Maven Central for this
# measurement only (minutes does not ship it): see bench/PolishStemming.java.
#   bench/polish-stemming.sh
set -euo pipefail
cd "$(dirname "$0")/.."
JAVA_HOME=$(./run.sh java-home)
export JAVA_HOME PATH="$JAVA_HOME/bin:$PATH"
mvn -B -q -DskipTests package >&2
CP="target/classes:target/lib/*"
for a in morfologik-polish morfologik-stemming morfologik-fsa; do
  mvn -B -q dependency:get -Dartifact="org.carrot2:$a:2.1.9" -Dtransitive=false >&2
  CP="$CP:$HOME/.m2/repository/org/carrot2/$a/2.1.9/$a-2.1.9.jar"
done
echo "date: $(date -u +%Y-%m-%dT%H:%MZ), commit $(git rev-parse --short HEAD)"
java -Xmx8g -cp "$CP" bench/PolishStemming.java
