#!/bin/bash
# ab.sh ROUNDS N SECS "label|jar|jvmargs" ...: alternate configs; IOPS = mean of the last half-second samples (all but first 2)
R=$1; n=$2; S=$3; shift 3
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
P=-Djava.nio.file.spi.DefaultFileSystemProvider=org.hpio.nio.HpioFileSystemProvider
for r in $(seq $R); do for c in "$@"; do IFS='|' read -r L JAR A <<<"$c"; A=${A//@P/$P}
 out=$($J --enable-native-access=ALL-UNNAMED $A -cp /tmp/s30/$JAR:${VTDIR:-/tmp/s29/vt} Vt /tmp/s29/pat.bin $n $S 2>&1)
 echo "$r $L $(echo "$out" | grep -c hpio) $(echo "$out" | grep iops= | tail -n +3 | awk -F= '{x+=$3;k++} END{printf "%.0f", x/k}')"
done; done
