import sys, re, collections
for path in sys.argv[1:]:
    ev=[]
    for line in open(path):
        m=re.match(r'\s*(.+?)-(\d+)\s+\[(\d+)\]\s+\S+\s+([\d.]+): block_rq_(\w+): 254,0 \S+ (?:\d+ )?\(\) (\d+) \+', line)
        if not m: continue
        comm,pid,cpu,ts,kind,sector=m.groups()
        ev.append((float(ts),kind,int(sector)))
    ev.sort()
    out=set(); t0=ev[0][0]; last=t0; hist=collections.Counter(); comp=0; req=0
    for ts,k,sec in ev:
        hist[len(out)]+=ts-last; last=ts
        if k=='issue': out.add(sec)
        elif k=='requeue': out.discard(sec); req+=1
        elif k=='complete':
            if sec in out: out.discard(sec); comp+=1
    tot=last-t0
    mean=sum(n*t for n,t in hist.items())/tot
    lt=lambda x: 100*sum(t for n,t in hist.items() if n<x)/tot
    print(f"{path}: completes/s {comp/tot:.0f} requeues {req} at-driver mean {mean:.1f} zero {lt(1):.1f}% <42 {lt(42):.1f}% <80 {lt(80):.1f}% <85 {lt(85):.1f}% max {max(hist)}")
