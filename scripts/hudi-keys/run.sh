#!/usr/bin/env bash
# Regenerates assets/hudi_config_keys.json from the real Hudi Spark bundles, one per release
# line, so the findings engine reads each release's own key names and defaults.
#
#   scripts/hudi-keys/run.sh            # from anywhere in the module
#   SPARK_JARS=/path/to/pyspark/jars scripts/hudi-keys/run.sh
#
# Needs Java 17+ and mvn (bundles and, without SPARK_JARS, Spark 3.5 come from Maven Central).
set -euo pipefail
cd "$(dirname "$0")/../.."

# line=version=bundle artifact. 0.14.1 and 0.13.x bundles are not served where this was first
# run, so the 0.14 line is read from 0.14.0 (same table version, same config classes).
RELEASES=(
	"0.12=0.12.2=hudi-spark3.3-bundle_2.12"
	"0.14=0.14.0=hudi-spark3.4-bundle_2.12"
	"0.15=0.15.0=hudi-spark3.5-bundle_2.12"
	"1.0=1.0.2=hudi-spark3.5-bundle_2.12"
	"1.1=1.1.1=hudi-spark3.5-bundle_2.12"
	"1.2=1.2.0=hudi-spark3.5-bundle_2.12"
)
SPARK_VERSION=${SPARK_VERSION:-3.5.8}
HIVE_VERSION=${HIVE_VERSION:-2.3.9} # what Spark 3.5 ships; hive sync configs need it to load
M2=${M2_REPO:-$HOME/.m2/repository}
OUT=${OUT:-assets/hudi_config_keys.json}

args=()
for r in "${RELEASES[@]}"; do
	IFS== read -r line version bundle <<<"$r"
	jar="$M2/org/apache/hudi/$bundle/$version/$bundle-$version.jar"
	if [[ ! -f $jar ]]; then
		mvn -q dependency:get -Dartifact="org.apache.hudi:$bundle:$version" -Dtransitive=false
	fi
	args+=("$line=$version=$bundle=$jar")
done

# Config classes mention Spark, Hadoop and Scala types; they only need to load, not run.
if [[ -z ${SPARK_JARS:-} ]]; then
	SPARK_JARS=${TMPDIR:-/tmp}/hudi-keys-spark-$SPARK_VERSION
	if [[ ! -d $SPARK_JARS ]]; then
		pom=$(mktemp -d)
		trap 'rm -rf "$pom"' EXIT
		cat >"$pom/pom.xml" <<EOF
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>local</groupId><artifactId>hudi-keys-spark</artifactId><version>0</version>
  <dependencies>
    <dependency><groupId>org.apache.spark</groupId><artifactId>spark-sql_2.12</artifactId><version>$SPARK_VERSION</version></dependency>
$(for h in hive-common hive-metastore hive-serde hive-exec:core; do
	echo "    <dependency><groupId>org.apache.hive</groupId><artifactId>${h%%:*}</artifactId><version>$HIVE_VERSION</version>$([[ $h == *:* ]] && echo "<classifier>${h#*:}</classifier>")<exclusions><exclusion><groupId>*</groupId><artifactId>*</artifactId></exclusion></exclusions></dependency>"
done)
    <dependency><groupId>org.apache.thrift</groupId><artifactId>libthrift</artifactId><version>0.12.0</version><exclusions><exclusion><groupId>*</groupId><artifactId>*</artifactId></exclusion></exclusions></dependency>
    <dependency><groupId>org.apache.thrift</groupId><artifactId>libfb303</artifactId><version>0.9.3</version><exclusions><exclusion><groupId>*</groupId><artifactId>*</artifactId></exclusion></exclusions></dependency>
  </dependencies>
</project>
EOF
		mvn -q -f "$pom/pom.xml" dependency:copy-dependencies -DoutputDirectory="$SPARK_JARS.tmp"
		mv "$SPARK_JARS.tmp" "$SPARK_JARS"
	fi
fi

java -Xmx2g -cp "$SPARK_JARS/*" scripts/hudi-keys/HudiKeys.java "$OUT" "${args[@]}"
echo "wrote $OUT ($(wc -c <"$OUT") bytes)"
