#!/bin/bash
# ctrace.sh LABEL cmd...: trace 1 s in the middle of a 4 s C run
L=$1; shift
T=/sys/kernel/tracing
echo 0 > $T/tracing_on; echo > $T/trace
echo 0 > $T/events/enable
echo 'irq == 36' > $T/events/irq/irq_handler_entry/filter
echo 1 > $T/events/irq/irq_handler_entry/enable
echo 1 > $T/events/block/block_rq_issue/enable
echo 1 > $T/events/block/block_rq_complete/enable
echo 1 > $T/events/block/block_rq_insert/enable
"$@" > /tmp/s28/tr-$L.out &
pid=$!
sleep 1.5; echo 1 > $T/tracing_on; sleep 1; echo 0 > $T/tracing_on
wait $pid
cat $T/trace > /tmp/s28/tr-$L.txt
echo 0 > $T/events/enable; echo 0 > $T/events/irq/irq_handler_entry/filter
