#!/bin/bash
# cpu.sh JAR N [args]: CPU µs per read over seconds 2..5 of a 6 s run
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java; P=-Djava.nio.file.spi.DefaultFileSystemProvider=org.hpio.nio.HpioFileSystemProvider
$J --enable-native-access=ALL-UNNAMED $P $3 -cp /tmp/s30/$1:/tmp/s29/vt Vt /tmp/s29/pat.bin $2 6 > /tmp/s30/cpu.out 2>&1 &
sleep 2.2; PID=$(pgrep -f "Vt /tmp/s29" | head -1); a=$(awk '{print $14+$15}' /proc/$PID/stat); sleep 3; b=$(awk '{print $14+$15}' /proc/$PID/stat); wait
io=$(grep iops= /tmp/s30/cpu.out | sed -n 5,10p | awk -F= '{x+=$3/2} END{print x}')
echo "$1 $3 cpu_us_per_read=$(echo "($b-$a)*10000/$io" | bc -l | cut -c1-5) iops=$(echo "$io/3" | bc)"
