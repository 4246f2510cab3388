import re,sys,statistics,collections
pat=re.compile(r'^\s*(.+?)-(\d+)\s+\[(\d+)\]\s+\S+\s+([\d.]+): (\w+): (.*)')
sec=re.compile(r' (\d+) \+ 8')
def q(v): return f'p10 {statistics.quantiles(v,n=10)[0]:.0f} p50 {statistics.median(v):.0f} p90 {statistics.quantiles(v,n=10)[8]:.0f}'
for f in sys.argv[1:]:
    waiting=set(); ondev=set(); atirq=[]; devirq=[]; reins=0; ins=0
    for l in open(f):
        m=pat.match(l)
        if not m: continue
        k=m.group(5)
        if k=='irq_handler_entry': atirq.append(len(waiting)); devirq.append(len(ondev)); continue
        s=sec.search(m.group(6))
        if not s: continue
        s=int(s.group(1))
        if k=='block_rq_insert':
            ins+=1
            if s in ondev: ondev.discard(s); reins+=1
            waiting.add(s)
        elif k=='block_rq_issue': waiting.discard(s); ondev.add(s)
        elif k=='block_rq_complete': ondev.discard(s)
    print(f, 'waiting in scheduler at irq', q(atirq[50:]), '| on device at irq', q(devirq[50:]), '| reinserted', reins, 'of', ins)
