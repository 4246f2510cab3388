#!/bin/bash
# parks.sh JAR N [jvmargs]: JFR park summary of the hpio completion threads
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin; P=-Djava.nio.file.spi.DefaultFileSystemProvider=org.hpio.nio.HpioFileSystemProvider
$J/java --enable-native-access=ALL-UNNAMED $P $3 -XX:StartFlightRecording=filename=/tmp/s30/pk.jfr,jdk.ThreadPark#threshold=0ms,jdk.ThreadPark#stackTrace=true -cp /tmp/s30/$1:/tmp/s29/vt Vt /tmp/s29/pat.bin $2 4 2>&1 | grep iops | tail -3 | tr '\n' ' '; echo
$J/jfr print --events jdk.ThreadPark --stack-depth 8 /tmp/s30/pk.jfr > /tmp/s30/pk.txt
python3 - <<'PY'
import re,collections
t=open('/tmp/s30/pk.txt').read().split('jdk.ThreadPark {')
c=collections.defaultdict(list)
for e in t[1:]:
    d=re.search(r'duration = ([\d.]+) (\w+)',e); th=re.search(r'eventThread = "([^"]*)"',e)
    v=float(d.group(1))*{'ns':1e-3,'us':1,'ms':1e3,'s':1e6}[d.group(2)]
    fr=re.findall(r'\n\s+(org\.hpio\S+)\(',e)
    key=(th.group(1) if th else '?')[:22]+' @ '+(fr[0] if fr else '-')
    if 'parkedClass = java.util.concurrent.locks.ReentrantLock' in e: key+=' [RL]'
    c[key].append(v)
for k,v in sorted(c.items(),key=lambda x:-sum(x[1]))[:10]:
    v.sort(); print(f"{len(v):7d} sum={sum(v)/1e3:8.1f}ms p50={v[len(v)//2]:8.1f}us max={v[-1]:9.1f}us  {k}")
PY
