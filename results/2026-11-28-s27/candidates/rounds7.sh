#!/bin/bash
# rounds7.sh N THREADS: the JDK's; hpio's final tree (H); with virtual delivery of the completion thread's batches (R); of every reap's (A)
N=$1; n=$2; P=-Djava.nio.file.spi.DefaultFileSystemProvider=org.hpio.nio.HpioFileSystemProvider
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
vt() { jar=$1; shift; $J --enable-native-access=ALL-UNNAMED "$@" -cp $jar:/tmp/vt Vt /tmp/s27/pat.bin $n 4 | tail -6 | awk -F= '{x+=$3; k++} END {printf "%.0f\n", x/k}'; }
for i in $(seq $N); do
  echo "JDK $(vt /tmp/s27/core-final.jar)"
  echo "H $(vt /tmp/s27/core-final.jar $P)"
  echo "R $(vt /tmp/s27/core-vd-reaper.jar $P)"
  echo "A $(vt /tmp/s27/core-vd-any.jar $P)"
done
