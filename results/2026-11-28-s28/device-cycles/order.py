import re,sys,statistics
pat=re.compile(r'^\s*(.+?)-(\d+)\s+\[(\d+)\]\s+\S+\s+([\d.]+): (\w+): \S+ \S+ (?:\d+ )?\(\) (\d+) \+')
irq=re.compile(r'irq_handler_entry')
cyc=[];cur=[]
for l in open(sys.argv[1]):
    if 'irq_handler_entry' in l:
        if cur: cyc.append(cur)
        cur=[]
    m=pat.match(l)
    if m and m.group(5)=='block_rq_issue': cur.append(int(m.group(6)))
asc=[];runs=[];wraps=[]
for c in cyc[1:]:
    if len(c)<80: continue
    a=sum(1 for x,y in zip(c,c[1:]) if y>x); asc.append(a/(len(c)-1))
    w=sum(1 for x,y in zip(c,c[1:]) if y<x); wraps.append(w)
print('ascending fraction p50', statistics.median(asc), 'descents per cycle p10/p50/p90', statistics.quantiles(wraps,n=10)[0], statistics.median(wraps), statistics.quantiles(wraps,n=10)[8])
c=cyc[300]; print([x//2048 for x in c][:90])
