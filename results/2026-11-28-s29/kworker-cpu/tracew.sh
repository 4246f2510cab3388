#!/bin/bash
# tracew.sh LABEL N [jvm args]: run Vt (../../2026-11-28-s28/device-cycles/Vt.java, compiled to /tmp/s29/vt) with N
# readers on /tmp/s29/pat.bin (256 MiB); trace 1 s of the disk interrupt, block_rq_insert/issue/complete, the
# workqueue queue/execute events and softirqs. @P in the arguments stands for hpio's provider property.
L=$1; n=$2; shift 2
T=/sys/kernel/tracing
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
CP=/work/main/hpio-core/target/hpio-core-0.1.0-SNAPSHOT.jar:/tmp/s29/vt
P=-Djava.nio.file.spi.DefaultFileSystemProvider=org.hpio.nio.HpioFileSystemProvider
A="$*"; A=${A//@P/$P}
IRQ=$(grep -m1 virtio.*req /proc/interrupts | awk -F: '{print $1}' | tr -d ' ')
echo 0 > $T/tracing_on; echo > $T/trace; echo 65536 > $T/buffer_size_kb
echo 0 > $T/events/enable
echo "irq == $IRQ" > $T/events/irq/irq_handler_entry/filter
echo 1 > $T/events/irq/irq_handler_entry/enable
for e in block_rq_issue block_rq_complete block_rq_insert; do echo 1 > $T/events/block/$e/enable; done; echo 1 > $T/events/workqueue/workqueue_queue_work/enable; echo 1 > $T/events/workqueue/workqueue_execute_start/enable; echo 1 > $T/events/irq/softirq_entry/enable
$J --enable-native-access=ALL-UNNAMED $A -cp $CP Vt /tmp/s29/pat.bin $n 4 > /tmp/s29/tr-$L.out &
pid=$!
sleep 2; echo 1 > $T/tracing_on; sleep 1; echo 0 > $T/tracing_on
wait $pid
cat $T/trace > /tmp/s29/tr-$L.txt
echo 0 > $T/events/enable; echo 0 > $T/events/irq/irq_handler_entry/filter
echo "$L irq=$IRQ $(tail -6 /tmp/s29/tr-$L.out | awk -F= '{x+=$3;k++} END{printf "%.0f", x/k}') lines $(wc -l < /tmp/s29/tr-$L.txt)"
