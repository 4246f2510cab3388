#!/bin/bash
# trace.sh LABEL [jvm args]: run Vt 1000 readers; trace 1 s of irq 36, block_rq_issue, block_rq_complete
L=$1; shift
T=/sys/kernel/tracing
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
echo 0 > $T/tracing_on; echo > $T/trace; echo 65536 > $T/buffer_size_kb
echo 0 > $T/events/enable
echo 'irq == 36' > $T/events/irq/irq_handler_entry/filter
echo 1 > $T/events/irq/irq_handler_entry/enable
echo 1 > $T/events/block/block_rq_issue/enable
echo 1 > $T/events/block/block_rq_complete/enable
echo 1 > $T/events/block/block_rq_insert/enable
$J --enable-native-access=ALL-UNNAMED "$@" -cp /tmp/s28/core-base.jar:/tmp/vt Vt /tmp/s27/pat.bin 1000 4 > /tmp/s28/tr-$L.out &
pid=$!
if [ -n "$PIN" ]; then sleep 0.8; for t in /proc/$pid/task/*; do case "$(cat $t/comm)" in hpio-uring-com*) taskset -p -c $PIN ${t##*/} >/dev/null;; esac; done; sleep 1.2; else sleep 2; fi; echo 1 > $T/tracing_on; sleep 1; echo 0 > $T/tracing_on
wait $pid
cat $T/trace > /tmp/s28/tr-$L.txt
echo 0 > $T/events/enable; echo 0 > $T/events/irq/irq_handler_entry/filter
tail -3 /tmp/s28/tr-$L.out
wc -l /tmp/s28/tr-$L.txt
