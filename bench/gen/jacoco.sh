#!/usr/bin/env bash
# Generates a genuine JaCoCo XML of at least 200 MB into bench/out/jacoco/report.xml:
# the JaCoCo agent records a driver exercising Guava, the classes and their probe data are
# replicated under renamed packages (ASM), and JaCoCo's own report API writes the XML.
# Needs Debian's libjacoco-java, libguava-java, libasm-java and a JDK. COPIES=N to change the size.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="$here/../out/jacoco"
copies="${COPIES:-40}"
java_dir=/usr/share/java
asm="$java_dir/asm.jar:$java_dir/asm-commons.jar:$java_dir/asm-tree.jar:$java_dir/asm-analysis.jar"
jacoco="$java_dir/org.jacoco.core.jar:$java_dir/org.jacoco.report.jar:$asm"
guava="$java_dir/guava.jar"
mkdir -p "$out/bin"
# Debian's org.jacoco.agent.rt.jar has no Premain-Class; the runnable agent is the jacocoagent.jar inside org.jacoco.agent.jar.
unzip -p "$java_dir/org.jacoco.agent.jar" jacocoagent.jar >"$out/jacocoagent.jar"
javac --release 11 -d "$out/bin" -cp "$guava:$jacoco" "$here"/jacoco/*.java
java -javaagent:"$out/jacocoagent.jar=destfile=$out/guava.exec,includes=com.google.*,append=false" \
  -cp "$guava:$out/bin" Driver
rm -rf "$out/copies"
java -cp "$out/bin:$jacoco" Replicate "$guava" "$out/guava.exec" "$copies" "$out/copies"
java -cp "$out/bin:$jacoco" Report "$out/copies/all.exec" "$out/copies/classes" "$out/report.xml"
ls -l "$out/report.xml"
