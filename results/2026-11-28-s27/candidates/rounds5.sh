#!/bin/bash
N=$1; n=$2; P=-Djava.nio.file.spi.DefaultFileSystemProvider=org.hpio.nio.HpioFileSystemProvider
C=/work/main/hpio-core/target/hpio-core-0.1.0-SNAPSHOT.jar
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
vt() { $J --enable-native-access=ALL-UNNAMED "$@" -cp $C:/tmp/vt Vt /tmp/s27/pat.bin $n 4 | tail -6 | awk -F= '{x+=$3; k++} END {printf "%.0f\n", x/k}'; }
for i in $(seq $N); do
  echo "JDK $(vt)"
  echo "H $(vt $P)"
  echo "Hvd $(vt $P -Dhpio.uring.virtualDelivery=true)"
done
