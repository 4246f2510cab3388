#!/bin/bash
# vtm.sh LABEL JAR N [jvm args]: run Vt 4 s, print IOPS (mean of last 6 half-seconds) and per-read counters over the run
L=$1; JAR=$2; n=$3; shift 3
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
$J --enable-native-access=ALL-UNNAMED "$@" -cp $JAR:/tmp/vt Vt /tmp/s27/pat.bin $n 4 > /tmp/s28/out.$$ &
pid=$!
if [ -n "$PIN" ]; then sleep 0.8; for t in /proc/$pid/task/*; do c=$(cat $t/comm); case "$c" in $PINPAT) taskset -p -c $PIN ${t##*/} >/dev/null;; esac; done; sleep 0.4; else sleep 1.2; fi
a=$(/tmp/s28/snap.sh); t0=$(date +%s.%N); sleep 2.5; b=$(/tmp/s28/snap.sh); t1=$(date +%s.%N)
wait $pid
iops=$(tail -6 /tmp/s28/out.$$ | awk -F= '{x+=$3;k++} END{printf "%.0f", x/k}')
python3 - "$L" "$iops" "$a" "$b" "$t0" "$t1" <<'PY'
import sys
L,iops,a,b,t0,t1=sys.argv[1:]
a=list(map(int,a.split())); b=list(map(int,b.split())); dt=float(t1)-float(t0)
d=[y-x for x,y in zip(a,b)]
reads=int(iops)*dt
names="virtio RES CAL TLB LOC ctxt".split()
s=" ".join(f"{n}={d[i]/reads:.3f}" for i,n in enumerate(names))
tot=sum(d[6:10])
print(f"{L} {iops} {s} user={d[6]/tot:.2f} sys={d[7]/tot:.2f} idle={d[8]/tot:.2f} steal={d[9]/tot:.3f}")
PY
rm -f /tmp/s28/out.$$
