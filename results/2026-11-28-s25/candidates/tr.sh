#!/bin/bash
# tr.sh label delay cmd...: runs cmd in background; after delay s traces 1 s of block issue/complete
T=/sys/kernel/tracing; l=$1; d=$2; shift 2
echo 0 > $T/tracing_on; echo > $T/trace; echo 65536 > $T/buffer_size_kb
for e in block_rq_issue block_rq_complete block_rq_requeue block_rq_insert; do echo 1 > $T/events/block/$e/enable; done
"$@" > /tmp/s25/o-$l.txt 2>&1 &
pid=$!
sleep $d; echo 1 > $T/tracing_on; sleep 1.0; echo 0 > $T/tracing_on; wait $pid
for e in block_rq_issue block_rq_complete block_rq_requeue block_rq_insert; do echo 0 > $T/events/block/$e/enable; done
grep -v "^#" $T/trace > /tmp/s25/tr-$l.txt
