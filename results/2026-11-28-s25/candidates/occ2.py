import sys, re, collections
for path in sys.argv[1:]:
    ev=[]
    for line in open(path):
        m=re.match(r'\s*(.+?)-(\d+)\s+\[(\d+)\]\s+\S+\s+([\d.]+): block_rq_(\w+): 254,0 \S+ (?:\d+ )?\(\) (\d+) \+', line)
        if not m: continue
        comm,pid,cpu,ts,kind,sector=m.groups()
        ev.append((float(ts),kind,int(sector),comm.split('-')[0]))
    ev.sort()
    sched=set(); drv=set(); t0=ev[0][0]; last=t0; hs=collections.Counter(); kinds=collections.Counter(); inserters=collections.Counter()
    for ts,k,sec,c in ev:
        hs[len(sched)]+=ts-last; last=ts; kinds[k]+=1
        if k=='insert': sched.add(sec); inserters[c]+=1
        elif k=='issue': sched.discard(sec)
        elif k=='requeue': pass
    tot=last-t0
    mean=sum(n*t for n,t in hs.items())/tot
    print(f"{path}: events {dict(kinds)} waiting-in-scheduler mean {mean:.1f} max {max(hs)}; inserters {inserters.most_common(3)}")
